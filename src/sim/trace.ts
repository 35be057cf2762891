/**
 * The trace: one record per executed warp instruction, stored in parallel typed arrays so a view
 * can seek any step in O(1) (`traceStep(trace, i)`) and the whole thing crosses to the UI thread
 * as transferable buffers.
 *
 * Layout:
 * - per step `s`: `stepWorkgroup[s]`, `stepWarp[s]`, `stepOp[s]` (IR instruction → `opLine`,
 *   `opColumn`, `opKind`), the active mask in `stepMask[s*maskWords … +maskWords)`, the memory
 *   binding touched `stepMemory[s]` (-1 for none) and its per-lane records
 *   `[stepRecStart[s], stepRecStart[s+1])`.
 * - per memory record `r` (one per active lane and word): `recLane`, `recAddr` (word address in
 *   that binding), `recValue` (value read, or written; for atomics the value written). Bank and
 *   sector are functions of the address under `trace.hardware` (`src/sim/hardware.ts`), computed
 *   by `traceStep`; each step's wavefronts and sectors are recorded in `stepWavefronts` and
 *   `stepSectors` so no view recomputes them.
 * - provenance: for a workgroup-memory write record `r`, `provList[recProvStart[r] …
 *   recProvStart[r+1])` are the earlier write records whose values it was computed from.
 *
 * How provenance is tracked: while tracing, every register of every lane carries a small "taint"
 * set (at most `TAINT_SLOTS` record ids). A workgroup-memory load sets the destination's taint to
 * the last write record of each word it read; ALU instructions give their results the union of
 * their operands' taints; a workgroup-memory store records its value's taint as the write's
 * sources. Control dependencies are not followed (a value chosen by `select` or an `if` on a
 * loaded value carries only its data operands), which is what the reduction and scan trees need:
 * `s[i] = s[i] + s[i + stride]` → sources {last write of s[i], last write of s[i + stride]}.
 */

import { bankOf, DEFAULT_HARDWARE, hardwareWithWarpSize, requestSectors, requestWavefronts, sectorOf, type HardwareModel } from './hardware.ts';

/** What kind of work a warp instruction does. */
export const OpKind = {
  alu: 0,
  branch: 1,
  loadShared: 2,
  storeShared: 3,
  atomicShared: 4,
  loadGlobal: 5,
  storeGlobal: 6,
  atomicGlobal: 7,
  barrier: 8,
  subgroup: 9,
  local: 10,
  loadUniform: 11,
  exit: 12,
  meta: 13,
} as const;
export type OpKindValue = (typeof OpKind)[keyof typeof OpKind];
/** Names of `OpKind` values, indexable by the value. */
export const OP_KIND_NAMES = [
  'alu', 'branch', 'load.shared', 'store.shared', 'atomic.shared', 'load.global', 'store.global',
  'atomic.global', 'barrier', 'subgroup', 'local', 'load.uniform', 'exit', 'meta',
] as const;

/** Taint slots per register and lane (provenance sources kept per value). */
export const TAINT_SLOTS = 4;

/** A memory binding as the trace names it. */
export interface TraceMemory {
  readonly id: number;
  readonly name: string;
  readonly space: 'storage' | 'uniform' | 'workgroup';
  readonly group: number;
  readonly binding: number;
  readonly words: number;
  /** Workgroup memory whose every word is one u32, i32 or f32: that type (how the debugger reads `sdata[i]`). */
  readonly element?: 'u32' | 'i32' | 'f32';
  /** The binding's name in the kernel the run stands in for (`KernelRun.aliases`), where it has one. */
  readonly alias?: string;
}

