import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import { randomF32, seededRandom } from '../../util/random.ts';
import { matrixAddRun, matrixShape } from './matrixAdd.ts';

const sum = (a: Float32Array, b: Float32Array) => a.map((x, i) => x + b[i]!);

function inputs(n: number) {
  const rng = seededRandom(7);
  return { a: randomF32(rng, n, -100, 100), b: randomF32(rng, n, -100, 100) };
}

describe('matrix add’s grid', () => {
  it('stays within 65 535 workgroups in each dimension however the matrix is shaped', () => {
    // One row of 16 × 70 000 columns needs 70 000 tiles across: more than a dimension takes.
    const cols = 16 * 70_000;
    const { a, b } = inputs(cols);
    const run = matrixAddRun(a, b, 1, cols);
    const [x, y = 1] = run.workgroups;
    expect(x).toBeLessThanOrEqual(MAX_WORKGROUPS_PER_DIMENSION);
    expect(y).toBeLessThanOrEqual(MAX_WORKGROUPS_PER_DIMENSION);
    const tall = matrixAddRun(a, b, cols, 1);
    expect(tall.workgroups[1]).toBeLessThanOrEqual(MAX_WORKGROUPS_PER_DIMENSION);
  });

  it.each([
    [100, 130, 3],
    [37, 9, 2],
    [16, 16, 1],
  ])('a %i × %i matrix on a grid capped at %i tiles a side still adds every element', (rows, cols, cap) => {
    const { a, b } = inputs(rows * cols);
    const run = matrixAddRun(a, b, rows, cols, 16, cap);
    expect(run.workgroups[0]).toBeLessThanOrEqual(cap);
    expect(run.workgroups[1]).toBeLessThanOrEqual(cap);
    const out = simulate(run).buffers[0]![2] as Float32Array;
    expect(Array.from(out)).toEqual(Array.from(sum(a, b)));
  });

  it('a matrix that fits takes one tile per workgroup, as before', () => {
    const { rows, cols } = matrixShape(1024);
    const { a, b } = inputs(1024);
    expect(matrixAddRun(a, b, rows, cols).workgroups).toEqual([2, 2]);
  });
});
