/**
 * Questions the histogram panels and lesson ask of a trace: pure functions over what the simulator
 * recorded (atomic steps, their lanes, addresses and operands). Nothing here re-runs the kernel.
 * The simulator records an atomic's operand (the 1 or the run length added; 0 for atomicStore),
 * not the word's new value, and the trace holds the traced workgroup only: so the bins shown are
 * that workgroup's contribution, and the histogram kernels' workgroup-memory atomics that store 0
 * before their first barrier are the clearing of the private bins, not counting.
 */
import { OpKind, type Trace } from '../../sim/index.ts';

export type AtomicSpace = 'global' | 'workgroup';

/** Lanes of one warp instruction that updated one address, in the order the simulator served them. */
export interface AtomicQueue {
  readonly addr: number;
  readonly lanes: readonly number[];
  /** What each of those lanes added (its operand), in the same order. */
  readonly values: readonly number[];
}

/** One atomic warp instruction: where it went and how its lanes queued per address. */
export interface AtomicStep {
  readonly step: number;
  readonly warp: number;
  readonly space: AtomicSpace;
  /** Index into `trace.memories`. */
  readonly memory: number;
  /** Queues by address, ascending. */
  readonly queues: readonly AtomicQueue[];
  /** The longest queue: how many lanes the atomic unit served one after another. */
  readonly sameAddress: number;
}

const spaceOfStep = (trace: Trace, step: number): AtomicSpace | undefined => {
  const kind = trace.opKind[trace.stepOp[step]!];
  return kind === OpKind.atomicGlobal ? 'global' : kind === OpKind.atomicShared ? 'workgroup' : undefined;
};

/** The atomic instruction at `step`, or undefined when the step is not an atomic read-modify-write. */
export function atomicAt(trace: Trace, step: number): AtomicStep | undefined {
  if (step < 0 || step >= trace.stepCount) return undefined;
  const space = spaceOfStep(trace, step);
  if (!space) return undefined;
  const byAddr = new Map<number, { lanes: number[]; values: number[] }>();
  for (let r = trace.stepRecStart[step]!; r < trace.stepRecStart[step + 1]!; r++) {
    const addr = trace.recAddr[r]!;
    const q = byAddr.get(addr) ?? { lanes: [], values: [] };
    q.lanes.push(trace.recLane[r]!);
    q.values.push(trace.recValue[r]!);
    byAddr.set(addr, q);
  }
  const queues = [...byAddr.entries()].sort((a, b) => a[0] - b[0]).map(([addr, q]) => ({ addr, ...q }));
  if (queues.length === 0) return undefined; // atomicStore of zeros with no lanes recorded
  return {
    step,
    warp: trace.stepWarp[step]!,
    space,
    memory: trace.stepMemory[step]!,
    queues,
    sameAddress: Math.max(...queues.map((q) => q.lanes.length)),
  };
}

/** Every atomic read-modify-write of the trace, in step order. */
export function atomicSteps(trace: Trace): AtomicStep[] {
  const out: AtomicStep[] = [];
  for (let s = 0; s < trace.stepCount; s++) {
    const a = atomicAt(trace, s);
    if (a) out.push(a);
  }
  return out;
}

/** Counts of the traced workgroup's atomics by space, and the serialisation they suffered. */
export interface AtomicSummary {
  /** Lane updates (one per active lane of an atomic instruction). */
  readonly globalLaneOps: number;
  readonly workgroupLaneOps: number;
  /** Warp instructions. */
  readonly globalInstructions: number;
  readonly workgroupInstructions: number;
  /** Largest same-address count of any atomic warp instruction (0 when there is none). */
  readonly maxSameAddress: number;
  /** Mean of the per-instruction largest same-address count: the serialisation factor. */
  readonly meanSameAddress: number;
  /** Global lane updates made after the workgroup's last barrier: the merge. */
  readonly mergeLaneOps: number;
  /** Workgroup-memory lane stores of 0 before the first barrier: clearing the private bins. */
  readonly clearLaneOps: number;
}

/**
 * Per warp, the steps of its first and last barrier (-1 when it has none). Barriers are per warp
 * in the trace: warp 0 reaches one before warp 1 has run its part of the code before it.
 */
function barrierBounds(trace: Trace): { first: Map<number, number>; last: Map<number, number> } {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.opKind[trace.stepOp[s]!] !== OpKind.barrier) continue;
    const w = trace.stepWarp[s]!;
    if (!first.has(w)) first.set(w, s);
    last.set(w, s);
  }
  return { first, last };
}

/**
 * Clearing: a workgroup-memory atomic that stores 0 in every lane, before its warp's first barrier.
 * (Counting adds at least 1; packed-atomic.wgsl counts before its first barrier too.)
 */
const clears = (a: AtomicStep, first: Map<number, number>) =>
  a.space === 'workgroup' && a.step < (first.get(a.warp) ?? -1) && a.queues.every((q) => q.values.every((v) => v === 0));

/** Whether an atomic step clears private bins (workgroup memory, zeros, before its warp's first barrier). */
export function isClearing(trace: Trace, a: AtomicStep): boolean {
  return clears(a, barrierBounds(trace).first);
}

/** The atomic steps that count (everything but the clearing), in step order. */
export function countingAtomics(trace: Trace): AtomicStep[] {
  const { first } = barrierBounds(trace);
  return atomicSteps(trace).filter((a) => !clears(a, first));
}

