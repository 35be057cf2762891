import MATRIX_ADD_WGSL from '../../../shaders/basics/matrix-add.wgsl?raw';
import { MAX_WORKGROUPS_PER_DIMENSION, type KernelRun } from '../../kernel/types.ts';

export const MATRIX_ADD_FILE = 'shaders/basics/matrix-add.wgsl';

/**
 * Builds the 2-D matrix-add run: C = A + B over a rows × cols row-major matrix, tiles of tile × tile,
 * one tile per workgroup up to `maxPerDimension` tiles a side (WebGPU's default limit); past it the
 * grid is capped there and the kernel's 2-D grid-stride loop covers the rest.
 */
export function matrixAddRun(a: Float32Array, b: Float32Array, rows: number, cols: number, tile = 16, maxPerDimension = MAX_WORKGROUPS_PER_DIMENSION): KernelRun {
  if (a.length !== rows * cols || b.length !== rows * cols) throw new RangeError(`a and b must hold ${rows} × ${cols} = ${rows * cols} values`);
  const tiles = (extent: number) => Math.min(maxPerDimension, Math.max(1, Math.ceil(extent / tile)));
  return {
    code: MATRIX_ADD_WGSL,
    entryPoint: 'main',
    file: MATRIX_ADD_FILE,
    label: 'basics.matrix-add',
    workgroups: [tiles(cols), tiles(rows)],
    overrides: { TILE: tile },
    bindings: { 0: { 0: a, 1: b, 2: new Float32Array(rows * cols), 3: new Uint32Array([rows, cols, 0, 0]) } },
  };
}

/** A near-square shape for n elements: the widest power-of-two column count ≤ √n that divides n. */
export function matrixShape(n: number): { rows: number; cols: number } {
  let cols = 1;
  while (cols * 2 * cols * 2 <= n && n % (cols * 2) === 0) cols *= 2;
  return { rows: n / cols, cols };
}
