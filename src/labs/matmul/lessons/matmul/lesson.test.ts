import { describe, expect, it } from 'vitest';
import { resolveParams } from '../../../../workbench/lab.ts';
import { findLab } from '../../../all.ts';
import { simulate } from '../../../../sim/index.ts';
import { indexTrace } from '../../../../trace/index.ts';
import { resolveMoment, type LessonStep, type MomentState } from '../../../../workbench/lesson.ts';
import { matmulLesson } from './lesson.ts';

/** The step as the lesson page simulates it: workgroup 0 traced, 32-lane warps. */
function stateOf(step: LessonStep): MomentState {
  const lab = findLab(step.lab);
  const { params, notices } = resolveParams(lab, step.variant, step.params);
  expect(notices).toEqual([]);
  const result = simulate(lab.stepRun(step.variant, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
  const index = indexTrace(result.trace!);
  return { trace: result.trace!, index, step: resolveMoment(index, step.moment, lab), metrics: result.metrics };
}

describe('matrix-multiply lesson', () => {
  it('answers from the simulator: 16 loads of A[3][5], 16 sectors, 1 load after the first tile, 2 barriers per tile, 128 words, 32 FMAs per load, a 4-way store, 9 barriers', () => {
    const answers = matmulLesson.steps.map((s) => s.question?.answer(stateOf(s)));
    expect(answers).toEqual([16, 16, 1, 2, 128, 32, 4, 9]);
  });

  it('has 6 to 8 steps', () => {
    expect(matmulLesson.steps.length).toBeGreaterThanOrEqual(6);
    expect(matmulLesson.steps.length).toBeLessThanOrEqual(8);
  });
});
