/**
 * The start page's moving picture: the interleaved reduction of 64 one-digit numbers by one
 * workgroup of two warps, so every word of workgroup memory (and its value) fits on screen. The
 * run is the lab's own (`stepRun`), so the picture is the kernel the lab and the GPU run.
 */
import type { KernelRun } from '../../kernel/types.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import { reduceLab } from './index.ts';

export const HERO_VARIANT = 'interleaved';
export const HERO_N = 64;
export const HERO_WORKGROUP = 64;
/** Where "step through it yourself" leads: the same variant and sizes in the lab. */
export const HERO_LAB = { lab: 'reduce', variant: HERO_VARIANT, params: { n: HERO_N, workgroupSize: HERO_WORKGROUP } } as const;

/**
 * The picture's pace: one step every HERO_STEP_MS (2.5 steps a second, slow enough to read a lane's
 * state and the value it writes), then the finished sum stays up for HERO_HOLD_MS before it starts
 * again. Reduced motion shows the finished sum and plays at the same pace only when asked.
 */
export const HERO_STEP_MS = 400;
export const HERO_HOLD_MS = 3000;

/** The inputs: 1 … 9, so the sums stay within three digits (at most 576). */
export function heroInput(seed = 7): Uint32Array {
  const words = randomU32(seededRandom(seed), HERO_N, 9);
  return words.map((w) => w + 1);
}

export function heroRun(): KernelRun {
  const params = { n: HERO_N, workgroupSize: HERO_WORKGROUP, type: 'u32' } as const;
  return reduceLab.stepRun(HERO_VARIANT, params, { input: heroInput() });
}

/**
 * The source lines the picture lists (1-based, inclusive): from the load into workgroup memory to
 * the write of the workgroup's sum, found by their text so an edit of the comments above moves nothing.
 */
export function heroLines(code: string): { from: number; to: number; lines: readonly string[] } {
  const all = code.split('\n');
  const from = all.findIndex((l) => l.includes('sdata[lid] = v;')) + 1;
  const last = all.findIndex((l) => l.includes('partials[group] = sdata[0];')) + 1;
  if (from <= 0 || last < from) return { from: 1, to: all.length, lines: all };
  const to = Math.min(all.length, last + 1);
  return { from, to, lines: all.slice(from - 1, to) };
}
