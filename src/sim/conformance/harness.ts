/**
 * Conformance harness in the style of the WebGPU CTS: a table of cases per builtin, all run in
 * ONE dispatch on the simulator and on Dawn (the `webgpu` package; SwiftShader on a machine
 * without a GPU), then compared case by case.
 *
 * Arguments travel as raw 32-bit words (`bitcast` in the kernel), so every builtin runs on runtime
 * values (no constant folding on either side) and -0, denormals, infinities and NaN arrive
 * unchanged. Results come back as words too. Integers and bools must agree bit for bit; f32
 * within the case's bound: `ulp` (units in the last place) or `abs` (absolute error), whichever
 * admits it. WGSL lets an implementation flush f32 denormals to zero, so a GPU result also passes
 * when it matches the simulator's result on inputs with denormals flushed, or is ±0 where the
 * simulator's is a denormal.
 */
import type { Bindings, KernelRun } from '../../kernel/types.ts';
import { simulate } from '../simulate.ts';
import { seededRandom } from '../../util/random.ts';
import { ulpDistance } from '../../util/ulp.ts';

/** WGSL types a case's arguments and results may have. */
export type WType =
  | 'f32' | 'i32' | 'u32' | 'bool'
  | 'vec2f' | 'vec3f' | 'vec4f' | 'vec2i' | 'vec3i' | 'vec4i' | 'vec2u' | 'vec3u' | 'vec4u';

const COMPONENTS: Record<WType, number> = {
  f32: 1, i32: 1, u32: 1, bool: 1,
  vec2f: 2, vec3f: 3, vec4f: 4, vec2i: 2, vec3i: 3, vec4i: 4, vec2u: 2, vec3u: 3, vec4u: 4,
};
const LEAF: Record<WType, 'f32' | 'i32' | 'u32' | 'bool'> = {
  f32: 'f32', i32: 'i32', u32: 'u32', bool: 'bool',
  vec2f: 'f32', vec3f: 'f32', vec4f: 'f32', vec2i: 'i32', vec3i: 'i32', vec4i: 'i32', vec2u: 'u32', vec3u: 'u32', vec4u: 'u32',
};

export interface Tolerance {
  /** Allowed distance in f32 units in the last place. */
  ulp?: number;
  /** Allowed absolute error. */
  abs?: number;
}

