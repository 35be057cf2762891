/**
 * Questions the convolution stage, metrics and lesson ask of a trace: pure functions over the
 * records the simulator made (global loads of `input`, stores to `output`, workgroup-memory stores
 * and loads of the tile) for the traced workgroup. Where a tile word must be placed on the image,
 * the lab's own tile layout (`tileGeometry`) says where; nothing here re-runs the kernel.
 */
import { OpKind, type Trace } from '../../sim/index.ts';
import { memoryNamed } from '../../trace/names.ts';
import { pitchOf, tileGeometry, type ConvolutionShape, type ConvolutionVariant } from './kernel.ts';

/** A cell of the input plane; rows and columns outside the image are ghost cells. */
export interface Cell {
  readonly row: number;
  readonly col: number;
}
export const cellKey = (c: Cell): string => `${c.row},${c.col}`;

/** What the stage draws for the traced workgroup. */
export interface ConvolutionPicture {
  /** Output cells the workgroup stored. */
  readonly outputs: ReadonlySet<string>;
  /** Input cells it brought in (global loads; for tiled variants, tile words including ghosts), by the invocation that did. */
  readonly loadedBy: ReadonlyMap<string, number>;
  /** The step at which each of those cells was first brought in. */
  readonly loadedAt: ReadonlyMap<string, number>;
  /** How many reads of each input cell the outputs made (global loads, or tile reads). */
  readonly reads: ReadonlyMap<string, number>;
  /** Input cells read or loaded that are not output cells of this workgroup: the halo (ghosts included). */
  readonly halo: ReadonlySet<string>;
  /** Cells outside the image that the workgroup covers (loaded as zeros, or skipped). */
  readonly ghosts: ReadonlySet<string>;
  /** Invocations that compute no output: idle in the compute phase. */
  readonly idle: readonly number[];
  readonly invocations: number;
  /** Global loads of the input and stores of the output the traced workgroup made. */
  readonly globalLoads: number;
  readonly outputStores: number;
  /** Bounding box of everything above, for the drawing. */
  readonly rows: readonly [number, number];
  readonly cols: readonly [number, number];
}

const kindOf = (trace: Trace, s: number) => trace.opKind[trace.stepOp[s]!];

/** The workgroup's (x, y) in a dispatch of `nx` workgroups per row, from the trace's linear id. */
function workgroupXY(trace: Trace, nx: number): [number, number] {
  const id = trace.workgroups[0] ?? 0;
  return [id % nx, Math.floor(id / nx)];
}

/** Workgroups per dispatch row for a variant (the lab's dispatch shapes). */
function workgroupsPerRow(variant: ConvolutionVariant, shape: ConvolutionShape): number {
  const g = tileGeometry(variant, shape.maskWidth, shape.outTile);
  if (g) return Math.ceil(shape.width / g.outW);
  if (variant === 'conv1d') return Number.MAX_SAFE_INTEGER; // one row of workgroups (folded rows are not traced here)
  return Math.ceil(shape.width / 16);
}

