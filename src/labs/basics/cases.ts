import type { KernelCase } from '../../kernel/cases.ts';
import { randomF32 } from '../../util/random.ts';
import { vectorAddRun, VECTOR_ADD_FILE } from './vectorAdd.ts';
import { matrixAddRun, matrixShape, MATRIX_ADD_FILE } from './matrixAdd.ts';
import READ_WGSL from '../../../shaders/bandwidth/read.wgsl?raw';
import COPY_WGSL from '../../../shaders/bandwidth/copy.wgsl?raw';

const SIZES = [1, 31, 64, 100, 256, 1000, 4097];

function randomWords(rng: () => number, n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rng() * 2 ** 32);
  return out;
}

export const basicsCases: KernelCase[] = [
  {
    file: MATRIX_ADD_FILE,
    name: 'basics/matrix-add f32',
    sizes: [1, 7, 100, 256, 1000, 4096],
    build: (rng, n) => {
      const { rows, cols } = matrixShape(n);
      return matrixAddRun(randomF32(rng, n, -100, 100), randomF32(rng, n, -100, 100), rows, cols);
    },
  },
  {
    // The grid capped at 2 tiles a side (as 65 535 caps a huge matrix): the grid-stride loop covers the rest.
    file: MATRIX_ADD_FILE,
    name: 'basics/matrix-add f32, capped grid',
    sizes: [100, 1000, 4096],
    build: (rng, n) => {
      const { rows, cols } = matrixShape(n);
      return matrixAddRun(randomF32(rng, n, -100, 100), randomF32(rng, n, -100, 100), rows, cols, 16, 2);
    },
  },
  ...[64, 256].map(
    (wg): KernelCase => ({
      file: VECTOR_ADD_FILE,
      name: `basics/vector-add f32 wg=${wg}`,
      sizes: SIZES,
      build: (rng, n) =>
        vectorAddRun({ a: randomF32(rng, n, -100, 100), b: randomF32(rng, n, -100, 100), workgroupSize: wg, workgroups: 1 + Math.floor(rng() * 4) }),
    }),
  ),
  {
    file: 'shaders/bandwidth/copy.wgsl',
    name: 'bandwidth/copy',
    sizes: SIZES,
    build: (rng, n) => {
      const words = Math.ceil(n / 4) * 4;
      return {
        code: COPY_WGSL,
        entryPoint: 'main',
        file: 'shaders/bandwidth/copy.wgsl',
        workgroups: [1 + Math.floor(rng() * 3)],
        bindings: { 0: { 0: randomWords(rng, words), 1: new Uint32Array(words), 2: new Uint32Array([words / 4, 0, 0, 0]) } },
      };
    },
  },
  {
    file: 'shaders/bandwidth/read.wgsl',
    name: 'bandwidth/read',
    sizes: SIZES,
    build: (rng, n) => {
      const words = Math.ceil(n / 4) * 4;
      const workgroups = 1 + Math.floor(rng() * 3);
      return {
        code: READ_WGSL,
        entryPoint: 'main',
        file: 'shaders/bandwidth/read.wgsl',
        workgroups: [workgroups],
        bindings: { 0: { 0: randomWords(rng, words), 1: new Uint32Array(workgroups * 256), 2: new Uint32Array([words / 4, 0, 0, 0]) } },
      };
    },
  },
];
