import { describe, expect, it } from 'vitest';
import { stateOf } from '../../../../workbench/lessonTestkit.ts';
import { rowsumLesson } from './lesson.ts';

describe('row-sum lesson', () => {
  it('computes its answers from the simulator: 8 warps, 16 active lanes, 4 × 48 against 4 × 6 divergent branches, no split warp at stride 64', () => {
    const answers = rowsumLesson.steps.map((s) => s.question?.answer(stateOf(s)));
    expect(answers).toEqual([8, 16, 4 * 48, 0, 4 * 6]);
  });
});
