/**
 * Parallel merge with co-rank (course seed 003): every invocation owns an equal slice of the
 * output and finds where it starts in A and B by a binary search on the output's cross-diagonal,
 * then merges its slice sequentially. "Tiled" co-ranks per workgroup, stages the tile's A and B in
 * workgroup memory and co-ranks again inside the tile; "fast" moves the workgroup co-ranks into a
 * pass of their own and coalesces loads and stores; "stream" keeps each workgroup walking over
 * tiles with the next tile's loads in flight while it merges the current one; "wide" gives each
 * invocation 15 outputs, loads them into registers before staging, and merges without branches
 * from one search per invocation, with the tile as its only workgroup memory.
 */
import { defineLab, OPENING_MOMENT, elementTypeOfParams, exactCheck, type LabInputs, type LabVariant, variantFrom } from '../../workbench/lab.ts';
import { firstFound } from '../../workbench/openings.ts';
import { seededRandom } from '../../util/random.ts';
import type { MessageValues } from '../../i18n/format.ts';
import type { ElementType } from '../../workbench/labTypes.ts';
import { mergeCases } from './cases.ts';
import { BASIC_CUDA, FAST_CUDA, STREAM_CUDA, TILED_CUDA, WIDE_CUDA } from './cuda.ts';
import { isMergeInput, mergeInputs } from './inputs.ts';
import { isMergeVariant, MERGE_FILES, MERGE_SHAPES, mergePasses, mergeStepRun, runMerge, STREAM_GROUPS, type MergeData, type MergeVariant } from './kernel.ts';
import { coRankIterationBound, mergeReference } from './reference.ts';
import { mergeMoments } from './moments.ts';
import { m } from './messages.ts';
import { mergeMeta } from './meta.ts';

export { mergeSpec } from './meta.ts';

/** A's length `m`, B's length `n`, the input kind and the element type. */
export type MergeParams = { readonly m: number; readonly n: number; readonly input: string; readonly type: string };

const TYPES: readonly ElementType[] = ['i32', 'f32', 'u32'];

/** A variant; its texts may name its items per invocation and its tile (`{items}`, `{tile}`). */
const variant = (id: MergeVariant, cuda: string, values?: MessageValues): LabVariant => {
  const { workgroupSize, items } = MERGE_SHAPES[id];
  return variantFrom(
    m,
    '',
    { id, file: MERGE_FILES[id].file, wgsl: MERGE_FILES[id].wgsl, cuda, workgroupSizes: [workgroupSize], elementTypes: TYPES, needsSubgroups: false },
    { items, tile: workgroupSize * items, ...values },
  );
};

const variants: LabVariant[] = [
  variant('basic', BASIC_CUDA),
  variant('tiled', TILED_CUDA),
  variant('fast', FAST_CUDA),
  variant('stream', STREAM_CUDA, { groups: STREAM_GROUPS.toLocaleString('en') }),
  variant('wide', WIDE_CUDA),
];

const variantOf = (id: string): MergeVariant => {
  if (!isMergeVariant(id)) throw new RangeError(`The merge lab has no variant “${id}”; use basic, tiled, fast, stream or wide.`);
  return id;
};


/** The inputs of a parameter set: A and B sorted, as long as the input kind makes them. */
export function mergeData(inputs: LabInputs, p: MergeParams): MergeData {
  const a = inputs.a!;
  const b = inputs.b!;
  const kind = isMergeInput(p.input) ? p.input : 'random';
  return { a, b, m: kind === 'a-empty' ? 0 : p.m, n: kind === 'b-empty' ? 0 : p.n };
}

function inputsOf(p: MergeParams, seed: number): LabInputs {
  const kind = isMergeInput(p.input) ? p.input : 'random';
  const { a, b } = mergeInputs(seededRandom(seed), kind, p.m, p.n, elementTypeOfParams(p));
  return { a, b };
}

/** Bench data: evens in A, odds in B, so the merge path zigzags all the way. */
function benchData(p: MergeParams): MergeData {
  const type = elementTypeOfParams(p);
  const a = type === 'f32' ? new Float32Array(p.m) : type === 'i32' ? new Int32Array(p.m) : new Uint32Array(p.m);
  const b = type === 'f32' ? new Float32Array(p.n) : type === 'i32' ? new Int32Array(p.n) : new Uint32Array(p.n);
  for (let i = 0; i < p.m; i++) a[i] = 2 * i;
  for (let j = 0; j < p.n; j++) b[j] = 2 * j + 1;
  return { a, b, m: p.m, n: p.n };
}

export const mergeLab = defineLab<'merge', MergeParams>(mergeMeta, {
  variants,
  defaultVariant: 'basic',
  defaults: { m: 24, n: 40, input: 'random', type: 'i32' },
  inputs: inputsOf,
  stepRun: (variant, p, inputs, source) => mergeStepRun(variantOf(variant), mergeData(inputs, p), source),
  runAll: (executor, variant, p, inputs) => runMerge(executor, variantOf(variant), mergeData(inputs, p)),
  check(_variant, p, inputs, output) {
    const d = mergeData(inputs, p);
    return exactCheck(output, mergeReference(d.a, d.m, d.b, d.n));
  },
  bench: {
    elements: (p) => p.m + p.n,
    at: (p, total) => ({ ...p, m: Math.floor(total / 2), n: total - Math.floor(total / 2) }),
    passes: (variant, p) => mergePasses(variantOf(variant), benchData(p)),
    // Each input word read once and each output word written once.
    bytes: (p) => 4 * 2 * (p.m + p.n),
    // Reads both lists and writes their merge: set against a copy.
    baseline: 'copy',
    cpu(inputs, p) {
      const d = mergeData(inputs, p);
      const c = mergeReference(d.a, d.m, d.b, d.n);
      return c[c.length >> 1] ?? 0;
    },
    get note() {
      return m('note');
    },
  },
  cases: mergeCases,
  moments: {
    ...mergeMoments,
    // Invocation 1's co-rank found (its last probe on the merge path), else the first output.
    [OPENING_MOMENT]: (index) => firstFound(() => mergeMoments.probe(index, '1:last'), () => mergeMoments['first-store'](index, '')),
  },
  metrics: (mt, p) => {
    const total = p.m + p.n;
    const rows = [
      { label: m('metric.corank'), value: String(coRankIterationBound(p.m, p.n)), hint: m('metric.corank.hint') },
      { label: m('metric.sectors'), value: total ? (mt.globalTransactions / total).toFixed(2) : '—', hint: m('metric.sectors.hint') },
      { label: m('metric.shared'), value: mt.sharedRequests.toLocaleString('en'), hint: m('metric.shared.hint') },
    ];
    return rows;
  },
});
