/**
 * The scan lab's CUDA sources beside its WGSL variants (issue #26), launched as a CUDA host
 * launches them on the lab's inputs. The tile variants (Hillis–Steele, Blelloch, Blelloch padded,
 * warp shuffles): pass 1 of the multi-block scan, each block scanning its tile and writing the
 * tile's total, one block per tile. The summed-area table: its rows launch and its columns launch.
 * u32 sums wrap as in C; f32 inputs are small whole numbers, so every sum is exact and the GPU,
 * the simulator and the CPU agree bit for bit. The single pass: the whole scan in one launch
 * (decoupled look-back with a bounded spin and a fallback). Read by the tests (`src/labs/cudaTwins*.test.ts`)
 * and the bench (`BENCH_ONLY=cuda`: 2^26 u32 for the tiles, 2^24 for the table, workgroups of 256).
 */
import { benchElements, onePassCase, wordsOf, type LabTwin, type TwinCase, type TwinPass } from '../../cuda/index.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import HILLIS_STEELE_CU from './cuda/hillis-steele.cu?raw';
import BLELLOCH_CU from './cuda/blelloch.cu?raw';
import BLELLOCH_PADDED_CU from './cuda/blelloch-padded.cu?raw';
import SUMMED_AREA_CU from './cuda/summed-area.cu?raw';
import { singlePassRun, singlePassStatusWords, singlePassVec4Run, singlePassVec4StatusWords, summedAreaColumnsRun, summedAreaRowsRun, tileScanRun, type Vec4SinglePassId } from './driver.ts';
import { SINGLE_PASS_CUDA, SUBGROUP_CUDA, SINGLE_PASS_LATE_SCAN_CUDA, SINGLE_PASS_VEC4_CUDA, SINGLE_PASS_WARP_TOTALS_CUDA } from './cuda.ts';
import { scanReference, summedAreaReference } from './reference.ts';
import { SINGLE_PASS_ITEMS, SINGLE_PASS_VEC4_ITEMS, type ScanVariantId } from './variants.ts';

type Elements = Uint32Array | Float32Array;
type ElementName = 'u32' | 'f32';

/** Each tile scanned on its own, and each tile's total: what pass 1 writes. */
function tileReference(input: Elements, tile: number, exclusive: boolean): { output: Elements; tileSums: Elements } {
  const tiles = Math.ceil(input.length / tile);
  const output = input.slice();
  const tileSums = input instanceof Float32Array ? new Float32Array(tiles) : new Uint32Array(tiles);
  for (let t = 0; t < tiles; t++) {
    const part = input.subarray(t * tile, Math.min(input.length, (t + 1) * tile));
    output.set(scanReference(part, exclusive), t * tile);
    tileSums[t] = scanReference(part, false)[part.length - 1]!;
  }
  return { output, tileSums };
}

/** Pseudo-random elements: any u32 (sums wrap as in C), or small whole floats (every sum exact). */
function elements(n: number, type: ElementName, seed: number): Elements {
  const rng = seededRandom(seed);
  return type === 'u32' ? randomU32(rng, n) : Float32Array.from({ length: n }, () => Math.floor(rng() * 17) - 8);
}
const empty = (type: ElementName, length: number): Elements => (type === 'u32' ? new Uint32Array(length) : new Float32Array(length));
const cTypeName = (type: ElementName): string => (type === 'u32' ? 'unsigned int' : 'float');
const kind = (exclusive: boolean): string => (exclusive ? 'exclusive' : 'inclusive');

/** How a tile variant's CUDA is launched: its kernel, elements per thread and dynamic shared memory. */
interface TileKernel {
  readonly variant: ScanVariantId;
  readonly kernel: string;
  /** Elements each thread scans: the tile is this × the block. */
  readonly perThread: number;
  /** `extern __shared__` bytes for a block, as the host's launch passes them. */
  sharedBytes(block: number): number;
}

