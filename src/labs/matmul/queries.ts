/**
 * What the matrix-multiply views show, read from a trace: how often each element of A and B has
 * been loaded from global memory up to a step, where the tiles in workgroup memory come from, the
 * banks of a tile read, and the per-workgroup counters behind the metric rows. Pure functions;
 * the panels only draw what these return.
 */
import { OpKind, traceStep, type Trace } from '../../sim/index.ts';
import { barrierPhase, type TraceIndex } from '../../trace/index.ts';
import { MATMUL_KERNELS, matmulWorkgroups, type MatmulShape, type MatmulVariant } from './kernel.ts';

/** The trace's memory ids of A, B and C (storage bindings 0, 1, 2) and of the two tiles (-1: none). */
export interface MatmulMemories {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly tileA: number;
  readonly tileB: number;
}

export function matmulMemories(trace: Trace): MatmulMemories {
  const storage = (binding: number) => trace.memories.find((m) => m.space === 'storage' && m.group === 0 && m.binding === binding)?.id ?? -1;
  const shared = (name: string) => trace.memories.find((m) => m.space === 'workgroup' && m.name === name)?.id ?? -1;
  return { a: storage(0), b: storage(1), c: storage(2), tileA: shared('tileA'), tileB: shared('tileB') };
}

/**
 * Per word of `memory`, how many lane loads from global memory read it in steps 0…`step`
 * (a vec4 load counts once for each of its four words).
 */
export function globalLoadCounts(trace: Trace, memory: number, words: number, step: number): Int32Array {
  const counts = new Int32Array(words);
  const last = Math.min(step, trace.stepCount - 1);
  for (let s = 0; s <= last; s++) {
    if (trace.stepMemory[s] !== memory || trace.opKind[trace.stepOp[s]!] !== OpKind.loadGlobal) continue;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const addr = trace.recAddr[r]!;
      if (addr >= 0 && addr < words) counts[addr]!++;
    }
  }
  return counts;
}

/** How many times element (row, col) of A (`which` = 'a', M × K) or B (K × N) was loaded up to `step`. */
export function loadsOfElement(trace: Trace, shape: MatmulShape, which: 'a' | 'b', row: number, col: number, step: number): number {
  const mems = matmulMemories(trace);
  const cols = which === 'a' ? shape.k : shape.n;
  const rows = which === 'a' ? shape.m : shape.k;
  if (row < 0 || row >= rows || col < 0 || col >= cols) throw new RangeError(`${which.toUpperCase()}[${row}][${col}] is outside its ${rows} × ${cols} matrix`);
  const counts = globalLoadCounts(trace, which === 'a' ? mems.a : mems.b, rows * cols, step);
  return counts[row * cols + col]!;
}

/** A rectangle of a matrix: rows [r0, r1), columns [c0, c1). */
export interface Rect {
  readonly r0: number;
  readonly r1: number;
  readonly c0: number;
  readonly c1: number;
}

/** The block of C that workgroup `workgroup` (linear id) computes, clipped to C. */
export function blockOfWorkgroup(variant: MatmulVariant, shape: MatmulShape, tile: number, workgroup: number): Rect {
  const [bm, bn] = MATMUL_KERNELS[variant].block(tile);
  const [x] = matmulWorkgroups(variant, shape, tile);
  const wx = workgroup % x;
  const wy = Math.floor(workgroup / x);
  // The naive kernel runs x down the rows; the others along the columns.
  const [br, bc] = variant === 'naive' ? [wx, wy] : [wy, wx];
  return { r0: br * bm, r1: Math.min(shape.m, (br + 1) * bm), c0: bc * bn, c1: Math.min(shape.n, (bc + 1) * bn) };
}

