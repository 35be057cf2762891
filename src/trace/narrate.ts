/**
 * What a step does, said in the lab's words and derived from the trace alone (no step is described
 * by hand): which lanes act, which word of which memory each one touches relative to its own
 * ("the word 16 to the right of its own"), which lanes sit idle, and what a barrier, a split or a
 * bank conflict means there. The lab's narration ("What happens now") reads it.
 */
import { traceStep, type Trace } from '../sim/index.ts';
import { t } from '../i18n/messages.ts';
import type { TraceIndex } from './index.ts';

/** Lanes as a reader counts them: `0–15`, `0, 2, 4, …, 30`, or a short list. */
export function laneList(lanes: readonly number[]): string {
  if (lanes.length === 0) return '';
  if (lanes.length === 1) return String(lanes[0]);
  const step = lanes[1]! - lanes[0]!;
  const even = lanes.every((l, i) => i === 0 || l - lanes[i - 1]! === step);
  if (even && step === 1) return `${lanes[0]}–${lanes[lanes.length - 1]}`;
  if (even && lanes.length > 4) return `${lanes[0]}, ${lanes[1]}, ${lanes[2]}, …, ${lanes[lanes.length - 1]}`;
  if (lanes.length <= 6) return lanes.join(', ');
  // Runs of neighbours, each as `a–b`.
  const runs: string[] = [];
  for (let i = 0; i < lanes.length; ) {
    let j = i;
    while (j + 1 < lanes.length && lanes[j + 1] === lanes[j]! + 1) j++;
    runs.push(j > i ? `${lanes[i]}–${lanes[j]}` : String(lanes[i]));
    i = j + 1;
  }
  return runs.length <= 4 ? runs.join(', ') : `${runs.slice(0, 3).join(', ')}, …`;
}

const lanesText = (lanes: readonly number[], warpSize: number): string =>
  lanes.length === warpSize ? t('narrate.allLanes', { n: warpSize }) : lanes.length === 1 ? t('narrate.lane', { list: laneList(lanes) }) : t('narrate.lanes', { list: laneList(lanes) });

/** How the lanes' first words lie: `word = a · lane + b`, or not on one line. */
function affine(pairs: readonly (readonly [number, number])[]): { a: number; b: number } | undefined {
  if (pairs.length < 2) return undefined;
  const [l0, w0] = pairs[0]!;
  const [l1, w1] = pairs[1]!;
  const a = (w1 - w0) / (l1 - l0);
  if (!Number.isInteger(a)) return undefined;
  const b = w0 - a * l0;
  return pairs.every(([l, w]) => w === a * l + b) ? { a, b } : undefined;
}

const VERB = { load: 'narrate.read', store: 'narrate.write', atomic: 'narrate.update' } as const;

/** What the active lanes do to memory at this step, relative to each lane's own word. */
function memoryPart(trace: Trace, step: number, who: string): string | undefined {
  const v = traceStep(trace, step);
  const memory = trace.memories[v.memory];
  if (!memory) return undefined;
  const verb = t(VERB[v.kindName.startsWith('load') ? 'load' : v.kindName.startsWith('store') ? 'store' : 'atomic']);
  const firstWord = new Map<number, number>();
  for (const a of v.accesses()) if (!firstWord.has(a.lane)) firstWord.set(a.lane, a.addr);
  const pairs = [...firstWord].sort((x, y) => x[0] - y[0]);
  if (pairs.length === 0) return undefined;
  const values = { lanes: who, verb, memory: memory.name };
  const words = pairs.map(([, w]) => w);
  const lo = Math.min(...words);
  const hi = Math.max(...words);
  if (lo === hi) return t('narrate.same', { ...values, word: lo });
  const line = affine(pairs);
  if (line?.a === 1) {
    // A lane's own word: its index in the workgroup (workgroup memory) or in the grid (storage).
    const inGroup = v.warp * trace.warpSize;
    const own = memory.space === 'workgroup' ? inGroup : v.workgroup * trace.invocations + inGroup;
    const d = line.b - own;
    if (d === 0 || line.b === inGroup) return t('narrate.own', { ...values, first: lo, last: hi });
    return t(d > 0 ? 'narrate.right' : 'narrate.left', { ...values, d: Math.abs(d), first: lo, last: hi });
  }
  if (line && line.a > 1) return t('narrate.every', { ...values, k: line.a, first: lo, last: hi });
  return t('narrate.spread', { ...values, count: new Set(words).size, first: lo, last: hi });
}

/** One sentence (or two) saying what step `step` does, in the current language. */
/** `sourceLine` names the line in the text the learner reads (a CUDA line through the source map); default the trace's WGSL line. */
export function narrate(index: TraceIndex, step: number, sourceLine?: (line: number, column: number) => number | undefined): string {
  const trace = index.trace;
  if (trace.stepCount === 0) return t('step.none');
  const v = traceStep(trace, step);
  const size = trace.warpSize;
  const active: number[] = [];
  const idle: number[] = [];
  for (let lane = 0; lane < size; lane++) (v.isActive(lane) ? active : idle).push(lane);
  const who = lanesText(active, size);
  const parts: string[] = [];
  switch (v.kindName) {
    case 'barrier':
      parts.push(t('narrate.barrier'));
      break;
    case 'exit':
      parts.push(t('narrate.exit', { lanes: who }));
      break;
    case 'branch':
      parts.push(t(index.divergent[step] ? 'narrate.split' : 'narrate.branch', { lanes: who }));
      break;
    case 'subgroup':
      parts.push(t('narrate.subgroup', { lanes: who }));
      break;
    case 'load.uniform':
      parts.push(t('narrate.uniform', { lanes: who }));
      break;
    case 'alu':
    case 'local':
    case 'meta':
      parts.push(t('narrate.compute', { lanes: who }));
      break;
    default:
      parts.push(memoryPart(trace, step, who) ?? t('narrate.compute', { lanes: who }));
  }
  if (idle.length > 0 && active.length > 0 && v.kindName !== 'barrier') parts.push(t('narrate.idle', { lanes: lanesText(idle, size) }));
  const conflict = index.wavefronts[step]! > 1 ? t('narrate.conflict', { n: index.wavefronts[step]! }) : '';
  return t('narrate.step', { warp: v.warp, what: parts.join(t('narrate.and')), conflict, line: sourceLine?.(v.line, v.column) ?? v.line });
}
