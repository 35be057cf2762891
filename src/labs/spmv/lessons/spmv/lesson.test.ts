import { describe, expect, it } from 'vitest';
import { stateOf } from '../../../../workbench/lessonTestkit.ts';
import { resolveParams } from '../../../../workbench/lab.ts';
import { findLab } from '../../../all.ts';
import { iterationStrip, stripTotals } from '../../trace.ts';
import { activeLanesNow } from '../../../../workbench/lesson.ts';
import { matrixOf } from '../../index.ts';
import { spmvLesson } from './lesson.ts';

describe('SpMV lesson', () => {
  it('computes its answers from the simulator', () => {
    const answers = spmvLesson.steps.map((s) => s.question?.answer(stateOf(s)));
    // 3 rows with a nonzero; 3 of 4 idle in row 2's third iteration; 4 lanes in every ELL
    // iteration; 4 sectors for 32 neighbouring words; 3 + 6 + 3 compare-exchange tries; 2 ELL
    // gathers and 1 COO gather. JDS and the sliced ELL count over the power-law matrix (tested below).
    expect([...answers.slice(0, 4), ...answers.slice(5, 7)]).toEqual([3, 3, 4, 4, 12, 3]);
    // CSR vector on the uniform matrix: two rows of 16-lane vectors, min(length, 16) lanes each.
    const vector = stateOf(spmvLesson.steps[4]!);
    const a = matrixOf(findLab('spmv').inputs(resolveParams(findLab('spmv'), 'csr-vector', spmvLesson.steps[4]!.params).params, 1)).a;
    const len = (r: number) => a.rowPtr[r + 1]! - a.rowPtr[r]!;
    expect(answers[4]).toBe(Math.min(len(0), 16) + Math.min(len(1), 16));
    expect(vector.trace.stepWarp[vector.step]).toBe(0);
  });

  it('the sliced ELL on the power-law matrix: warp 0 at its first gather, and all 32 of its lanes work in every iteration of its strip (as the step says)', () => {
    const sell = spmvLesson.steps.at(-1)!;
    expect(sell.variant).toBe('sell');
    const s = stateOf(sell);
    expect(s.trace.stepWarp[s.step]).toBe(0);
    expect(activeLanesNow(s)).toBe(32);
    const strip = iterationStrip(s.trace, 0);
    expect(strip.length).toBeGreaterThan(1);
    for (const it of strip) expect([it.active, it.idle]).toEqual([32, 0]);
  });

  it('JDS idles fewer lanes than CSR scalar on the power-law matrix', () => {
    const jds = spmvLesson.steps.find((s) => s.variant === 'jds')!;
    expect(stripTotals(stateOf(jds).trace).idle).toBeLessThan(stripTotals(stateOf(jds, 'csr-scalar').trace).idle);
  });
});
