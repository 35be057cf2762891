/**
 * One launch of a whole program, replayed by the lab's machinery: the launch-time `KernelRun` the
 * program's worker kept (its kernel already translated, its configuration, its buffers as they
 * were at launch) becomes the single variant of a one-launch lab, so a lab session (`session.ts`:
 * the simulation on the worker pool, the step and play clock, the focus) and the lab's views
 * (warp grid, memory strip, dataflow tree, timeline) replay it as they replay a lab's kernel.
 *
 * A launch the simulator took long over in the run is not replayed whole unasked: `replayOffer`
 * says how long a traced replay would take, and `blockAlone` runs only the block the learner
 * picks, with its own `blockIdx`, on the launch-time buffers.
 */
import type { KernelRun } from '../kernel/types.ts';
import type { AnyLab, LabVariant } from './lab.ts';
import type { SimOptions } from '../sim/index.ts';
import { compileCuda, type SourceMap } from '../cuda/index.ts';

/** A launch as the page opens it: the run the worker kept and what the timeline shows of it. */
export interface LaunchToReplay {
  /** Its place in the program's launches (0-based). */
  readonly index: number;
  readonly kernel: string;
  /** The CUDA line of the launch (`<<<…>>>`). */
  readonly line: number;
  readonly grid: { readonly x: number; readonly y: number; readonly z: number };
  readonly block: { readonly x: number; readonly y: number; readonly z: number };
  /** Milliseconds the simulator took for the whole launch in the run (summary mode). */
  readonly ms: number;
  readonly run: KernelRun;
}

/** What a replay runs: the whole launch, or one block alone. */
export type ReplayScope = { readonly kind: 'whole' } | { readonly kind: 'block'; readonly block: number };

/** Past this many milliseconds in the run, a traced replay of the whole launch is offered, not started. */
export const SLOW_REPLAY_MS = 2000;

/**
 * How much slower a traced replay is than the run's summary mode: tracing one block costs a few
 * times its share, and every other block still runs. A rough factor, for an estimate in seconds.
 */
const TRACE_FACTOR = 1.5;

export const blocksOf = (l: Pick<LaunchToReplay, 'grid'>): number => l.grid.x * l.grid.y * l.grid.z;

/** Workgroups the kept run dispatches (a long 1-D grid is folded into rows, so it may exceed the grid's blocks). */
const workgroupsOf = (run: KernelRun): number => run.workgroups.reduce<number>((n, w) => n * (w ?? 1), 1);

/** The offer for a launch: undefined where the whole launch replays quickly, else its estimated seconds. */
export function replayOffer(l: LaunchToReplay): { readonly seconds: number } | undefined {
  if (l.ms <= SLOW_REPLAY_MS || blocksOf(l) <= 1) return undefined;
  return { seconds: Math.max(1, Math.round((l.ms * TRACE_FACTOR) / 1000)) };
}

/**
 * The simulator's options for one block alone: every other workgroup is put first in the running
 * order and skipped (`resumeAt`), so block `block` runs by itself, on the launch-time buffers,
 * with its own `blockIdx`; its trace is the one kept.
 */
export function blockAlone(run: KernelRun, block: number): Pick<SimOptions, 'workgroupOrder' | 'resumeAt'> {
  const total = workgroupsOf(run);
  const order = new Array<number>(total);
  let at = 0;
  for (let g = 0; g < total; g++) if (g !== block) order[at++] = g;
  order[at] = block;
  return { workgroupOrder: order, resumeAt: total - 1 };
}

/**
 * The one-launch lab a session replays. The session reads only the step-through's members
 * (variants, parameters, inputs, `stepRun`); a launch has no CPU reference, bench or timing sweep,
 * so those members are absent and the replay view never asks for them.
 */
export function launchLab(l: LaunchToReplay, source: { readonly cuda: string; readonly fileName: string }): AnyLab {
  const variant: LabVariant = {
    id: 'launch',
    title: l.kernel,
    summary: '',
    file: source.fileName,
    wgsl: l.run.code,
    cuda: source.cuda,
    workgroupSizes: [l.block.x * l.block.y * l.block.z],
    elementTypes: ['u32'],
    needsSubgroups: false,
  };
  const lab = {
    id: 'program-launch',
    courseOrder: 0,
    title: l.kernel,
    summary: '',
    variants: [variant],
    defaultVariant: variant.id,
    params: {},
    defaults: {},
    inputs: () => ({}),
    stepRun: () => l.run,
  };
  return lab as unknown as AnyLab;
}

/**
 * The source map of the program as it ran: its CUDA translated again here (the front end is
 * deterministic), or undefined where the translation differs from the kept run's WGSL (then the
 * replay shows no CUDA line rather than a wrong one).
 */
export function replaySource(cuda: string, fileName: string, files: Readonly<Record<string, string>>, wgsl: string): SourceMap | undefined {
  const r = compileCuda(cuda, { fileName, files: { ...files } });
  return r.ok && r.program.wgsl === wgsl ? r.program.sourceMap : undefined;
}
