import { describe, expect, it } from 'vitest';
import { resolveParams } from '../workbench/lab.ts';
import { findLab } from './all.ts';
import { simulate } from '../sim/index.ts';
import { indexTrace } from '../trace/index.ts';
import { mainSharedMemory } from '../trace/memory.ts';
import { hasSubject, subjectAt } from '../trace/subject.ts';
import { LESSONS } from './lessons.ts';
import { resolveMoment } from '../workbench/lesson.ts';

/**
 * Every lesson step that tells the learner to look at something has a subject the stage can frame:
 * the step names it, or the trace at the step's moment gives it. A picture of workgroup memory
 * needs words, a warp grid lanes.
 */
describe('every lesson step has a subject', () => {
  it.each(LESSONS.flatMap((l) => l.steps.map((s, i) => [l.id, i + 1, s] as const)))('%s step %i', (_id, _n, step) => {
    const lab = findLab(step.lab);
    const { params } = resolveParams(lab, step.variant, step.params);
    const result = simulate(lab.stepRun(step.variant, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [step.stage?.workgroup ?? 0] });
    const index = indexTrace(result.trace!);
    const at = resolveMoment(index, step.moment, lab);
    const subject = subjectAt(index, at, mainSharedMemory(result.trace!), step.highlight);
    if (step.lookAt !== undefined) expect(hasSubject(subject), `“${step.lookAt}” names nothing`).toBe(true);
    if (step.stage?.panel === 'shared-memory') expect(subject.words.length, 'a memory picture with no words to frame').toBeGreaterThan(0);
    if (step.stage?.panel === 'warp-grid' && step.lookAt !== undefined) expect(subject.lanes.length + subject.warps.length).toBeGreaterThan(0);
  });
});
