/**
 * Every sentence the lab editor shows, in one place, read through the editor's message catalog
 * (English here, Simplified Chinese in strings.zh-CN.ts, loaded on demand). The objects keep the
 * shape the editor reads (`T.run`, `T.notRun(line, column, message)`); each property asks the
 * catalog when it is read, so a language switch shows at the next render.
 */
import { createCatalog, textGetters, withTexts } from '../../i18n/catalog.ts';
import { formatInteger } from '../../i18n/numbers.ts';

const en = {
  paneLabel: 'Kernel source',
  tabsLabel: 'Source language',
  wgslTab: 'WGSL',
  cudaTab: 'CUDA',
  cudaEditorLabel: 'CUDA editor for {file}. Ctrl+Enter (⌘+Enter) translates and runs it; Escape leaves the editor.',
  showWgsl: 'Show generated WGSL',
  generatedLabel: 'WGSL generated from {file} (read-only). Moving the cursor here highlights the CUDA line it came from.',
  generatedTitle: 'Generated WGSL',
  noGenerated: 'Nothing translated yet: fix the errors marked in the CUDA.',
  showGeneratedLine: 'Show generated WGSL line {line}',
  gpuOnGenerated: 'The GPU’s compiler, on the WGSL generated from this line (generated line {line}): {message}',
  cudaPosition: 'CUDA line {line}',
  cudaNoLine: 'This step is code the translator added (no CUDA line).',
  cudaMode: 'The step-through replays the CUDA kernel: lines, breakpoints and marks are CUDA lines.',
  cudaLaunch: 'Not run: the lab could not launch your kernel: {message}. Keep the kernel’s parameters as in the original CUDA.',
  diffTab: 'Diff',
  toolbar: 'Edit',
  tools: 'Edit and debug',
  cudaNote: 'Written by us to mirror the WGSL; read-only, and the timeline follows the WGSL.',
  editorLabel: 'WGSL editor for {file}. Ctrl+Enter (⌘+Enter) runs it; Tab moves on until you type; Escape, then Tab, leaves the editor.',
  run: 'Run edit',
  runKeys: 'Ctrl+Enter',
  running: 'Running the edit on the simulator and the GPU…',
  queued: 'Your run is next: it starts as soon as the check under way ends (a later Ctrl+Enter replaces it with the text you have then).',
  cancel: 'Cancel',
  reset: 'Reset to original',
  resetDone: 'Back to the original kernel.',
  share: 'Copy share link',
  shared: 'Link copied ({length} characters in the fragment). It opens this draft for whoever follows it.',
  sharedNoClipboard: 'Copy this link:',
  edited: 'Edited draft — kept in this browser',
  original: 'The kernel as written',
  notRun:
    'Not run: line {line}, column {column}: {message}. The views keep the last trace that ran; fix the error (marked in the editor) and press Ctrl+Enter again.',
  position: 'Line {line}',
  positionColumn: 'Line {line}, column {column}',
  resultTitle: 'Checked against the CPU reference',
  gpu: 'GPU',
  sim: 'Simulator',
  matches: 'matches the reference',
  differs: 'differs: {message}',
  mismatchCaption: 'First differing elements (expected: the reference output)',
  index: 'Index',
  expected: 'Expected',
  stepLink: 'Last written',
  noStep: 'not in the traced workgroup',
  goToStep: 'step {step}',
  noDiff: 'The draft is the same as the original.',
  diffTooLong: 'Too long to compare line by line.',
  diffLabel: 'Changes from the original kernel',
  diagnosticsFound: '{n, plural, one {# finding} other {# findings}} marked in the editor',
  'x.listTitle': 'Fix the kernel: exercises',
  'x.progress': '{done} of {total} solved in this browser.',
  'x.done': '✓ Solved',
  'x.notDone': 'Not solved yet',
  'x.barTitle': 'Exercise: {title}',
  'x.goal': 'Goal:',
  'x.hint': 'Show a hint',
  'x.check': 'Check my fix',
  'x.checking': 'Checking on the simulator with several inputs…',
  'x.solved':
    'Solved: no race, no barrier divergence, no out-of-bounds access, and the output matches the CPU reference on every input. Marked as done.',
  'x.leave': 'Leave the exercise',
  'd.title': 'Debug (like cuda-gdb)',
  'd.intro':
    'Click the gutter left of a line number (or press F9 on a line) to set a breakpoint; give it a condition such as lid == 0u. Continue runs the replay to the next stop.',
  'd.breakpoints': 'Breakpoints',
  'd.none': 'No breakpoints.',
  'd.line': 'Line {line}',
  'd.cudaLine': 'CUDA line {line}',
  'd.condition': 'Condition',
  'd.conditionPlaceholder': 'e.g. lid == 0u (empty: always)',
  'd.conditionPlaceholderCuda': 'e.g. threadIdx.x == 0 (empty: always)',
  'd.remove': 'Remove',
  'd.cont': 'Continue',
  'd.reverse': 'Reverse-continue',
  'd.step': 'Step',
  'd.console': 'Console',
  'd.consoleLabel': 'cuda-gdb command',
  'd.consolePlaceholder': 'cuda block 0 thread 5 · info cuda warps · print sdata[3] · break 42 · continue · step · help',
  'd.send': 'Run command',
  'd.watch': 'Warp watch',
  'd.watchLabel': 'Expression shown in every lane of the focused warp',
  'd.watchCaption': '{expr} in every lane of warp {warp} after step {step}',
  'd.lane': 'Lane',
  'd.value': 'Value',
  'd.inactive': '(inactive)',
  'd.error': 'Error: {message}.',
  'd.breakpoint': 'Breakpoint',
  'd.conditionalBreakpoint': 'Conditional breakpoint',
  'd.noTrace': 'The debugger needs a trace: wait for the simulation.',
} as const;

