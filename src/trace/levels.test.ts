import { describe, expect, it } from 'vitest';
import type { DataflowTree } from './memory.ts';
import { levelEnds, nextLevelEnd, previousLevelEnd } from './levels.ts';

const node = (step: number, level: number) => ({ record: step, step, addr: 0, value: 0, level, sources: [] });

describe('tree levels on the timeline', () => {
  const tree: DataflowTree = { memory: 0, levels: 3, nodes: [node(2, 0), node(5, 0), node(9, 1), node(7, 1), node(20, 2)] };
  it('ends each level at its last write', () => {
    expect(levelEnds(tree)).toEqual([5, 9, 20]);
  });
  it('steps forward and back between level ends', () => {
    const ends = levelEnds(tree);
    expect(nextLevelEnd(ends, 0)).toBe(5);
    expect(nextLevelEnd(ends, 5)).toBe(9);
    expect(nextLevelEnd(ends, 20)).toBe(-1);
    expect(previousLevelEnd(ends, 20)).toBe(9);
    expect(previousLevelEnd(ends, 9)).toBe(5);
    expect(previousLevelEnd(ends, 5)).toBe(-1);
  });
});