/** One builtin (or expression) over a table of inputs. */
export interface Suite {
  /** Shown in test names. */
  name: string;
  /** WGSL expression over the arguments `a0`, `a1`, …, e.g. `distance(a0, a1)`. */
  expr: string;
  args: readonly WType[];
  result: WType;
  /** Argument values per case: one array of components per argument. */
  cases: readonly (readonly (readonly number[])[])[];
  /** For f32 results; default exact (0 ulp). May depend on the case's inputs. */
  tolerance?: Tolerance | ((args: readonly (readonly number[])[]) => Tolerance);
  /** Declarations the expression needs (helper functions). */
  decls?: string;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const i32 = new Int32Array(f32.buffer);

function toWord(x: number, leaf: 'f32' | 'i32' | 'u32' | 'bool'): number {
  if (leaf === 'f32') {
    f32[0] = x;
    return u32[0]!;
  }
  if (leaf === 'i32') return x | 0;
  if (leaf === 'bool') return x ? 1 : 0;
  return x >>> 0;
}
function fromWord(w: number, leaf: 'f32' | 'i32' | 'u32' | 'bool'): number {
  u32[0] = w;
  return leaf === 'f32' ? f32[0]! : leaf === 'i32' ? i32[0]! : u32[0];
}

function isDenormal(x: number): boolean {
  return x !== 0 && Math.abs(x) < 2 ** -126;
}

/** The WGSL kernel evaluating `suite` once per invocation. */
export function kernelOf(suite: Suite): string {
  const argWords = suite.args.map((t) => COMPONENTS[t]);
  const inStride = argWords.reduce((a, b) => a + b, 0);
  const outN = COMPONENTS[suite.result];
  const loads: string[] = [];
  let at = 0;
  suite.args.forEach((t, k) => {
    const leaf = LEAF[t];
    const n = COMPONENTS[t];
    const word = (c: number) => (leaf === 'bool' ? `(inp[b + ${at + c}u] != 0u)` : `bitcast<${leaf}>(inp[b + ${at + c}u])`);
    const parts = Array.from({ length: n }, (_, c) => word(c));
    loads.push(`  let a${k} = ${n === 1 ? parts[0] : `${t}(${parts.join(', ')})`};`);
    at += n;
  });
  const rleaf = LEAF[suite.result];
  const comp = (c: number) => (outN === 1 ? 'r' : `r[${c}]`);
  const stores = Array.from({ length: outN }, (_, c) =>
    rleaf === 'bool' ? `  out[o + ${c}u] = select(0u, 1u, ${comp(c)});` : `  out[o + ${c}u] = bitcast<u32>(${comp(c)});`,
  );
  return `${suite.decls ?? ''}
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= ${suite.cases.length}u) { return; }
  let b = i * ${inStride}u;
  let o = i * ${outN}u;
${loads.join('\n')}
  let r = ${suite.expr};
${stores.join('\n')}
}
`;
}

export function runOf(suite: Suite, flushDenormals = false): KernelRun {
  const words: number[] = [];
  for (const c of suite.cases) {
    suite.args.forEach((t, k) => {
      const vals = c[k]!;
      if (vals.length !== COMPONENTS[t]) throw new Error(`${suite.name}: argument ${k} needs ${COMPONENTS[t]} components`);
      for (const v of vals) words.push(toWord(flushDenormals && LEAF[t] === 'f32' && isDenormal(v) ? v * 0 : v, LEAF[t]));
    });
  }
  const bindings: Bindings = {
    0: { 0: Uint32Array.from(words.length ? words : [0]), 1: new Uint32Array(Math.max(1, suite.cases.length * COMPONENTS[suite.result])) },
  };
  return { code: kernelOf(suite), entryPoint: 'main', workgroups: [Math.max(1, Math.ceil(suite.cases.length / 64))], bindings };
}

/** Runs the suite on the simulator; throws on any diagnostic. */
export function simulateSuite(suite: Suite, flushDenormals = false, fusedFma = false): Uint32Array {
  const r = simulate(runOf(suite, flushDenormals), { trace: 'summary', fusedFma });
  if (r.diagnostics.length) throw new Error(`${suite.name}: ${r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('; ')}`);
  return r.buffers[0]![1]! as Uint32Array;
}

/**
 * Case-by-case comparison of simulator and GPU words; returns the failures (empty when all agree).
 * `sim` is the simulator's result; `alternatives` are results the GPU may equally produce (inputs
 * with denormals flushed, fused fma).
 */
export function compareSuite(suite: Suite, sim: Uint32Array, alternatives: readonly Uint32Array[], gpu: Uint32Array): string[] {
  const outN = COMPONENTS[suite.result];
  const leaf = LEAF[suite.result];
  const fails: string[] = [];
  suite.cases.forEach((args, k) => {
    for (let c = 0; c < outN; c++) {
      const at = k * outN + c;
      const s = sim[at]!;
      const g = gpu[at]!;
      if (s === g) continue;
      if (leaf === 'f32') {
        const sv = fromWord(s, 'f32');
        const gv = fromWord(g, 'f32');
        const alts = alternatives.map((a) => fromWord(a[at]!, 'f32'));
        if ([sv, ...alts].some((r) => Number.isNaN(r) && Number.isNaN(gv))) continue;
        if ((isDenormal(sv) || alts.some(isDenormal)) && gv === 0) continue;
        const tol = typeof suite.tolerance === 'function' ? suite.tolerance(args) : (suite.tolerance ?? {});
        const ok = (ref: number) =>
          ref === gv ||
          (Number.isFinite(ref) && Number.isFinite(gv) && ((tol.ulp !== undefined && ulpDistance(ref, gv) <= tol.ulp) || (tol.abs !== undefined && Math.abs(ref - gv) <= tol.abs)));
        if (ok(sv) || alts.some(ok)) continue;
        fails.push(`${suite.name}(${args.map((a) => a.join(',')).join('; ')})[${c}]: sim ${sv} gpu ${gv} (${ulpDistance(sv, gv)} ulp)`);
      } else {
        if (alternatives.some((a) => a[at] === g)) continue;
        fails.push(`${suite.name}(${args.map((a) => a.join(',')).join('; ')})[${c}]: sim ${fromWord(s, leaf)} gpu ${fromWord(g, leaf)}`);
      }
    }
  });
  return fails;
}

// ───────────────────────────── edge-case inputs ─────────────────────────────

const MIN_NORMAL = 2 ** -126;
const MIN_DENORMAL = 2 ** -149;
const F32_MAX = 3.4028234663852886e38;

/** f32 edge values: zeros, denormals, normal boundaries, ordinary values, ±max; infinities on request. */
export function f32Edges(opts: { inf?: boolean; negative?: boolean } = {}): number[] {
  const pos = [0, MIN_DENORMAL, 2 ** -140, MIN_NORMAL, 1e-20, 0.1, 0.5, 1, 1.5, 2, 3.75, 10, 100.5, 12345.678, 1e20, F32_MAX];
  const out = opts.negative === false ? pos : [...pos, ...pos.map((x) => -x)];
  if (opts.inf) out.push(Infinity, ...(opts.negative === false ? [] : [-Infinity]));
  return out.map((x) => Math.fround(x));
}

export const I32_EDGES = [0, 1, -1, 2, -2, 7, -8, 31, 32, 33, 255, -256, 0x7fff, -0x8000, 0x12345678, -0x12345678, 2147483647, -2147483648];
export const U32_EDGES = [0, 1, 2, 7, 31, 32, 33, 255, 256, 0xffff, 0x10000, 0x12345678, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];

/** Shift/offset/count amounts: 0, 1, 31, 32 and beyond (masked or clamped by the builtin). */
export const AMOUNTS = [0, 1, 4, 8, 16, 31, 32, 33];

/** All pairs of `xs` × `ys`. */
export function pairs<A, B>(xs: readonly A[], ys: readonly B[]): [A, B][] {
  return xs.flatMap((x) => ys.map((y) => [x, y] as [A, B]));
}

/** Deterministic pseudo-random f32 vectors with components in [lo, hi). */
export function randomVecs(count: number, n: number, lo: number, hi: number, seed = 1): number[][] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: n }, () => Math.fround(lo + (hi - lo) * next())));
}

