import { describe, expect, it } from 'vitest';
import { stateOf } from '../../../../workbench/lessonTestkit.ts';
import { resolveParams } from '../../../../workbench/lab.ts';
import { findLab } from '../../../all.ts';
import { insertValue, LOWEST, topkReference } from '../../reference.ts';
import { topkLesson } from './lesson.ts';

describe('top-k lesson', () => {
  it('answers from the trace what the CPU reference says', () => {
    const lab = findLab('topk');
    const answers = topkLesson.steps.map((s) => s.question?.answer(stateOf(s)));
    const { params } = resolveParams(lab, 'seed', {});
    const values = lab.inputs(params, 1).input as Int32Array;
    // Workgroup 0 of 4: lane t reads values t, t + 512, … (8 of them).
    const mine = (t: number) => Array.from({ length: 8 }, (_, r) => values[t + 512 * r]!);
    const list = new Int32Array(20).fill(LOWEST);
    expect(answers[0]).toBe(mine(0).filter((v) => insertValue(list, v, true)).length);
    expect(answers[1]).toBe(64);
    const share = Array.from({ length: 128 }, (_, t) => mine(t)).flat();
    expect(answers[2]).toBe(topkReference(share, 20, true)[19]);
    expect(answers[3]).toBe(16);
    const dup = lab.inputs(resolveParams(lab, 'seed', { dist: 'duplicates' }).params, 1).input as Int32Array;
    const dupShare = Array.from({ length: 128 }, (_, t) => Array.from({ length: 8 }, (_, r) => dup[t + 512 * r]!)).flat();
    const top = topkReference(dupShare, 20, false);
    expect(answers[4]).toBe(top.filter((v) => v === top[0]).length);
    expect(answers[5]).toBe(64);
  });
});