/** The full trace. Every array is a transferable typed array. */
export interface Trace {
  readonly warpSize: number;
  /** The banks, word and sector sizes and warp size the counters below were computed with. */
  readonly hardware: HardwareModel;
  /** The kernel's `@workgroup_size`, x·y·z. */
  readonly workgroupSize: readonly [number, number, number];
  /** Invocations per workgroup (x·y·z of `workgroupSize`). */
  readonly invocations: number;
  /** Per step: wavefronts of its workgroup-memory request (0 when it makes none). */
  readonly stepWavefronts: Uint8Array;
  /** Per step: sectors its storage-memory request touches (0 when it makes none). */
  readonly stepSectors: Uint16Array;
  readonly maskWords: number;
  readonly stepCount: number;
  readonly stepWorkgroup: Int32Array;
  readonly stepWarp: Int32Array;
  readonly stepOp: Int32Array;
  readonly stepMask: Uint32Array;
  readonly stepMemory: Int16Array;
  /** Length `stepCount + 1`. */
  readonly stepRecStart: Int32Array;
  readonly recordCount: number;
  readonly recLane: Uint16Array;
  readonly recAddr: Int32Array;
  readonly recValue: Float64Array;
  /** Length `recordCount + 1`. */
  readonly recProvStart: Int32Array;
  readonly provList: Int32Array;
  /** Per IR instruction: source line, column (1-based) and `OpKind`. */
  readonly opLine: Int32Array;
  readonly opColumn: Int32Array;
  readonly opKind: Uint8Array;
  readonly memories: readonly TraceMemory[];
  /** Linear ids of the workgroups whose steps are in the trace. */
  readonly workgroups: readonly number[];
  /**
   * Set when the trace reached its byte budget (`SimOptions.maxTraceBytes`): the steps from this
   * one on were run and counted but not recorded. Equal to `stepCount`.
   */
  readonly truncatedAt?: number;
}

/** The trace's default byte budget: what a browser tab can hold beside the rest of the app. */
export const DEFAULT_TRACE_BYTES = 256 * 2 ** 20;

/** One per-lane memory access of a step. */
export interface TraceAccess {
  readonly record: number;
  readonly lane: number;
  readonly addr: number;
  readonly value: number;
  /** Workgroup memory: the word's bank under `trace.hardware`. */
  readonly bank: number;
  /** Storage memory: the word's sector under `trace.hardware`. */
  readonly sector: number;
}

/** A light view of one step; building it costs O(active lanes) at most, and nothing until read. */
export interface TraceStepView {
  readonly step: number;
  readonly workgroup: number;
  readonly warp: number;
  readonly op: number;
  readonly line: number;
  readonly column: number;
  readonly kind: OpKindValue;
  readonly kindName: string;
  /** Memory binding id (index into `trace.memories`), or -1. */
  readonly memory: number;
  readonly activeCount: number;
  isActive(lane: number): boolean;
  accesses(): TraceAccess[];
}

/** O(1) view of step `i`. */
export function traceStep(trace: Trace, i: number): TraceStepView {
  if (i < 0 || i >= trace.stepCount) throw new RangeError(`step ${i} outside 0…${trace.stepCount - 1}`);
  const op = trace.stepOp[i]!;
  const mw = trace.maskWords;
  let active = 0;
  for (let k = 0; k < mw; k++) active += popcount(trace.stepMask[i * mw + k]!);
  const kind = trace.opKind[op]! as OpKindValue;
  return {
    step: i,
    workgroup: trace.stepWorkgroup[i]!,
    warp: trace.stepWarp[i]!,
    op,
    line: trace.opLine[op]!,
    column: trace.opColumn[op]!,
    kind,
    kindName: OP_KIND_NAMES[kind],
    memory: trace.stepMemory[i]!,
    activeCount: active,
    isActive: (lane) => ((trace.stepMask[i * mw + (lane >> 5)]! >>> (lane & 31)) & 1) === 1,
    accesses: () => {
      const out: TraceAccess[] = [];
      for (let r = trace.stepRecStart[i]!; r < trace.stepRecStart[i + 1]!; r++) {
        const addr = trace.recAddr[r]!;
        out.push({
          record: r,
          lane: trace.recLane[r]!,
          addr,
          value: trace.recValue[r]!,
          bank: bankOf(trace.hardware, addr),
          sector: sectorOf(trace.hardware, addr),
        });
      }
      return out;
    },
  };
}

