/**
 * Questions the SpMV stage, metrics and lesson ask of a trace: pure functions over what the
 * simulator recorded (each step's memory, its lanes, their word addresses and sectors). Nothing
 * here re-runs a kernel. Storage arrays are found by the names the lab's WGSL gives them: values
 * (`values`, `ell_val`, `coo_val`, the sliced ELL's `val`), column indices (`col_index`, `ell_col`,
 * `coo_col`, `col`) and the vector `x`; a learner's CUDA run in the WGSL's place finds them by the
 * buffers its parameters took (`viewName`), whatever it calls them.
 */
import { OpKind, type Trace } from '../../sim/index.ts';
import { viewName } from '../../trace/names.ts';

/** What a storage array holds, by its WGSL name. */
export type ArrayRole = 'values' | 'indices' | 'x' | 'rows' | 'y' | 'other';

export function roleOf(name: string): ArrayRole {
  if (name === 'values' || name === 'ell_val' || name === 'coo_val' || name === 'val') return 'values';
  if (name === 'col_index' || name === 'ell_col' || name === 'coo_col' || name === 'col') return 'indices';
  if (name === 'x') return 'x';
  if (name === 'row_ptr' || name === 'row_index' || name === 'coo_row' || name === 'perm' || name === 'owner' || name === 'start') return 'rows';
  if (name === 'y') return 'y';
  return 'other';
}

const isLoad = (trace: Trace, step: number) => {
  const k = trace.opKind[trace.stepOp[step]!];
  return k === OpKind.loadGlobal;
};

/** The lab's name of the memory a step touched (`viewName`), or '' for none. */
export function memoryName(trace: Trace, step: number): string {
  const m = trace.memories[trace.stepMemory[step]!];
  return m ? viewName(m) : '';
}

/** One lane's access in a step: which word of which array. */
export interface LaneTouch {
  readonly lane: number;
  readonly addr: number;
  readonly value: number;
}

/**
 * The lanes of `step` and the words they touched (one per lane for the kernels of this lab): the
 * array by the lab's name (`name`, what the stage's rows are called) and by the kernel's own (`own`,
 * a learner's CUDA parameter).
 */
export function touchesAt(trace: Trace, step: number): { readonly name: string; readonly own: string; readonly role: ArrayRole; readonly warp: number; readonly touches: readonly LaneTouch[] } {
  const inTrace = step >= 0 && step < trace.stepCount;
  const memory = inTrace ? trace.memories[trace.stepMemory[step]!] : undefined;
  const name = memory ? viewName(memory) : '';
  const touches: LaneTouch[] = [];
  if (name) for (let r = trace.stepRecStart[step]!; r < trace.stepRecStart[step + 1]!; r++) touches.push({ lane: trace.recLane[r]!, addr: trace.recAddr[r]!, value: trace.recValue[r]! });
  return { name, own: memory?.name || name, role: roleOf(name), warp: inTrace ? trace.stepWarp[step]! : -1, touches };
}

/** Steps (ascending) that load the array of `role`, of one warp or of all. */
export function loadSteps(trace: Trace, role: ArrayRole, warp?: number): number[] {
  const out: number[] = [];
  for (let s = 0; s < trace.stepCount; s++) {
    if (warp !== undefined && trace.stepWarp[s] !== warp) continue;
    if (isLoad(trace, s) && roleOf(memoryName(trace, s)) === role && trace.stepRecStart[s + 1]! > trace.stepRecStart[s]!) out.push(s);
  }
  return out;
}

/** One iteration of a warp's inner loop, seen at its gather of x: how many lanes took part. */
export interface Iteration {
  readonly step: number;
  readonly active: number;
  readonly idle: number;
}

/**
 * The per-iteration strip of a warp: each gather of x it made, with the lanes that gathered and
 * those idle among the warp's lanes with work (the lanes active at its first load from storage:
 * a row, a slot or a triple to read; lanes past the end count neither way). Every variant gathers
 * x, so every variant has a strip.
 */
export function iterationStrip(trace: Trace, warp: number): Iteration[] {
  let lanes = 0;
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.stepWarp[s] === warp && isLoad(trace, s) && trace.stepMemory[s]! >= 0) {
      lanes = trace.stepRecStart[s + 1]! - trace.stepRecStart[s]!;
      break;
    }
  }
  return loadSteps(trace, 'x', warp).map((step) => {
    const active = trace.stepRecStart[step + 1]! - trace.stepRecStart[step]!;
    return { step, active, idle: Math.max(0, lanes - active) };
  });
}

/** Sectors per request of the loads of one array role, over the trace (0 when it has none). */
export function sectorsPerRequest(trace: Trace, role: ArrayRole): { readonly requests: number; readonly sectors: number; readonly perRequest: number } {
  let requests = 0;
  let sectors = 0;
  for (const s of loadSteps(trace, role)) {
    requests++;
    sectors += trace.stepSectors[s]!;
  }
  return { requests, sectors, perRequest: requests ? sectors / requests : 0 };
}

/** Idle lane-iterations of all warps' strips against the lane-iterations they occupied. */
export function stripTotals(trace: Trace): { readonly active: number; readonly idle: number } {
  let active = 0;
  let idle = 0;
  const warps = new Set<number>();
  for (let s = 0; s < trace.stepCount; s++) warps.add(trace.stepWarp[s]!);
  for (const w of warps) {
    for (const it of iterationStrip(trace, w)) {
      active += it.active;
      idle += it.idle;
    }
  }
  return { active, idle };
}

/** Atomic read-modify-write lane operations of the trace: every compare-exchange try counts (atomicLoad is a plain load). */
export function atomicLaneOps(trace: Trace): number {
  let n = 0;
  for (let s = 0; s < trace.stepCount; s++) if (trace.opKind[trace.stepOp[s]!] === OpKind.atomicGlobal) n += trace.stepRecStart[s + 1]! - trace.stepRecStart[s]!;
  return n;
}

/** The first step at or after `from` that gathers x, or -1. */
export function nextGather(trace: Trace, from: number): number {
  for (let s = Math.max(0, from); s < trace.stepCount; s++) if (isLoad(trace, s) && memoryName(trace, s) === 'x' && trace.stepRecStart[s + 1]! > trace.stepRecStart[s]!) return s;
  return -1;
}

/** The last step before `from` that gathers x, or -1. */
export function previousGather(trace: Trace, from: number): number {
  for (let s = Math.min(from, trace.stepCount) - 1; s >= 0; s--) if (isLoad(trace, s) && memoryName(trace, s) === 'x' && trace.stepRecStart[s + 1]! > trace.stepRecStart[s]!) return s;
  return -1;
}