/** Pass 1 of a tile variant: the CUDA launch beside the WGSL pass, on the lab's inputs. */
function tileCase(k: TileKernel, n: number, block: number, type: ElementName, exclusive: boolean, seed: number, check = true): TwinCase {
  const input = elements(n, type, seed);
  const tile = k.perThread * block;
  const tiles = Math.ceil(n / tile);
  const reference = check ? tileReference(input, tile, exclusive) : undefined;
  return onePassCase(
    `n = ${n}, ${type}, ${kind(exclusive)}, block ${block}`,
    {
      wgsl: tileScanRun(k.variant, input, { exclusive, workgroupSize: block, type }),
      kernel: `${k.kernel}<${cTypeName(type)}, ${exclusive}>`,
      config: { grid: { x: tiles, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 }, sharedBytes: k.sharedBytes(block) },
      args: { input, output: empty(type, n), tileSums: empty(type, tiles), n },
      outputs: { output: 1, tileSums: 2 },
    },
    reference ? { output: wordsOf(reference.output), tileSums: wordsOf(reference.tileSums) } : undefined,
    4 * (2 * n + tiles),
  );
}

/** A tile variant's twin: a partial last tile, both kinds of scan, both element types, a small and a large block. */
function tileTwin(k: TileKernel, fileName: string, source: string): LabTwin {
  return {
    lab: 'scan',
    variant: k.variant,
    fileName,
    source,
    cases: () => [
      tileCase(k, 1000, 256, 'u32', false, 1),
      tileCase(k, 300, 32, 'u32', true, 2),
      tileCase(k, 700, 256, 'f32', true, 3),
      tileCase(k, 129, 64, 'f32', false, 4),
    ],
    // The lab's benchmark: 2^26 u32, inclusive, workgroups of 256 (pass 1 of the chain).
    bench: (limits) => tileCase(k, benchElements(limits, 26), 256, 'u32', false, 26, false),
  };
}

/**
 * The summed-area table of a width × height matrix: the rows launch, then the columns launch on
 * the CPU's row scans (so each pass is checked on its own), each beside its WGSL pass.
 */
function summedAreaCase(width: number, height: number, block: number, type: ElementName, exclusive: boolean, seed: number, check = true): TwinCase {
  const input = elements(width * height, type, seed);
  const rows = input.slice();
  for (let y = 0; y < height; y++) rows.set(scanReference(input.subarray(y * width, (y + 1) * width), exclusive), y * width);
  const instance = `<${cTypeName(type)}, ${exclusive}>`;
  const opts = { exclusive, workgroupSize: block, type } as const;
  return {
    label: `${width} × ${height}, ${type}, ${kind(exclusive)}, block ${block}`,
    passes: [
      {
        wgsl: summedAreaRowsRun(input, width, height, opts),
        kernel: `scanRows${instance}`,
        config: { grid: { x: height, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 }, sharedBytes: 2 * block * 4 },
        args: { input, output: empty(type, width * height), width, height },
        outputs: { output: 1 },
      },
      {
        wgsl: summedAreaColumnsRun(rows, width, height, opts),
        kernel: `scanColumns${instance}`,
        config: { grid: { x: Math.ceil(width / block), y: 1, z: 1 }, block: { x: block, y: 1, z: 1 } },
        args: { input: rows, output: empty(type, width * height), width, height },
        outputs: { output: 1 },
      },
    ],
    reference: check ? [{ output: wordsOf(rows) }, { output: wordsOf(summedAreaReference(input, width, height, exclusive)) }] : [undefined, undefined],
    bytes: 4 * 4 * width * height,
  };
}

/** A single pass's first launch, or a second on the status words the first left. */
interface SinglePassOpts {
  /** 0: the instance that never spins (every look-back falls back to reducing its predecessors' tiles). */
  readonly spinLimit?: 0;
  /** Start from the status words one earlier launch left (its ticket count, every slot written with its mark). */
  readonly stale?: boolean;
  readonly check?: boolean;
}

/** How a single pass is launched: its WGSL pass, its kernel, and how launch 0 writes a status word. */
interface SinglePassKernel {
  readonly kernel: string;
  /** Elements a thread. */
  readonly items: number;
  statusWords(n: number, block: number): number;
  /** A word launch 0 (mark 1) may have written, holding `half` (16 random bits). */
  staleWord(half: number, rng: () => number): number;
  /** The template's type arguments for an element type (`unsigned int`, or `unsigned int, uint4`). */
  typeArgs(type: ElementName): string;
  wgsl(input: Elements, exclusive: boolean, block: number, type: ElementName, spinLimit: 0 | undefined, status: Uint32Array): Omit<TwinPass, 'kernel'>;
}

