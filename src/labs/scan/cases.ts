/**
 * The scan kernels as `KernelCase`s: each `build` makes one pass from seeded input, so the shared
 * test can run every file under `shaders/scan/` on the GPU and the simulator and compare.
 */
import type { KernelCase } from '../../kernel/cases.ts';
import type { ElementType } from '../../workbench/labTypes.ts';
import { addTileSumsRun, matrixShape, singlePassRunOf, summedAreaColumnsRun, summedAreaRowsRun, tileScanRun } from './driver.ts';
import { scanInput, type ScanFill } from './inputs.ts';
import { ADD_TILE_SUMS, SCAN_VARIANTS } from './variants.ts';

/** Lengths around the tile sizes at workgroup size 64 (tiles of 64, 128 and 512). */
const SIZES = [1, 7, 100, 1000, 4099];
const WG = 64;
const TYPES: readonly ElementType[] = ['u32', 'f32'];
/** u32 in both modes, f32 inclusive: every case costs the shared GPU-vs-simulator test a pipeline. */
const MODES = [
  ['inclusive', false],
  ['exclusive', true],
] as const;
const wanted = (type: ElementType, exclusive: boolean): boolean => type === 'u32' || !exclusive;

function tileCases(): KernelCase[] {
  const out: KernelCase[] = [];
  for (const v of SCAN_VARIANTS) {
    // Subgroup sums and the look-back add in an order the hardware picks: feed f32 values whose
    // sums are exact in any order, so results must still match bit for bit.
    const fill: ScanFill = v.needsSubgroups || v.shape === 'single-pass' ? 'small-integers' : 'full';
    for (const type of TYPES) {
      for (const [mode, exclusive] of MODES) {
        if (!wanted(type, exclusive)) continue;
        const opts = { exclusive, workgroupSize: WG, type };
        const common = { file: v.file, sizes: SIZES, ...(v.needsSubgroups ? { subgroups: true } : {}) };
        if (v.shape === 'tiles') {
          out.push({ ...common, name: `scan/${v.id} ${type} ${mode} wg=${WG}`, build: (rng, n) => tileScanRun(v.id, scanInput(rng, n, type, fill), opts) });
        } else if (v.shape === 'single-pass') {
          out.push({ ...common, name: `scan/${v.id} ${type} ${mode} wg=${WG}`, build: (rng, n) => singlePassRunOf(v.id, scanInput(rng, n, type, fill), opts) });
        } else {
          out.push({
            ...common,
            name: `scan/${v.id} rows ${type} ${mode} wg=${WG}`,
            // The row pass on the transposed shape (one workgroup per row): 4 099 is one row of 65
            // chunks, so a row's running total crosses chunks, and 1 000 is 8 rows of 125 (two
            // chunks, the second partial); as 4 099 rows of one element it cost 4 099 workgroups
            // for the path 7 already takes.
            build: (rng, n) => {
              const { width, height } = matrixShape(n);
              return summedAreaRowsRun(scanInput(rng, n, type, fill), height, width, opts);
            },
          });
          out.push({
            ...common,
            name: `scan/${v.id} columns ${type} ${mode} wg=${WG}`,
            build: (rng, n) => {
              const { width, height } = matrixShape(n);
              return summedAreaColumnsRun(scanInput(rng, n, type, fill), width, height, opts);
            },
          });
        }
      }
    }
  }
  return out;
}

export const scanCases: KernelCase[] = [
  ...tileCases(),
  ...TYPES.map(
    (type): KernelCase => ({
      file: ADD_TILE_SUMS.file,
      name: `scan/add-tile-sums ${type} wg=${WG}`,
      sizes: SIZES,
      build: (rng, n) => {
        const tile = 128;
        const data = scanInput(rng, n, type);
        return addTileSumsRun(data, scanInput(rng, Math.ceil(n / tile), type), tile, WG);
      },
    }),
  ),
];
