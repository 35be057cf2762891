/**
 * Workgroup memory as the trace saw it: contents at a step, the accesses of a step, and the
 * dataflow tree recovered from the simulator's read→write provenance.
 */
import { OpKind, type Trace } from '../sim/index.ts';
import { bankOf } from '../sim/hardware.ts';
import { lastAtOrBefore, type TraceIndex } from './index.ts';
import { ui } from '../i18n/ui.ts';

/** The workgroup-memory binding with the most traffic (e.g. `sdata`), or -1 when there is none. */
export function mainSharedMemory(trace: Trace): number {
  const counts = new Map<number, number>();
  for (let s = 0; s < trace.stepCount; s++) {
    const m = trace.stepMemory[s]!;
    if (m >= 0 && trace.memories[m]?.space === 'workgroup') {
      counts.set(m, (counts.get(m) ?? 0) + trace.stepRecStart[s + 1]! - trace.stepRecStart[s]!);
    }
  }
  let best = -1;
  let most = -1;
  for (const [m, c] of counts) if (c > most) [best, most] = [m, c];
  return best;
}

const isWrite = (kind: number): boolean => kind === OpKind.storeShared || kind === OpKind.atomicShared;

/** The last contents computed, so stepping forward replays only the steps in between. */
let cached: { trace: Trace; memory: number; step: number; values: Float64Array; written: Uint8Array } | undefined;

/** Word values of a workgroup memory after `step` (zero before any write, as WGSL guarantees). */
export function sharedContentsAt(trace: Trace, memory: number, step: number): { values: Float64Array; written: Uint8Array } {
  const words = trace.memories[memory]?.words ?? 0;
  let from = 0;
  let values: Float64Array;
  let written: Uint8Array;
  if (cached && cached.trace === trace && cached.memory === memory && cached.step <= step) {
    values = cached.values.slice();
    written = cached.written.slice();
    from = cached.step + 1;
  } else {
    values = new Float64Array(words);
    written = new Uint8Array(words);
  }
  for (let s = from; s <= step && s < trace.stepCount; s++) {
    if (trace.stepMemory[s] !== memory || !isWrite(trace.opKind[trace.stepOp[s]!]!)) continue;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const a = trace.recAddr[r]!;
      if (a >= 0 && a < words) {
        values[a] = trace.recValue[r]!;
        written[a] = 1;
      }
    }
  }
  cached = { trace, memory, step, values, written };
  return { values: values.slice(), written: written.slice() };
}

export interface StepAccess {
  readonly lane: number;
  readonly addr: number;
  readonly value: number;
  readonly bank: number;
}

/** The accesses of `step` if it touches `memory`, with whether they write. */
export function accessesOf(trace: Trace, step: number, memory: number): { write: boolean; list: StepAccess[] } | undefined {
  if (step < 0 || step >= trace.stepCount || trace.stepMemory[step] !== memory) return undefined;
  const list: StepAccess[] = [];
  for (let r = trace.stepRecStart[step]!; r < trace.stepRecStart[step + 1]!; r++) {
    const addr = trace.recAddr[r]!;
    list.push({ lane: trace.recLane[r]!, addr, value: trace.recValue[r]!, bank: bankOf(trace.hardware, addr) });
  }
  return { write: isWrite(trace.opKind[trace.stepOp[step]!]!), list };
}

export interface TreeNode {
  /** The write record this node stands for. */
  readonly record: number;
  readonly step: number;
  readonly addr: number;
  readonly value: number;
  /** 0 for values written from outside workgroup memory (the loads), then 1 + the deepest source. */
  readonly level: number;
  /** Indices into `nodes` of the writes this value was computed from. */
  readonly sources: readonly number[];
}

export interface DataflowTree {
  readonly memory: number;
  readonly nodes: readonly TreeNode[];
  readonly levels: number;
}

/** The read→write dataflow of one workgroup memory, as a layered graph (a tree for reductions). */
export function dataflowTree(trace: Trace, memory: number): DataflowTree {
  const nodes: TreeNode[] = [];
  const byRecord = new Map<number, number>();
  let levels = 0;
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.stepMemory[s] !== memory || !isWrite(trace.opKind[trace.stepOp[s]!]!)) continue;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const sources: number[] = [];
      let level = 0;
      for (let k = trace.recProvStart[r]!; k < trace.recProvStart[r + 1]!; k++) {
        const src = byRecord.get(trace.provList[k]!);
        if (src === undefined) continue;
        sources.push(src);
        level = Math.max(level, nodes[src]!.level + 1);
      }
      byRecord.set(r, nodes.length);
      nodes.push({ record: r, step: s, addr: trace.recAddr[r]!, value: trace.recValue[r]!, level, sources });
      levels = Math.max(levels, level + 1);
    }
  }
  return { memory, nodes, levels };
}

/** The deepest tree level written at or before `step` (-1 before the first write). */
export function levelAt(tree: DataflowTree, step: number): number {
  let level = -1;
  for (const n of tree.nodes) if (n.step <= step) level = Math.max(level, n.level);
  return level;
}

/**
 * Words written at a tree level, ascending, and the stride between them when it is constant:
 * 1 for the interleaved tree's contiguous writes, 2, 4, 8… for the neighbored tree's.
 */
export function levelShape(tree: DataflowTree, level: number): { addrs: number[]; stride: number | undefined } {
  const addrs = [...new Set(tree.nodes.filter((n) => n.level === level).map((n) => n.addr))].sort((a, b) => a - b);
  let stride: number | undefined;
  for (let i = 1; i < addrs.length; i++) {
    const d = addrs[i]! - addrs[i - 1]!;
    if (stride === undefined) stride = d;
    else if (stride !== d) return { addrs, stride: undefined };
  }
  return { addrs, stride };
}

/** The last memory access of `lane` in warp `warp` at or before `step`, for the lane details. */
export function lastAccessOfLane(index: TraceIndex, warp: number, lane: number, step: number, lookBack = 400): string {
  const { trace } = index;
  const steps = index.warpSteps[warp];
  if (!steps) return '';
  const pos = lastAtOrBefore(steps, step);
  for (let p = pos; p >= 0 && pos - p < lookBack; p--) {
    const s = steps[p]!;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      if (trace.recLane[r] !== lane) continue;
      const mem = trace.memories[trace.stepMemory[s]!];
      const kind = trace.opKind[trace.stepOp[s]!]!;
      const verb = isWrite(kind) || kind === OpKind.storeGlobal ? 'wrote' : kind === OpKind.atomicGlobal ? 'updated' : 'read';
      return ui(`lane.access.${verb}`, { step: s + 1, word: `${mem?.name ?? '?'}[${trace.recAddr[r]}]`, value: trace.recValue[r]! });
    }
  }
  return ui('lane.noAccess');
}
