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
import { benchElements, onePassCase, wordsOf, type LabTwin, type TwinCase } from '../../cuda/index.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import HILLIS_STEELE_CU from './cuda/hillis-steele.cu?raw';
import BLELLOCH_CU from './cuda/blelloch.cu?raw';
import BLELLOCH_PADDED_CU from './cuda/blelloch-padded.cu?raw';
import SUBGROUP_CU from './cuda/subgroup.cu?raw';
import SUMMED_AREA_CU from './cuda/summed-area.cu?raw';
import { singlePassRun, singlePassStatusWords, summedAreaColumnsRun, summedAreaRowsRun, tileScanRun } from './driver.ts';
import SINGLE_PASS_CU from './cuda/single-pass.cu?raw';
import { scanReference, summedAreaReference } from './reference.ts';
import { SINGLE_PASS_ITEMS, type ScanVariantId } from './variants.ts';

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

/**
 * The single pass: the whole scan in one launch, beside single-pass.wgsl. `spinLimit` 0 runs the
 * instance that never spins (every look-back falls back to reducing its predecessors' tiles);
 * `stale` starts from the status words one earlier launch left (its ticket count, and every slot
 * written with that launch's mark), as a second launch on the same buffer finds them.
 */
function singlePassCase(n: number, block: number, type: ElementName, exclusive: boolean, seed: number, opts: { spinLimit?: 0; stale?: boolean; check?: boolean } = {}): TwinCase {
  const input = elements(n, type, seed);
  const tiles = Math.ceil(n / (block * SINGLE_PASS_ITEMS));
  const status = new Uint32Array(singlePassStatusWords(n, block));
  if (opts.stale) {
    const rng = seededRandom(seed + 1);
    status[0] = tiles;
    // Launch 0's mark is 1: (1 << 16) | a half it might have published.
    for (let w = 1; w < status.length; w++) status[w] = (1 << 16) | Math.floor(rng() * 65536);
  }
  const spin = opts.spinLimit ?? 64;
  return onePassCase(
    `n = ${n}, ${type}, ${kind(exclusive)}, block ${block}${spin === 0 ? ', no spin (every look-back falls back)' : ''}${opts.stale ? ', status from an earlier launch' : ''}`,
    {
      wgsl: singlePassRun(input, { exclusive, workgroupSize: block, type, ...(opts.spinLimit === undefined ? {} : { spinLimit: 0 }), status: status.slice() }),
      kernel: `scanSinglePass<${cTypeName(type)}, ${exclusive}, ${spin}>`,
      config: { grid: { x: tiles, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 }, sharedBytes: (block * SINGLE_PASS_ITEMS + (block * SINGLE_PASS_ITEMS) / 32 + 2 * block) * 4 },
      args: { input, output: empty(type, n), status: status.slice(), n, tile_count: tiles },
      outputs: { output: 1 },
    },
    opts.check === false ? undefined : { output: wordsOf(scanReference(input, exclusive)) },
    4 * 2 * n,
  );
}

const twoPerThread = (block: number): number => 2 * block * 4;

export const SCAN_TWINS: readonly LabTwin[] = [
  tileTwin({ variant: 'hillis-steele', kernel: 'scanHillisSteele', perThread: 1, sharedBytes: twoPerThread }, 'src/labs/scan/cuda/hillis-steele.cu', HILLIS_STEELE_CU),
  tileTwin({ variant: 'blelloch', kernel: 'scanBlelloch', perThread: 2, sharedBytes: twoPerThread }, 'src/labs/scan/cuda/blelloch.cu', BLELLOCH_CU),
  tileTwin({ variant: 'blelloch-padded', kernel: 'scanBlellochPadded', perThread: 2, sharedBytes: (block) => (2 * block + (2 * block) / 32) * 4 }, 'src/labs/scan/cuda/blelloch-padded.cu', BLELLOCH_PADDED_CU),
  tileTwin({ variant: 'subgroup', kernel: 'scanSubgroup', perThread: 1, sharedBytes: () => 0 }, 'src/labs/scan/cuda/subgroup.cu', SUBGROUP_CU),
  {
    lab: 'scan',
    variant: 'single-pass',
    fileName: 'src/labs/scan/cuda/single-pass.cu',
    source: SINGLE_PASS_CU,
    // Several tiles and a partial last one, both kinds, both element types, the fallback alone,
    // and a second launch on the status words of a first.
    cases: () => [
      singlePassCase(5000, 64, 'u32', false, 11),
      singlePassCase(3000, 128, 'u32', true, 12),
      singlePassCase(2100, 64, 'f32', true, 13),
      singlePassCase(4000, 64, 'u32', false, 14, { spinLimit: 0 }),
      singlePassCase(1500, 64, 'u32', false, 15, { stale: true }),
    ],
    // The lab's benchmark: 2^26 u32, inclusive, workgroups of 256.
    bench: (limits) => singlePassCase(benchElements(limits, 26), 256, 'u32', false, 26, { check: false }),
  },
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
