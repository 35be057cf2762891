/**
 * Tiled matrix multiply (course seed 003): C = A × B from a naive kernel that reads a whole row of
 * A and column of B per output, through tiles in workgroup memory, to register tiles and a
 * double-buffered vec4 kernel. M, N and K are free (not multiples of the tile); f32, or i32 for
 * exact checks.
 */
import { defineLab, exactCheck, type CheckResult, type LabInputs, type LabVariant } from '../lab.ts';
import { seededRandom } from '../../util/random.ts';
import { matmulCases } from './cases.ts';
import { MATMUL_CUDA } from './cuda.ts';
import { f32Bounds, isMatmulVariant, MATMUL_KERNELS, matmulReference, matmulRun, type MatmulShape, type MatmulType, type MatmulVariant } from './kernel.ts';
import { arithmeticIntensity, boundaryWaste, tileDoneStep, tileReadyStep, workgroupCounters } from './queries.ts';
import { matmulSection } from './bench.ts';
import { matmulMeta } from './meta.ts';

export { matmulSpec } from './meta.ts';

/** M, N, K (keys `m`, `n`, `k`), the tiled kernel's TILE (`tile`) and the element type (`type`). */
export type MatmulParams = { readonly m: number; readonly n: number; readonly k: number; readonly tile: number; readonly type: string };

const TEXTS: Readonly<Record<MatmulVariant, { title: string; summary: string }>> = {
  naive: {
    title: 'Naive: one output per invocation, x down the rows',
    summary:
      'Each invocation reads a whole row of A and a whole column of B from global memory. Its x runs down the rows of C, so a warp reads 32 rows of A K words apart: every element of A is loaded N times, and every load costs a sector of its own.',
  },
  coalesced: {
    title: 'Coalesced: x along the row',
    summary:
      'The same loop with x along the columns of C: a warp reads one word of A (a broadcast) and consecutive words of B. The loads per element are unchanged (N for A, M for B); only the sectors per request fall.',
  },
  tiled: {
    title: 'Tiled in workgroup memory (TILE 16 or 32)',
    summary:
      'A workgroup copies a TILE × TILE tile of A and of B into workgroup memory, waits at a barrier, multiplies the tiles, and waits again before the next tile. Each element of A is loaded N / TILE times; edges load zeros.',
  },
  column: {
    title: '1-D register tiling: a column of 16 outputs',
    summary:
      'A 64 × 64 block per workgroup; each invocation keeps 16 outputs down one column in registers and uses every word of the B tile it reads 16 times. Fewer workgroup-memory loads per multiply-add.',
  },
  'vec4-2d': {
    title: '2-D register tiling with vec4',
    summary:
      'Each invocation owns a 4 × 4 square of C as four vec4s: 4 words of the transposed A tile and one vec4 of the B tile feed 16 multiply-adds. Global loads are vec4s (K and N multiples of 4). The transposed store crowds one bank.',
  },
  fast: {
    title: 'Fastest here: 8 × 8 per invocation, swizzled, double-buffered',
    summary:
      'A 128 × 128 block, 64 outputs per invocation; the A tile is transposed and swizzled (rows 4–7 flip bit 2 of the column) so its stores miss each other’s banks without padding, which would not fit in 16 KiB, and two buffers let the next tile load during the multiply-adds with one barrier per step.',
  },
};

const variants: LabVariant[] = (Object.keys(TEXTS) as MatmulVariant[]).map((id) => ({
  id,
  title: TEXTS[id].title,
  summary: TEXTS[id].summary,
  file: MATMUL_KERNELS[id].file,
  wgsl: MATMUL_KERNELS[id].wgsl,
  cuda: MATMUL_CUDA[id],
  workgroupSizes: [256],
  elementTypes: ['f32', 'i32'],
  needsSubgroups: false,
}));

