/**
 * Test support for lessons: a step simulated the way the lesson page shows it (the lab's first
 * pass on input seed 1, workgroup 0 traced, 32-lane warps), so a question's answer is computed
 * from the same trace the learner steps through.
 */
import { resolveParams } from './lab.ts';
import { resolveMoment, type LessonStep, type MomentState } from './lesson.ts';
import { simulate } from '../sim/index.ts';
import { indexTrace } from '../trace/index.ts';
import { findLab } from '../labs/all.ts';

/** The step's parameters as its lab resolves them, with the lab's notices (a value fitted or refused). */
export function stepParams(step: LessonStep, variant = step.variant): ReturnType<typeof resolveParams> {
  return resolveParams(findLab(step.lab), variant, step.params);
}

/** The moment a lesson step shows (`variant` replaces the step's own, to compare variants). */
export function stateOf(step: LessonStep, variant = step.variant): MomentState {
  const lab = findLab(step.lab);
  const { params } = stepParams(step, variant);
  const result = simulate(lab.stepRun(variant, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
  const index = indexTrace(result.trace!);
  return { trace: result.trace!, index, step: resolveMoment(index, step.moment, lab), metrics: result.metrics };
}
