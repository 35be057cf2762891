/**
 * The catalog (what the start page and the address know before a lab module loads) says the same
 * as the modules: the same labs in the same order, titles, summaries, variant counts and the very
 * parameter specs the modules resolve with.
 */
import { describe, expect, it } from 'vitest';
import { isLabId, LAB_CATALOG, LAB_IDS, labInfo } from './catalog.ts';
import { MATMUL_KERNELS } from './matmul/kernel.ts';
import { VEC4_MATMULS } from './matmul/meta.ts';
import { LABS } from './all.ts';

describe('the lab catalog', () => {
  it('lists every registered lab in course order', () => {
    expect(LAB_IDS).toEqual(LABS.map((l) => l.id));
    expect(isLabId('reduce')).toBe(true);
    expect(isLabId('nope')).toBe(false);
    expect(labInfo('nope')).toBeUndefined();
  });

  it.each(LABS.map((l) => [l.id, l] as const))('agrees with the module of %s', (id, lab) => {
    const info = labInfo(id);
    expect({ title: info.title, summary: info.summary, courseOrder: info.courseOrder, variantCount: info.variantCount }).toEqual({
      title: lab.title,
      summary: lab.summary,
      courseOrder: lab.courseOrder,
      variantCount: lab.variants.length,
    });
    expect(info.params).toBe(lab.params);
  });

  it('knows which matrix-multiply kernels read vec4s', () => {
    expect([...VEC4_MATMULS].sort()).toEqual(Object.entries(MATMUL_KERNELS).filter(([, k]) => k.vec4).map(([v]) => v).sort());
  });

  it('holds every lab once', () => {
    expect(new Set(LAB_CATALOG.map((l) => l.id)).size).toBe(LAB_CATALOG.length);
  });
});
