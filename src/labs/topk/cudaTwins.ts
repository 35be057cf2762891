/**
 * The top-k lab's CUDA sources beside its WGSL variants (issue #26): the course's scheme (seed
 * 002), launched as its host launches it: pass 1 over the input, pass 2 as one block over pass 1's
 * lists (given the CPU's lists, so each pass is checked on its own): k = 20 by the instance
 * `topkSeed<20, distinct>` (k and distinct as template arguments, as the WGSL has them as pipeline
 * constants), any other k by `topkSeedAnyK` (as arguments, as the course's kernel takes them). Read by the tests (`src/labs/cudaTwins*.test.ts`) and the bench
 * (`BENCH_ONLY=cuda`: 2^24 values, k = 20, distinct, as the lab times it). The fast variant's twin
 * reads int4s; the radix select's (radix.cu) pools values above a rising floor and cuts the pool by
 * radix select, duplicates kept. radix-ahead has no twin yet.
 */
import { benchElements, wordsOf, type LabTwin, type TwinCase, type TwinPass } from '../../cuda/index.ts';
import { seededRandom } from '../../util/random.ts';
import { FAST_CUDA, RADIX_CUDA, SEED_CUDA } from './cuda.ts';
import { topkInput, type TopkDistribution } from './inputs.ts';
import { groupsFor, RADIX_WG, topkRun, workgroupOf } from './kernel.ts';
import { LOWEST, topkReference, workgroupSizeFor } from './reference.ts';

/** The k the twins' hosts have a `<K, DISTINCT>` instance for; any other runs the `…AnyK` kernel. */
const COMPILED_K = 20;

type Twinned = 'seed' | 'fast' | 'radix';
const KERNEL: Readonly<Record<Twinned, string>> = { seed: 'topkSeed', fast: 'topkFast', radix: 'topkRadix' };

/** Quads a block reads before the next block's turn: a block's threads (fast), or two rounds of them (radix). */
const chunkOf = (variant: Twinned, k: number): number => (variant === 'radix' ? 2 * RADIX_WG : workgroupSizeFor(k));

/** The values padded with INT_MIN to whole int4s (at least one), as the fast kernel reads them. */
function quads(values: Int32Array): Int32Array {
  const out = new Int32Array(Math.max(4, Math.ceil(values.length / 4) * 4)).fill(LOWEST);
  out.set(values);
  return out;
}

/** One launch of the twin beside the WGSL pass over `values` with `groups` blocks, as its host `topK` launches it. */
function topkPass(variant: Twinned, values: Int32Array, groups: number, k: number, distinct: boolean): TwinPass {
  const block = workgroupOf(variant, k);
  const vec4 = variant !== 'seed';
  const input = vec4 ? quads(values) : values.length ? values : new Int32Array([LOWEST]);
  const data = { input, [vec4 ? 'quads' : 'n']: vec4 ? input.length / 4 : values.length, output: new Int32Array(Math.ceil((groups * k) / 4) * 4) };
  const fixed = k === COMPILED_K;
  // The radix select keeps duplicates (its histograms count values): k alone, no distinct.
  const instance = variant === 'radix' ? `<${k}>` : `<${k}, ${distinct}>`;
  return {
    wgsl: topkRun(variant, values, groups, { k, distinct }),
    kernel: fixed ? `${KERNEL[variant]}${instance}` : `${KERNEL[variant]}AnyK`,
    // The radix select's shared memory is all static; the others keep k slots a thread.
    config: { grid: { x: groups, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 }, sharedBytes: variant === 'radix' ? 0 : k * block * 4 },
    args: fixed ? data : variant === 'radix' ? { ...data, k } : { ...data, k, distinct },
    outputs: { output: 1 },
  };
}

/** Each block's list after pass 1: the top k of the values its threads read (grid-stride over values, or over int4s). */
function blockLists(variant: Twinned, values: Int32Array, groups: number, k: number, distinct: boolean): Int32Array {
  const chunk = chunkOf(variant, k);
  const per = variant === 'seed' ? 1 : 4;
  const lists = new Int32Array(groups * k);
  for (let g = 0; g < groups; g++) {
    const mine = values.filter((_, x) => Math.floor(Math.floor(x / per) / chunk) % groups === g);
    lists.set(topkReference(mine, k, distinct), g * k);
  }
  return lists;
}

function topkCase(variant: Twinned, n: number, k: number, distinct: boolean, dist: TopkDistribution, seed: number, check = true): TwinCase {
  const values = topkInput(seededRandom(seed), n, dist);
  const groups = groupsFor(n, k, variant);
  const lists = check ? blockLists(variant, values, groups, k, distinct) : new Int32Array(groups * k).fill(LOWEST).map((v, i) => values[i] ?? v);
  return {
    label: `n = ${n}, k = ${k}, ${distinct ? 'distinct' : 'duplicates kept'}, ${dist}`,
    passes: [topkPass(variant, values, groups, k, distinct), topkPass(variant, lists, 1, k, distinct)],
    reference: check ? [{ output: wordsOf(lists) }, { output: wordsOf(topkReference(values, k, distinct)) }] : [undefined, undefined],
    bytes: 4 * (n + groups * k),
  };
}

const twin = (variant: Twinned, source: string, distinct: boolean): LabTwin => ({
  lab: 'topk',
  variant,
  fileName: `src/labs/topk/cuda/${variant}.cu`,
  source,
  // Several blocks, a partial block (and int4), ties, k of 1 and 64, fewer values than k; the
  // radix select's cases cut the pool several times (more than 2048 values a block).
  cases: () => [
    topkCase(variant, 3000, 20, distinct, 'random', 1),
    topkCase(variant, 2501, 8, false, 'duplicates', 2),
    topkCase(variant, 1000, 20, distinct, 'duplicates', 3),
    topkCase(variant, 700, 64, false, 'sorted', 4),
    topkCase(variant, 10, 16, false, 'reverse', 5),
    topkCase(variant, 999, 1, distinct, 'random', 6),
    ...(variant === 'radix' ? [topkCase(variant, 20000, 20, false, 'sorted', 7), topkCase(variant, 9000, 33, false, 'duplicates', 8)] : []),
  ],
  // The lab's benchmark: 2^24 values, k = 20, distinct (the radix select: duplicates kept, as it runs).
  bench: (limits) => topkCase(variant, benchElements(limits, 24), 20, distinct, 'random', 24, false),
});

export const TOPK_TWINS: readonly LabTwin[] = [twin('seed', SEED_CUDA, true), twin('fast', FAST_CUDA, true), twin('radix', RADIX_CUDA, false)];
