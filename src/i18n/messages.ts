/**
 * The message catalog: every user-visible string of the workbench (lab and lesson pages, the
 * stage, the timeline) by key, in ICU message syntax (see format.ts). English is inline; Simplified
 * Chinese is messages.zh-CN.ts, loaded on demand through `createCatalog` (catalog.ts).
 */
import { createCatalog } from './catalog.ts';
import type { MessageValues } from './format.ts';

const en = {
  'stage.label': 'Stage',
  'stage.choose': 'What the stage shows',
  'stage.empty': 'The picture appears once the simulation is done.',
  'stage.focus': 'Full screen',
  'stage.unfocus': 'Leave full screen',
  'stage.panel.warp-grid': 'Warps',
  'stage.panel.shared-memory': 'Workgroup memory',
  'stage.panel.dataflow': 'Tree',
  'tree.zoom': 'Zoom the tree',
  'tree.zoomIn': 'Zoom in',
  'tree.zoomOut': 'Zoom out',
  'tree.fit': 'All {n} words',
  'tree.range': 'Words {lo}–{hi} of {n} in view: drag or scroll the wheel over the tree to move and zoom.',
  'home.title': 'See a GPU kernel run, warp by warp',
  'home.what': 'Warpscope runs real compute kernels on your GPU and replays them, warp by warp, in a simulator that agrees with the GPU bit for bit. Step through reductions, scans, histograms and more; watch the lanes, the memory banks and the trees of values they build.',
  'home.start': 'Start the first lesson: {title} ▶',
  'home.orIndex': 'Or pick any lesson from the',
  'home.lessonIndex': 'lesson index',
  'home.labs': 'Labs',
  'home.variants': '{n, plural, one {# variant} other {# variants}}',
  'home.device': 'Your GPU and browser (details)',
  'drawer.label': 'More panels',
  'drawer.metrics': 'Metrics',
  'drawer.timings': 'Timings',
  'drawer.compare': 'Compare',
  'drawer.close': 'Close',
  'side.narration': 'What happens now',
  'side.variant': 'This variant',
  'lab.variant': 'Variant',
  'lab.compareWith': 'Compare with',
  'lab.compareNothing': '— nothing —',
  'lab.subgroups': 'Uses subgroup operations; the simulator runs them with 32-lane warps (subgroup = warp).',
  'lab.adjusted': 'Adjusted to what this lab can show',
  'lab.noWorkgroup': 'There are {count} workgroups at these settings, so workgroup {asked} does not exist; showing workgroup {shown}.',
  'lab.cannotRun': 'These parameters cannot run: {message}',
  'lab.problems': 'The simulator found {n, plural, one {# problem} other {# problems}}',
  'lab.moreProblems': '…and {n} more.',
  'lab.simulating': 'Simulating warp by warp… {percent} %',
  'lab.cancel': 'Cancel',
  'lab.cancelled': 'Simulation cancelled. Change a parameter to run it again.',
  'lab.failed': 'The simulation failed: {message}',
  'step.none': 'No steps yet.',
  'step.describe': 'Warp {warp}, line {line}: {kind}{memory}, {active} of {size} lanes active{extra}.',
  'step.on': ' on {memory}',
  'step.splits': ' · the warp splits here',
  'step.conflict': ' · {n}-way bank conflict',
  'compare.title': 'Side by side: {a} ↔ {b}',
  'compare.aligned': 'Aligned by barrier phase: both stages show the workgroup after the same number of completed barriers (phase {phase}).',
  'timeline.label': 'Timeline',
  'timeline.play': '▶ Play',
  'timeline.pause': '❚❚ Pause',
  'timeline.first': 'First step',
  'timeline.last': 'Last step',
  'timeline.instrBack': '◀ Instr',
  'timeline.instrForward': 'Instr ▶',
  'timeline.stmtBack': '◀ Stmt',
  'timeline.stmtForward': 'Stmt ▶',
  'timeline.barrierBack': '◀ Barrier',
  'timeline.barrierForward': 'Barrier ▶',
  'timeline.levelBack': '◀ Level',
  'timeline.levelForward': 'Level ▶',
  'timeline.nextDivergence': 'Divergence',
  'timeline.nextConflict': 'Conflict',
  'timeline.slower': 'Slower',
  'timeline.faster': 'Faster',
  'timeline.speed': '{speed} steps/s',
  'timeline.counter': 'Step {step} / {count}',
  'timeline.valuetext': 'Step {step} of {count}: {describe}',
  'timeline.marks': 'Marks on the scrubber',
  'timeline.mark.barrier': 'barrier',
  'timeline.mark.divergence': 'divergence',
  'timeline.mark.conflict': 'bank conflict',
  'timeline.group.instr': 'Step by warp instruction',
  'timeline.group.stmt': 'Step by statement',
  'timeline.group.barrier': 'Step from barrier to barrier',
  'timeline.group.level': 'Step from tree level to tree level',
  'timeline.group.jump': 'Jump',
  'timeline.group.speed': 'Speed',
  'lesson.step': 'Step {n} of {count}',
  'lesson.lessons': 'Lessons',
  'lesson.clamped': 'This lesson has {count} steps; showing step {n}.',
  'lesson.lookAt': ' Look at {what}.',
  'lesson.prev': '◀ Previous',
  'lesson.next': 'Next ▶',
  'lesson.keys': 'PageDown, → or Space for the next step; PageUp or ← to go back.',
  'lesson.nextLesson': 'Next lesson: {title} ▶',
  'lesson.finished': 'You reached the end of this lesson.',
  'lesson.lastLesson': 'That was the last lesson. Try the labs with your own sizes.',
  'lesson.check': 'Check:',
  'lesson.checkButton': 'Check',
  'lesson.simulating': 'Simulating…',
  'lesson.typeNumber': 'Type a number, then check.',
  'lesson.right': 'Right: {answer}.',
  'presenter.notes': 'Presenter notes · {title}',
  'presenter.pointAt': 'Point at: {what}.',
  'presenter.ask': 'Ask the room: {prompt}',
  'presenter.answer': 'Answer: {answer}',
  'presenter.answerPending': 'The answer appears once the simulation is done.',
  'presenter.audience': 'What the room sees',
  'presenter.upNext': 'Up next',
  'presenter.last': 'This is the last step.',
} as const;

export type MessageKey = keyof typeof en;

/** The workbench's catalog (see catalog.ts); other locales are added as modules loaded on demand. */
const workbench = createCatalog('workbench', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });

/** The message `key` in the current locale, with its placeholders filled. */
export function t(key: MessageKey, values?: MessageValues): string {
  return workbench(key, values);
}

/** Whether the catalog has a message for `key` (for keys built at run time, e.g. panel ids). */
export function hasMessage(key: string): key is MessageKey {
  return workbench.has(key);
}