/** The step that produced memory record `record` (binary search, O(log steps)). */
export function stepOfRecord(trace: Trace, record: number): number {
  let lo = 0;
  let hi = trace.stepCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (trace.stepRecStart[mid]! <= record) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Earlier workgroup-memory write records whose values flowed into write record `record`. */
export function provenanceOf(trace: Trace, record: number): number[] {
  const out: number[] = [];
  for (let k = trace.recProvStart[record]!; k < trace.recProvStart[record + 1]!; k++) out.push(trace.provList[k]!);
  return out;
}

/** Every typed array of a trace, for `postMessage(…, transfer)`. */
export function traceTransferables(trace: Trace): ArrayBuffer[] {
  const arrays = [
    trace.stepWorkgroup, trace.stepWarp, trace.stepOp, trace.stepMask, trace.stepMemory,
    trace.stepRecStart, trace.recLane, trace.recAddr, trace.recValue, trace.recProvStart,
    trace.provList, trace.opLine, trace.opColumn, trace.opKind, trace.stepWavefronts, trace.stepSectors,
  ];
  const seen = new Set<ArrayBuffer>();
  for (const a of arrays) if (a.buffer instanceof ArrayBuffer) seen.add(a.buffer);
  return [...seen];
}

/** Total bytes held by a trace's arrays. */
export function traceBytes(trace: Trace): number {
  return [
    trace.stepWorkgroup, trace.stepWarp, trace.stepOp, trace.stepMask, trace.stepMemory,
    trace.stepRecStart, trace.recLane, trace.recAddr, trace.recValue, trace.recProvStart,
    trace.provList, trace.opLine, trace.opColumn, trace.opKind, trace.stepWavefronts, trace.stepSectors,
  ].reduce((a, x) => a + x.byteLength, 0);
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A copy of `a` with `length` elements (the first `a.length` kept). */
function resize<T extends Int32Array | Uint32Array | Int16Array | Uint16Array | Float64Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a.subarray(0, Math.min(a.length, length)));
  return b;
}

function grow<T extends Int32Array | Uint32Array | Int16Array | Uint16Array | Float64Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let cap = a.length * 2;
  while (cap < need) cap *= 2;
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/**
 * Appends steps and records while the machine runs; `finish` trims the arrays to size. The arrays
 * never grow past `maxBytes` together: `beginStep` makes room for the step and the most records
 * and provenance it can add, and returns false (recording nothing more) when that room does not fit.
 */
export class TraceBuilder {
  steps = 0;
  recs = 0;
  provN = 0;
  wg = new Int32Array(1024);
  warp = new Int32Array(1024);
  op = new Int32Array(1024);
  mask: Uint32Array;
  mem = new Int16Array(1024);
  recStart = new Int32Array(1025);
  lane = new Uint16Array(4096);
  addr = new Int32Array(4096);
  val = new Float64Array(4096);
  provStart = new Int32Array(4097);
  prov = new Int32Array(4096);
  readonly workgroups: number[] = [];
  /** True once the budget is reached; nothing is recorded after. */
  full = false;
  /** Records one step may add: a vec4 access by every lane. */
  private readonly recsPerStep: number;

  constructor(
    readonly warpSize: number,
    readonly maskWords: number,
    readonly maxBytes: number = DEFAULT_TRACE_BYTES,
  ) {
    this.mask = new Uint32Array(1024 * maskWords);
    this.recsPerStep = 4 * warpSize;
  }

  /** Bytes per step, record and provenance entry, over all their arrays. */
  private get stepBytes(): number {
    return 4 + 4 + 4 + 2 + 4 + 4 * this.maskWords;
  }
  private static readonly REC_BYTES = 2 + 4 + 8 + 4;
  private static readonly PROV_BYTES = 4;

  /** Bytes held by the builder's arrays now. */
  get bytes(): number {
    return [this.wg, this.warp, this.op, this.mask, this.mem, this.recStart, this.lane, this.addr, this.val, this.provStart, this.prov]
      .reduce((a, x) => a + x.byteLength, 0);
  }