/** The traced workgroup's atomics, the clearing of private bins left out of all but `clearLaneOps`. */
export function atomicSummary(trace: Trace): AtomicSummary {
  const { first, last } = barrierBounds(trace);
  let clear = 0;
  const steps: AtomicStep[] = [];
  for (const a of atomicSteps(trace)) {
    if (clears(a, first)) clear += a.queues.reduce((n, q) => n + q.lanes.length, 0);
    else steps.push(a);
  }
  let gOps = 0;
  let wOps = 0;
  let gIns = 0;
  let wIns = 0;
  let max = 0;
  let sum = 0;
  let merge = 0;
  for (const a of steps) {
    const ops = a.queues.reduce((n, q) => n + q.lanes.length, 0);
    if (a.space === 'global') {
      gOps += ops;
      gIns++;
      if (a.step > (last.get(a.warp) ?? Infinity)) merge += ops;
    } else {
      wOps += ops;
      wIns++;
    }
    max = Math.max(max, a.sameAddress);
    sum += a.sameAddress;
  }
  return {
    globalLaneOps: gOps,
    workgroupLaneOps: wOps,
    globalInstructions: gIns,
    workgroupInstructions: wIns,
    maxSameAddress: max,
    meanSameAddress: steps.length ? sum / steps.length : 0,
    mergeLaneOps: merge,
    clearLaneOps: clear,
  };
}

/**
 * The bins of one atomic memory after `step`, as the traced workgroup filled them: per bin, the
 * sum of the operands its atomics added (a clearing store adds 0). `copies` private copies of
 * `bins` words each, laid out copy after copy (bin b of copy c at c × bins + b) or, `interleaved`,
 * bin by bin (at b × copies + c), are summed into one row of bins.
 */
export function binsAfter(trace: Trace, memory: number, step: number, bins: number, copies = 1, interleaved = false): Uint32Array {
  const words = new Float64Array(bins * copies);
  const last = Math.min(step, trace.stepCount - 1);
  for (let s = 0; s <= last; s++) {
    if (trace.stepMemory[s] !== memory || !spaceOfStep(trace, s)) continue;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const addr = trace.recAddr[r]!;
      if (addr < words.length) words[addr] = words[addr]! + trace.recValue[r]!;
    }
  }
  const out = new Uint32Array(bins);
  for (let addr = 0; addr < words.length; addr++) {
    const { bin } = privateWordOf(addr, bins, copies, interleaved);
    out[bin] = (out[bin]! + words[addr]!) >>> 0;
  }
  return out;
}

/**
 * The bin and the private copy that word `addr` of a workgroup's copies counts: `copies` copies of
 * `bins` words, copy after copy (bin b of copy c at c × bins + b) or, `interleaved`, bin by bin (at
 * b × copies + c). One copy of `bins` words is the plain layout (copy 0, bin = addr).
 */
export function privateWordOf(addr: number, bins: number, copies: number, interleaved: boolean): { readonly bin: number; readonly copy: number } {
  return interleaved ? { bin: Math.floor(addr / copies), copy: addr % copies } : { bin: addr % bins, copy: Math.floor(addr / bins) };
}

/**
 * The bin a packed-counter update hits (packed-atomic.wgsl): word `addr` holds four 8-bit counters,
 * bins 4·⌊addr / invocations⌋ … + 3, and the operand 1 << 8j adds one to the j-th of them. Undefined
 * for an operand that is not one count in one counter (the flush's exchange with 0).
 */
export function packedBinOf(addr: number, value: number, invocations: number): number | undefined {
  for (let j = 0; j < 4; j++) if (value === 2 ** (8 * j)) return 4 * Math.floor(addr / invocations) + j;
  return undefined;
}

/**
 * The bins the traced workgroup has counted by `step` in packed counters updated with atomics:
 * every update decoded with `packedBinOf`, summed (the flushes move counts out of the counters, not
 * out of this sum, so it keeps rising).
 */
export function packedBinsAfter(trace: Trace, memory: number, step: number, bins: number, invocations: number): Uint32Array {
  const out = new Uint32Array(bins);
  const last = Math.min(step, trace.stepCount - 1);
  for (let s = 0; s <= last; s++) {
    if (trace.stepMemory[s] !== memory || !spaceOfStep(trace, s)) continue;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const bin = packedBinOf(trace.recAddr[r]!, trace.recValue[r]!, invocations);
      if (bin !== undefined && bin < bins) out[bin]!++;
    }
  }
  return out;
}

/** The atomic memories of a trace: the global histogram and, when privatised, the workgroup copy. */
export function atomicMemories(trace: Trace): { global?: number; workgroup?: number } {
  const found: { global?: number; workgroup?: number } = {};
  for (let s = 0; s < trace.stepCount; s++) {
    const space = spaceOfStep(trace, s);
    if (space && found[space] === undefined) found[space] = trace.stepMemory[s]!;
  }
  return found;
}

/** The first atomic step at or after `from` (of `space` when given), or -1. */
export function nextAtomic(trace: Trace, from: number, space?: AtomicSpace): number {
  for (let s = Math.max(0, from); s < trace.stepCount; s++) {
    const sp = spaceOfStep(trace, s);
    if (sp && (space === undefined || sp === space) && trace.stepRecStart[s + 1]! > trace.stepRecStart[s]!) return s;
  }
  return -1;
}

/** The last atomic step before `from` (of `space` when given), or -1. */
export function previousAtomic(trace: Trace, from: number, space?: AtomicSpace): number {
  for (let s = Math.min(from, trace.stepCount) - 1; s >= 0; s--) {
    const sp = spaceOfStep(trace, s);
    if (sp && (space === undefined || sp === space) && trace.stepRecStart[s + 1]! > trace.stepRecStart[s]!) return s;
  }
  return -1;
}
