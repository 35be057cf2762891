import { describe, expect, it } from 'vitest';
import { resolveParams } from '../../../../workbench/lab.ts';
import { findLab } from '../../../all.ts';
import { simulate } from '../../../../sim/index.ts';
import { indexTrace } from '../../../../trace/index.ts';
import { resolveMoment, type LessonStep, type MomentState } from '../../../../workbench/lesson.ts';
import { histogramLesson } from './lesson.ts';

/** The step as the lesson page simulates it: the first pass, workgroup 0 traced, 32-lane warps. */
function stateOf(step: LessonStep): MomentState {
  const lab = findLab(step.lab);
  const { params } = resolveParams(lab, step.variant, step.params);
  const result = simulate(lab.stepRun(step.variant, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
  const index = indexTrace(result.trace!);
  return { trace: result.trace!, index, step: resolveMoment(index, step.moment, lab), metrics: result.metrics };
}

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
