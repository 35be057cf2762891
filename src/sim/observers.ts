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
    let st = this.stamps[mem.id];
    if (!st) {
      st = new Int32Array(Math.ceil(Math.max(mem.words, 1) / WORDS_PER_SECTOR)).fill(-1);
      this.stamps[mem.id] = st;
    }
    const req = ++this.req;
    const L = w.lanes;
    const A = w.addr;
    const n = w.n;
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

/** Per word of one workgroup memory: the last write and the first read of the current epoch. */
class RaceWords {
  readonly wEp: Int32Array;
  readonly wTh: Int32Array;
  readonly wOp: Int32Array;
  readonly wAt: Uint8Array;
  readonly rEp: Int32Array;
  readonly rTh: Int32Array;
  readonly rOp: Int32Array;
  readonly rMulti: Uint8Array;
  constructor(n: number) {
    this.wEp = new Int32Array(n).fill(-1);
    this.wTh = new Int32Array(n);
    this.wOp = new Int32Array(n);
    this.wAt = new Uint8Array(n);
    this.rEp = new Int32Array(n).fill(-1);
    this.rTh = new Int32Array(n);
    this.rOp = new Int32Array(n);
    this.rMulti = new Uint8Array(n);
  }
}

/**
 * Workgroup-memory races: two invocations touch the same in-bounds word in one barrier interval
 * (`M.epoch`), at least one of them writing, not both atomically. Clamped (out-of-bounds)
 * accesses are reported as out-of-bounds by the machine and take no part here.
 */
export class Races implements MemoryObserver {
  private words: (RaceWords | undefined)[] = [];

  access(M: Machine, w: Warp, mem: Mem, span: number, mode: number, op: number): void {
    if (mem.space !== 'workgroup') return;
    let st = this.words[mem.id];
    if (!st) {
      st = new RaceWords(Math.max(mem.words, 1));
      this.words[mem.id] = st;
    }
    const { wEp, wTh, wOp, wAt, rEp, rTh, rOp, rMulti } = st;
    const E = M.epoch;
    const L = w.lanes;
    const n = w.n;
    const A = w.addr;
    const O = w.oob;
    const base = w.id * w.W;
    const atomic = mode === ATOMIC ? 1 : 0;
    if (span === 1 && mode === READ) {
      // The usual one-word read, with the mode and the span decided once per request.
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        if (O[l]) continue;
        const t = base + l;
        const a = A[l]!;
        if (wEp[a] === E && wTh[a] !== t) race(M, mem, a, wTh[a]!, wOp[a]!, 'writes', t, op, 'reads');
        if (rEp[a] !== E) {
          rEp[a] = E;
          rTh[a] = t;
          rOp[a] = op;
          rMulti[a] = 0;
        } else if (rTh[a] !== t) rMulti[a] = 1;
      }
      return;
    }
    if (span === 1 && mode === WRITE) {
      // The usual one-word plain write.
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        if (O[l]) continue;
        const t = base + l;
        const a = A[l]!;
        if (wEp[a] === E && wTh[a] !== t) race(M, mem, a, wTh[a]!, wOp[a]!, 'writes', t, op, 'writes');
        else if (rEp[a] === E && (rMulti[a] || rTh[a] !== t)) {
          race(M, mem, a, rTh[a] === t ? -1 : rTh[a]!, rOp[a]!, 'reads', t, op, 'writes');
        }
        wEp[a] = E;
        wTh[a] = t;
        wOp[a] = op;
        wAt[a] = 0;
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      if (O[l]) continue;
      const t = base + l;
      const a0 = A[l]!;
      for (let c = 0; c < span; c++) {
        const a = a0 + c;
        if (mode === ATOMIC_READ) {
          // An atomic<T> word is only ever touched atomically, and atomics never race.
          if (wEp[a] === E && wTh[a] !== t && !wAt[a]) race(M, mem, a, wTh[a]!, wOp[a]!, 'writes', t, op, 'reads');
        } else if (mode === READ) {
          if (wEp[a] === E && wTh[a] !== t) race(M, mem, a, wTh[a]!, wOp[a]!, 'writes', t, op, 'reads');
          if (rEp[a] !== E) {
            rEp[a] = E;
            rTh[a] = t;
            rOp[a] = op;
            rMulti[a] = 0;
          } else if (rTh[a] !== t) rMulti[a] = 1;
        } else {
          if (wEp[a] === E && wTh[a] !== t && !(atomic && wAt[a])) {
            race(M, mem, a, wTh[a]!, wOp[a]!, 'writes', t, op, 'writes');
          } else if (!atomic && rEp[a] === E && (rMulti[a] || rTh[a] !== t)) {
            race(M, mem, a, rTh[a] === t ? -1 : rTh[a]!, rOp[a]!, 'reads', t, op, 'writes');
          }
          wEp[a] = E;
          wTh[a] = t;
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

/** The observers every run has: they feed the metrics and the race diagnostics. */
export function defaultObservers(): MemoryObserver[] {
  return [new BankConflicts(), new Coalescing(), new Races()];
}
