import { describe, expect, it } from 'vitest';
import { columnOffsets, frameColumns, frameKey, GAP_COST, parseFrameKey } from './camera.ts';

const shown = (f: ReturnType<typeof frameColumns>) => f.flatMap((c) => (c.kind === 'column' ? [c.index] : []));
const cost = (f: ReturnType<typeof frameColumns>) => f.reduce((s, c) => s + (c.kind === 'column' ? 1 : GAP_COST), 0);

describe('frameColumns', () => {
  it('shows every column when they fit', () => {
    expect(shown(frameColumns(32, [0, 16], 40))).toHaveLength(32);
  });

  it('keeps banks 0 and 16 of a 2-way conflict in a frame of 10 columns, and collapses the rest into gaps', () => {
    const f = frameColumns(32, [0, 16], 10);
    expect(shown(f)).toContain(0);
    expect(shown(f)).toContain(16);
    expect(cost(f)).toBeLessThanOrEqual(10);
    // Every column is either shown or inside exactly one gap.
    const covered = f.flatMap((c) => (c.kind === 'column' ? [c.index] : Array.from({ length: c.to - c.from + 1 }, (_, k) => c.from + k)));
    expect(covered).toEqual(Array.from({ length: 32 }, (_, k) => k));
  });

  it('shows the subject even when it alone is wider than the budget', () => {
    const subject = [0, 4, 8, 12, 16, 20, 24, 28];
    expect(shown(frameColumns(32, subject, 4))).toEqual(expect.arrayContaining(subject));
  });

  it('frames around column 0 when there is no subject', () => {
    expect(shown(frameColumns(32, [], 6))[0]).toBe(0);
  });

  it('lays gaps narrower than columns', () => {
    const f = frameColumns(32, [0, 31], 6);
    const { total, at } = columnOffsets(f, 10);
    expect(total).toBeCloseTo(cost(f) * 10);
    expect(at.get(0)).toBe(0);
    expect(at.has(31)).toBe(true);
  });
});

describe('frameKey', () => {
  it('round-trips a framing', () => {
    const f = frameColumns(32, [0, 16], 10);
    expect(parseFrameKey(frameKey(f))).toEqual(f);
    expect(parseFrameKey('')).toEqual([]);
  });
});
