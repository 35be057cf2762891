/**
 * The basics lab's CUDA sources beside its WGSL variants (issue #26): vector add and matrix add,
 * launched as a CUDA host launches them, on the same inputs as the lab's runs. The tests
 * (`src/labs/cudaTwins*.test.ts`) and the bench (`BENCH_ONLY=cuda`) read this list.
 */
import { benchElements, onePassCase, wordsOf, type LabTwin, type TwinCase } from '../../cuda/index.ts';
import { randomF32, seededRandom } from '../../util/random.ts';
import VECTOR_ADD_CU from './cuda/vector-add.cu?raw';
import MATRIX_ADD_CU from './cuda/matrix-add.cu?raw';
import { matrixAddRun, matrixShape } from './matrixAdd.ts';
import { vectorAddBytes, vectorAddReference, vectorAddRun } from './vectorAdd.ts';

function vectorCase(n: number, seed: number, workgroupSize = 256, check = true): TwinCase {
  const rng = seededRandom(seed);
  const a = randomF32(rng, n, -100, 100);
  const b = randomF32(rng, n, -100, 100);
  const wgsl = vectorAddRun({ a, b, workgroupSize });
  return onePassCase(
    `n = ${n}, block ${workgroupSize}`,
    {
      wgsl,
      kernel: 'vectorAdd',
      config: { grid: { x: wgsl.workgroups[0], y: 1, z: 1 }, block: { x: workgroupSize, y: 1, z: 1 } },
      args: { a, b, c: new Float32Array(n), n },
      outputs: { c: 2 },
    },
    check ? { c: wordsOf(vectorAddReference(a, b)) } : undefined,
    vectorAddBytes(n),
  );
}

function matrixCase(rows: number, cols: number, seed: number, check = true): TwinCase {
  const rng = seededRandom(seed);
  const a = randomF32(rng, rows * cols, -100, 100);
  const b = randomF32(rng, rows * cols, -100, 100);
  const wgsl = matrixAddRun(a, b, rows, cols);
  return onePassCase(
    `${rows} × ${cols}`,
    {
      wgsl,
      kernel: 'matrixAdd',
      config: { grid: { x: wgsl.workgroups[0], y: wgsl.workgroups[1] ?? 1, z: 1 }, block: { x: 16, y: 16, z: 1 } },
      args: { a, b, c: new Float32Array(rows * cols), rows, cols },
      outputs: { c: 2 },
    },
    check ? { c: wordsOf(vectorAddReference(a, b)) } : undefined,
    vectorAddBytes(rows * cols),
  );
}

export const BASICS_TWINS: readonly LabTwin[] = [
  {
    lab: 'basics',
    variant: 'vector-add',
    fileName: 'src/labs/basics/cuda/vector-add.cu',
    source: VECTOR_ADD_CU,
    cases: () => [vectorCase(1, 1), vectorCase(1000, 2, 64), vectorCase(5000, 3)],
    bench: (limits) => vectorCase(benchElements(limits, 26), 26, 256, false),
  },
  {
    lab: 'basics',
    variant: 'matrix-add',
    fileName: 'src/labs/basics/cuda/matrix-add.cu',
    source: MATRIX_ADD_CU,
    cases: () => [matrixCase(1, 1, 1), matrixCase(37, 23, 2), matrixCase(64, 70, 3)],
    bench: (limits) => {
      const { rows, cols } = matrixShape(benchElements(limits, 26));
      return matrixCase(rows, cols, 26, false);
    },
  },
];
