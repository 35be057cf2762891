import { describe, expect, it } from 'vitest';
import { stateOf } from '../../../../workbench/lessonTestkit.ts';
import { resolveParams } from '../../../../workbench/lab.ts';
import { findLab } from '../../../all.ts';
import { coRank, mergeReference } from '../../reference.ts';
import { mergeLesson } from './lesson.ts';

describe('merge lesson', () => {
  it('answers from the trace what the CPU reference says', () => {
    const lab = findLab('merge');
    const answers = mergeLesson.steps.map((s) => s.question?.answer(stateOf(s)));
    const { params } = resolveParams(lab, 'basic', { m: 24, n: 40 });
    const { a, b } = lab.inputs(params, 1);
    const takes = (aa: ArrayLike<number>, bb: ArrayLike<number>) => coRank(16, aa, 24, bb, 40).i - coRank(12, aa, 24, bb, 40).i;
    const dup = lab.inputs(resolveParams(lab, 'basic', { m: 24, n: 40, input: 'duplicates' }).params, 1);
    const tiled = lab.inputs(resolveParams(lab, 'tiled', { m: 100, n: 156 }).params, 1);
    expect(answers[0]).toBe(16);
    // The first probe of diagonal 12: i in [0, 12], mid 6.
    expect(answers[1]).toBe(6);
    expect(answers[2]).toBe(takes(a!, b!));
    expect(answers[3]).toBe(coRank(12, a!, 24, b!, 40).probes.length + coRank(16, a!, 24, b!, 40).probes.length);
    expect(answers[4]).toBe(takes(dup.a!, dup.b!));
    expect(answers[5]).toBe(coRank(128, tiled.a!, 100, tiled.b!, 156).i);
    expect(answers[6]).toBe(4);
    expect(mergeReference(a!, 24, b!, 40)).toHaveLength(64);
  });
});
