import { beforeAll, describe, expect, it } from 'vitest';
import { findLab } from '../labs/all.ts';
import { resolveParams } from '../workbench/lab.ts';
import { simulate, traceStep } from '../sim/index.ts';
import { findForward, indexTrace, type TraceIndex } from './index.ts';
import { loadLocale } from '../i18n/catalog.ts';
import { setCurrentLocale as setLocale } from '../i18n/locale.ts';
import { narrate } from './narrate.ts';

function traced(variant: string): TraceIndex {
  const lab = findLab('reduce');
  const { params } = resolveParams(lab, variant, { n: 1024, workgroupSize: 256 });
  const result = simulate(lab.stepRun(variant, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
  return indexTrace(result.trace!);
}

/** The first step of warp 0 that loads workgroup memory with `active` lanes on (lane 0 reading word `word` when given). */
function sharedLoad(index: TraceIndex, active: number, word?: number): number {
  return findForward(index, -1, (s) => {
    const v = traceStep(index.trace, s);
    return v.warp === 0 && v.kindName === 'load.shared' && v.activeCount === active && (word === undefined || v.accesses()[0]?.addr === word);
  });
}

describe('narrate: what a step does, in the lab’s words, from the trace', () => {
  beforeAll(() => loadLocale('zh-CN'));

  it('interleaved reduction, stride 16: lanes 0–15 read the word 16 to the right of their own; 16–31 sit idle', () => {
    setLocale('en');
    const index = traced('interleaved');
    const step = sharedLoad(index, 16, 16);
    expect(step).toBeGreaterThanOrEqual(0);
    const text = narrate(index, step);
    expect(text).toMatch(/lanes 0–15/);
    expect(text).toMatch(/16 words to the right/);
    expect(text).toMatch(/lanes 16–31 sit idle/);
    expect(text).not.toMatch(/load\.shared|store\.shared|line \d+:/);
  });

  it('says the same in Chinese', () => {
    setLocale('zh-CN');
    let text: string;
    try {
      const index = traced('interleaved');
      text = narrate(index, sharedLoad(index, 16, 16));
    } finally {
      // Test files share a worker: the next one starts in English whatever happened here.
      setLocale('en');
    }
    expect(text).toMatch(/通道 0–15/);
    expect(text).toMatch(/右边第 16 个字/);
    expect(text).toMatch(/通道 16–31 空闲/);
  });

  it('names every other lane of a strided pattern and a barrier as a wait', () => {
    setLocale('en');
    const index = traced('neighbored');
    const step = sharedLoad(index, 16);
    expect(narrate(index, step)).toMatch(/lanes 0, 2, 4, …, 30/);
    const barrier = findForward(index, -1, (s) => traceStep(index.trace, s).kindName === 'barrier');
    expect(narrate(index, barrier)).toMatch(/waits at the barrier/);
  });
});