export type EditorKey = keyof typeof en;

const m = createCatalog('editor', en, { 'zh-CN': () => import('./strings.zh-CN.ts') });

/** The lab editor's sentences. */
export const EDITOR_TEXT = withTexts(
  {
    cudaEditorLabel: (file: string) => m('cudaEditorLabel', { file }),
    generatedLabel: (file: string) => m('generatedLabel', { file }),
    showGeneratedLine: (line: number) => m('showGeneratedLine', { line }),
    gpuOnGenerated: (line: number, message: string) => m('gpuOnGenerated', { line, message }),
    cudaPosition: (line: number) => m('cudaPosition', { line }),
    cudaLaunch: (message: string) => m('cudaLaunch', { message }),
    editorLabel: (file: string) => m('editorLabel', { file }),
    shared: (length: number) => m('shared', { length: formatInteger(length) }),
    notRun: (line: number, column: number, message: string) => m('notRun', { line, column, message }),
    position: (line: number, column: number | undefined) => (column !== undefined ? m('positionColumn', { line, column }) : m('position', { line })),
    differs: (message: string) => m('differs', { message }),
    goToStep: (step: number) => m('goToStep', { step: step + 1 }),
    diagnosticsFound: (n: number) => m('diagnosticsFound', { n }),
  },
  textGetters(m, '', [
    'paneLabel', 'tabsLabel', 'wgslTab', 'cudaTab', 'showWgsl', 'generatedTitle', 'noGenerated', 'cudaNoLine',
    'cudaMode', 'diffTab', 'toolbar', 'tools', 'cudaNote', 'run', 'runKeys', 'running', 'queued', 'cancel', 'reset', 'resetDone',
    'share', 'sharedNoClipboard', 'edited', 'original', 'resultTitle', 'gpu', 'sim', 'matches',
    'mismatchCaption', 'index', 'expected', 'stepLink', 'noStep', 'noDiff', 'diffTooLong', 'diffLabel',
  ]),
);

/** The exercises' sentences. */
export const EXERCISE_TEXT = withTexts(
  {
    progress: (done: number, total: number) => m('x.progress', { done, total }),
    barTitle: (title: string) => m('x.barTitle', { title }),
  },
  textGetters(m, 'x.', [
    'listTitle', 'done', 'notDone', 'goal', 'hint', 'check', 'checking', 'solved', 'leave',
  ]),
);

/** The debugger's sentences. */
export const DEBUG_TEXT = withTexts(
  {
    line: (line: number) => m('d.line', { line }),
    cudaLine: (line: number) => m('d.cudaLine', { line }),
    watchCaption: (expr: string, warp: number, step: number) => m('d.watchCaption', { expr, warp, step: step + 1 }),
    error: (message: string) => m('d.error', { message }),
  },
  textGetters(m, 'd.', [
    'title', 'intro', 'breakpoints', 'none', 'condition', 'conditionPlaceholder', 'conditionPlaceholderCuda',
    'remove', 'cont', 'reverse', 'step', 'console', 'consoleLabel', 'consolePlaceholder', 'send', 'watch',
    'watchLabel', 'lane', 'value', 'inactive', 'breakpoint', 'conditionalBreakpoint', 'noTrace',
  ]),
);
