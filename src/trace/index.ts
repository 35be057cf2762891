/**
 * `src/trace`: questions the views and lessons ask of a simulator trace, answered once per trace
 * with an index so that any step can be shown in O(warps · log steps). Pure TypeScript; it reads
 * the trace the simulator produced and adds no semantics of its own beyond counting what the
 * trace records (the definitions of banks, sectors and divergence are the simulator's, see
 * src/sim/README.md).
 */
import { OpKind, type Trace } from '../sim/index.ts';

/** What a lane is doing at a step, as the warp grid draws it. */
export enum LaneState {
  Absent = 0,
  NotStarted = 1,
  Active = 2,
  Masked = 3,
  Waiting = 4,
  Exited = 5,
}

export interface WarpSnapshot {
  readonly id: number;
  /** One `LaneState` per lane. */
  readonly lanes: Uint8Array;
  /** The warp's most recent branch split its lanes. */
  readonly divergent: boolean;
  /** This warp executes the current step. */
  readonly current: boolean;
}

/** Everything derived from a trace that the views need, computed in one pass. */
export interface TraceIndex {
  readonly trace: Trace;
  readonly invocations: number;
  readonly warpCount: number;
  /** Steps of each warp, ascending. */
  readonly warpSteps: readonly Int32Array[];
  /** Per step: 1 when it is a branch after which the warp's active lanes split. */
  readonly divergent: Uint8Array;
  /** Per step: wavefronts of a workgroup-memory request (1 = no conflict), 0 for other steps. */
  readonly wavefronts: Uint8Array;
  /** Per step: distinct 32-byte sectors of a storage-memory request, 0 for other steps. */
  readonly sectors: Uint16Array;
  /** Steps that are barriers, ascending. */
  readonly barrierSteps: Int32Array;
  /** Per warp: steps at which some lanes exited, with the cumulative exited mask after them. */
  readonly exits: readonly { readonly steps: Int32Array; readonly masks: Uint32Array[] }[];
}

function maskOf(trace: Trace, step: number): Uint32Array {
  const mw = trace.maskWords;
  return trace.stepMask.subarray(step * mw, step * mw + mw);
}

/**
 * Whether mask `a` (words at `a`…) is a non-empty strict subset of mask `b`, both read in place
 * from one array (no views are made: this runs once a step).
 */
function strictSubsetAt(masks: Uint32Array, a: number, b: number, words: number): boolean {
  let strict = false;
  let any = false;
  for (let k = 0; k < words; k++) {
    const x = masks[a + k]!;
    const y = masks[b + k]!;
    if ((x & ~y) !== 0) return false;
    if (x !== y) strict = true;
    if (x !== 0) any = true;
  }
  return strict && any;
}

/** Wavefronts of one workgroup-memory request, as the trace recorded it (0 for other steps). */
export function requestWavefronts(trace: Trace, step: number): number {
  return trace.stepWavefronts[step] ?? 0;
}

/** Distinct sectors one storage-memory request touches, as the trace recorded it. */
export function requestSectors(trace: Trace, step: number): number {
  return trace.stepSectors[step] ?? 0;
}

/**
 * Builds the index for a trace of one workgroup (of `trace.invocations` lanes unless told).
 * O(steps + records).
 */
export function indexTrace(trace: Trace, invocations: number = trace.invocations): TraceIndex {
  const W = trace.warpSize;
  const warpCount = Math.max(1, Math.ceil(invocations / W));
  const counts = new Int32Array(warpCount);
  for (let s = 0; s < trace.stepCount; s++) {
    const w = trace.stepWarp[s]!;
    if (w < warpCount) counts[w]!++;
  }
  const warpSteps = Array.from({ length: warpCount }, (_, w) => new Int32Array(counts[w]!));
  const fill = new Int32Array(warpCount);
  const divergent = new Uint8Array(trace.stepCount);
  const wavefronts = Uint8Array.from(trace.stepWavefronts.subarray(0, trace.stepCount));
  const sectors = Uint16Array.from(trace.stepSectors.subarray(0, trace.stepCount));
  const mw = trace.maskWords;
  const barriers: number[] = [];
  const lastOf = new Int32Array(warpCount).fill(-1);
  const exitSteps: number[][] = Array.from({ length: warpCount }, () => []);
  const exitMasks: Uint32Array[][] = Array.from({ length: warpCount }, () => []);
  const exited = Array.from({ length: warpCount }, () => new Uint32Array(trace.maskWords));

  for (let s = 0; s < trace.stepCount; s++) {
    const w = trace.stepWarp[s]!;
    if (w >= warpCount) continue;
    warpSteps[w]![fill[w]!++] = s;
    const prev = lastOf[w]!;
    if (prev >= 0 && trace.opKind[trace.stepOp[prev]!] === OpKind.branch && strictSubsetAt(trace.stepMask, s * mw, prev * mw, mw)) {
      divergent[prev] = 1;
    }
    lastOf[w] = s;
    const kind = trace.opKind[trace.stepOp[s]!];
    if (kind === OpKind.barrier) barriers.push(s);
    if (kind === OpKind.exit) {
      const m = exited[w]!;
      const mask = maskOf(trace, s);
      for (let k = 0; k < m.length; k++) m[k]! |= mask[k]!;
      exitSteps[w]!.push(s);
      exitMasks[w]!.push(m.slice());
    }
  }
  return {
    trace,
    invocations,
    warpCount,
    warpSteps,
    divergent,
    wavefronts,
    sectors,
    barrierSteps: Int32Array.from(barriers),
    exits: exitSteps.map((steps, w) => ({ steps: Int32Array.from(steps), masks: exitMasks[w]! })),
  };
}

