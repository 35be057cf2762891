/**
 * Scan-specific questions of a trace, for the scan lab's views: the up-sweep and down-sweep trees
 * (or Hillis–Steele's log-step network) recovered from the read→write provenance of workgroup
 * memory, the additions counted so far, and per-request bank conflicts. Pure TypeScript over a
 * `Trace`; nothing here knows a kernel's source, its variable names or its index arithmetic.
 *
 * Rules, all read from provenance (`provList` of each workgroup-memory write record):
 * - a write with **no** workgroup-memory source is a *load* before the first addition (the value
 *   came from storage) and a *clear* after it (a constant, e.g. Blelloch's `temp[root] = 0`);
 * - a write with **one** source is a *copy* (Hillis–Steele's `buf[nxt + i] = buf[cur + i]`,
 *   Blelloch's "the left child takes the parent's value");
 * - a write with **two or more distinct** sources is an *addition*: one lane computed one `+`
 *   whose result landed in workgroup memory. This is the work counter's rule. Additions that stay
 *   in registers (subgroup scans, a lane's running total) are not counted: the trace records no
 *   provenance for them.
 * - Blelloch is recognised by its clear: the first constant write after the first addition,
 *   followed by more additions. Writes before it are the up-sweep, writes after it the down-sweep.
 *   This holds for the padded variant too, whose root lives at word `pad(2W − 1)`, not `2W − 1`:
 *   no address is assumed.
 */
import { OpKind, type Trace } from '../../sim/index.ts';
import { barrierPhase, lastAtOrBefore, requestWavefronts, type TraceIndex } from '../../trace/index.ts';
import { dataflowTree } from '../../trace/memory.ts';

export type ScanNodeKind = 'load' | 'add' | 'copy' | 'clear';
/** Which picture a node belongs to: Blelloch's two trees, or one log-step network. */
export type ScanSweep = 'load' | 'up' | 'clear' | 'down' | 'network';

export interface ScanNode {
  /** The write record (index into the trace's records). */
  readonly record: number;
  readonly step: number;
  readonly addr: number;
  readonly value: number;
  /**
   * The element position the word stands for: a word that was loaded keeps its rank among the
   * loaded words (so padded addresses fold back onto 0…n − 1); any other word (Hillis–Steele's
   * second buffer) takes the column of its rightmost source.
   */
  readonly column: number;
  readonly kind: ScanNodeKind;
  readonly sweep: ScanSweep;
  /**
   * Row in its picture. Loads, up-sweep and network: the provenance level (loads 0, then 1 + the
   * deepest source). Down-sweep: depth below the cleared root (root 0, then 1 + the deepest source
   * that is itself a down-sweep node or the root).
   */
  readonly row: number;
  /** Indices into `nodes` of the writes this value was computed from (distinct). */
  readonly sources: readonly number[];
}

export interface ScanDataflow {
  readonly memory: number;
  /** In trace order (ascending `step`). */
  readonly nodes: readonly ScanNode[];
  /** `nodes[i].step`, ascending, for binary search. */
  readonly nodeSteps: Int32Array;
  /** Distinct words loaded: the tile's element count `n` that the formulas take. */
  readonly leaves: number;
  /** Index of the clear node (Blelloch's root), or -1 when the trace has none. */
  readonly clear: number;
  /** Rows of the up-sweep (or network) picture, leaves included. */
  readonly upRows: number;
  /** Rows of the down-sweep picture, the cleared root included; 0 without a clear. */
  readonly downRows: number;
  /** `additionsBefore[i]`: additions among `nodes[0 … i)`; length `nodes.length + 1`. */
  readonly additionsBefore: Int32Array;
  /** Additions per row of the up-sweep / network picture and per row of the down-sweep picture. */
  readonly additionsPerUpRow: readonly number[];
  readonly additionsPerDownRow: readonly number[];
  /** `upMax[i]` / `downMax[i]`: deepest up / down row among `nodes[0 … i]`, -1 if none yet. */
  readonly upMax: Int32Array;
  readonly downMax: Int32Array;
  /** Steps of the first addition, the first and last down-sweep write, and the last addition (-1 if none). */
  readonly firstAddStep: number;
  readonly firstDownStep: number;
  readonly lastAddStep: number;
}

