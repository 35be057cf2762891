/**
 * Memory observers: everything the simulator measures about memory requests, behind one
 * interface. The interpreter only clamps addresses (semantics) and hands every warp request to
 * the instance's observers; counting bank conflicts, sectors and races lives here, so a new
 * metric is a new observer and never touches the instruction loop.
 *
 * A request reaches `access` after bounds checking: `w.addr[l]` is the first word of active lane
 * `l` (already clamped into the memory), `w.oob[l]` whether it was clamped, `span` the words each
 * lane touches from there.
 */
import { DEFAULT_HARDWARE, wordsPerSector } from './hardware.ts';
import { ATOMIC, ATOMIC_READ, READ, WRITE, type Machine, type Mem, type Warp } from './machine.ts';

/** Bank and sector arithmetic of the counters, from the one hardware model (recorded in the trace). */
const BANKS = DEFAULT_HARDWARE.banks;
const WORDS_PER_SECTOR = wordsPerSector(DEFAULT_HARDWARE);

export interface MemoryObserver {
  /** One warp memory request. `op` is the instruction index (for positions in messages). */
  access(M: Machine, w: Warp, mem: Mem, span: number, mode: number, op: number): void;
}

/**
 * Workgroup memory: one request per warp instruction; its wavefronts are the most distinct words
 * any one of the hardware model's banks (32) is asked for, conflicts = wavefronts - 1.
 */
export class BankConflicts implements MemoryObserver {
  private readonly bankCount = new Int32Array(BANKS);
  private readonly bankStamp = new Int32Array(BANKS).fill(-1);
  private stamps: (Int32Array | undefined)[] = [];
  private req = 0;

  access(M: Machine, w: Warp, mem: Mem, span: number): void {
    if (mem.space !== 'workgroup') return;
    M.sharedRequests++;
    const L = w.lanes;
    const A = w.addr;
    const n = w.n;
    if (span === 1 && BANKS <= 32) {
      // The usual conflict-free request (every active lane in a bank of its own) in one pass with a
      // bit per bank; a bank asked twice (a conflict, or a broadcast of one word) takes the count below.
      let used = 0;
      let i = 0;
      for (; i < n; i++) {
        const bit = 1 << (A[L[i]!]! % BANKS);
        if (used & bit) break;
        used |= bit;
      }
      if (i === n) return;
    }
    let st = this.stamps[mem.id];
    if (!st) {
      st = new Int32Array(Math.max(mem.words, 1)).fill(-1);
      this.stamps[mem.id] = st;
    }
    const req = ++this.req;
    const bc = this.bankCount;
    const bs = this.bankStamp;
    let max = 1;
    if (span === 1) {
      // One word per lane (the usual request): the same count without the inner loop.
      for (let i = 0; i < n; i++) {
        const a = A[L[i]!]!;
        if (st[a] === req) continue;
        st[a] = req;
        const b = a % BANKS;
        let k: number;
        if (bs[b] !== req) {
          bs[b] = req;
          k = bc[b] = 1;
        } else k = ++bc[b]!;
        if (k > max) max = k;
      }
      M.sharedBankConflicts += max - 1;
      return;
    }
    for (let i = 0; i < n; i++) {
      const a0 = A[L[i]!]!;
      for (let c = 0; c < span; c++) {
        const a = a0 + c;
        if (st[a] === req) continue;
        st[a] = req;
        const b = a % BANKS;
        let k: number;
        if (bs[b] !== req) {
          bs[b] = req;
          k = bc[b] = 1;
        } else k = ++bc[b]!;
        if (k > max) max = k;
      }
    }
    M.sharedBankConflicts += max - 1;
  }
}

/** Storage memory: one request per warp instruction; transactions = distinct sectors (32 bytes in the model). */
export class Coalescing implements MemoryObserver {
  private stamps: (Int32Array | undefined)[] = [];
  private req = 0;

