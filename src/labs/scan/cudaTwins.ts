/**
 * The scan lab's CUDA sources beside its WGSL variants (issue #26): pass 1 of the multi-block scan
 * (each block scans its tile and writes the tile's total), launched as a CUDA host launches it,
 * one block per tile with twice the block's elements of dynamic shared memory, on the lab's
 * inputs. u32 sums wrap as in C; f32 inputs are small whole numbers, so every sum is exact and
 * the GPU, the simulator and the CPU agree bit for bit. Read by the tests
 * (`src/labs/cudaTwins*.test.ts`) and the bench (`BENCH_ONLY=cuda`: 2^26 u32, workgroups of 256).
 */
import { benchElements, onePassCase, wordsOf, type LabTwin, type TwinCase } from '../../cuda/index.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import HILLIS_STEELE_CU from './cuda/hillis-steele.cu?raw';
import { tileScanRun } from './driver.ts';
import { scanReference } from './reference.ts';

type Elements = Uint32Array | Float32Array;

/** Each tile scanned on its own, and each tile's total: what pass 1 writes. */
function tileReference(input: Elements, block: number, exclusive: boolean): { output: Elements; tileSums: Elements } {
  const tiles = Math.ceil(input.length / block);
  const output = input.slice();
  const tileSums = input instanceof Float32Array ? new Float32Array(tiles) : new Uint32Array(tiles);
  for (let t = 0; t < tiles; t++) {
    const tile = input.subarray(t * block, Math.min(input.length, (t + 1) * block));
    output.set(scanReference(tile, exclusive), t * block);
    tileSums[t] = scanReference(tile, false)[tile.length - 1]!;
  }
  return { output, tileSums };
}

function hillisSteeleCase(n: number, block: number, type: 'u32' | 'f32', exclusive: boolean, seed: number, check = true): TwinCase {
  const rng = seededRandom(seed);
  const input: Elements = type === 'u32' ? randomU32(rng, n) : Float32Array.from({ length: n }, () => Math.floor(rng() * 17) - 8);
  const tiles = Math.ceil(n / block);
  const wgsl = tileScanRun('hillis-steele', input, { exclusive, workgroupSize: block, type });
  const cType = type === 'u32' ? 'unsigned int' : 'float';
  const empty = (length: number): Elements => (type === 'u32' ? new Uint32Array(length) : new Float32Array(length));
  const reference = check ? tileReference(input, block, exclusive) : undefined;
  return onePassCase(
    `n = ${n}, ${type}, ${exclusive ? 'exclusive' : 'inclusive'}, block ${block}`,
    {
      wgsl,
      kernel: `scanHillisSteele<${cType}, ${exclusive}>`,
      config: { grid: { x: tiles, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 }, sharedBytes: 2 * block * 4 },
      args: { input, output: empty(n), tileSums: empty(tiles), n },
      outputs: { output: 1, tileSums: 2 },
    },
    reference ? { output: wordsOf(reference.output), tileSums: wordsOf(reference.tileSums) } : undefined,
    4 * (2 * n + tiles),
  );
}

export const SCAN_TWINS: readonly LabTwin[] = [
  {
    lab: 'scan',
    variant: 'hillis-steele',
    fileName: 'src/labs/scan/cuda/hillis-steele.cu',
    source: HILLIS_STEELE_CU,
    // A partial last tile, both kinds of scan, both element types, a block of 32 and of 256.
    cases: () => [
      hillisSteeleCase(1000, 256, 'u32', false, 1),
      hillisSteeleCase(300, 32, 'u32', true, 2),
      hillisSteeleCase(700, 256, 'f32', true, 3),
      hillisSteeleCase(129, 64, 'f32', false, 4),
    ],
    // The lab's benchmark: 2^26 u32, inclusive, workgroups of 256 (pass 1 of the chain).
    bench: (limits) => hillisSteeleCase(benchElements(limits, 26), 256, 'u32', false, 26, false),
  },
];
