/**
 * Tiled matrix multiply (course seed 003): C = A × B from a naive kernel that reads a whole row of
 * A and column of B per output, through tiles in workgroup memory, to register tiles and a
 * double-buffered vec4 kernel. M, N and K are free (not multiples of the tile); f32, or i32 for
 * exact checks.
 */
import { defineLab, OPENING_MOMENT, exactCheck, type CheckResult, type LabInputs, type LabVariant, variantFrom } from '../../workbench/lab.ts';
import { firstFound, firstOp } from '../../workbench/openings.ts';
import { seededRandom } from '../../util/random.ts';
import { matmulCases } from './cases.ts';
import { MATMUL_CUDA } from './cuda.ts';
import { f32Bounds, isMatmulVariant, MATMUL_KERNELS, matmulReference, matmulRun, matmulTypes, type MatmulShape, type MatmulType, type MatmulVariant } from './kernel.ts';
import { OpKind } from '../../sim/index.ts';
import { arithmeticIntensity, boundaryWaste, tileDoneStep, tileReadyStep, workgroupCounters } from './queries.ts';
import { matmulSection } from './bench.ts';
import { matmulMeta } from './meta.ts';
import { m } from './messages.ts';

export { matmulSpec } from './meta.ts';

/** M, N, K (keys `m`, `n`, `k`), the tiled kernel's TILE (`tile`) and the element type (`type`). */
export type MatmulParams = { readonly m: number; readonly n: number; readonly k: number; readonly tile: number; readonly type: string };

/** The variants in ladder order; their titles and summaries are in the catalog (messages.ts). */
const VARIANT_IDS: readonly MatmulVariant[] = ['naive', 'coalesced', 'tiled', 'column', 'vec4-2d', 'fast', 'tile-16x8'];

const variants: LabVariant[] = VARIANT_IDS.map((id) => variantFrom(m, 'variant.', {
  id,
  file: MATMUL_KERNELS[id].file,
  wgsl: MATMUL_KERNELS[id].wgsl,
  cuda: MATMUL_CUDA[id],
  workgroupSizes: [256],
  elementTypes: matmulTypes(id),
  needsSubgroups: false,
}));

const variantOf = (id: string): MatmulVariant => {
  if (!isMatmulVariant(id)) throw new RangeError(`The matrix-multiply lab has no variant “${id}”; use one of ${VARIANT_IDS.join(', ')}.`);
  return id;
};

const typeOf = (p: { readonly type: string }): MatmulType => (p.type === 'i32' ? 'i32' : 'f32');
const shapeOf = (p: MatmulParams): MatmulShape => ({ m: p.m, n: p.n, k: p.k });

/** Seeded A and B: f32 in [-1, 1), or i32 in [-50, 50]. */
export function matmulInputs(p: MatmulParams, seed: number): LabInputs {
  const rng = seededRandom(seed);
  const make = (length: number) =>
    typeOf(p) === 'i32' ? Int32Array.from({ length }, () => Math.floor(rng() * 101) - 50) : Float32Array.from({ length }, () => Math.fround(rng() * 2 - 1));
  return { a: make(p.m * p.k), b: make(p.k * p.n) };
}

const operands = (inputs: LabInputs) => ({ a: inputs.a as Float32Array | Int32Array, b: inputs.b as Float32Array | Int32Array });

/** Above this many multiply-adds the check compares a sample of C (the full CPU product would take seconds). */
export const FULL_CHECK_FMAS = 2 ** 24;
const SAMPLES = 512;

