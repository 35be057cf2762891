/**
 * The row-sum kernels as `KernelRun`s, and their CPU reference. One workgroup per row of an
 * M × N matrix of u32 (row-major); N = 2 × WORKGROUP_SIZE, so each invocation loads two elements.
 */
import type { KernelRun } from '../../kernel/types.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import SIMPLE_WGSL from '../../../shaders/rowsum/simple.wgsl?raw';
import BETTER_WGSL from '../../../shaders/rowsum/better.wgsl?raw';

export type RowSumVariant = 'simple' | 'better';

export const ROWSUM_KERNELS: Readonly<Record<RowSumVariant, { readonly file: string; readonly wgsl: string }>> = {
  simple: { file: 'shaders/rowsum/simple.wgsl', wgsl: SIMPLE_WGSL },
  better: { file: 'shaders/rowsum/better.wgsl', wgsl: BETTER_WGSL },
};

/** Row lengths the kernels take: a power of two, two elements per invocation, 32 to 1024 invocations. */
export const ROW_LENGTHS = [64, 128, 256, 512, 1024, 2048] as const;

export const isRowSumVariant = (id: string): id is RowSumVariant => id === 'simple' || id === 'better';

/** One dispatch: `rows` workgroups of `cols / 2` invocations over a row-major `rows × cols` matrix. */
export function rowSumRun(variant: RowSumVariant, matrix: Uint32Array, rows: number, cols: number, source?: string): KernelRun {
  if (!(ROW_LENGTHS as readonly number[]).includes(cols)) {
    throw new RangeError(`A row of ${cols} elements cannot be summed by one workgroup loading two each: use one of ${ROW_LENGTHS.join(', ')}.`);
  }
  if (!Number.isInteger(rows) || rows < 1 || rows > MAX_WORKGROUPS_PER_DIMENSION) {
    throw new RangeError(`${rows} rows: the row sum dispatches one workgroup per row, 1 to ${MAX_WORKGROUPS_PER_DIMENSION}.`);
  }
  if (matrix.length !== rows * cols) throw new RangeError(`The matrix has ${matrix.length} elements; ${rows} × ${cols} needs ${rows * cols}.`);
  const { file, wgsl } = ROWSUM_KERNELS[variant];
  return {
    code: source ?? wgsl,
    entryPoint: 'main',
    file,
    label: `rowsum.${variant}`,
    workgroups: [rows],
    // The output is padded to whole vec4s of words; only the first `rows` are written.
    bindings: { 0: { 0: matrix, 1: new Uint32Array(Math.ceil(rows / 4) * 4), 2: new Uint32Array([cols, rows, 0, 0]) } },
    overrides: { WORKGROUP_SIZE: cols / 2, TILE: cols },
  };
}

/** Each row's sum, wrapping at 2^32 as u32 addition does. */
export function rowSumReference(matrix: Uint32Array, rows: number, cols: number): Uint32Array {
  const out = new Uint32Array(rows);
  for (let r = 0; r < rows; r++) {
    let acc = 0;
    for (let c = 0; c < cols; c++) acc = (acc + matrix[r * cols + c]!) >>> 0;
    out[r] = acc;
  }
  return out;
}