const variantOf = (id: string): MatmulVariant => {
  if (!isMatmulVariant(id)) throw new RangeError(`The matrix-multiply lab has no variant “${id}”; use one of ${Object.keys(TEXTS).join(', ')}.`);
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
    if (output.length !== shape.m * shape.n) return { ok: false, message: `the output has ${output.length} elements where ${shape.m * shape.n} were expected` };
    for (const i of sampledElements(shape)) {
      const r = Math.floor(i / shape.n);
      const { want, bound } = referenceAt(typeOf(p), shape, a, b, r, i % shape.n);
      const d = Math.abs(output[i]! - want);
      if (!(d <= bound)) return { ok: false, message: `C[${r}][${i % shape.n}] is ${output[i]} where the CPU reference has ${want} (sampled check of ${SAMPLES + 4} elements; bound ${bound.toExponential(2)})` };
    }
    return { ok: true };
  }
  const want = matmulReference(typeOf(p), shape, a, b);
  if (typeOf(p) === 'i32') return exactCheck(output, want);
  if (output.length !== want.length) return { ok: false, message: `the output has ${output.length} elements where ${want.length} were expected` };
  const bounds = f32Bounds(shape, a, b);
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(output[i]! - want[i]!);
    if (!(d <= bounds[i]!)) {
      const r = Math.floor(i / p.n);
      return { ok: false, message: `C[${r}][${i % p.n}] is ${output[i]} where the CPU reference has ${want[i]}: they differ by ${d.toExponential(2)}, beyond the f32 bound ${bounds[i]!.toExponential(2)} (2·γ_K·Σ|a·b|)` };
    }
  }
  return { ok: true };
}

/** A square multiply of about `elements` outputs, a multiple of 16 on a side. */
function squareAt(p: MatmulParams, elements: number): MatmulParams {
  const side = Math.max(16, Math.round(Math.sqrt(elements) / 16) * 16);
  return { ...p, m: side, n: side, k: side };
}

export const matmulLab = defineLab<'matmul', MatmulParams>({
  ...matmulMeta,
  variants,
  defaultVariant: 'naive',
  defaults: { m: 64, n: 64, k: 64, tile: 16, type: 'f32' },
  inputs: matmulInputs,
  stepRun: (variant, p, inputs, source) => {
    const { a, b } = operands(inputs);
    return matmulRun(variantOf(variant), typeOf(p), shapeOf(p), p.tile, a, b, source);
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
    note: 'cuBLAS SGEMM on an H100 runs at about 50 TFLOP/s in FP32 (no TF32); siboehm’s CUDA worklog reaches about 94 % of cuBLAS on an A6000 with the ideas of the last three variants.',
    section: matmulSection,
  },
  cases: matmulCases,
  moments: {
    // The n-th tile (arg, 1-based) is complete in workgroup memory: the barrier after its loads.
    'tile-ready': (index, arg) => tileReadyStep(index, Math.max(1, Number(arg) || 1)),
    // Every invocation is done reading the n-th tile: the barrier after it was ready.
    'tile-done': (index, arg) => tileDoneStep(index, Math.max(1, Number(arg) || 1)),
  },
  metrics(m, p, traced) {
    const waste = boundaryWaste(variantOf(traced?.variant ?? 'naive'), shapeOf(p), p.tile);
    const rows = [
      { label: 'Bank conflicts (all workgroups)', value: m.sharedBankConflicts.toLocaleString('en'), hint: 'extra wavefronts of workgroup-memory requests' },
    ];
    if (!traced) return rows;
    const variant = variantOf(traced.variant);
    const c = workgroupCounters(traced.index, variant, shapeOf(p), p.tile);
    const per = (x: number) => (c.usefulFmas === 0 ? '—' : (x / c.usefulFmas).toFixed(3));
    const wg = `workgroup ${c.workgroup}`;
    return [
      { label: 'Global loads per FMA', value: per(c.globalLoads), hint: `${c.globalLoads.toLocaleString('en')} words of A and B for ${c.usefulFmas.toLocaleString('en')} multiply-adds in ${wg}` },
      { label: 'Workgroup-memory loads per FMA', value: per(c.sharedLoads), hint: `${c.sharedLoads.toLocaleString('en')} tile words read in ${wg}` },
      ...rows,
      { label: 'Bank conflicts (this workgroup)', value: c.bankConflicts.toLocaleString('en'), hint: 'extra wavefronts of its tile loads and stores' },
      {
        label: 'Barriers per tile',
        value: c.tileSteps === 0 ? 'no tiles' : (c.barriers / c.tileSteps).toFixed(2),
        hint: c.tileSteps === 0 ? 'reads go straight to global memory' : `${c.barriers} barriers over ${c.tileSteps} steps along K`,
      },
      { label: 'Boundary waste', value: `${(100 * waste).toFixed(1)} %`, hint: 'launched C positions outside M × N: invocations with nothing to store there' },
      { label: 'Arithmetic intensity', value: `${arithmeticIntensity(c, shapeOf(p), variant, p.tile).toFixed(2)} FLOP/byte`, hint: `from the loads and stores of ${wg}` },
    ];
  },
});
