/**
 * Histogram lab (course seed 003): count a long byte string into bins with atomics. One
 * invocation per byte with global atomics, the seed's grid-stride loop, the seed's histogram
 * privatised in workgroup memory with a merge, runs aggregated in registers, a fast variant
 * with a private copy per 32 invocations and vec4 loads, and two with 8-bit counters per
 * invocation (plain stores, or workgroup atomics). The panels show the bins filling and, for the
 * current atomic, the lanes of the warp queued on each address.
 */
import { defineLab, exactCheck, intField, MAX_STEP_ELEMENTS, shown, type LabInputs, type LabVariant, type ParamField } from '../lab.ts';
import { HISTOGRAM_CUDA } from './cuda.ts';
import { histogramCases } from './cases.ts';
import { DISTRIBUTION_LABELS, DISTRIBUTIONS, generateBytes, isDistribution, rangeOf, type Distribution } from './data.ts';
import { gridOf, HISTOGRAM_KERNELS, HISTOGRAM_WORKGROUP, histogramReference, histogramRun, isHistogramVariant, isPackedVariant, PACKED_WORKGROUP, packBytes, unpackBytes, type HistogramVariant } from './kernel.ts';
import { atomicSummary } from './trace.ts';
import { histogramSection } from './bench.ts';
import { histogramMoments } from './moments.ts';

/** Bytes n (key `n`), bins (key `bins`) and the data distribution (key `dist`). */
export type HistogramParams = { readonly n: number; readonly bins: number; readonly dist: string };

const variant = (id: HistogramVariant, title: string, summary: string): LabVariant => ({
  id,
  title,
  summary,
  file: HISTOGRAM_KERNELS[id].file,
  wgsl: HISTOGRAM_KERNELS[id].wgsl,
  cuda: HISTOGRAM_CUDA[id],
  workgroupSizes: [isPackedVariant(id) ? PACKED_WORKGROUP : HISTOGRAM_WORKGROUP],
  elementTypes: ['u32'],
  needsSubgroups: false,
});

const variants: LabVariant[] = [
  variant('per-element', '1. One invocation per byte, global atomics', 'Invocation i reads byte i and adds 1 to its bin in global memory. Every byte is one global atomic, and lanes of a warp that hit the same bin queue on one address.'),
  variant('grid-stride', '2. Grid-stride loop, global atomics (seed)', 'A fixed grid walks the text: in every round neighbouring invocations read neighbouring bytes. Still one global atomic per byte; on text of one letter all 32 lanes of a warp queue on the same bin.'),
  variant('privatized', '3. Private bins in workgroup memory, then a merge (seed)', 'Each workgroup counts into its own bins in workgroup memory and adds them to the global histogram once at the end: one global atomic per bin and workgroup. With 7 bins only the first 7 invocations clear and merge; the rest wait.'),
  variant('aggregated', '4. Private bins, runs aggregated', 'Like 3, but each invocation remembers its current bin and run length and makes one atomic per run of equal bins. Data with long runs loses most of its atomics.'),
  variant('per-warp', '5. A private copy per warp, vec4 loads (fast)', 'Every 32 invocations count into their own copy of the bins, so warps never queue on each other; each invocation reads 16 bytes per load and keeps its run across the whole loop; the merge sums the copies of a bin and makes one global atomic.'),
  variant('packed', '6. 8-bit counters per invocation, no atomics', 'Every invocation owns its own bins as 8-bit counters, four to a word, laid out so that a warp always hits 32 different banks: counting is a plain load, add and store, with no atomics and no queues. Every 240 bytes, before a counter can overflow, the workgroup flushes them into 32-bit sums in registers; the merge makes one global atomic per non-empty bin.'),
  variant('packed-atomic', '7. 8-bit counters per invocation, workgroup atomics', 'The counters of 6, updated with one workgroup-memory atomicAdd per byte instead of a load, an add and a store: no queues (every lane has its own word), and no byte waits for the one before it.'),
];

const variantOf = (id: string): HistogramVariant => {
  if (!isHistogramVariant(id)) throw new RangeError(`The histogram lab has no variant “${id}”; use one of ${variants.map((v) => v.id).join(', ')}.`);
  return id;
};

const LENGTHS = [1024, 4096, 16_384, 65_536];

const n = intField({
  key: 'n',
  label: 'bytes n',
  min: 1,
  max: 2 ** 28,
  choices: (_v, params) => [...new Set([...LENGTHS, Number(params.n ?? 4096)])].sort((a, b) => a - b),
  resolve: (value) =>
    value > MAX_STEP_ELEMENTS
      ? { value: MAX_STEP_ELEMENTS, notice: `Stepping through ${value.toLocaleString('en')} bytes would trace too much; simulating ${MAX_STEP_ELEMENTS.toLocaleString('en')}. The timings go further.` }
      : { value },
});

