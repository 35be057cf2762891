import { describe, expect, it } from 'vitest';
import type { DataflowTree, TreeNode } from './memory.ts';
import { describeWrites, splitTree } from './treeLayout.ts';

const node = (step: number, addr: number, level: number, sources: number[]): TreeNode => ({ record: step, step, addr, value: 0, level, sources });

describe('splitTree', () => {
  it('keeps a reduction as one tree', () => {
    const tree: DataflowTree = { memory: 0, levels: 2, nodes: [node(0, 0, 0, []), node(1, 1, 0, []), node(2, 0, 1, [0, 1])] };
    const split = splitTree(tree);
    expect(split.parts.map((p) => p.levels)).toEqual([2]);
  });
  it('starts a second tree at a cleared root after combining (Blelloch)', () => {
    // Loads 0,1; up-sweep 1 = 0+1; clear 1 = 0; down-sweep reads the cleared root and the old left.
    const tree: DataflowTree = {
      memory: 0,
      levels: 4,
      nodes: [node(0, 0, 0, []), node(1, 1, 0, []), node(2, 1, 1, [0, 1]), node(3, 1, 0, []), node(4, 0, 1, [3]), node(5, 1, 2, [3, 0])],
    };
    const split = splitTree(tree);
    expect(split.parts.map((p) => p.nodes)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect([...split.level]).toEqual([0, 0, 1, 0, 1, 1]);
  });
});

describe('describeWrites', () => {
  it('says contiguous words are written by one warp when they are', () => {
    expect(describeWrites({ words: [0, 1, 2, 3, 4, 5], stride: 1, warps: [0], lanesPerWarp: 6 }, 32)).toBe('6 contiguous words (0, 1, 2 … 5), written by 6 of 32 lanes of warp 0.');
  });
  it('uses proper ordinals and counts the warps', () => {
    expect(describeWrites({ words: [0, 2, 4, 6, 8], stride: 2, warps: [0, 1], lanesPerWarp: 32 }, 32)).toBe('5 words, every 2nd word (0, 2, 4 … 8), written by lanes of 2 warps (up to 32 of 32 lanes in each).');
  });
});