  /**
   * Capacities (steps, records, provenance) that hold `need` of each: doubled where they must
   * grow, or less when doubling would pass the budget; undefined when even `need` does not fit.
   */
  private plan(need: [number, number, number]): [number, number, number] | undefined {
    const caps: [number, number, number] = [this.wg.length, this.lane.length, this.prov.length];
    const unit = [this.stepBytes, TraceBuilder.REC_BYTES, TraceBuilder.PROV_BYTES];
    const cost = (c: readonly number[]) => c.reduce((a, x, i) => a + (x + 1) * unit[i]!, 0);
    const want = caps.map((c, i) => (need[i]! <= c ? c : Math.max(need[i]!, 2 * c)));
    if (cost(want) <= this.maxBytes) return want as [number, number, number];
    const least = caps.map((c, i) => Math.max(c, need[i]!));
    if (cost(least) > this.maxBytes) return undefined;
    // Share what is left between the arrays that must grow, half of it now, so growth near the
    // budget takes a few copies, not one per step.
    const growing = caps.filter((c, i) => need[i]! > c).length;
    let left = this.maxBytes - cost(least);
    const out = least.map((c, i) => {
      if (need[i]! <= caps[i]!) return c;
      const extra = Math.floor(left / 2 / growing / unit[i]!);
      return c + Math.max(0, extra);
    });
    left = this.maxBytes - cost(out);
    return left >= 0 ? (out as [number, number, number]) : (least as [number, number, number]);
  }

  /** Makes room for one more step and its records; false when the budget does not allow it. */
  private reserve(): boolean {
    const need: [number, number, number] = [this.steps + 1, this.recs + this.recsPerStep, this.provN + this.recsPerStep * (TAINT_SLOTS + 1)];
    if (need[0] <= this.wg.length && need[1] <= this.lane.length && need[2] <= this.prov.length) return true;
    const caps = this.plan(need);
    if (!caps) {
      this.full = true;
      return false;
    }
    const [sc, rc, pc] = caps;
    if (sc > this.wg.length) {
      this.wg = resize(this.wg, sc);
      this.warp = resize(this.warp, sc);
      this.op = resize(this.op, sc);
      this.mem = resize(this.mem, sc);
      this.mask = resize(this.mask, sc * this.maskWords);
      this.recStart = resize(this.recStart, sc + 1);
    }
    if (rc > this.lane.length) {
      this.lane = resize(this.lane, rc);
      this.addr = resize(this.addr, rc);
      this.val = resize(this.val, rc);
      this.provStart = resize(this.provStart, rc + 1);
    }
    if (pc > this.prov.length) this.prov = resize(this.prov, pc);
    return true;
  }

  /** Starts a step; false (and nothing recorded) once the trace has reached its byte budget. */
  beginStep(wg: number, warp: number, op: number, mask: Uint8Array): boolean {
    if (this.full || !this.reserve()) return false;
    const s = this.steps++;
    this.wg[s] = wg;
    this.warp[s] = warp;
    this.op[s] = op;
    this.mem[s] = -1;
    this.recStart[s] = this.recs;
    const mw = this.maskWords;
    const base = s * mw;
    for (let k = 0; k < mw; k++) this.mask[base + k] = 0;
    for (let l = 0; l < this.warpSize; l++) if (mask[l]) this.mask[base + (l >> 5)]! |= 1 << (l & 31);
    return true;
  }

  /** Adds a memory record to the current step; returns its index. */
  addRecord(memory: number, lane: number, addr: number, value: number): number {
    const r = this.recs++;
    if (r >= this.lane.length) {
      this.lane = grow(this.lane, r + 1);
      this.addr = grow(this.addr, r + 1);
      this.val = grow(this.val, r + 1);
      this.provStart = grow(this.provStart, this.lane.length + 1);
    }
    this.mem[this.steps - 1] = memory;
    this.lane[r] = lane;
    this.addr[r] = addr;
    this.val[r] = value;
    this.provStart[r] = this.provN;
    return r;
  }

