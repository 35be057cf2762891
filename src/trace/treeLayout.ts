/**
 * The dataflow tree split into its trees and described in words, from the trace alone.
 *
 * A scan's down-sweep starts from a write that reads nothing (the root set to zero) after the
 * up-sweep has combined values: such a write opens a new tree, so Blelloch's up-sweep and
 * down-sweep come out as two trees with their own levels instead of one tall stack. Reductions
 * have one tree. Captions say only what the trace shows: which words a level wrote, and which
 * lanes of which warps wrote them.
 */
import type { Trace } from '../sim/index.ts';
import type { DataflowTree } from './memory.ts';

export interface TreePart {
  /** Indices into the dataflow tree's nodes. */
  readonly nodes: readonly number[];
  /** Levels within this part (0 = the values it starts from). */
  readonly levels: number;
}

export interface SplitTree {
  readonly parts: readonly TreePart[];
  /** Per node of the dataflow tree: its part and its level within that part. */
  readonly part: Int32Array;
  readonly level: Int32Array;
}

export function splitTree(tree: DataflowTree): SplitTree {
  const n = tree.nodes.length;
  const part = new Int32Array(n);
  const level = new Int32Array(n);
  let current = 0;
  let combined = false;
  for (let i = 0; i < n; i++) {
    const node = tree.nodes[i]!;
    if (node.sources.length === 0 && combined) {
      // A fresh value after the tree was built: a new tree begins (a scan's cleared root).
      current++;
      combined = false;
    }
    if (node.sources.length > 0) combined = true;
    part[i] = current;
    let l = 0;
    for (const s of node.sources) if (part[s] === current) l = Math.max(l, level[s]! + 1);
    level[i] = l;
  }
  const parts: { nodes: number[]; levels: number }[] = Array.from({ length: n === 0 ? 0 : current + 1 }, () => ({ nodes: [], levels: 0 }));
  for (let i = 0; i < n; i++) {
    const p = parts[part[i]!]!;
    p.nodes.push(i);
    p.levels = Math.max(p.levels, level[i]! + 1);
  }
  return { parts: parts.filter((p) => p.nodes.length > 0), part, level };
}

const ordinal = (k: number): string => {
  const tens = k % 100;
  if (tens >= 11 && tens <= 13) return `${k}th`;
  return `${k}${k % 10 === 1 ? 'st' : k % 10 === 2 ? 'nd' : k % 10 === 3 ? 'rd' : 'th'}`;
};

/** The words, lanes and warps of some writes, as facts for a caption. */
export interface LevelFacts {
  readonly words: readonly number[];
  /** The constant distance between consecutive words, when there is one. */
  readonly stride: number | undefined;
  readonly warps: readonly number[];
  /** Lanes that wrote, per warp. */
  readonly lanesPerWarp: number;
}

export function levelFacts(trace: Trace, tree: DataflowTree, nodes: readonly number[]): LevelFacts {
  const words = [...new Set(nodes.map((i) => tree.nodes[i]!.addr))].sort((a, b) => a - b);
  let stride: number | undefined;
  for (let i = 1; i < words.length; i++) {
    const d = words[i]! - words[i - 1]!;
    if (stride === undefined) stride = d;
    else if (stride !== d) {
      stride = undefined;
      break;
    }
  }
  const lanes = new Map<number, Set<number>>();
  for (const i of nodes) {
    const node = tree.nodes[i]!;
    const w = trace.stepWarp[node.step]!;
    if (!lanes.has(w)) lanes.set(w, new Set());
    lanes.get(w)!.add(trace.recLane[node.record]!);
  }
  const warps = [...lanes.keys()].sort((a, b) => a - b);
  const lanesPerWarp = Math.max(0, ...[...lanes.values()].map((s) => s.size));
  return { words, stride, warps, lanesPerWarp };
}

/** A sentence about a level's writes that the trace makes true. */
export function describeWrites(f: LevelFacts, warpSize: number): string {
  if (f.words.length === 0) return '';
  const list = f.words.length > 4 ? `${f.words.slice(0, 3).join(', ')} … ${f.words[f.words.length - 1]}` : f.words.join(', ');
  const shape =
    f.words.length === 1
      ? `word ${list}`
      : f.stride === 1
        ? `${f.words.length} contiguous words (${list})`
        : f.stride !== undefined
          ? `${f.words.length} words, every ${ordinal(f.stride)} word (${list})`
          : `${f.words.length} words (${list})`;
  const who =
    f.warps.length === 1
      ? `${f.lanesPerWarp} of ${warpSize} lanes of warp ${f.warps[0]}`
      : `lanes of ${f.warps.length} warps (up to ${f.lanesPerWarp} of ${warpSize} lanes in each)`;
  return `${shape}, written by ${who}.`;
}