/** 7 letter bins (the seed), 100 (not a multiple of the workgroup size), 16 and 256 byte bins. */
const BIN_CHOICES = [7, 16, 100, 256];

const bins = intField({
  key: 'bins',
  label: 'bins',
  min: 1,
  max: 256,
  choices: (_v, params) => [...new Set([...BIN_CHOICES, Number(params.bins ?? 7)])].sort((a, b) => a - b),
});

const dist: ParamField<string> = {
  key: 'dist',
  label: 'data',
  parse: (raw) => (isDistribution(raw) ? { value: raw } : { error: `expected one of ${DISTRIBUTIONS.join(', ')}` }),
  choices: () => DISTRIBUTIONS,
  resolve: (value) => (isDistribution(value) ? { value } : { value: 'letters', notice: `There is no data “${shown(value)}”; using letters.` }),
  show: (v) => (isDistribution(v) ? DISTRIBUTION_LABELS[v] : v),
};

export const histogramSpec = { n, bins, dist };

const distOf = (p: HistogramParams): Distribution => (isDistribution(p.dist) ? p.dist : 'letters');
const wordsOf = (inputs: LabInputs): Uint32Array => inputs.data as Uint32Array;
const runOf = (v: string, p: HistogramParams, inputs: LabInputs, source?: string) =>
  histogramRun(variantOf(v), wordsOf(inputs), p.n, p.bins, rangeOf(distOf(p)), source);

export const histogramLab = defineLab<'histogram', HistogramParams>({
  id: 'histogram',
  courseOrder: 3.6,
  title: 'Histogram (atomics and privatisation)',
  summary:
    'Count a long text into bins with atomic additions: global atomics first, then private bins in workgroup memory merged at the end, runs aggregated, and a private copy per warp. Watch lanes queue on one bin.',
  variants,
  defaultVariant: 'grid-stride',
  params: histogramSpec,
  defaults: { n: 4096, bins: 7, dist: 'letters' },
  inputs: (p, seed) => ({ data: packBytes(generateBytes(distOf(p), p.n, seed)) }),
  stepRun: (v, p, inputs, source) => runOf(v, p, inputs, source),
  async runAll(executor, v, p, inputs) {
    const out = (await executor.run(runOf(v, p, inputs)))[0]![1]!;
    return out.slice(0, p.bins);
  },
  check: (_v, p, inputs, output) => exactCheck(output, histogramReference(unpackBytes(wordsOf(inputs), p.n), p.bins, rangeOf(distOf(p)))),
  bench: {
    elements: (p) => p.n,
    at: (p, count) => ({ ...p, n: count }),
    // Zeroed bytes: all one value, the worst case for contention.
    passes: (v, p) => [histogramRun(variantOf(v), new Uint32Array(Math.max(4, Math.ceil(p.n / 16) * 4)), p.n, p.bins, rangeOf(distOf(p)))],
    bytes: (p) => p.n + 4 * p.bins,
    cpu(inputs, p) {
      const h = histogramReference(unpackBytes(wordsOf(inputs), p.n), p.bins, rangeOf(distOf(p)));
      return h.reduce((a, x) => a ^ x, 0);
    },
    note: 'The timings view times all-zero bytes (every lane on one bin); npm run bench also times uniform bytes.',
    section: histogramSection,
  },
  cases: histogramCases,
  moments: histogramMoments,
  metrics(m, p, traced) {
    const trace = traced?.index.trace;
    const rows = [{ label: 'Atomics, all workgroups', value: m.atomics.toLocaleString('en'), hint: 'lane updates, global and workgroup memory, clearing included' }];
    if (!trace) return rows;
    const s = atomicSummary(trace);
    return [
      ...rows,
      { label: 'Global atomics (workgroup 0)', value: s.globalLaneOps.toLocaleString('en'), hint: `${s.globalInstructions} warp instructions` },
      { label: 'Workgroup-memory atomics (workgroup 0)', value: s.workgroupLaneOps.toLocaleString('en'), hint: `${s.workgroupInstructions} warp instructions, clearing left out` },
      { label: 'Largest same-address count', value: String(s.maxSameAddress), hint: 'lanes of one warp instruction on one word' },
      { label: 'Mean same-address count', value: s.meanSameAddress.toFixed(2), hint: 'serialisation factor over atomic warp instructions' },
      { label: 'Merge cost (workgroup 0)', value: s.mergeLaneOps.toLocaleString('en'), hint: `global atomics after the last barrier, in each of ${gridOf('grid-stride', p.n)[0]} workgroups (variants 3 and 4)` },
    ];
  },
});