/** The scan dataflow of one workgroup memory. O(write records). */
export function scanDataflow(trace: Trace, memory: number): ScanDataflow {
  const tree = dataflowTree(trace, memory);
  const n = tree.nodes.length;
  const sources = tree.nodes.map((t) => [...new Set(t.sources)]);
  let firstAdd = -1;
  for (let i = 0; i < n && firstAdd < 0; i++) if (sources[i]!.length >= 2) firstAdd = i;

  // The clear: a constant written after additions began, with more additions after it.
  let clear = -1;
  if (firstAdd >= 0) {
    for (let i = firstAdd + 1; i < n && clear < 0; i++) if (sources[i]!.length === 0) clear = i;
    if (clear >= 0 && !sources.slice(clear + 1).some((s) => s.length >= 2)) clear = -1;
  }

  const kinds: ScanNodeKind[] = sources.map((s, i) =>
    s.length >= 2 ? 'add' : s.length === 1 ? 'copy' : firstAdd < 0 || i < firstAdd ? 'load' : 'clear',
  );
  const loadAddrs = [...new Set(tree.nodes.filter((_, i) => kinds[i] === 'load').map((t) => t.addr))].sort((a, b) => a - b);
  const rank = new Map(loadAddrs.map((a, k) => [a, k]));

  const nodes: ScanNode[] = [];
  const downDepth = new Int32Array(n).fill(-1);
  const nodeSteps = new Int32Array(n);
  const additionsBefore = new Int32Array(n + 1);
  const upMax = new Int32Array(n);
  const downMax = new Int32Array(n);
  const perUp: number[] = [];
  const perDown: number[] = [];
  let upRows = 0;
  let downRows = 0;
  let firstDownStep = -1;
  let lastAddStep = -1;
  for (let i = 0; i < n; i++) {
    const t = tree.nodes[i]!;
    const src = sources[i]!;
    const kind = kinds[i]!;
    let column = rank.get(t.addr);
    if (column === undefined) column = src.length > 0 ? Math.max(...src.map((s) => nodes[s]!.column)) : t.addr;
    let sweep: ScanSweep;
    let row: number;
    if (kind === 'load') {
      sweep = 'load';
      row = 0;
    } else if (clear < 0) {
      sweep = 'network';
      row = t.level;
    } else if (i < clear) {
      sweep = 'up';
      row = t.level;
    } else if (i === clear) {
      sweep = 'clear';
      row = 0;
      downDepth[i] = 0;
    } else {
      sweep = 'down';
      // Depth counts only the sources on the down-sweep side: the parent, not the left child's
      // old value (an up-sweep node) that the right child adds.
      let depth = -1;
      for (const s of src) depth = Math.max(depth, downDepth[s]!);
      row = depth + 1;
      downDepth[i] = row;
      if (firstDownStep < 0) firstDownStep = t.step;
    }
    nodes.push({ record: t.record, step: t.step, addr: t.addr, value: t.value, column, kind, sweep, row, sources: src });
    nodeSteps[i] = t.step;
    const isAdd = kind === 'add' ? 1 : 0;
    additionsBefore[i + 1] = additionsBefore[i]! + isAdd;
    if (isAdd) lastAddStep = t.step;
    const onDown = sweep === 'down' || sweep === 'clear';
    upMax[i] = Math.max(i > 0 ? upMax[i - 1]! : -1, onDown ? -1 : row);
    downMax[i] = Math.max(i > 0 ? downMax[i - 1]! : -1, onDown ? row : -1);
    if (onDown) {
      downRows = Math.max(downRows, row + 1);
      perDown[row] = (perDown[row] ?? 0) + isAdd;
    } else {
      upRows = Math.max(upRows, row + 1);
      perUp[row] = (perUp[row] ?? 0) + isAdd;
    }
  }
  return {
    memory,
    nodes,
    nodeSteps,
    leaves: loadAddrs.length,
    clear,
    upRows,
    downRows,
    additionsBefore,
    additionsPerUpRow: Array.from({ length: upRows }, (_, r) => perUp[r] ?? 0),
    additionsPerDownRow: Array.from({ length: downRows }, (_, r) => perDown[r] ?? 0),
    upMax,
    downMax,
    firstAddStep: firstAdd >= 0 ? nodes[firstAdd]!.step : -1,
    firstDownStep,
    lastAddStep,
  };
}