/** C[r][c] as the CPU reference adds it (in order along K), and its f32 bound. */
function referenceAt(type: MatmulType, shape: MatmulShape, a: ArrayLike<number>, b: ArrayLike<number>, r: number, c: number): { want: number; bound: number } {
  const f = Math.fround;
  let acc = 0;
  let abs = 0;
  for (let i = 0; i < shape.k; i++) {
    const x = a[r * shape.k + i]!;
    const y = b[i * shape.n + c]!;
    if (type === 'i32') acc = (acc + Math.imul(x, y)) | 0;
    else {
      acc = f(acc + f(x * y));
      abs += Math.abs(x * y);
    }
  }
  const u = 2 ** -24;
  return { want: acc, bound: type === 'i32' ? 0 : (2 * shape.k * u * abs) / (1 - shape.k * u) };
}

/** The corners of C and `SAMPLES` seeded elements, for the sampled check of large products. */
function sampledElements(shape: MatmulShape): number[] {
  const rng = seededRandom(shape.m * 31 + shape.n * 7 + shape.k);
  const out = [0, shape.n - 1, (shape.m - 1) * shape.n, shape.m * shape.n - 1];
  for (let i = 0; i < SAMPLES; i++) out.push(Math.floor(rng() * shape.m * shape.n));
  return out;
}

/**
 * Exact for i32; for f32 within the bound of `f32Bounds`, naming the first element outside it.
 * Above `FULL_CHECK_FMAS` multiply-adds, the corners and 512 seeded elements of C are checked.
 */
export function matmulCheck(p: MatmulParams, inputs: LabInputs, output: ArrayLike<number>): CheckResult {
  const { a, b } = operands(inputs);
  const shape = shapeOf(p);
  if (shape.m * shape.n * shape.k > FULL_CHECK_FMAS) {
    if (output.length !== shape.m * shape.n) return { ok: false, message: m('check.length', { got: output.length, want: shape.m * shape.n }) };
    for (const i of sampledElements(shape)) {
      const r = Math.floor(i / shape.n);
      const { want, bound } = referenceAt(typeOf(p), shape, a, b, r, i % shape.n);
      const d = Math.abs(output[i]! - want);
      if (!(d <= bound)) return { ok: false, message: m('check.sampled', { r, c: i % shape.n, got: String(output[i]), want: String(want), samples: SAMPLES + 4, bound: bound.toExponential(2) }) };
    }
    return { ok: true };
  }
  const want = matmulReference(typeOf(p), shape, a, b);
  if (typeOf(p) === 'i32') return exactCheck(output, want);
  if (output.length !== want.length) return { ok: false, message: m('check.length', { got: output.length, want: want.length }) };
  const bounds = f32Bounds(shape, a, b);
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(output[i]! - want[i]!);
    if (!(d <= bounds[i]!)) {
      const r = Math.floor(i / p.n);
      return { ok: false, message: m('check.element', { r, c: i % p.n, got: String(output[i]), want: String(want[i]), d: d.toExponential(2), bound: bounds[i]!.toExponential(2) }) };
    }
  }
  return { ok: true };
}

/** A square multiply of about `elements` outputs, a multiple of 16 on a side. */
function squareAt(p: MatmulParams, elements: number): MatmulParams {
  const side = Math.max(16, Math.round(Math.sqrt(elements) / 16) * 16);
  return { ...p, m: side, n: side, k: side };
}