  access(M: Machine, w: Warp, mem: Mem, span: number): void {
    if (mem.space !== 'storage') return;
    M.globalRequests++;
    const L = w.lanes;
    const A = w.addr;
    const n = w.n;
    if (span === 1) {
      // Lanes in address order (the usual coalesced request): distinct sectors are the sector
      // changes along the lanes, no stamps needed. Out of order, the count below.
      let prev = -1;
      let sectors = 0;
      let i = 0;
      for (; i < n; i++) {
        const s = Math.floor(A[L[i]!]! / WORDS_PER_SECTOR);
        if (s < prev) break;
        if (s !== prev) {
          sectors++;
          prev = s;
        }
      }
      if (i === n) {
        M.globalTransactions += sectors;
        return;
      }
    }
    let st = this.stamps[mem.id];
    if (!st) {
      st = new Int32Array(Math.ceil(Math.max(mem.words, 1) / WORDS_PER_SECTOR)).fill(-1);
      this.stamps[mem.id] = st;
    }
    const req = ++this.req;
    let sectors = 0;
    for (let i = 0; i < n; i++) {
      const a0 = A[L[i]!]!;
      const s0 = Math.floor(a0 / WORDS_PER_SECTOR);
      const s1 = Math.floor((a0 + span - 1) / WORDS_PER_SECTOR);
      for (let s = s0; s <= s1; s++) {
        if (st[s] !== req) {
          st[s] = req;
          sectors++;
        }
      }
    }
    M.globalTransactions += sectors;
  }
}

/**
 * Keys pack a barrier interval and an invocation into one exact number: `interval * SPAN +
 * invocation`, with intervals counted from the observer's `base`. Invocations of one workgroup stay
 * below SPAN (2^22, thousands of times WebGPU's largest workgroup), intervals below 2^30, so every
 * key is an exact integer below 2^52; a key below `interval * SPAN` is from an earlier interval.
 */
const SPAN = 2 ** 22;
const MAX_INTERVALS = 2 ** 30;

/**
 * Per word of one workgroup memory (per 2-byte half where it holds f16): the last write, and the
 * first read of its barrier interval.
 */
class RaceWords {
  /** Key of the last write (-1: none). */
  readonly wKey: Float64Array;
  readonly wOp: Int32Array;
  readonly wAt: Uint8Array;
  /** Key of the first read in its interval (-1: none). */
  readonly rKey: Float64Array;
  readonly rOp: Int32Array;
  /** The interval in which a second invocation read the word (-1: none). */
  readonly rMulti: Float64Array;
  constructor(n: number) {
    this.wKey = new Float64Array(n).fill(-1);
    this.wOp = new Int32Array(n);
    this.wAt = new Uint8Array(n);
    this.rKey = new Float64Array(n).fill(-1);
    this.rOp = new Int32Array(n);
    this.rMulti = new Float64Array(n).fill(-1);
  }
}

/**
 * Workgroup-memory races: two invocations touch the same in-bounds word in one barrier interval
 * (`M.epoch`), at least one of them writing, not both atomically. Clamped (out-of-bounds)
 * accesses are reported as out-of-bounds by the machine and take no part here.
 */
export class Races implements MemoryObserver {
  private words: (RaceWords | undefined)[] = [];
  /** The epoch that interval 0 of the keys stands for. */
  private base = 0;

