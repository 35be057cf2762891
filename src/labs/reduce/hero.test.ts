import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { heroInput, heroLines, heroRun, HERO_N, HERO_STEP_MS, HERO_WORKGROUP } from './hero.ts';

describe("the start page's reduction", () => {
  it('reduces 64 one-digit numbers in one workgroup, and the simulator gets their sum', () => {
    const input = heroInput();
    expect(input).toHaveLength(HERO_N);
    expect(input.every((v) => v >= 1 && v <= 9)).toBe(true);
    const run = heroRun();
    const result = simulate(run, { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const partials = result.buffers[0]![1]!;
    expect(partials[0]).toBe(input.reduce((a, b) => a + b, 0));
    expect(result.trace!.stepCount).toBeGreaterThan(50);
  });

  it('lists the kernel from the load into workgroup memory to the write of the sum', () => {
    const { code } = heroRun();
    const { from, to, lines } = heroLines(code);
    expect(lines[0]).toContain('sdata[lid] = v;');
    expect(lines.some((l) => l.includes('partials[group] = sdata[0];'))).toBe(true);
    expect(to - from + 1).toBe(lines.length);
    expect(heroLines('no markers here')).toEqual({ from: 1, to: 1, lines: ['no markers here'] });
  });

  it('says nothing in the listed lines that does not hold for its 64 invocations in 2 warps', () => {
    const { code } = heroRun();
    const comments = heroLines(code).lines.filter((l) => l.includes('//')).join('\n');
    for (const m of comments.matchAll(/(\d+) invocations/g)) expect(Number(m[1]), m[0]).toBe(HERO_WORKGROUP);
    expect(comments).not.toMatch(/warps? [4-9]|\b[4-9]\s*[–-]\s*\d+ idle/);
  });

  it('plays at a pace a reader can follow: at most 3 steps a second', () => {
    expect(1000 / HERO_STEP_MS).toBeLessThanOrEqual(3);
  });
});
