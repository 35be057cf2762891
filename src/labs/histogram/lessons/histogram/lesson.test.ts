import { describe, expect, it } from 'vitest';
import { stateOf } from '../../../../workbench/lessonTestkit.ts';
import { histogramLesson } from './lesson.ts';

describe('histogram lesson', () => {
  it('computes its answers from the simulator: queues on bin 0, 32 lanes on one value, 7 global atomics and 7 merging lanes, 256 runs', () => {
    const answers = histogramLesson.steps.map((s) => s.question?.answer(stateOf(s)));
    expect(answers[2]).toBe(32);
    expect(answers.slice(3)).toEqual([7, 7, 256]);
    // Letter text: some lanes of the first warp land in a–d, and the busiest bin holds more than one.
    expect(answers[0]).toBeGreaterThan(0);
    expect(answers[1]).toBeGreaterThan(answers[0]!);
    expect(answers[1]).toBeLessThan(32);
  });
});