/** The bounding rectangle of the words of `memory` (a matrix of `cols` columns) loaded by steps in [from, to]. */
function loadedRect(trace: Trace, memory: number, cols: number, from: number, to: number): Rect | null {
  let r0 = Infinity;
  let r1 = -Infinity;
  let c0 = Infinity;
  let c1 = -Infinity;
  for (let s = Math.max(0, from); s <= to; s++) {
    if (trace.stepMemory[s] !== memory || trace.opKind[trace.stepOp[s]!] !== OpKind.loadGlobal) continue;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const addr = trace.recAddr[r]!;
      const row = Math.floor(addr / cols);
      const col = addr % cols;
      r0 = Math.min(r0, row);
      r1 = Math.max(r1, row + 1);
      c0 = Math.min(c0, col);
      c1 = Math.max(c1, col + 1);
    }
  }
  return r0 === Infinity ? null : { r0, r1, c0, c1 };
}

/** The stage at a step: the workgroup's block of C and the parts of A and B it most recently loaded. */
export interface StageAt {
  readonly workgroup: number;
  readonly block: Rect;
  /** Barriers the workgroup has completed (its phase). */
  readonly phase: number;
  /**
   * Where the A and B words loaded in the latest loading phase at or before the step lie: the
   * tiles now in workgroup memory for tiled kernels, the row and column being read for the others.
   */
  readonly aRect: Rect | null;
  readonly bRect: Rect | null;
}

export function stageAt(index: TraceIndex, variant: MatmulVariant, shape: MatmulShape, tile: number, step: number): StageAt {
  const trace = index.trace;
  const s = Math.max(0, Math.min(step, trace.stepCount - 1));
  const workgroup = trace.stepWorkgroup[s] ?? 0;
  const mems = matmulMemories(trace);
  const phase = barrierPhase(index, s);
  // The latest load of A at or before the step; the loads of its barrier phase form the tile.
  let lastLoad = -1;
  for (let t = s; t >= 0; t--) {
    if (trace.stepMemory[t] === mems.a && trace.opKind[trace.stepOp[t]!] === OpKind.loadGlobal) {
      lastLoad = t;
      break;
    }
  }
  let aRect: Rect | null = null;
  let bRect: Rect | null = null;
  if (lastLoad >= 0) {
    if (MATMUL_KERNELS[variant].depth(tile) === 0) {
      // Without tiles, the words the current warp read in its latest loads of A and B.
      aRect = loadedRect(trace, mems.a, shape.k, lastLoad, lastLoad);
      let lastB = -1;
      for (let t = s; t >= 0; t--) {
        if (trace.stepMemory[t] === mems.b && trace.opKind[trace.stepOp[t]!] === OpKind.loadGlobal) {
          lastB = t;
          break;
        }
      }
      bRect = lastB >= 0 ? loadedRect(trace, mems.b, shape.n, lastB, lastB) : null;
    } else {
      const loadPhase = barrierPhase(index, lastLoad);
      const from = loadPhase === 0 ? 0 : index.barrierSteps[loadPhase * index.warpCount - 1]! + 1;
      aRect = loadedRect(trace, mems.a, shape.k, from, s);
      bRect = loadedRect(trace, mems.b, shape.n, from, s);
    }
  }
  return { workgroup, block: blockOfWorkgroup(variant, shape, tile, workgroup), phase, aRect, bRect };
}

/** One lane of a workgroup-memory request, with its word and bank. */
export interface BankLane {
  readonly lane: number;
  readonly addr: number;
  readonly bank: number;
}

/** A workgroup-memory request of a tile and how its lanes fall on the banks. */
export interface BankRequest {
  readonly step: number;
  readonly tile: 'tileA' | 'tileB';
  readonly kind: 'load' | 'store';
  readonly lanes: readonly BankLane[];
  /** The trace's wavefronts for the request (1 = no conflict). */
  readonly wavefronts: number;
  /** Per bank, the distinct words asked of it (a word asked by several lanes is one broadcast). */
  readonly wordsPerBank: readonly number[];
}

