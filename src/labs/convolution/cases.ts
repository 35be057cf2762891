/** Kernel test cases of the convolution: every variant, every mask width, image sides that are not multiples of any tile. */
import type { KernelCase } from '../../kernel/cases.ts';
import { CONVOLUTION_KERNELS, CONVOLUTION_VARIANTS, convolutionRun, MASK_WIDTHS, outputTileWidths } from './kernel.ts';

export const convolutionCases: KernelCase[] = CONVOLUTION_VARIANTS.flatMap((variant) =>
  MASK_WIDTHS.map(
    (m): KernelCase => ({
      file: CONVOLUTION_KERNELS[variant].file,
      name: `convolution/${variant} ${m}×${m}`,
      // n is about the number of pixels: the image is n/23 rows of 23 (odd, not a tile multiple) columns,
      // or 70 columns wide (past one 64-column vec4 tile) for larger n.
      sizes: [1, 23 * 5, 70 * 19, 37 * 41],
      build: (rng, n) => {
        const width = n >= 70 * 19 ? (n === 70 * 19 ? 70 : 37) : Math.min(n, 23);
        const height = Math.max(1, Math.ceil(n / width));
        const image = new Float32Array(width * height);
        for (let i = 0; i < image.length; i++) image[i] = Math.floor(rng() * 200);
        const mask = new Float32Array(m * m);
        for (let i = 0; i < mask.length; i++) mask[i] = Math.floor(rng() * 5);
        const tiles = outputTileWidths(m);
        return convolutionRun(variant, image, mask, { width, height, maskWidth: m, outTile: tiles[Math.floor(rng() * tiles.length)]! });
      },
    }),
  ),
);