  addProvenance(src: number): void {
    if (this.provN >= this.prov.length) this.prov = grow(this.prov, this.provN + 1);
    this.prov[this.provN++] = src;
  }

  finish(opLine: Int32Array, opColumn: Int32Array, opKind: Uint8Array, memories: TraceMemory[]): TraceArrays {
    this.recStart[this.steps] = this.recs;
    this.provStart[this.recs] = this.provN;
    // Each trimmed copy is made as the builder lets go of its array, so the peak stays near the
    // budget plus one array rather than twice the budget.
    const take = <T extends Int32Array | Uint32Array | Int16Array | Uint16Array | Float64Array>(a: T, n: number): T => a.slice(0, n) as T;
    const steps = this.steps;
    const recs = this.recs;
    const stepWorkgroup = take(this.wg, steps);
    this.wg = new Int32Array(0);
    const stepWarp = take(this.warp, steps);
    this.warp = new Int32Array(0);
    const stepOp = take(this.op, steps);
    this.op = new Int32Array(0);
    const stepMask = take(this.mask, steps * this.maskWords);
    this.mask = new Uint32Array(0);
    const stepMemory = take(this.mem, steps);
    this.mem = new Int16Array(0);
    const stepRecStart = take(this.recStart, steps + 1);
    this.recStart = new Int32Array(0);
    const recLane = take(this.lane, recs);
    this.lane = new Uint16Array(0);
    const recAddr = take(this.addr, recs);
    this.addr = new Int32Array(0);
    const recValue = take(this.val, recs);
    this.val = new Float64Array(0);
    const recProvStart = take(this.provStart, recs + 1);
    this.provStart = new Int32Array(0);
    const provList = take(this.prov, this.provN);
    this.prov = new Int32Array(0);
    return {
      warpSize: this.warpSize,
      maskWords: this.maskWords,
      stepCount: steps,
      stepWorkgroup,
      stepWarp,
      stepOp,
      stepMask,
      stepMemory,
      stepRecStart,
      recordCount: recs,
      recLane,
      recAddr,
      recValue,
      recProvStart,
      provList,
      opLine: opLine.slice(),
      opColumn: opColumn.slice(),
      opKind: opKind.slice(),
      memories,
      workgroups: this.workgroups.slice(),
      ...(this.full ? { truncatedAt: steps } : {}),
    };
  }
}

/** A trace as the builder leaves it, before `withRequestCounters` adds the hardware and request counters. */
export type TraceArrays = Omit<Trace, 'hardware' | 'workgroupSize' | 'invocations' | 'stepWavefronts' | 'stepSectors'>;

/**
 * Completes a built trace with the hardware model, the kernel's workgroup size and each step's
 * wavefronts (workgroup memory) and sectors (storage memory), so no view recomputes them.
 */
export function withRequestCounters(core: TraceArrays, workgroupSize: readonly [number, number, number]): Trace {
  const hardware = hardwareWithWarpSize(core.warpSize, DEFAULT_HARDWARE);
  const stepWavefronts = new Uint8Array(core.stepCount);
  const stepSectors = new Uint16Array(core.stepCount);
  for (let s = 0; s < core.stepCount; s++) {
    const m = core.stepMemory[s]!;
    const space = m >= 0 ? core.memories[m]?.space : undefined;
    const a = core.stepRecStart[s]!;
    const b = core.stepRecStart[s + 1]!;
    if (space === 'workgroup') stepWavefronts[s] = Math.min(255, requestWavefronts(hardware, core.recAddr, a, b));
    else if (space === 'storage') stepSectors[s] = Math.min(65535, requestSectors(hardware, core.recAddr, a, b));
  }
  return {
    ...core,
    hardware,
    workgroupSize: [workgroupSize[0], workgroupSize[1], workgroupSize[2]],
    invocations: workgroupSize[0] * workgroupSize[1] * workgroupSize[2],
    stepWavefronts,
    stepSectors,
  };
}