/** The latest tile request at or before `step` (of tile `which`, or of either when omitted). */
export function tileRequestAtOrBefore(index: TraceIndex, step: number, which?: 'tileA' | 'tileB'): BankRequest | null {
  const trace = index.trace;
  const mems = matmulMemories(trace);
  const ids = which === 'tileA' ? [mems.tileA] : which === 'tileB' ? [mems.tileB] : [mems.tileA, mems.tileB];
  for (let s = Math.min(step, trace.stepCount - 1); s >= 0; s--) {
    const mem = trace.stepMemory[s]!;
    if (mem < 0 || !ids.includes(mem)) continue;
    const kind = trace.opKind[trace.stepOp[s]!];
    if (kind !== OpKind.loadShared && kind !== OpKind.storeShared) continue;
    const view = traceStep(trace, s);
    const lanes = view.accesses().map((x) => ({ lane: x.lane, addr: x.addr, bank: x.bank }));
    const words = new Map<number, Set<number>>();
    for (const l of lanes) {
      const set = words.get(l.bank) ?? new Set<number>();
      set.add(l.addr);
      words.set(l.bank, set);
    }
    const wordsPerBank = Array.from({ length: trace.hardware.banks }, (_, b) => words.get(b)?.size ?? 0);
    return { step: s, tile: mem === mems.tileA ? 'tileA' : 'tileB', kind: kind === OpKind.loadShared ? 'load' : 'store', lanes, wavefronts: index.wavefronts[s]!, wordsPerBank };
  }
  return null;
}

/** The counters of the traced workgroup behind the metric rows. */
export interface WorkgroupCounters {
  readonly workgroup: number;
  /** Lane-words loaded from A and B in global memory. */
  readonly globalLoads: number;
  /** Lane-words loaded from the tiles in workgroup memory. */
  readonly sharedLoads: number;
  /** Multiply-adds that land in C: rows × columns of the block in range × K. */
  readonly usefulFmas: number;
  /** Extra wavefronts of the tile requests beyond one each. */
  readonly bankConflicts: number;
  /** Barriers the workgroup completed. */
  readonly barriers: number;
  /** Steps along K the kernel takes (0 without tiles). */
  readonly tileSteps: number;
}

export function workgroupCounters(index: TraceIndex, variant: MatmulVariant, shape: MatmulShape, tile: number): WorkgroupCounters {
  const trace = index.trace;
  const mems = matmulMemories(trace);
  let globalLoads = 0;
  let sharedLoads = 0;
  let bankConflicts = 0;
  for (let s = 0; s < trace.stepCount; s++) {
    const mem = trace.stepMemory[s]!;
    if (mem < 0) continue;
    const kind = trace.opKind[trace.stepOp[s]!];
    const records = trace.stepRecStart[s + 1]! - trace.stepRecStart[s]!;
    if (kind === OpKind.loadGlobal && (mem === mems.a || mem === mems.b)) globalLoads += records;
    if ((mem === mems.tileA || mem === mems.tileB) && (kind === OpKind.loadShared || kind === OpKind.storeShared)) {
      if (kind === OpKind.loadShared) sharedLoads += records;
      bankConflicts += Math.max(0, index.wavefronts[s]! - 1);
    }
  }
  const workgroup = trace.workgroups[0] ?? 0;
  const block = blockOfWorkgroup(variant, shape, tile, workgroup);
  const depth = MATMUL_KERNELS[variant].depth(tile);
  return {
    workgroup,
    globalLoads,
    sharedLoads,
    usefulFmas: Math.max(0, block.r1 - block.r0) * Math.max(0, block.c1 - block.c0) * shape.k,
    bankConflicts,
    barriers: barrierPhase(index, trace.stepCount - 1),
    tileSteps: depth === 0 ? 0 : Math.ceil(shape.k / depth),
  };
}

/** The share of launched C positions outside C: whole blocks are launched, M × N are wanted. */
export function boundaryWaste(variant: MatmulVariant, shape: MatmulShape, tile: number): number {
  const [bm, bn] = MATMUL_KERNELS[variant].block(tile);
  const launched = Math.ceil(shape.m / bm) * bm * Math.ceil(shape.n / bn) * bn;
  return 1 - (shape.m * shape.n) / launched;
}

/**
 * Arithmetic intensity of the whole multiply from a traced workgroup: FLOPs (2 per useful
 * multiply-add) per byte it loaded from A and B and stored to C, 4 bytes a word.
 */
