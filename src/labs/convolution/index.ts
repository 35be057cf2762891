/**
 * Convolution lab (course seed 003): 1-D and 2-D convolution with zero ghost cells, the mask in a
 * uniform buffer (WGSL's constant memory), the seed's tiled kernel with a halo (16 × 16 invocations
 * loading, 12 × 12 computing for a 5 × 5 mask) and a tiled kernel in which every invocation
 * computes four outputs and reads vec4s. The stage draws the traced workgroup's part of the input
 * plane: output tile, halo ring, ghost cells, who loaded what, idle invocations and read counts.
 */
import { defineLab, OPENING_MOMENT, type LabInputs, type LabVariant, type MetricRow, variantFrom } from '../../workbench/lab.ts';
import { firstFound } from '../../workbench/openings.ts';
import { CONVOLUTION_CUDA } from './cuda.ts';
import { convolutionCases } from './cases.ts';
import { convolutionSection } from './bench.ts';
import { convolutionMoments } from './moments.ts';
import { CONVOLUTION_KERNELS, convolutionInputs, convolutionReference, convolutionRun, isConvolutionVariant, outputTileWidths, unpitch, type ConvolutionShape, type ConvolutionVariant } from './kernel.ts';
import { convolutionPicture } from './trace.ts';
import { convolutionMeta } from './meta.ts';
import { m } from './messages.ts';

export { convolutionSpec } from './meta.ts';

/** Image width (key `w`) and height (`h`), mask width (`m`), output tile width of the halo-tiled variant (`t`). */
export type ConvolutionParams = { readonly width: number; readonly height: number; readonly maskWidth: number; readonly outTile: number };

const variant = (id: ConvolutionVariant, workgroupSizes: number[]): LabVariant => variantFrom(m, 'variant.', {
  id,
  file: CONVOLUTION_KERNELS[id].file,
  wgsl: CONVOLUTION_KERNELS[id].wgsl,
  cuda: CONVOLUTION_CUDA[id],
  workgroupSizes,
  elementTypes: ['f32'],
  needsSubgroups: false,
});

const variants: LabVariant[] = [
  variant('conv1d', [256]),
  variant('basic2d', [256]),
  variant('uniform-mask', [256]),
  variant('tiled', outputTileWidths(3).map((t) => (t + 2) ** 2)),
  variant('tiled-vec4', [256]),
];

const variantOf = (id: string): ConvolutionVariant => {
  if (!isConvolutionVariant(id)) throw new RangeError(`The convolution lab has no variant “${id}”; use one of ${variants.map((v) => v.id).join(', ')}.`);
  return id;
};


const shapeOf = (p: ConvolutionParams): ConvolutionShape => ({ width: p.width, height: p.height, maskWidth: p.maskWidth, outTile: p.outTile });
const imageOf = (inputs: LabInputs) => inputs.image as Float32Array;
const maskOf = (inputs: LabInputs) => inputs.mask as Float32Array;

/** Metric rows from the traced workgroup: loads per output, halo overhead, idle invocations. */
function convolutionMetrics(v: ConvolutionVariant, p: ConvolutionParams, picture: ReturnType<typeof convolutionPicture>): MetricRow[] {
  const mw = p.maskWidth;
  const tiledFormula =
    v === 'tiled'
      ? `(T + m − 1)² / T² = ${((p.outTile + mw - 1) ** 2 / p.outTile ** 2).toFixed(2)}`
      : v === 'tiled-vec4'
        ? `(64 + 8)·(32 + m − 1) / (64·32) = ${((72 * (32 + mw - 1)) / 2048).toFixed(2)}`
        : m('metric.loads.basic', { n: mw * mw });
  const outs = picture.outputs.size;
  const loaded = v === 'tiled' || v === 'tiled-vec4' ? picture.loadedBy.size : picture.outputs.size + picture.halo.size - picture.ghosts.size;
  return [
    { label: m('metric.loads'), value: outs ? (picture.globalLoads / outs).toFixed(2) : '—', hint: tiledFormula },
    { label: m('metric.halo'), value: outs ? `${((100 * (loaded - outs)) / outs).toFixed(0)} %` : '—', hint: m('metric.halo.hint') },
    { label: m('metric.idle'), value: m('metric.idle.value', { idle: picture.idle.length, all: picture.invocations }), hint: m('metric.idle.hint') },
  ];
}

export const convolutionLab = defineLab<'convolution', ConvolutionParams>(convolutionMeta, {
  variants,
  defaultVariant: 'tiled',
  defaults: { width: 48, height: 48, maskWidth: 5, outTile: 12 },
  inputs: (p, seed) => convolutionInputs(p.width, p.height, p.maskWidth, seed),
  stepRun: (v, p, inputs, source) => convolutionRun(variantOf(v), imageOf(inputs), maskOf(inputs), shapeOf(p), source),
  async runAll(executor, v, p, inputs) {
    const id = variantOf(v);
    const out = (await executor.run(convolutionRun(id, imageOf(inputs), maskOf(inputs), shapeOf(p))))[0]![2]! as Float32Array;
    return unpitch(out, id, p.width, p.height);
  },
  check(v, p, inputs, output) {
    // Whole-number pixels and mask entries make every sum exact, so the check is exact too.
    const want = convolutionReference(variantOf(v), imageOf(inputs), p.width, p.height, maskOf(inputs), p.maskWidth);
    if (output.length !== want.length) return { ok: false, message: m('check.length', { got: output.length, want: want.length }) };
    for (let i = 0; i < want.length; i++) {
      if (!Object.is(output[i], want[i])) return { ok: false, message: m('check.pixel', { row: Math.floor(i / p.width), col: i % p.width, got: String(output[i]), want: String(want[i]) }) };
    }
    return { ok: true };
  },
  bench: {
    elements: (p) => p.width * p.height,
    at: (p, n) => {
      const s = Math.max(1, Math.round(Math.sqrt(n)));
      return { ...p, width: s, height: s };
    },
    passes: (v, p) => [convolutionRun(variantOf(v), new Float32Array(p.width * p.height), new Float32Array(p.maskWidth * p.maskWidth), shapeOf(p))],
    bytes: (p) => 8 * p.width * p.height,
    // Reads the image and writes one of the same size: set against a copy.
    baseline: 'copy',
    flops: (p) => 2 * p.maskWidth * p.maskWidth * p.width * p.height,
    cpu(inputs, p) {
      const out = convolutionReference('basic2d', imageOf(inputs), p.width, p.height, maskOf(inputs), p.maskWidth);
      return out[out.length >> 1]!;
    },
    get note() {
      return m('note');
    },
    section: convolutionSection,
  },
  cases: convolutionCases,
  moments: {
    ...convolutionMoments,
    // The tile with its halo loaded and the compute phase begun (basic variants: their first loads).
    [OPENING_MOMENT]: (index) => firstFound(() => convolutionMoments.phase(index, 'compute'), () => convolutionMoments.phase(index, 'load')),
  },
  metrics: (_m, p, traced) => (traced && isConvolutionVariant(traced.variant) ? convolutionMetrics(traced.variant, p, convolutionPicture(traced.index.trace, traced.variant, shapeOf(p))) : []),
});
