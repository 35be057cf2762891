import { describe, expect, it } from 'vitest';
import { findLab } from '../labs/all.ts';
import { resolveParams } from '../workbench/lab.ts';
import { simulate } from '../sim/index.ts';
import { findForward, indexTrace } from './index.ts';
import { mainSharedMemory } from './memory.ts';
import { hasSubject, runsOf, subjectAt } from './subject.ts';

function traced(labId: 'reduce', variant: string) {
  const lab = findLab(labId);
  const { params } = resolveParams(lab, variant, { n: 1024, workgroupSize: 256 });
  const result = simulate(lab.stepRun(variant, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
  const index = indexTrace(result.trace!);
  return { index, memory: mainSharedMemory(result.trace!) };
}

describe('subjectAt', () => {
  it('derives the conflicting lanes, words and banks of a 2-way bank conflict (2·s·tid, s = 1)', () => {
    const { index, memory } = traced('reduce', 'neighbored-less-divergent');
    const step = findForward(index, -1, (t) => index.wavefronts[t]! > 1);
    expect(step).toBeGreaterThanOrEqual(0);
    const s = subjectAt(index, step, memory);
    expect(s.reason).toBe('conflict');
    // Lanes 0 and 16 ask bank 0 for words 0 and 32.
    expect(s.lanes).toContainEqual([s.warps[0], 0]);
    expect(s.lanes).toContainEqual([s.warps[0], 16]);
    expect(s.banks).toContain(0);
    expect(s.words).toEqual(expect.arrayContaining([0, 32]));
  });

  it('takes a lesson step’s naming over the derivation, adding the banks of its words', () => {
    const { index, memory } = traced('reduce', 'neighbored-less-divergent');
    const s = subjectAt(index, 0, memory, { lanes: [[0, 0], [0, 16]], words: [0, 32] });
    expect(s).toMatchObject({ reason: 'named', warps: [0], words: [0, 32], banks: [0] });
  });

  it('carries the part of the picture a step names, with its lanes or alone', () => {
    const { index, memory } = traced('reduce', 'neighbored-less-divergent');
    expect(subjectAt(index, 0, memory, { part: 'loads', lanes: [[0, 5]] })).toMatchObject({ reason: 'named', part: 'loads', lanes: [[0, 5]] });
    const alone = subjectAt(index, 0, memory, { part: 'loads' });
    expect(alone.part).toBe('loads');
    expect(alone.reason).not.toBe('named');
    expect(subjectAt(index, 0, memory).part).toBeUndefined();
  });

  it('falls back to the active lanes of the executing warp for a step with no shared request', () => {
    const { index, memory } = traced('reduce', 'interleaved');
    const s = subjectAt(index, 0, memory);
    expect(s.reason).toBe('active');
    expect(hasSubject(s)).toBe(true);
    expect(s.lanes.length).toBe(32);
  });

  it('joins runs', () => {
    expect(runsOf([0, 1, 2, 5, 7, 8])).toEqual([[0, 2], [5, 5], [7, 8]]);
  });
});
