/**
 * The SIMT machine: warps, memories, metrics, diagnostics and the fixed schedule.
 *
 * Schedule (documented, so every run is reproducible): workgroups run one after another in
 * linear order (x fastest, then y, then z). Inside a workgroup, warp 0 runs until it reaches a
 * barrier or finishes, then warp 1, and so on; when every unfinished warp waits at a barrier the
 * barrier completes and the round starts again from warp 0. Atomics inside a warp apply in lane
 * order.
 */
import type { Pos } from './ast.ts';
import type { MemoryObserver } from './observers.ts';
import { TAINT_SLOTS, type TraceBuilder } from './trace.ts';

/** A compiled instruction: runs one warp instruction for the warp's active lanes. */
export type OpFn = (w: Warp) => void;

export const RUN = 0;
export const WAIT = 1;
export const DONE = 2;

/** Diagnostic kinds, as the public API names them. */
export type DiagnosticKind =
  | 'race'
  | 'barrier-divergence'
  | 'out-of-bounds'
  | 'step-limit'
  | 'trace-limit'
  | 'unsupported';

export interface Diagnostic {
  readonly kind: DiagnosticKind;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export class Warp {
  readonly R: Float64Array;
  /** The instance this warp runs in: its memories, counters and diagnostics. */
  readonly M: Machine;
  T: Int32Array | null = null;
  readonly mask: Uint8Array;
  readonly exist: Uint8Array;
  readonly lanes: Int32Array;
  n = 0;
  nExist = 0;
  readonly park: Int32Array;
  /** Saved masks; read them through {@link saved}, which knows the entries that were not copied. */
  readonly stack: Uint8Array[] = [];
  /** Per stack entry: 1 when every existing lane was active at the push (the entry is `exist`, not copied). */
  readonly fullS: number[] = [];
  /** Per stack entry: whether the mask changed inside the construct (0 = still the saved one). */
  readonly modS: number[] = [];
  /** Per stack entry: `parkCount` when the construct began. */
  readonly pkS: number[] = [];
  /** Per stack entry: lanes that did not take an `if` (0 = the else side can be skipped). */
  readonly cntS: number[] = [];
  /** Bumped whenever lanes park (break/continue/return/loop exit). */
  parkCount = 0;
  sp = 0;
  pc = 0;
  status = RUN;
  /** Per-lane word addresses of the current memory instruction. */
  readonly addr: Int32Array;
  /** Per lane: the current memory instruction's address was clamped (out of bounds). */
  readonly oob: Uint8Array;

  constructor(M: Machine, readonly id: number, readonly W: number, nregs: number) {
    this.M = M;
    this.R = new Float64Array(nregs * W);
    this.mask = new Uint8Array(W);
    this.exist = new Uint8Array(W);
    this.lanes = new Int32Array(W);
    this.park = new Int32Array(W);
    this.addr = new Int32Array(W);
    this.oob = new Uint8Array(W);
  }

  /** Rebuilds the active-lane list from `mask`. */
  relanes(): void {
    const m = this.mask;
    const L = this.lanes;
    let n = 0;
    for (let l = 0; l < this.W; l++) if (m[l]) L[n++] = l;
    this.n = n;
  }

  push(): void {
    // The mask never holds a lane that does not exist, so with all of them active it is `exist`.
    if (this.n === this.nExist) this.fullS[this.sp] = 1;
    else {
      this.fullS[this.sp] = 0;
      let s = this.stack[this.sp];
      if (!s) {
        s = new Uint8Array(this.W);
        this.stack[this.sp] = s;
      }
      s.set(this.mask);
    }
    this.modS[this.sp] = 0;
    this.pkS[this.sp] = this.parkCount;
    this.cntS[this.sp] = 0;
    this.sp++;
  }

  /** The mask saved by stack entry `i`. */
  saved(i: number): Uint8Array {
    return this.fullS[i] ? this.exist : this.stack[i]!;
  }
}

/**
 * What the compiled program knows about a memory: everything but its contents and, for buffers,
 * its size (which the bindings of each run decide).
 */
export interface MemInfo {
  readonly id: number;
  readonly name: string;
  readonly space: 'storage' | 'uniform' | 'workgroup';
  /** Size in words for workgroup memory; -1 for a buffer (sized by its binding). */
  readonly words: number;
  readonly group: number;
  readonly binding: number;
  readonly readOnly: boolean;
  /** The declaration, for messages about a missing binding. */
  readonly pos: Pos;
  /** Its type holds f16 values: accesses may touch half a word (races are tracked per half). */
  readonly halves?: boolean;
  /** For a buffer: the fewest words its binding may hold (see `minBindingWords`). */
  readonly minWords?: number;
  /** For workgroup memory whose every word is one scalar (an array of u32, i32 or f32, or of their atomics): that type. */
  readonly element?: 'u32' | 'i32' | 'f32';
}

/** A memory: a storage/uniform binding or a workgroup variable, in 4-byte words. */
export class Mem {
  readonly u32: Uint32Array;
  readonly i32: Int32Array;
  readonly f32: Float32Array;
  /** Last write record per word (trace provenance). */
  lastWrite: Int32Array | null = null;
  /** It holds f16 values (see `MemInfo.halves`). */
  halves = false;
  /** See `MemInfo.element`. */
  element: MemInfo['element'];
  private u16view: Uint16Array | null = null;