// ───────────────────────────── running on both sides ─────────────────────────────

interface Gpu {
  run(run: KernelRun): Promise<Bindings>;
  readonly adapter?: { readonly subgroupMinSize?: number | undefined; readonly subgroupMaxSize?: number | undefined } | undefined;
}
let gpu: Promise<Gpu> | null = null;

/**
 * The Node GPU executor (Dawn), shared by the GPU test files of the process (sharedNodeGpu). Where
 * there is none, every test that awaits it fails with the reason (no silent skip).
 */
export function nodeGpu(): Promise<Gpu> {
  gpu ??= import('../../gpu/node.ts').then((m) => m.sharedNodeGpu());
  return gpu;
}

/**
 * The adapter's subgroup size, for the simulator's warp size to match: throws where the adapter
 * lets it vary (the simulator could not know which size a dispatch got).
 */
export function fixedSubgroupSize(g: Gpu): number {
  const lo = g.adapter?.subgroupMinSize;
  const hi = g.adapter?.subgroupMaxSize;
  if (lo === undefined || lo !== hi) throw new Error(`subgroup kernels need a fixed subgroup size, the adapter reports ${lo}…${hi}`);
  return lo;
}

/**
 * Runs `suite` on the simulator (as is, with denormal inputs flushed, and with fused fma when
 * `fma` is set) and on the GPU; returns the disagreements.
 */
export async function conform(suite: Suite, opts: { fma?: boolean } = {}): Promise<string[]> {
  const sim = simulateSuite(suite);
  const alts = [simulateSuite(suite, true)];
  if (opts.fma) alts.push(simulateSuite(suite, false, true), simulateSuite(suite, true, true));
  const g = await nodeGpu();
  const out = await g.run(runOf(suite));
  return compareSuite(suite, sim, alts, out[0]![1]! as Uint32Array);
}