export function arithmeticIntensity(counters: WorkgroupCounters, shape: MatmulShape, variant: MatmulVariant, tile: number): number {
  const block = blockOfWorkgroup(variant, shape, tile, counters.workgroup);
  const stores = Math.max(0, block.r1 - block.r0) * Math.max(0, block.c1 - block.c0);
  const bytes = 4 * (counters.globalLoads + stores);
  return bytes === 0 ? 0 : (2 * counters.usefulFmas) / bytes;
}

/** A window of a matrix the stage draws: rows [r0, r0 + rows), columns [c0, c0 + cols). */
export interface MatrixWindow {
  readonly r0: number;
  readonly c0: number;
  readonly rows: number;
  readonly cols: number;
}

/**
 * The window of at most `size` × `size` elements of a `rows` × `cols` matrix that starts at the
 * focus rectangle (clamped to the matrix), so the stage follows the tile as it slides.
 */
export function windowAround(focus: Rect | null, rows: number, cols: number, size: number): MatrixWindow {
  const h = Math.min(size, rows);
  const w = Math.min(size, cols);
  const r0 = Math.max(0, Math.min(focus ? focus.r0 : 0, rows - h));
  const c0 = Math.max(0, Math.min(focus ? focus.c0 : 0, cols - w));
  return { r0, c0, rows: h, cols: w };
}

/** Whether (row, col) lies in a rectangle. */
export const inRect = (rect: Rect | null, row: number, col: number): boolean => rect !== null && row >= rect.r0 && row < rect.r1 && col >= rect.c0 && col < rect.c1;

/** The first tile request (load or store of tileA or tileB) after step `from`, or -1. */
export function nextTileRequest(index: TraceIndex, from: number): number {
  const trace = index.trace;
  const mems = matmulMemories(trace);
  for (let s = Math.max(0, from + 1); s < trace.stepCount; s++) {
    const mem = trace.stepMemory[s]!;
    if (mem < 0 || (mem !== mems.tileA && mem !== mems.tileB)) continue;
    const kind = trace.opKind[trace.stepOp[s]!];
    if (kind === OpKind.loadShared || kind === OpKind.storeShared) return s;
  }
  return -1;
}

/** A point of the roofline: a variant's intensity (FLOP/byte) and, once measured, its rate. */
export interface RooflinePoint {
  readonly variant: string;
  readonly intensity: number;
  readonly gflops?: number;
}

/** The attainable rate at an intensity under a peak (GFLOP/s) and a bandwidth (GB/s). */
export const roofAt = (intensity: number, peakGflops: number, gbps: number): number => Math.min(peakGflops, intensity * gbps);

/** The intensity where the memory roof meets the compute roof. */
export const ridgePoint = (peakGflops: number, gbps: number): number => peakGflops / gbps;

/**
 * The step at which the `n`-th tile (1-based) is complete in workgroup memory: the end of the
 * `n`-th barrier phase in which the workgroup loaded A from global memory. -1 when there is none.
 */
export function tileReadyStep(index: TraceIndex, n: number): number {
  const trace = index.trace;
  const mems = matmulMemories(trace);
  let seen = 0;
  let lastPhase = -1;
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.stepMemory[s] !== mems.a || trace.opKind[trace.stepOp[s]!] !== OpKind.loadGlobal) continue;
    const phase = barrierPhase(index, s);
    if (phase === lastPhase) continue;
    lastPhase = phase;
    if (++seen === n) {
      const arrivals = (phase + 1) * index.warpCount;
      return arrivals <= index.barrierSteps.length ? index.barrierSteps[arrivals - 1]! : -1;
    }
  }
  return -1;
}

/** The step at which every invocation is done reading the `n`-th tile: the next barrier after it is ready. */
export function tileDoneStep(index: TraceIndex, n: number): number {
  const ready = tileReadyStep(index, n);
  if (ready < 0) return -1;
  const phase = barrierPhase(index, ready);
  const arrivals = (phase + 1) * index.warpCount;
  return arrivals <= index.barrierSteps.length ? index.barrierSteps[arrivals - 1]! : -1;
}