export const matmulLab = defineLab<'matmul', MatmulParams>(matmulMeta, {
  variants,
  defaultVariant: 'tiled',
  defaults: { m: 64, n: 64, k: 64, tile: 16, type: 'f32' },
  inputs: matmulInputs,
  stepRun: (variant, p, inputs, source) => {
    const { a, b } = operands(inputs);
    const v = variantOf(variant);
    // The roofline's companions trace every variant at the shown one's parameters: an f32-only
    // variant at i32 runs on the same operands as f32 (whole numbers within ±50, exact in f32).
    if (!matmulTypes(v).includes(typeOf(p))) return matmulRun(v, 'f32', shapeOf(p), p.tile, Float32Array.from(a), Float32Array.from(b), source);
    return matmulRun(v, typeOf(p), shapeOf(p), p.tile, a, b, source);
  },
  async runAll(executor, variant, p, inputs) {
    const { a, b } = operands(inputs);
    return (await executor.run(matmulRun(variantOf(variant), typeOf(p), shapeOf(p), p.tile, a, b)))[0]![2]!;
  },
  check: (_variant, p, inputs, output) => matmulCheck(p, inputs, output),
  bench: {
    elements: (p) => p.m * p.n,
    // 1024 × 1024: the plain CPU loop already takes about a second there.
    maxElements: 2 ** 20,
    at: squareAt,
    passes: (variant, p) => {
      const type = typeOf(p);
      const zeros = (n: number) => (type === 'f32' ? new Float32Array(n) : new Int32Array(n));
      return [matmulRun(variantOf(variant), type, shapeOf(p), p.tile, zeros(p.m * p.k), zeros(p.k * p.n))];
    },
    bytes: (p) => 4 * (p.m * p.k + p.k * p.n + p.m * p.n),
    flops: (p) => 2 * p.m * p.n * p.k,
    cpu(inputs, p) {
      const out = matmulReference(typeOf(p), shapeOf(p), operands(inputs).a, operands(inputs).b);
      return out[out.length - 1]! + out[0]!;
    },
    get note() {
      return m('note');
    },
    section: matmulSection,
  },
  cases: matmulCases,
  moments: {
    // The n-th tile (arg, 1-based) is complete in workgroup memory: the barrier after its loads.
    'tile-ready': (index, arg) => tileReadyStep(index, Math.max(1, Number(arg) || 1)),
    // Every invocation is done reading the n-th tile: the barrier after it was ready.
    'tile-done': (index, arg) => tileDoneStep(index, Math.max(1, Number(arg) || 1)),
    // The first tiles of A and B complete in workgroup memory; the untiled kernels open at their first load of A.
    [OPENING_MOMENT]: (index) => firstFound(() => tileReadyStep(index, 1), () => firstOp(index, OpKind.loadGlobal, 'a')),
  },
  metrics(mt, p, traced) {
    const waste = boundaryWaste(variantOf(traced?.variant ?? 'naive'), shapeOf(p), p.tile);
    const rows = [
      { label: m('metric.conflictsAll'), value: mt.sharedBankConflicts.toLocaleString('en'), hint: m('metric.conflictsAll.hint') },
    ];
    if (!traced) return rows;
    const variant = variantOf(traced.variant);
    const c = workgroupCounters(traced.index, variant, shapeOf(p), p.tile);
    const per = (x: number) => (c.usefulFmas === 0 ? '—' : (x / c.usefulFmas).toFixed(3));
    const wg = m('metric.wg', { n: c.workgroup });
    return [
      { id: 'global_loads_per_fma', label: m('metric.global'), value: per(c.globalLoads), hint: m('metric.global.hint', { loads: c.globalLoads.toLocaleString('en'), fmas: c.usefulFmas.toLocaleString('en'), wg }) },
      { label: m('metric.shared'), value: per(c.sharedLoads), hint: m('metric.shared.hint', { loads: c.sharedLoads.toLocaleString('en'), wg }) },
      ...rows,
      { label: m('metric.conflicts'), value: c.bankConflicts.toLocaleString('en'), hint: m('metric.conflicts.hint') },
      {
        label: m('metric.barriers'),
        value: c.tileSteps === 0 ? m('metric.barriers.none') : (c.barriers / c.tileSteps).toFixed(2),
        hint: c.tileSteps === 0 ? m('metric.barriers.noneHint') : m('metric.barriers.hint', { n: c.barriers, steps: c.tileSteps }),
      },
      { label: m('metric.waste'), value: `${(100 * waste).toFixed(1)} %`, hint: m('metric.waste.hint') },
      { label: m('metric.intensity'), value: `${arithmeticIntensity(c, shapeOf(p), variant, p.tile).toFixed(2)} FLOP/byte`, hint: m('metric.intensity.hint', { wg }) },
    ];
  },
});