/**
 * A single pass: the whole scan in one launch, beside its WGSL. `stale` starts from the status
 * words one earlier launch left, as a second launch on the same buffer finds them.
 */
function singlePassCase(k: SinglePassKernel, n: number, block: number, type: ElementName, exclusive: boolean, seed: number, opts: SinglePassOpts = {}): TwinCase {
  const input = elements(n, type, seed);
  const tiles = Math.ceil(n / (block * k.items));
  const status = new Uint32Array(k.statusWords(n, block));
  if (opts.stale) {
    const rng = seededRandom(seed + 1);
    status[0] = tiles;
    for (let w = 1; w < status.length; w++) status[w] = k.staleWord(Math.floor(rng() * 65536), rng);
  }
  const spin = opts.spinLimit ?? 64;
  const pass = k.wgsl(input, exclusive, block, type, opts.spinLimit, status);
  return onePassCase(
    `n = ${n}, ${type}, ${kind(exclusive)}, block ${block}${spin === 0 ? ', no spin (every look-back falls back)' : ''}${opts.stale ? ', status from an earlier launch' : ''}`,
    { ...pass, kernel: `${k.kernel}<${k.typeArgs(type)}, ${exclusive}, ${spin}>` },
    opts.check === false ? undefined : { output: wordsOf(scanReference(input, exclusive)) },
    4 * 2 * n,
  );
}

/** single-pass.cu: ITEMS elements a thread, 4 status words a tile (each launch's mark 1 + d % 2 in its own 16 bits). */
const SINGLE_PASS: SinglePassKernel = {
  kernel: 'scanSinglePass',
  items: SINGLE_PASS_ITEMS,
  statusWords: singlePassStatusWords,
  // Launch 0's mark is 1: (1 << 16) | a half it might have published.
  staleWord: (half) => (1 << 16) | half,
  typeArgs: cTypeName,
  wgsl: (input, exclusive, block, type, spinLimit, status) => ({
    wgsl: singlePassRun(input, { exclusive, workgroupSize: block, type, ...(spinLimit === undefined ? {} : { spinLimit }), status: status.slice() }),
    config: { grid: { x: Math.ceil(input.length / (block * SINGLE_PASS_ITEMS)), y: 1, z: 1 }, block: { x: block, y: 1, z: 1 }, sharedBytes: (block * SINGLE_PASS_ITEMS + (block * SINGLE_PASS_ITEMS) / 32 + 2 * block) * 4 },
    args: { input, output: empty(type, input.length), status: status.slice(), n: input.length, tile_count: Math.ceil(input.length / (block * SINGLE_PASS_ITEMS)) },
    outputs: { output: 1 },
  }),
};

/**
 * The vec4 single passes: 8 uint4s (float4s) a thread, input and output padded to whole vectors,
 * 2 status words a tile, each (flag << 16) | half with flag = mark * 2 + kind.
 */
const vec4SinglePass = (variant: Vec4SinglePassId, kernel: string): SinglePassKernel => ({
  kernel,
  items: SINGLE_PASS_VEC4_ITEMS,
  statusWords: (n, block) => singlePassVec4StatusWords(n, block, variant),
  // Launch 0's mark is 1: flag 2 (aggregate) or 3 (inclusive prefix).
  staleWord: (half, rng) => ((2 + Math.floor(rng() * 2)) << 16) | half,
  typeArgs: (type) => (type === 'u32' ? 'unsigned int, uint4' : 'float, float4'),
  wgsl: (input, exclusive, block, type, spinLimit, status) => {
    const n = input.length;
    const padded = empty(type, Math.ceil(n / 4) * 4);
    padded.set(input);
    const tiles = Math.ceil(n / (block * SINGLE_PASS_VEC4_ITEMS));
    return {
      wgsl: singlePassVec4Run(input, { exclusive, workgroupSize: block, type, ...(spinLimit === undefined ? {} : { spinLimit }), status: status.slice() }, variant),
      config: { grid: { x: tiles, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 } },
      args: { input: padded, output: empty(type, padded.length), status: status.slice(), n, tile_count: tiles },
      outputs: { output: 1 },
    };
  },
});