/** Everything the stage shows, from the trace of one workgroup. */
export function convolutionPicture(trace: Trace, variant: ConvolutionVariant, shape: ConvolutionShape): ConvolutionPicture {
  const { width, height } = shape;
  const pitch = pitchOf(variant, width);
  const flat = variant === 'conv1d';
  // A word of `input`/`output` as a cell; the 1-D signal wraps at the image width, and its ghosts
  // before element 0 sit in row −1.
  const cellOfWord = (addr: number): Cell => (flat ? { row: Math.floor(addr / width), col: ((addr % width) + width) % width } : { row: Math.floor(addr / pitch), col: addr % pitch });
  const input = memoryNamed(trace, 'input');
  const output = memoryNamed(trace, 'output');
  const tile = trace.memories.find((m) => m.space === 'workgroup')?.id ?? -1;
  const geometry = tileGeometry(variant, shape.maskWidth, shape.outTile);
  const [gx, gy] = workgroupXY(trace, workgroupsPerRow(variant, shape));
  const origin = geometry?.origin(gx, gy);
  const cellOfTileWord = (addr: number): Cell => ({ row: origin!.row + Math.floor(addr / geometry!.rowWords), col: origin!.col + (addr % geometry!.rowWords) });

  const outputs = new Set<string>();
  const loadedBy = new Map<string, number>();
  const loadedAt = new Map<string, number>();
  const reads = new Map<string, number>();
  const computing = new Set<number>();
  const lastBarrier = new Map<number, number>();
  for (let s = 0; s < trace.stepCount; s++) if (kindOf(trace, s) === OpKind.barrier) lastBarrier.set(trace.stepWarp[s]!, s);
  let globalLoads = 0;
  let outputStores = 0;
  const W = trace.warpSize;
  for (let s = 0; s < trace.stepCount; s++) {
    const mem = trace.stepMemory[s]!;
    const kind = kindOf(trace, s);
    const warp = trace.stepWarp[s]!;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const addr = trace.recAddr[r]!;
      const inv = warp * W + trace.recLane[r]!;
      if (mem === input && kind === OpKind.loadGlobal) {
        globalLoads++;
        const key = cellKey(cellOfWord(addr));
        if (!geometry) reads.set(key, (reads.get(key) ?? 0) + 1);
        if (!loadedBy.has(key)) {
          loadedBy.set(key, inv);
          loadedAt.set(key, s);
        }
      } else if (mem === output && kind === OpKind.storeGlobal) {
        outputStores++;
        outputs.add(cellKey(cellOfWord(addr)));
        if (!geometry) computing.add(inv);
      } else if (geometry && mem === tile && kind === OpKind.storeShared) {
        const key = cellKey(cellOfTileWord(addr));
        loadedBy.set(key, inv); // tile words are written once, ghosts (zeros) included
        if (!loadedAt.has(key)) loadedAt.set(key, s);
      } else if (geometry && mem === tile && kind === OpKind.loadShared && s > (lastBarrier.get(warp) ?? Infinity)) {
        const key = cellKey(cellOfTileWord(addr));
        reads.set(key, (reads.get(key) ?? 0) + 1);
        computing.add(inv);
      }
    }
  }
  const inImage = (c: Cell) => (flat ? c.row * width + c.col >= 0 && c.row * width + c.col < width * height && c.row >= 0 : c.row >= 0 && c.row < height && c.col >= 0 && c.col < width);
  const all = new Set([...loadedBy.keys(), ...reads.keys()]);
  const halo = new Set([...all].filter((k) => !outputs.has(k)));
  // Ghost cells: for tiled variants, tile words outside the image; for the others, cells within r of an output that lie outside.
  const ghosts = new Set<string>();
  const parse = (k: string): Cell => {
    const [row, col] = k.split(',').map(Number) as [number, number];
    return { row, col };
  };
  if (geometry) {
    for (const k of loadedBy.keys()) if (!inImage(parse(k))) ghosts.add(k);
  } else {
    const r = (shape.maskWidth - 1) / 2;
    for (const k of outputs) {
      const c = parse(k);
      if (flat) {
        const i = c.row * width + c.col;
        for (let d = -r; d <= r; d++) {
          const j = i + d;
          if (j < 0 || j >= width * height) ghosts.add(cellKey(j < 0 ? { row: -1, col: width + j } : { row: height, col: j - width * height }));
        }
      } else {
        for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
          const g = { row: c.row + dy, col: c.col + dx };
          if (!inImage(g)) ghosts.add(cellKey(g));
        }
      }
    }
    for (const g of ghosts) halo.add(g);
  }
  const invocations = trace.invocations;
  const idle: number[] = [];
  for (let i = 0; i < invocations; i++) if (!computing.has(i)) idle.push(i);
  let rowLo = Infinity;
  let rowHi = -Infinity;
  let colLo = Infinity;
  let colHi = -Infinity;
  for (const k of new Set([...all, ...outputs, ...ghosts])) {
    const c = parse(k);
    rowLo = Math.min(rowLo, c.row);
    rowHi = Math.max(rowHi, c.row);
    colLo = Math.min(colLo, c.col);
    colHi = Math.max(colHi, c.col);
  }
  return {
    outputs,
    loadedBy,
    loadedAt,
    reads,
    halo,
    ghosts,
    idle,
    invocations,
    globalLoads,
    outputStores,
    rows: Number.isFinite(rowLo) ? [rowLo, rowHi] : [0, 0],
    cols: Number.isFinite(colLo) ? [colLo, colHi] : [0, 0],
  };
}

/**
 * The first step of the compute phase: warp 0's first workgroup-memory read after its barrier (the
 * first multiply-add of a tiled kernel), or the first output store when there is no barrier.
 */
export function computePhaseStart(trace: Trace): number {
  let barrier = -1;
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.stepWarp[s] !== 0) continue;
    if (kindOf(trace, s) === OpKind.barrier) barrier = s;
    else if (barrier >= 0 && kindOf(trace, s) === OpKind.loadShared) return s;
  }
  for (let s = 0; s < trace.stepCount; s++) if (kindOf(trace, s) === OpKind.storeGlobal) return s;
  return trace.stepCount - 1;
}
