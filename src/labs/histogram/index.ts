/**
 * Histogram lab (course seed 003): count a long byte string into bins with atomics. One
 * invocation per byte with global atomics, the seed's grid-stride loop, the seed's histogram
 * privatised in workgroup memory with a merge, runs aggregated in registers, a fast variant
 * with a private copy per 32 invocations and vec4 loads, and two with 8-bit counters per
 * invocation (plain stores, or workgroup atomics), and CUB's layout: 32-bit counters in a copy per
 * warp, several vec4 loads in flight per invocation, no flushes. The panels show the bins filling and, for the
 * current atomic, the lanes of the warp queued on each address.
 */
import { defineLab, OPENING_MOMENT, exactCheck, type LabInputs, type LabVariant, variantFrom } from '../../workbench/lab.ts';
import { HISTOGRAM_CUDA } from './cuda.ts';
import { histogramCases } from './cases.ts';
import { generateBytes, isDistribution, rangeOf, type Distribution } from './data.ts';
import { gridOf, HISTOGRAM_KERNELS, HISTOGRAM_WORKGROUP, histogramReference, histogramRun, isHistogramVariant, isPackedVariant, PACKED_WORKGROUP, packBytes, unpackBytes, type HistogramVariant } from './kernel.ts';
import { atomicSummary } from './trace.ts';
import { histogramSection } from './bench.ts';
import { histogramMoments } from './moments.ts';
import { m } from './messages.ts';
import { histogramMeta } from './meta.ts';

export { histogramSpec } from './meta.ts';

/** Bytes n (key `n`), bins (key `bins`) and the data distribution (key `dist`). */
export type HistogramParams = { readonly n: number; readonly bins: number; readonly dist: string };

const variant = (id: HistogramVariant): LabVariant => variantFrom(m, 'variant.', {
  id,
  file: HISTOGRAM_KERNELS[id].file,
  wgsl: HISTOGRAM_KERNELS[id].wgsl,
  cuda: HISTOGRAM_CUDA[id],
  workgroupSizes: [isPackedVariant(id) ? PACKED_WORKGROUP : HISTOGRAM_WORKGROUP],
  elementTypes: ['u32'],
  needsSubgroups: false,
});

const variants: LabVariant[] = [
  variant('per-element'),
  variant('grid-stride'),
  variant('privatized'),
  variant('aggregated'),
  variant('per-warp'),
  variant('packed'),
  variant('packed-atomic'),
  variant('batched'),
];

const variantOf = (id: string): HistogramVariant => {
  if (!isHistogramVariant(id)) throw new RangeError(`The histogram lab has no variant “${id}”; use one of ${variants.map((v) => v.id).join(', ')}.`);
  return id;
};


const distOf = (p: HistogramParams): Distribution => (isDistribution(p.dist) ? p.dist : 'letters');
const wordsOf = (inputs: LabInputs): Uint32Array => inputs.data as Uint32Array;
const runOf = (v: string, p: HistogramParams, inputs: LabInputs, source?: string) =>
  histogramRun(variantOf(v), wordsOf(inputs), p.n, p.bins, rangeOf(distOf(p)), source);

export const histogramLab = defineLab<'histogram', HistogramParams>(histogramMeta, {
  variants,
  defaultVariant: 'grid-stride',
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
    get note() {
      return m('note');
    },
    section: histogramSection,
  },
  cases: histogramCases,
  moments: {
    ...histogramMoments,
    // The atomic with the longest same-address queue: the serialization the lab is about (every
    // variant counts with atomics, so there is one; openingStep puts step 0 in place of a -1).
    [OPENING_MOMENT]: (index) => histogramMoments.atomic(index, 'longest'),
  },
  metrics(mt, p, traced) {
    const trace = traced?.index.trace;
    const rows = [{ label: m('metric.atomics'), value: mt.atomics.toLocaleString('en'), hint: m('metric.atomics.hint') }];
    if (!trace) return rows;
    const s = atomicSummary(trace);
    return [
      ...rows,
      { label: m('metric.global'), value: s.globalLaneOps.toLocaleString('en'), hint: m('metric.global.hint', { n: s.globalInstructions }) },
      { label: m('metric.shared'), value: s.workgroupLaneOps.toLocaleString('en'), hint: m('metric.shared.hint', { n: s.workgroupInstructions }) },
      { label: m('metric.maxSame'), value: String(s.maxSameAddress), hint: m('metric.maxSame.hint') },
      { label: m('metric.meanSame'), value: s.meanSameAddress.toFixed(2), hint: m('metric.meanSame.hint') },
      { label: m('metric.merge'), value: s.mergeLaneOps.toLocaleString('en'), hint: m('metric.merge.hint', { n: gridOf('grid-stride', p.n)[0] }) },
    ];
  },
});