/** Nodes written at or before `step`: `nodes[0 … count)`. */
export function nodesWrittenBy(flow: ScanDataflow, step: number): number {
  return lastAtOrBefore(flow.nodeSteps, step) + 1;
}

/** Additions the trace has performed at or before `step`. */
export function additionsAt(flow: ScanDataflow, step: number): number {
  return flow.additionsBefore[nodesWrittenBy(flow, step)]!;
}

export type ScanPhase = 'load' | 'up-sweep' | 'root-clear' | 'down-sweep' | 'network' | 'write-out';

export interface ScanPhaseAt {
  readonly phase: ScanPhase;
  /** Deepest row of the phase's picture written so far (-1 before any): the level to highlight. */
  readonly upLevel: number;
  readonly downLevel: number;
}

/**
 * Where `step` stands: before the first addition the tile is still being loaded; for Blelloch,
 * up-sweep until the clear is written, root clear until the first down-sweep write, down-sweep
 * until its last addition; otherwise the network until its last addition. After that, the
 * results are being written out.
 */
export function scanPhaseAt(flow: ScanDataflow, step: number): ScanPhaseAt {
  const k = nodesWrittenBy(flow, step);
  const upLevel = k > 0 ? flow.upMax[k - 1]! : -1;
  const downLevel = k > 0 ? flow.downMax[k - 1]! : -1;
  let phase: ScanPhase;
  if (flow.firstAddStep < 0 || step < flow.firstAddStep) phase = 'load';
  else if (flow.clear >= 0) {
    const clearStep = flow.nodes[flow.clear]!.step;
    if (step < clearStep) phase = 'up-sweep';
    else if (flow.firstDownStep < 0 || step < flow.firstDownStep) phase = 'root-clear';
    else if (step <= flow.lastAddStep) phase = 'down-sweep';
    else phase = 'write-out';
  } else phase = step <= flow.lastAddStep ? 'network' : 'write-out';
  return { phase, upLevel, downLevel };
}

/** The first step at which `phase` holds, or -1 (for the jump buttons). */
export function phaseStart(flow: ScanDataflow, phase: ScanPhase): number {
  switch (phase) {
    case 'load':
      return flow.nodes.length > 0 ? 0 : -1;
    case 'up-sweep':
    case 'network':
      return flow.firstAddStep;
    case 'root-clear':
      return flow.clear >= 0 ? flow.nodes[flow.clear]!.step : -1;
    case 'down-sweep':
      return flow.firstDownStep;
    case 'write-out':
      return flow.lastAddStep >= 0 ? flow.lastAddStep + 1 : -1;
  }
}

/**
 * The distance between the two sources of the additions in each network row, when it is the same
 * for every addition of the row: Hillis–Steele's offset 1, 2, 4, … (undefined otherwise).
 */
export function networkOffsets(flow: ScanDataflow): (number | undefined)[] {
  const out: (number | undefined)[] = Array.from({ length: flow.upRows }, () => undefined);
  const mixed = new Set<number>();
  for (const node of flow.nodes) {
    if (node.kind !== 'add' || node.sweep === 'down' || node.sources.length !== 2) continue;
    const [a, b] = node.sources.map((s) => flow.nodes[s]!.column) as [number, number];
    const d = Math.abs(a - b);
    if (out[node.row] === undefined && !mixed.has(node.row)) out[node.row] = d;
    else if (out[node.row] !== d) {
      out[node.row] = undefined;
      mixed.add(node.row);
    }
  }
  return out;
}

// ---- Bank conflicts ----

const isSharedRequest = (trace: Trace, step: number): boolean => {
  const mem = trace.stepMemory[step]!;
  if (mem < 0 || trace.memories[mem]?.space !== 'workgroup') return false;
  const kind = trace.opKind[trace.stepOp[step]!];
  return (kind === OpKind.loadShared || kind === OpKind.storeShared || kind === OpKind.atomicShared) && trace.stepRecStart[step + 1]! > trace.stepRecStart[step]!;
};

