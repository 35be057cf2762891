import { describe, expect, it } from 'vitest';
import { stateOf, stepParams } from '../../../../workbench/lessonTestkit.ts';
import { matmulLesson } from './lesson.ts';

describe('matrix-multiply lesson', () => {
  it('answers from the simulator: 16 loads of A[3][5], 16 sectors, 1 load after the first tile, 2 barriers per tile, 128 words, 32 FMAs per load, a 4-way store, 9 barriers', () => {
    const answers = matmulLesson.steps.map((s) => s.question?.answer(stateOf(s)));
    expect(answers).toEqual([16, 16, 1, 2, 128, 32, 4, 9]);
  });

  it('asks for parameters the lab runs as written (no value fitted or refused)', () => {
    for (const s of matmulLesson.steps) expect(stepParams(s).notices).toEqual([]);
  });

  it('has 6 to 8 steps', () => {
    expect(matmulLesson.steps.length).toBeGreaterThanOrEqual(6);
    expect(matmulLesson.steps.length).toBeLessThanOrEqual(8);
  });
});
