import { describe, expect, it } from 'vitest';
import { resolveParams } from '../../../../workbench/lab.ts';
import { findLab } from '../../../all.ts';
import { simulate } from '../../../../sim/index.ts';
import { indexTrace } from '../../../../trace/index.ts';
import { resolveMoment, type LessonStep, type MomentState } from '../../../../workbench/lesson.ts';
import { convolutionLesson } from './lesson.ts';

/** The step as the lesson page simulates it: the first pass, workgroup 0 traced, 32-lane warps. */
function stateOf(step: LessonStep): MomentState {
  const lab = findLab(step.lab);
  const { params } = resolveParams(lab, step.variant, step.params);
  const result = simulate(lab.stepRun(step.variant, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
  const index = indexTrace(result.trace!);
  return { trace: result.trace!, index, step: resolveMoment(index, step.moment, lab), metrics: result.metrics };
}

describe('convolution lesson', () => {
  it('computes its answers from the simulator: 76 ghosts, 25 reads, 256 loaded, 144 computing, 24 lanes, none idle', () => {
    expect(convolutionLesson.steps.map((s) => s.question?.answer(stateOf(s)))).toEqual([76, 25, 256, 144, 24, 0]);
  });
});
