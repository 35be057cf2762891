/**
 * The top-k lab's CUDA sources beside its WGSL variants (issue #26): the course's scheme (seed
 * 002), launched as its host launches it: pass 1 over the input, pass 2 as one block over pass 1's
 * lists (given the CPU's lists, so each pass is checked on its own): k = 20 by the instance
 * `topkSeed<20, distinct>` (k and distinct as template arguments, as the WGSL has them as pipeline
 * constants), any other k by `topkSeedAnyK` (as arguments, as the course's kernel takes them). Read by the tests (`src/labs/cudaTwins*.test.ts`) and the bench
 * (`BENCH_ONLY=cuda`: 2^24 values, k = 20, distinct, as the lab times it). fast, radix and
 * radix-ahead have no twin yet.
 */
import { benchElements, wordsOf, type LabTwin, type TwinCase, type TwinPass } from '../../cuda/index.ts';
import { seededRandom } from '../../util/random.ts';
import SEED_CU from './cuda/seed.cu?raw';
import { topkInput, type TopkDistribution } from './inputs.ts';
import { groupsFor, topkRun } from './kernel.ts';
import { LOWEST, topkReference, workgroupSizeFor } from './reference.ts';

/** The k the twin's host has a `topkSeed<K, DISTINCT>` instance for; any other runs `topkSeedAnyK`. */
const COMPILED_K = 20;

/** One launch of the twin beside the WGSL pass over `values` with `groups` blocks, as its host `topK` launches it. */
function seedPass(values: Int32Array, groups: number, k: number, distinct: boolean): TwinPass {
  const block = workgroupSizeFor(k);
  const data = { input: values.length ? values : new Int32Array([LOWEST]), n: values.length, output: new Int32Array(Math.ceil((groups * k) / 4) * 4) };
  const fixed = k === COMPILED_K;
  return {
    wgsl: topkRun('seed', values, groups, { k, distinct }),
    kernel: fixed ? `topkSeed<${k}, ${distinct}>` : 'topkSeedAnyK',
    config: { grid: { x: groups, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 }, sharedBytes: k * block * 4 },
    args: fixed ? data : { ...data, k, distinct },
    outputs: { output: 1 },
  };
}

/** Each block's list after pass 1: the top k of the values its threads read (grid-stride). */
function blockLists(values: Int32Array, groups: number, k: number, distinct: boolean): Int32Array {
  const block = workgroupSizeFor(k);
  const lists = new Int32Array(groups * k);
  for (let g = 0; g < groups; g++) {
    const mine = values.filter((_, x) => Math.floor(x / block) % groups === g);
    lists.set(topkReference(mine, k, distinct), g * k);
  }
  return lists;
}

function seedCase(n: number, k: number, distinct: boolean, dist: TopkDistribution, seed: number, check = true): TwinCase {
  const values = topkInput(seededRandom(seed), n, dist);
  const groups = groupsFor(n, k, 'seed');
  const lists = check ? blockLists(values, groups, k, distinct) : new Int32Array(groups * k).fill(LOWEST).map((v, i) => values[i] ?? v);
  return {
    label: `n = ${n}, k = ${k}, ${distinct ? 'distinct' : 'duplicates kept'}, ${dist}`,
    passes: [seedPass(values, groups, k, distinct), seedPass(lists, 1, k, distinct)],
    reference: check ? [{ output: wordsOf(lists) }, { output: wordsOf(topkReference(values, k, distinct)) }] : [undefined, undefined],
    bytes: 4 * (n + groups * k),
  };
}

export const TOPK_TWINS: readonly LabTwin[] = [
  {
    lab: 'topk',
    variant: 'seed',
    fileName: 'src/labs/topk/cuda/seed.cu',
    source: SEED_CU,
    // Several blocks, a partial block, ties, k of 1 and 64, fewer values than k.
    cases: () => [
      seedCase(3000, 20, true, 'random', 1),
      seedCase(2500, 8, false, 'duplicates', 2),
      seedCase(1000, 20, true, 'duplicates', 3),
      seedCase(700, 64, false, 'sorted', 4),
      seedCase(10, 16, false, 'reverse', 5),
      seedCase(999, 1, true, 'random', 6),
    ],
    // The lab's benchmark: 2^24 values, k = 20, distinct.
    bench: (limits) => seedCase(benchElements(limits, 24), 20, true, 'random', 24, false),
  },
];
