/**
 * What the top-k stage reads from a trace, as pure functions: the lists' columns in workgroup
 * memory at any step, where the insert phase ends and each tree level begins, which lanes have
 * been merged away, the k-th value of the surviving list, and how many values entered a list.
 */
import { OpKind, type Trace } from '../../sim/index.ts';
import { LOWEST } from './reference.ts';

export interface TopkLevel {
  /** 1-based level; at level L the lanes below `stride` take in the lists of the next `stride`. */
  readonly level: number;
  readonly stride: number;
  /** First step of the level (just after the barrier before it) and its closing barrier's step. */
  readonly start: number;
  readonly end: number;
}

export interface TopkTraceView {
  /** Invocations per workgroup (one list each) and values per list. */
  readonly lanes: number;
  readonly k: number;
  /** Every write to the lists: step, word and value, in step order. */
  readonly writes: readonly { readonly step: number; readonly addr: number; readonly value: number }[];
  /** The step whose barrier closes the insert phase. */
  readonly insertEnd: number;
  readonly levels: readonly TopkLevel[];
  /** Per lane: values that entered its list during the insert phase (the insert branch taken). */
  readonly accepted: readonly number[];
}

/** The step at which each barrier of the workgroup completes (the last warp arriving). */
function barrierCompletions(trace: Trace): number[] {
  const perWarp = new Map<number, number[]>();
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.opKind[trace.stepOp[s]!] !== OpKind.barrier) continue;
    const w = trace.stepWarp[s]!;
    if (!perWarp.has(w)) perWarp.set(w, []);
    perWarp.get(w)!.push(s);
  }
  const out: number[] = [];
  const lists = [...perWarp.values()];
  const count = Math.max(0, ...lists.map((l) => l.length));
  for (let b = 0; b < count; b++) out.push(Math.max(...lists.map((l) => l[b] ?? -1)));
  return out;
}

/**
 * Reads a top-k launch from a full trace of one workgroup. `source` (the WGSL that ran) names the
 * line where an insert places its value, so accepted inserts can be counted.
 */
export function readTopkTrace(trace: Trace, source?: string): TopkTraceView {
  const mem = trace.memories.findIndex((m) => m.name === 'lists');
  const lanes = trace.invocations;
  const k = mem >= 0 ? Math.round(trace.memories[mem]!.words / lanes) : 0;
  const placeLine = source ? source.split('\n').findIndex((l) => l.trim() === 'lists[s * WORKGROUP_SIZE + me] = v;') + 1 : 0;
  const barriers = barrierCompletions(trace);
  const insertEnd = barriers[0] ?? trace.stepCount - 1;
  const writes: { step: number; addr: number; value: number }[] = [];
  const accepted = new Array<number>(lanes).fill(0);
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.stepMemory[s] !== mem || trace.opKind[trace.stepOp[s]!] !== OpKind.storeShared) continue;
    const counts = s < insertEnd && placeLine > 0 && trace.opLine[trace.stepOp[s]!] === placeLine;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const addr = trace.recAddr[r]!;
      writes.push({ step: s, addr, value: trace.recValue[r]! });
      if (counts) accepted[addr % lanes]!++;
    }
  }
  const levels: TopkLevel[] = [];
  for (let L = 1; L < barriers.length; L++) levels.push({ level: L, stride: lanes >> L, start: barriers[L - 1]! + 1, end: barriers[L]! });
  return { lanes, k, writes, insertEnd, levels, accepted };
}

/** The lists at `step`: slot s of lane t at s × lanes + t; the lowest i32 where nothing was written. */
export function listsAt(view: TopkTraceView, step: number): Int32Array {
  const out = new Int32Array(view.lanes * view.k).fill(LOWEST);
  for (const w of view.writes) {
    if (w.step > step) break;
    out[w.addr] = w.value;
  }
  return out;
}

/** The tree level running at `step` (0 during the insert phase; past the last, the last). */
export function levelAt(view: TopkTraceView, step: number): number {
  let level = 0;
  for (const l of view.levels) if (step >= l.start) level = l.level;
  return level;
}

/** Whether lane `lane`'s list has been merged into another by the end of level `level`. */
export function mergedAway(view: TopkTraceView, lane: number, level: number): boolean {
  return level > 0 && lane >= view.lanes >> level;
}

/** Lane `lane`'s list at `step`, slot 0 first. */
export function laneList(view: TopkTraceView, step: number, lane: number): number[] {
  const lists = listsAt(view, step);
  return Array.from({ length: view.k }, (_, s) => lists[s * view.lanes + lane]!);
}

/** Values in lane `lane`'s list at `step` (slots above the lowest i32). */
export function filled(view: TopkTraceView, step: number, lane: number): number {
  return laneList(view, step, lane).filter((v) => v !== LOWEST).length;
}

/** The k-th value of lane 0's list, the one the tree ends with: the threshold a value must beat. */
export function threshold(view: TopkTraceView, step: number): number {
  return laneList(view, step, 0)[view.k - 1] ?? LOWEST;
}

export interface RadixRound {
  /** The step that wrote the pool's size after a round (0-based round), and that size. */
  readonly step: number;
  readonly round: number;
  readonly size: number;
}

export interface RadixTraceView {
  /** Every pool size the workgroup read after a round, and the final one, in step order. */
  readonly rounds: readonly RadixRound[];
  /** Every floor written (the first is the lowest i32; each later one ends a cut), in step order. */
  readonly floors: readonly { readonly step: number; readonly value: number }[];
}

/** Reads the radix select's rounds and floors from a trace of one workgroup (empty for other kernels). */
export function readRadixTrace(trace: Trace): RadixTraceView {
  const words = (name: string) => {
    const mem = trace.memories.findIndex((m) => m.name === name);
    const out: { step: number; value: number }[] = [];
    if (mem < 0) return out;
    for (let s = 0; s < trace.stepCount; s++) {
      if (trace.stepMemory[s] !== mem || trace.opKind[trace.stepOp[s]!] !== OpKind.storeShared) continue;
      const r = trace.stepRecStart[s]!;
      if (r < trace.stepRecStart[s + 1]!) out.push({ step: s, value: trace.recValue[r]! });
    }
    return out;
  };
  const rounds = words('pool_size').map((w, round) => ({ step: w.step, round, size: w.value }));
  return { rounds, floors: words('floor_value') };
}

/** The floor at `step`: the last one written at or before it (the lowest i32 before any). */
export function floorAt(view: RadixTraceView, step: number): number {
  let floor = LOWEST;
  for (const f of view.floors) {
    if (f.step > step) break;
    floor = f.value;
  }
  return floor;
}