  access(M: Machine, w: Warp, mem: Mem, span: number, mode: number, op: number): void {
    if (mem.space !== 'workgroup') return;
    let rel = M.epoch - this.base;
    if (rel >= MAX_INTERVALS) {
      // Only after 2^30 barriers: earlier intervals can never race with this one, so forget them.
      this.words = [];
      this.base = M.epoch;
      rel = 0;
    }
    // A memory holding f16 is tracked per 2-byte half (`shift` 1), since WGSL's memory locations
    // are the bytes of each scalar: two invocations writing the two f16 halves of one word do not
    // race. Whole-word requests there touch both halves of each word.
    const shift = mem.halves ? 1 : 0;
    let st = this.words[mem.id];
    if (!st) {
      st = new RaceWords(Math.max(mem.words, 1) << shift);
      this.words[mem.id] = st;
    }
    if ((w.id + 1) * w.W > SPAN) throw new RangeError(`race detection supports workgroups of up to ${SPAN} invocations`);
    const { wKey, wOp, wAt, rKey, rOp, rMulti } = st;
    const EB = rel * SPAN;
    const L = w.lanes;
    const n = w.n;
    const A = w.addr;
    const O = w.oob;
    const base = w.id * w.W;
    const atomic = mode === ATOMIC ? 1 : 0;
    if (!shift && span === 1 && mode === READ) {
      // The usual one-word read, with the mode and the span decided once per request.
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        if (O[l]) continue;
        const key = EB + base + l;
        const a = A[l]!;
        const wk = wKey[a]!;
        if (wk >= EB && wk !== key) race(M, mem, a, wk - EB, wOp[a]!, 'writes', key - EB, op, 'reads');
        const rk = rKey[a]!;
        if (rk < EB) {
          rKey[a] = key;
          rOp[a] = op;
        } else if (rk !== key) rMulti[a] = rel;
      }
      return;
    }
    if (!shift && span === 1 && mode === WRITE) {
      // The usual one-word plain write.
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        if (O[l]) continue;
        const key = EB + base + l;
        const a = A[l]!;
        const wk = wKey[a]!;
        const rk = rKey[a]!;
        if (wk >= EB && wk !== key) race(M, mem, a, wk - EB, wOp[a]!, 'writes', key - EB, op, 'writes');
        else if (rk >= EB && (rk !== key || rMulti[a] === rel)) {
          race(M, mem, a, rk === key ? -1 : rk - EB, rOp[a]!, 'reads', key - EB, op, 'writes');
        }
        wKey[a] = key;
        wOp[a] = op;
        wAt[a] = 0;
      }
      return;
    }
    const HA = shift ? M.halfAddr : null;
    const units = HA ? M.halfSpan : span << shift;
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      if (O[l]) continue;
      const key = EB + base + l;
      const t = key - EB;
      const a0 = HA ? HA[l]! : A[l]! << shift;
      for (let c = 0; c < units; c++) {
        const a = a0 + c;
        const word = a >> shift;
        const wk = wKey[a]!;
        const rk = rKey[a]!;
        if (mode === ATOMIC_READ) {
          // An atomic<T> word is only ever touched atomically, and atomics never race.
          if (wk >= EB && wk !== key && !wAt[a]) race(M, mem, word, wk - EB, wOp[a]!, 'writes', t, op, 'reads');
        } else if (mode === READ) {
          if (wk >= EB && wk !== key) race(M, mem, word, wk - EB, wOp[a]!, 'writes', t, op, 'reads');
          if (rk < EB) {
            rKey[a] = key;
            rOp[a] = op;
          } else if (rk !== key) rMulti[a] = rel;
        } else {
          if (wk >= EB && wk !== key && !(atomic && wAt[a])) {
            race(M, mem, word, wk - EB, wOp[a]!, 'writes', t, op, 'writes');
          } else if (!atomic && rk >= EB && (rk !== key || rMulti[a] === rel)) {
            race(M, mem, word, rk === key ? -1 : rk - EB, rOp[a]!, 'reads', t, op, 'writes');
          }
          wKey[a] = key;
          wOp[a] = op;
          wAt[a] = atomic;
        }
      }
    }
  }
}

function race(M: Machine, mem: Mem, word: number, t1: number, op1: number, what1: string, t2: number, op2: number, what2: string): void {
  const p1 = M.opPos[op1] ?? { line: 0, col: 0 };
  const p2 = M.opPos[op2] ?? { line: 0, col: 0 };
  const who = t1 < 0 ? 'another invocation' : `invocation ${t1}`;
  M.diag(
    'race',
    p2,
    `workgroup-memory race on '${mem.name}' word ${word} in workgroup ${M.wgLinear}: ${who} ` +
      `${what1} it (line ${p1.line}:${p1.col}) and invocation ${t2} ${what2} it (line ${p2.line}:` +
      `${p2.col}) with no workgroupBarrier() in between. The result depends on scheduling; ` +
      `add a barrier between the two accesses (or use atomics).`,
  );
}

