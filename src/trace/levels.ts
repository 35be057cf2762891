/**
 * Tree levels on the timeline: the step at which each level of a dataflow tree is complete (its
 * last write), for "next level" / "previous level" stepping.
 */
import type { DataflowTree } from './memory.ts';

/** Per level, the step of its last write, ascending by level (levels without writes are skipped). */
export function levelEnds(tree: DataflowTree): number[] {
  const ends = new Array<number>(tree.levels).fill(-1);
  for (const n of tree.nodes) ends[n.level] = Math.max(ends[n.level]!, n.step);
  return ends.filter((s) => s >= 0);
}

/** The first level end after `step`, or -1. */
export function nextLevelEnd(ends: readonly number[], step: number): number {
  let best = -1;
  for (const e of ends) if (e > step && (best < 0 || e < best)) best = e;
  return best;
}

/** The last level end before `step`, or -1. */
export function previousLevelEnd(ends: readonly number[], step: number): number {
  let best = -1;
  for (const e of ends) if (e < step && e > best) best = e;
  return best;
}