  /** The memory as 2-byte halves (little-endian: half 2a is the low half of word a). */
  get u16(): Uint16Array {
    return (this.u16view ??= new Uint16Array(this.u32.buffer));
  }

  constructor(
    readonly id: number,
    readonly name: string,
    readonly space: 'storage' | 'uniform' | 'workgroup',
    readonly words: number,
    readonly group: number,
    readonly binding: number,
    readonly readOnly: boolean,
  ) {
    const buf = new ArrayBuffer(Math.max(words, 1) * 4);
    this.u32 = new Uint32Array(buf);
    this.i32 = new Int32Array(buf);
    this.f32 = new Float32Array(buf);
    if (space === 'workgroup') this.lastWrite = new Int32Array(Math.max(words, 1)).fill(-1);
  }
}

export const READ = 0;
export const WRITE = 1;
export const ATOMIC = 2;
/** atomicLoad: a read that, like every atomic access, never races with another atomic access. */
export const ATOMIC_READ = 3;

export interface Metrics {
  warpInstructions: number;
  laneInstructions: number;
  warpExecutionEfficiency: number;
  divergentBranches: number;
  barriers: number;
  sharedRequests: number;
  sharedBankConflicts: number;
  globalRequests: number;
  globalTransactions: number;
  atomics: number;
}

/** Thrown to stop the whole run (step limit, cancel). */
export class StopRun extends Error {}

/** Shared runtime state the compiled instructions read and update. */
export class Machine {
  W: number;
  warpInstructions = 0;
  laneInstructions = 0;
  divergentBranches = 0;
  barriers = 0;
  sharedRequests = 0;
  sharedBankConflicts = 0;
  globalRequests = 0;
  globalTransactions = 0;
  atomics = 0;
  /** Barrier interval counter, global across workgroups, for race detection. */
  epoch = 0;
  /** What watches each memory request (metrics, races, user observers). */
  observers: readonly MemoryObserver[] = [];
  readonly diags = new Map<string, Diagnostic & { count: number }>();
  /** Trace builder when the current workgroup is traced, else null. */
  tr: TraceBuilder | null = null;
  wgLinear = 0;
  /** Source position of each instruction (filled by the compiler). */
  opPos: Pos[] = [];
  /** The run's memories, indexed by `MemInfo.id`. */
  mems: Mem[] = [];
  /**
   * Set while observers see a request of f16 data: each active lane's first half-word
   * (`halfAddr[l]`, in 2-byte units) and the halves each lane touches from there. Null for
   * whole-word requests (then `w.addr` and `span` say it all).
   */
  halfAddr: Int32Array | null = null;
  halfSpan = 0;

  constructor(W: number) {
    this.W = W;
  }