/** Index of the last element ≤ `value` in an ascending array, or -1. */
export function lastAtOrBefore(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The state of every warp of the workgroup at `step`. */
export function warpsAt(index: TraceIndex, step: number): WarpSnapshot[] {
  const { trace } = index;
  const W = trace.warpSize;
  const currentWarp = step >= 0 && step < trace.stepCount ? trace.stepWarp[step]! : -1;
  const out: WarpSnapshot[] = [];
  for (let w = 0; w < index.warpCount; w++) {
    const lanes = new Uint8Array(W);
    const steps = index.warpSteps[w]!;
    const pos = lastAtOrBefore(steps, step);
    const exitPos = lastAtOrBefore(index.exits[w]!.steps, step);
    const exitedMask = exitPos >= 0 ? index.exits[w]!.masks[exitPos]! : undefined;
    const finished = steps.length > 0 && step > steps[steps.length - 1]!;
    const last = pos >= 0 ? steps[pos]! : -1;
    const lastKind = last >= 0 ? trace.opKind[trace.stepOp[last]!] : -1;
    let divergent = false;
    for (let lane = 0; lane < W; lane++) {
      const inv = w * W + lane;
      if (inv >= index.invocations) {
        lanes[lane] = LaneState.Absent;
        continue;
      }
      const gone = exitedMask ? ((exitedMask[lane >> 5]! >>> (lane & 31)) & 1) === 1 : false;
      if (gone || finished) lanes[lane] = LaneState.Exited;
      else if (last < 0) lanes[lane] = LaneState.NotStarted;
      else {
        const on = ((trace.stepMask[last * trace.maskWords + (lane >> 5)]! >>> (lane & 31)) & 1) === 1;
        if (!on) lanes[lane] = LaneState.Masked;
        else lanes[lane] = lastKind === OpKind.barrier && last !== step ? LaneState.Waiting : LaneState.Active;
      }
    }
    // A warp is marked divergent while its lanes are split: some masked, none of them exited-only.
    for (let lane = 0; lane < W && !divergent; lane++) if (lanes[lane] === LaneState.Masked) divergent = true;
    out.push({ id: w, lanes, divergent, current: w === currentWarp });
  }
  return out;
}

/** First step after `from` for which `test` holds, or -1. */
export function findForward(index: TraceIndex, from: number, test: (step: number) => boolean): number {
  for (let s = from + 1; s < index.trace.stepCount; s++) if (test(s)) return s;
  return -1;
}

/** The source line of a step. */
export function lineOf(trace: Trace, step: number): number {
  return trace.opLine[trace.stepOp[step]!]!;
}

/** Next step that starts another statement (its source line differs from this step's). */
export function nextStatement(index: TraceIndex, step: number): number {
  const line = lineOf(index.trace, step);
  return findForward(index, step, (s) => lineOf(index.trace, s) !== line);
}

/** Start of the statement before the one at `step`. */
export function previousStatement(index: TraceIndex, step: number): number {
  const { trace } = index;
  let s = step;
  const line = lineOf(trace, s);
  while (s > 0 && lineOf(trace, s - 1) === line) s--; // start of this statement
  if (s === 0) return 0;
  const prevLine = lineOf(trace, s - 1);
  let t = s - 1;
  while (t > 0 && lineOf(trace, t - 1) === prevLine) t--;
  return t;
}

/** Barriers completed by the workgroup up to and including `step`: the barrier phase. */
export function barrierPhase(index: TraceIndex, step: number, warpsInWorkgroup = index.warpCount): number {
  // A barrier completes when every warp has arrived: count arrivals and divide.
  const arrivals = lastAtOrBefore(index.barrierSteps, step) + 1;
  return Math.floor(arrivals / Math.max(1, warpsInWorkgroup));
}

/**
 * The last step whose barrier phase is `phase` (the end of that phase), clamped to the trace. The
 * phase before the first (`phase` < 0) ends before step 0: its end is step 0.
 */
export function endOfPhase(index: TraceIndex, phase: number, warpsInWorkgroup = index.warpCount): number {
  if (phase < 0) return 0;
  const arrivalsNeeded = (phase + 1) * Math.max(1, warpsInWorkgroup);
  const step = index.barrierSteps[arrivalsNeeded - 1];
  return step === undefined ? index.trace.stepCount - 1 : step;
}
