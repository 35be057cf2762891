/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  'seed.title': 'The seed’s scheme: insert, tree merge, two launches',
  'seed.summary': 'Each invocation inserts its values into a sorted list of k in its own column of workgroup memory; the lower half of the workgroup then inserts the upper half’s lists, level by level, and a second launch merges the workgroups’ lists. Every merge step is k inserts of up to k shifts.',
  'fast.title': 'Faster: register threshold, vec4 loads, linear merge',
  'fast.summary': 'The same two launches, but each invocation keeps its list’s smallest value in a register, so almost every value costs one comparison; values arrive eight at a time (two vec4 loads in flight); and two lists merge in 2k steps, not k inserts.',
  'topk.title': 'Top-k (sorted lists and a merge tree)',
  'topk.summary': 'Find the k largest of n values: a sorted list per invocation, a pairwise merge tree in workgroup memory and two launches, as in the course seed, with its distinct-values semantics beside the usual top-k, and a faster version.',
  'param.n': 'size n',
  'notice.n': 'Stepping through {n} values would trace too much; simulating {max}. The timings go to larger sizes.',
  'param.k': 'k',
  'notice.k': 'The lists keep at most {max} values each; using k = {max}.',
  'param.dist': 'distribution',
  'param.sem': 'semantics',
  'parse.choice': 'not a {label}',
  'notice.choice': 'The top-k lab has no {label} “{name}”; use {names}. Showing {fallback}.',
  'dist.random': 'random',
  'dist.sorted': 'sorted ascending',
  'dist.reverse': 'sorted descending',
  'dist.duplicates': 'many duplicates (16 values)',
  'sem.distinct': 'distinct values (the seed)',
  'sem.all': 'duplicates kept',
  'note': 'The bytes count each value read once: the read baseline moves the same. torch.topk on the same data: scripts/peers/topk_merge_peers.py.',
  'metric.branches': 'Insert branches that split a warp',
  'metric.branches.hint': 'divergent branches of the stepped launch (pass 1, inserts and tree): lanes whose value enters their list against lanes whose value does not; the stage counts each lane’s accepted inserts',
  'metric.levels': 'Merge levels',
  'metric.memory': 'Workgroup memory per workgroup',
  'metric.passes': 'Passes',
  'metric.passes.value': '2 launches, 1 read of the input',
  'metric.levels.hint': 'log₂ {wg} invocations per workgroup, in each launch',
  'metric.memory.hint': '{wg} lists of k = {k} i32 (the seed’s 256 × 20 would need 20,480 B, over WebGPU’s 16 KiB)',
  'metric.passes.hint': 'pass 1: {n} workgroups; pass 2: one workgroup over their lists',
  'ui.panel': 'Lists, merge tree and threshold',
} as const;

export const m = createCatalog('lab-topk', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