/** A single pass's twin: several tiles and a partial last one, both kinds, both element types, the fallback alone, and a second launch on the status words of a first. */
function singlePassTwin(variant: ScanVariantId, k: SinglePassKernel, fileName: string, source: string, sizes: readonly number[]): LabTwin {
  const [a, b, c, d, e] = sizes as [number, number, number, number, number];
  return {
    lab: 'scan',
    variant,
    fileName,
    source,
    cases: () => [
      singlePassCase(k, a, 64, 'u32', false, 11),
      singlePassCase(k, b, 128, 'u32', true, 12),
      singlePassCase(k, c, 64, 'f32', true, 13),
      singlePassCase(k, d, 64, 'u32', false, 14, { spinLimit: 0 }),
      singlePassCase(k, e, 64, 'u32', false, 15, { stale: true }),
    ],
    // The lab's benchmark: 2^26 u32, inclusive, workgroups of 256.
    bench: (limits) => singlePassCase(k, benchElements(limits, 26), 256, 'u32', false, 26, { check: false }),
  };
}

const twoPerThread = (block: number): number => 2 * block * 4;

export const SCAN_TWINS: readonly LabTwin[] = [
  tileTwin({ variant: 'hillis-steele', kernel: 'scanHillisSteele', perThread: 1, sharedBytes: twoPerThread }, 'src/labs/scan/cuda/hillis-steele.cu', HILLIS_STEELE_CU),
  tileTwin({ variant: 'blelloch', kernel: 'scanBlelloch', perThread: 2, sharedBytes: twoPerThread }, 'src/labs/scan/cuda/blelloch.cu', BLELLOCH_CU),
  tileTwin({ variant: 'blelloch-padded', kernel: 'scanBlellochPadded', perThread: 2, sharedBytes: (block) => (2 * block + (2 * block) / 32) * 4 }, 'src/labs/scan/cuda/blelloch-padded.cu', BLELLOCH_PADDED_CU),
  tileTwin({ variant: 'subgroup', kernel: 'scanSubgroup', perThread: 1, sharedBytes: () => 0 }, 'src/labs/scan/cuda/subgroup.cu', SUBGROUP_CUDA),
  singlePassTwin('single-pass', SINGLE_PASS, 'src/labs/scan/cuda/single-pass.cu', SINGLE_PASS_CUDA, [5000, 3000, 2100, 4000, 1500]),
  // Tiles of 2 048 elements at 64 threads (4 096 at 128): up to 6 tiles, the last partial.
  singlePassTwin('single-pass-vec4', vec4SinglePass('single-pass-vec4', 'scanSinglePassVec4'), 'src/labs/scan/cuda/single-pass-vec4.cu', SINGLE_PASS_VEC4_CUDA, [11000, 9001, 5000, 8190, 6000]),
  singlePassTwin('single-pass-late-scan', vec4SinglePass('single-pass-late-scan', 'scanSinglePassLateScan'), 'src/labs/scan/cuda/single-pass-late-scan.cu', SINGLE_PASS_LATE_SCAN_CUDA, [10000, 8500, 4500, 8192, 5000]),
  singlePassTwin('single-pass-warp-totals', vec4SinglePass('single-pass-warp-totals', 'scanSinglePassWarpTotals'), 'src/labs/scan/cuda/single-pass-warp-totals.cu', SINGLE_PASS_WARP_TOTALS_CUDA, [9000, 12000, 4100, 7000, 5500]),
  {
    lab: 'scan',
    variant: 'summed-area',
    fileName: 'src/labs/scan/cuda/summed-area.cu',
    source: SUMMED_AREA_CU,
    // Rows longer than a block (several chunks), a partial last chunk, columns past a block's width.
    cases: () => [
      summedAreaCase(300, 7, 64, 'u32', false, 5),
      summedAreaCase(100, 9, 32, 'u32', true, 6),
      summedAreaCase(70, 5, 32, 'f32', true, 7),
      summedAreaCase(257, 4, 256, 'f32', false, 8),
    ],
    // The lab's benchmark shape for 2^24 u32 (a near-square matrix, as the lab times it), workgroups of 256.
    bench: (limits) => {
      const n = benchElements(limits, 24);
      const width = 2 ** Math.floor(Math.log2(n) / 2);
      return summedAreaCase(width, n / width, 256, 'u32', false, 24, false);
    },
  },
];
