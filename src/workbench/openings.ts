/**
 * Building blocks for a lab's opening moment (`LabModule.moments[OPENING_MOMENT]`): the step a lab
 * page opens at when the address names none, a picture that already shows what the kernel is
 * about. Every one reads the trace; -1 when the trace has no such step, so a lab can chain them
 * (`firstFound`).
 */
import { OpKind, type Trace } from '../sim/index.ts';
import { findForward, type TraceIndex } from '../trace/index.ts';
import { dataflowTree, mainSharedMemory } from '../trace/memory.ts';
import { levelEnds } from '../trace/levels.ts';
import { memoryNamed } from '../trace/names.ts';

/** The first of `candidates` that the trace has (not -1), else 0. */
export function firstFound(...candidates: readonly (() => number)[]): number {
  for (const c of candidates) {
    const s = c();
    if (s >= 0) return s;
  }
  return 0;
}

/**
 * The step the `level`-th level of the main workgroup memory's dataflow tree is complete (level 0
 * is the loads into it, level 1 the first additions), or -1.
 */
export function treeLevelEnd(index: TraceIndex, level: number): number {
  const memory = mainSharedMemory(index.trace);
  if (memory < 0) return -1;
  return levelEnds(dataflowTree(index.trace, memory))[level] ?? -1;
}

/** One instruction of the same warp after the first branch that splits a warp's lanes (the split shows), or -1. */
export function firstDivergence(index: TraceIndex): number {
  const s = findForward(index, -1, (t) => index.divergent[t] === 1);
  if (s < 0) return -1;
  const warp = index.trace.stepWarp[s];
  const next = findForward(index, s, (t) => index.trace.stepWarp[t] === warp);
  return next < 0 ? s : next;
}

/** The first step of `kind` (an `OpKind`) on the memory named `memory` (any memory when omitted), by `warp` if given, or -1. */
export function firstOp(index: TraceIndex, kind: number, memory?: string, warp?: number): number {
  const trace: Trace = index.trace;
  const found = memory === undefined ? undefined : memoryNamed(trace, memory);
  // A memory the kernel lacks matches no step (-1 would match every step that touches none).
  const id = found === undefined ? undefined : found < 0 ? -2 : found;
  return findForward(
    index,
    -1,
    (t) => trace.opKind[trace.stepOp[t]!] === kind && (id === undefined || trace.stepMemory[t] === id) && (warp === undefined || trace.stepWarp[t] === warp),
  );
}

/** The first global atomic, or -1. */
export const firstGlobalAtomic = (index: TraceIndex): number => firstOp(index, OpKind.atomicGlobal);
