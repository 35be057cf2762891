import { describe, expect, it } from 'vitest';
import { findLab, isLabId, LABS } from '../labs/all.ts';
import { simulate } from '../sim/index.ts';
import { exerciseHref, exercisesOf, readExerciseFragment } from './exercises.ts';

const EXERCISES = exercisesOf(LABS);
import { checkExercise } from './exerciseCheck.ts';

const simulateOnce = (r: Parameters<typeof simulate>[0], o: Parameters<typeof simulate>[1]) => ({ promise: Promise.resolve(simulate(r, o)), cancel: () => undefined });

describe('exercises', () => {
  it('reduce and scan have at least two each, the seeds’ bugs one each, with one-sentence goals and a hint naming a view', () => {
    for (const lab of ['reduce', 'scan']) expect(EXERCISES.filter((e) => e.lab === lab).length).toBeGreaterThanOrEqual(2);
    // The seeds' bugs: the warp-synchronous last warp, the in-place global write, the fixed-size top-k.
    for (const id of ['reduce-last-warp-race', 'reduce-inplace-overwrite', 'topk-fixed-size']) expect(EXERCISES.some((e) => e.id === id), id).toBe(true);
    for (const e of EXERCISES) {
      expect(e.goal.trim().split(/[.!?](\s|$)/).filter((s) => s.trim().length > 0)).toHaveLength(1);
      expect(e.hint).toMatch(/view|timeline|warp grid/);
      expect(e.seeds.length).toBeGreaterThanOrEqual(2);
    }
  });

  for (const e of EXERCISES) {
    it(`${e.id}: the broken kernel fails the check and the kernel as written passes it`, async () => {
      expect(isLabId(e.lab)).toBe(true);
      const lab = findLab(e.lab)!;
      const broken = await checkExercise(lab, e, e.broken, simulateOnce);
      expect(broken.ok).toBe(false);
      const fixed = lab.variants.find((v) => v.id === e.variant)!.wgsl;
      expect(await checkExercise(lab, e, fixed, simulateOnce)).toEqual({ ok: true });
    });
  }

  it('links open the exercise in its lab with its parameters', () => {
    const e = EXERCISES.find((x) => x.id === 'reduce-tail-bounds')!;
    const href = exerciseHref(findLab('reduce'), e);
    expect(href).toBe('/lab/reduce?v=neighbored&n=1000&wg=256#exercise=reduce-tail-bounds');
    expect(readExerciseFragment(new URL(href, 'https://x.org').hash)).toBe('reduce-tail-bounds');
  });
});
