import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stateOf } from '../workbench/lessonTestkit.ts';
import { resolveParams } from '../workbench/lab.ts';
import { findLab } from './all.ts';
import { LESSONS } from './lessons.ts';

describe('lessons', () => {
  it('gathers every lesson folder once, in course order', () => {
    const folders = readdirSync('src/labs', { withFileTypes: true })
      .filter((lab) => lab.isDirectory() && existsSync(`src/labs/${lab.name}/lessons`))
      .flatMap((lab) => readdirSync(`src/labs/${lab.name}/lessons`, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(`src/labs/${lab.name}/lessons/${d.name}/lesson.ts`)));
    expect(LESSONS).toHaveLength(folders.length);
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    const at = (id: string) => LESSONS.findIndex((l) => l.id === id);
    expect([at('indexing'), at('divergence'), at('reduction'), at('scan')]).toEqual([0, 1, 2, at('scan')]);
    expect(at('scan')).toBeGreaterThan(at('reduction'));
  });

  it.each(LESSONS.flatMap((l) => l.steps.map((s, i) => [l.id, i + 1, s] as const)))('%s step %i names a real lab, variant and moment', (_id, _n, step) => {
    const lab = findLab(step.lab);
    expect(lab?.variants.some((v) => v.id === step.variant)).toBe(true);
    const state = stateOf(step);
    expect(state.step).toBeGreaterThanOrEqual(0);
    expect(state.step).toBeLessThan(state.trace.stepCount);
    expect(step.narrative.length).toBeGreaterThan(80);
  });

  it.each(LESSONS.flatMap((l) => l.steps.map((s, i) => [l.id, i + 1, s] as const)))('%s step %i asks for parameters the lab takes as they are', (_id, _n, step) => {
    expect(resolveParams(findLab(step.lab), step.variant, step.params).notices).toEqual([]);
  });

  it('computes the answers from the simulator, and they are the textbook ones', () => {
    const divergence = LESSONS.find((l) => l.id === 'divergence')!;
    const answers = divergence.steps.map((s) => (s.question ? s.question.answer(stateOf(s)) : undefined));
    // 8 warps; 16 of 32 lanes add at the first split; 48 vs 6 divergent branches; no split warp after level 1.
    expect(answers).toEqual([8, 16, 48, 0, 6]);
    const reduction = LESSONS.find((l) => l.id === 'reduction')!;
    const r = reduction.steps.map((s) => (s.question ? s.question.answer(stateOf(s)) : undefined));
    expect(r[0]).toBe(1); // one barrier completed
    expect(r[2]).toBe(2); // the first conflicting request is 2-way
    expect(r[3]).toBe(0); // interleaved: no bank conflicts
    const scan = LESSONS.find((l) => l.id === 'scan')!;
    const sc = scan.steps.map((s) => (s.question ? s.question.answer(stateOf(s)) : undefined));
    // Hillis–Steele on 256: n·log2 n − (n − 1) = 1793; Blelloch on 512: 2(n − 1) = 1022; padded: no conflicts.
    expect([sc[1], sc[5], sc[6]]).toEqual([1793, 1022, 0]);
  });

  it('computes the index-mapping answers: a[37], row 2, 4 sectors', () => {
    const indexing = LESSONS.find((l) => l.id === 'indexing')!;
    const answers = indexing.steps.map((s) => (s.question ? s.question.answer(stateOf(s)) : undefined));
    expect([answers[1], answers[3], answers[4]]).toEqual([37, 2, 4]);
  });

  it('highlights only code that exists in the step’s kernel and warps of its workgroup', () => {
    for (const lesson of LESSONS) {
      for (const step of lesson.steps) {
        const variant = findLab(step.lab).variants.find((v) => v.id === step.variant)!;
        for (const snippet of step.highlight?.code ?? []) expect(variant.wgsl, `${lesson.id}: ${snippet}`).toContain(snippet);
        const invocations = stateOf(step).trace.invocations;
        for (const w of step.highlight?.warps ?? []) expect(w).toBeLessThan(invocations / 32);
        for (const [w, l] of step.highlight?.lanes ?? []) expect(w * 32 + l).toBeLessThan(invocations);
      }
    }
  });

  it('explains a wrong answer by pointing at the view', () => {
    const step = LESSONS.find((l) => l.id === 'divergence')!.steps[0]!;
    const text = step.question!.explain(stateOf(step), 4);
    expect(text).toMatch(/warp grid/);
    expect(text).toMatch(/8/);
  });
});