/** Steps that are workgroup-memory requests (loads, stores, atomics with at least one lane), ascending. */
export function sharedRequestSteps(trace: Trace): Int32Array {
  const out: number[] = [];
  for (let s = 0; s < trace.stepCount; s++) if (isSharedRequest(trace, s)) out.push(s);
  return Int32Array.from(out);
}

export interface BankRequest {
  /** Ordinal among the trace's workgroup-memory requests. */
  readonly ordinal: number;
  readonly step: number;
  readonly warp: number;
  readonly line: number;
  readonly wavefronts: number;
}

export interface BankSummary {
  readonly requests: number;
  /** Requests served in more than one wavefront. */
  readonly conflicted: number;
  /** Σ (wavefronts − 1): the simulator's `sharedBankConflicts` for the traced workgroups. */
  readonly conflicts: number;
  /** The request with the most wavefronts (the first of them), if any. */
  readonly worst: BankRequest | undefined;
}

function requestAt(trace: Trace, steps: Int32Array, ordinal: number): BankRequest | undefined {
  const step = steps[ordinal];
  if (step === undefined) return undefined;
  return { ordinal, step, warp: trace.stepWarp[step]!, line: trace.opLine[trace.stepOp[step]!]!, wavefronts: requestWavefronts(trace, step) };
}

/** Bank conflicts of every workgroup-memory request in the trace. */
export function bankSummary(trace: Trace, steps: Int32Array = sharedRequestSteps(trace)): BankSummary {
  let conflicted = 0;
  let conflicts = 0;
  let worst = -1;
  let worstW = 0;
  for (let k = 0; k < steps.length; k++) {
    const w = requestWavefronts(trace, steps[k]!);
    if (w > 1) conflicted++;
    conflicts += Math.max(0, w - 1);
    if (w > worstW) [worst, worstW] = [k, w];
  }
  return { requests: steps.length, conflicted, conflicts, worst: worst >= 0 ? requestAt(trace, steps, worst) : undefined };
}

/** The workgroup-memory request at or before `step` (the one the strip shows, or the last one before it). */
export function requestAtOrBefore(trace: Trace, steps: Int32Array, step: number): BankRequest | undefined {
  const k = lastAtOrBefore(steps, step);
  return k >= 0 ? requestAt(trace, steps, k) : undefined;
}

/** The request with ordinal `ordinal` in a trace. */
export function requestByOrdinal(trace: Trace, steps: Int32Array, ordinal: number): BankRequest | undefined {
  return requestAt(trace, steps, ordinal);
}

/** Where a request sits: its warp, the barrier phase it runs in, and its rank among that warp's requests in that phase. */
export interface RequestPlace {
  readonly warp: number;
  readonly phase: number;
  readonly rank: number;
}

export function requestPlace(index: TraceIndex, steps: Int32Array, request: BankRequest): RequestPlace {
  const { trace } = index;
  const phase = barrierPhase(index, request.step);
  let rank = 0;
  for (let k = request.ordinal - 1; k >= 0; k--) {
    const s = steps[k]!;
    if (barrierPhase(index, s) !== phase) break;
    if (trace.stepWarp[s] === request.warp) rank++;
  }
  return { warp: request.warp, phase, rank };
}

/**
 * The same request in another variant's trace: same warp, same barrier phase, same rank (or that
 * warp's last request of the phase when the other kernel issues fewer there). Two kernels that
 * differ in their index arithmetic (Blelloch with and without padding) line up this way; counting
 * requests from the start would not, since one reads the root twice where the other reads once.
 */
export function findRequest(index: TraceIndex, steps: Int32Array, place: RequestPlace): BankRequest | undefined {
  const { trace } = index;
  let found = -1;
  let rank = 0;
  for (let k = 0; k < steps.length; k++) {
    const s = steps[k]!;
    if (trace.stepWarp[s] !== place.warp) continue;
    const phase = barrierPhase(index, s);
    if (phase < place.phase) continue;
    if (phase > place.phase) break;
    found = k;
    if (rank++ === place.rank) break;
  }
  return found >= 0 ? requestAt(trace, steps, found) : undefined;
}