/** Who last wrote a memory word (see {@link WriteProvenance}). */
export interface WordWriter {
  /** Linear id of the writer's workgroup. */
  readonly workgroup: number;
  /** The writer's `local_invocation_index` in its workgroup. */
  readonly invocation: number;
  /** The writing instruction and its place in the source (1-based). */
  readonly op: number;
  readonly line: number;
  readonly column: number;
  /** The trace step of the write, or -1 where the write was not traced. */
  readonly step: number;
}

/** Per word of one memory: the last writer (workgroup -1: never written). */
class WriterWords {
  readonly wg: Int32Array;
  readonly inv: Int32Array;
  readonly op: Int32Array;
  readonly step: Int32Array;
  constructor(n: number) {
    this.wg = new Int32Array(n).fill(-1);
    this.inv = new Int32Array(n);
    this.op = new Int32Array(n);
    this.step = new Int32Array(n);
  }
}

/**
 * Write provenance of memory, per word: which invocation (workgroup and local index) last wrote
 * it, with which instruction (so the source line) and, while the run is traced, at which trace
 * step, for storage and workgroup memory alike. Atomic read-modify-writes count as writes;
 * atomicLoad and plain reads do not. A clamped (out-of-bounds) write is recorded at the word it
 * landed on, as the simulator wrote it there. A write of one f16 half counts for its word.
 *
 * Not one of the default observers: pass it to `instantiate(program, bindings, [provenance])`
 * and ask `writer(memory, word)` after (or during) the run. Workgroup memory is per workgroup, so
 * its words keep the last writer of the last workgroup that wrote them.
 */
export class WriteProvenance implements MemoryObserver {
  private words: (WriterWords | undefined)[] = [];
  private pos: readonly { line: number; col: number }[] = [];

  access(M: Machine, w: Warp, mem: Mem, span: number, mode: number, op: number): void {
    if (mode !== WRITE && mode !== ATOMIC) return;
    this.pos = M.opPos;
    let st = this.words[mem.id];
    if (!st) {
      st = new WriterWords(Math.max(mem.words, 1));
      this.words[mem.id] = st;
    }
    const { wg, inv, op: ops, step } = st;
    const tr = M.tr;
    const s = tr && !tr.full ? tr.steps - 1 : -1;
    const L = w.lanes;
    const A = w.addr;
    const HA = M.halfAddr;
    const base = w.id * w.W;
    const G = M.wgLinear;
    for (let i = 0; i < w.n; i++) {
      const l = L[i]!;
      // Words this lane writes: from its first word over `span` words, or over its halves.
      const a0 = HA ? HA[l]! >> 1 : A[l]!;
      const a1 = HA ? (HA[l]! + M.halfSpan - 1) >> 1 : A[l]! + span - 1;
      for (let a = a0; a <= a1; a++) {
        wg[a] = G;
        inv[a] = base + l;
        ops[a] = op;
        step[a] = s;
      }
    }
  }

  /** The last writer of word `word` of memory `memory` (`MemInfo.id`, as in `trace.memories`), or null. */
  writer(memory: number, word: number): WordWriter | null {
    const st = this.words[memory];
    if (!st || word < 0 || word >= st.wg.length || st.wg[word]! < 0) return null;
    const op = st.op[word]!;
    const p = this.pos[op] ?? { line: 0, col: 0 };
    return { workgroup: st.wg[word]!, invocation: st.inv[word]!, op, line: p.line, column: p.col, step: st.step[word]! };
  }
}

/** The observers every run has: they feed the metrics and the race diagnostics. */
export function defaultObservers(): MemoryObserver[] {
  return [new BankConflicts(), new Coalescing(), new Races()];
}