  diag(kind: DiagnosticKind, pos: Pos, message: string): void {
    const key = `${kind}:${pos.line}:${pos.col}`;
    const d = this.diags.get(key);
    if (d) d.count++;
    else this.diags.set(key, { kind, line: pos.line, column: pos.col, message, count: 1 });
  }

  /**
   * One warp memory request: bounds (clamping into the memory like WebGPU's robust access), then
   * the observers (metrics, races). `w.addr` holds each active lane's first word.
   */
  access(w: Warp, mem: Mem, span: number, mode: number, op: number): void {
    const L = w.lanes;
    const n = w.n;
    const A = w.addr;
    const lim = mem.words - span;
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      const a = A[l]!;
      if (a < 0 || a > lim) {
        this.outOfBounds(w, mem, l, a, op);
        A[l] = a < 0 || lim < 0 ? 0 : lim;
        w.oob[l] = 1;
      }
    }
    this.observe(w, mem, span, mode, op);
  }

  /** Hands a bounds-checked warp request to the observers. */
  observe(w: Warp, mem: Mem, span: number, mode: number, op: number): void {
    const obs = this.observers;
    for (let k = 0; k < obs.length; k++) obs[k]!.access(this, w, mem, span, mode, op);
  }

  outOfBounds(w: Warp, mem: Mem, lane: number, addr: number, op: number): void {
    const pos = this.opPos[op] ?? { line: 0, col: 0 };
    this.diag(
      'out-of-bounds',
      pos,
      `out-of-bounds access to '${mem.name}' (word ${addr}, size ${mem.words} words) by workgroup ` +
        `${this.wgLinear}, invocation ${w.id * this.W + lane}. WebGPU does not fault: the access is ` +
        `clamped into the buffer or discarded (reads may return any in-bounds value or 0); the ` +
        `simulator clamps it. CUDA would read or write past the allocation.`,
    );
  }

