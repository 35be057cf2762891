import { describe, expect, it } from 'vitest';
import { stateOf } from '../../../../workbench/lessonTestkit.ts';
import { convolutionLesson } from './lesson.ts';

describe('convolution lesson', () => {
  it('computes its answers from the simulator: 76 ghosts, 25 reads, 256 loaded, 144 computing, 24 lanes, none idle', () => {
    expect(convolutionLesson.steps.map((s) => s.question?.answer(stateOf(s)))).toEqual([76, 25, 256, 144, 24, 0]);
  });
});