  /**
   * Fills `w.addr` for the active lanes: `off + dyn + clamp(index) * stride`, and `w.oob` with
   * whether an index was clamped (the flag register follows `dyn`).
   */
  addresses(w: Warp, off: number, dyn: number, IX: number, stride: number, count: number, hasIx: boolean, op: number): void {
    const R = w.R;
    const L = w.lanes;
    const A = w.addr;
    const O = w.oob;
    const n = w.n;
    const W = this.W;
    const DY = dyn * W;
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      let a = off;
      let bad = 0;
      if (dyn >= 0) {
        a += R[DY + l]!;
        bad = R[DY + W + l]!;
      }
      if (hasIx) {
        let x = R[IX + l]!;
        if (x >= count || x < 0) {
          this.indexOutOfBounds(w, l, x, count, op);
          x = x < 0 || count === 0 ? 0 : count - 1;
          bad = 1;
        }
        a += x * stride;
      }
      A[l] = a;
      O[l] = bad;
    }
  }

  /** Index out of range of a sized array (also clamped, like WGSL's robust access). */
  indexOutOfBounds(w: Warp, lane: number, index: number, count: number, op: number): void {
    const pos = this.opPos[op] ?? { line: 0, col: 0 };
    this.diag(
      'out-of-bounds',
      pos,
      `index ${index} is outside 0…${count - 1} (workgroup ${this.wgLinear}, invocation ` +
        `${w.id * this.W + lane}). WebGPU clamps the index or discards the access instead of ` +
        `faulting; the simulator clamps it to ${count - 1 < 0 ? 0 : index < 0 ? 0 : count - 1}.`,
    );
  }

  /**
   * Records per-lane memory values for the trace (and provenance for workgroup memory). Word `c`
   * of the access is at `addr + offs[c]`, its value in register `valueReg + c`; for writes the
   * taint of register `srcReg + c` becomes the record's provenance.
   */
  traceMem(w: Warp, mem: Mem, offs: Int32Array, valueReg: number, mode: number, srcReg: number): void {
    const tr = this.tr!;
    const L = w.lanes;
    const n = w.n;
    const A = w.addr;
    const R = w.R;
    const W = this.W;
    const T = w.T;
    const K = TAINT_SLOTS;
    const shared = mem.space === 'workgroup';
    const lw = mem.lastWrite;
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      for (let c = 0; c < offs.length; c++) {
        const a = A[l]! + offs[c]!;
        const r = tr.addRecord(mem.id, l, a, R[(valueReg + c) * W + l]!);
        if (!shared || !T || !lw) continue;
        if (mode === READ || mode === ATOMIC_READ) {
          // The loaded register's taint is the word's last write.
          const t0 = ((valueReg + c) * W + l) * K;
          T[t0] = lw[a]!;
          for (let k = 1; k < K; k++) T[t0 + k] = -1;
        } else {
          const prev = lw[a]!;
          if (srcReg >= 0) {
            const ts = ((srcReg + c) * W + l) * K;
            for (let k = 0; k < K; k++) {
              const s = T[ts + k]!;
              if (s < 0) break;
              tr.addProvenance(s);
            }
          }
          if (mode === ATOMIC && prev >= 0) tr.addProvenance(prev);
          lw[a] = r;
        }
      }
    }
  }

  /**
   * One trace record of an access that is not `addr + offs[c]` for every lane (f16 data, whose
   * halves fall on a lane's own word): lane `l`, word `a`, the value in register `valueReg`, and
   * for writes the taint of `srcReg` (-1: none) as the record's provenance.
   */
  traceOne(w: Warp, mem: Mem, l: number, a: number, valueReg: number, mode: number, srcReg: number): void {
    const tr = this.tr!;
    const W = this.W;
    const r = tr.addRecord(mem.id, l, a, w.R[valueReg * W + l]!);
    const T = w.T;
    const lw = mem.lastWrite;
    if (mem.space !== 'workgroup' || !T || !lw) return;
    const K = TAINT_SLOTS;
    if (mode === READ || mode === ATOMIC_READ) {
      const t0 = (valueReg * W + l) * K;
      T[t0] = lw[a]!;
      for (let k = 1; k < K; k++) T[t0 + k] = -1;
      return;
    }
    if (srcReg >= 0) {
      const ts = (srcReg * W + l) * K;
      for (let k = 0; k < K; k++) {
        const s = T[ts + k]!;
        if (s < 0) break;
        tr.addProvenance(s);
      }
    }
    lw[a] = r;
  }

  metrics(): Metrics {
    return {
      warpInstructions: this.warpInstructions,
      laneInstructions: this.laneInstructions,
      warpExecutionEfficiency:
        this.warpInstructions === 0 ? 1 : this.laneInstructions / (this.warpInstructions * this.W),
      divergentBranches: this.divergentBranches,
      barriers: this.barriers,
      sharedRequests: this.sharedRequests,
      sharedBankConflicts: this.sharedBankConflicts,
      globalRequests: this.globalRequests,
      globalTransactions: this.globalTransactions,
      atomics: this.atomics,
    };
  }
}

const TAINT_TMP = new Int32Array(TAINT_SLOTS);

/** Union of the operands' taints into the destinations, for the active lanes. */
export function propagateTaint(w: Warp, srcs: Int32Array, dsts: Int32Array): void {
  const T = w.T!;
  const K = TAINT_SLOTS;
  const W = w.W;
  const L = w.lanes;
  const tmp = TAINT_TMP;
  for (let i = 0; i < w.n; i++) {
    const l = L[i]!;
    let m = 0;
    for (let s = 0; s < srcs.length && m < K; s++) {
      const b = (srcs[s]! * W + l) * K;
      for (let k = 0; k < K && m < K; k++) {
        const v = T[b + k]!;
        if (v < 0) break;
        let dup = false;
        for (let j = 0; j < m; j++) if (tmp[j] === v) dup = true;
        if (!dup) tmp[m++] = v;
      }
    }
    for (let d = 0; d < dsts.length; d++) {
      const b = (dsts[d]! * W + l) * K;
      for (let k = 0; k < K; k++) T[b + k] = k < m ? tmp[k]! : -1;
    }
  }
}
