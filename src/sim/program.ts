/**
 * Compile once, run many: `compile(source, entryPoint, overrides, hardware)` turns WGSL into a
 * data-free {@link Program} (no buffer contents or sizes, no counters), or the diagnostics that
 * stopped it. The same program runs on any bindings through `instantiate` (instance.ts). Results
 * are cached per source text, entry point, overrides and hardware (warp size, fma, limits).
 */
import type { Global } from './ast.ts';
import { WgslError } from './ast.ts';
import { Compiler, type Program } from './compile.ts';
import type { Diagnostic } from './machine.ts';
import { check, checkParsed, type CheckResult, type Limits } from '../wgsl/checker.ts';
import type { WgslDiagnostic } from '../wgsl/ast.ts';

export type { Program } from './compile.ts';

/** The parts of the device a program depends on. */
export interface Hardware {
  /** Lanes per warp (= subgroup size), 1…128. Default 32. */
  readonly warpSize?: number;
  /**
   * Whether `fma(a, b, c)` rounds once (fused, as the device's probe reports) or twice (a*b
   * rounded to f32, then + c). WGSL allows both. Default false (unfused).
   */
  readonly fusedFma?: boolean;
  /**
   * The device limits the kernel is checked against (workgroup size, workgroup storage), as the
   * browser would at pipeline creation. Default: {@link CAPABLE_ADAPTER_LIMITS}; pass the
   * learner's adapter limits (or WebGPU's defaults) to check against those.
   */
  readonly limits?: Partial<Limits>;
  /**
   * The adapter offers WebGPU's `shader-f16` feature: kernels with `enable f16;` run with f16
   * values rounded to binary16 after every operation and 2-byte f16 memory. Default false: f16 is
   * refused, with its line and column, as a device without the feature refuses it.
   */
  readonly shaderF16?: boolean;
}

/**
 * Limits a capable adapter grants when asked (desktop GPUs in Chrome): what the simulator checks
 * against when the caller passes none, so kernels tuned for 512 or 1024 invocations still run here,
 * while a workgroup of 100 000 or a 1 GB workgroup array is refused as the browser would.
 */
export const CAPABLE_ADAPTER_LIMITS: Limits = {
  maxComputeWorkgroupSizeX: 1024,
  maxComputeWorkgroupSizeY: 1024,
  maxComputeWorkgroupSizeZ: 64,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupStorageSize: 32768,
};

/**
 * A front-end error as a simulator diagnostic (without a file name: `simulate` adds it): barrier
 * uniformity errors are barrier divergence.
 */
function fromFrontEnd(d: WgslDiagnostic): Diagnostic {
  const barrier = d.stage === 'uniformity' && !/subgroup/.test(d.message);
  const message = barrier
    ? `${d.message}: WGSL rejects this program (the browser will not compile it), because invocations that skip the ` +
      `barrier would leave the others waiting; in CUDA, __syncthreads() in divergent code is undefined behaviour.`
    : d.stage === 'pipeline'
      ? `${d.message}.`
      : `${d.message}. The browser rejects this WGSL too.`;
  return { kind: barrier ? 'barrier-divergence' : 'unsupported', line: d.line, column: d.col, message };
}

export type CompileResult =
  | { readonly ok: true; readonly program: Program }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export function warpSizeOf(hardware: Hardware): number {
  const W = hardware.warpSize ?? 32;
  if (!Number.isInteger(W) || W < 1 || W > 128) throw new RangeError(`warpSize must be 1…128, got ${W}`);
  return W;
}

/**
 * Compiles `source` (WGSL text, or a module already parsed by the front end in `src/wgsl`) for
 * `entryPoint`. The front end's checker runs first, against `hardware.limits`: what the browser
 * would reject never compiles here either, and every error it finds comes back, each with its line
 * and column. Never throws for bad WGSL: the result then carries the diagnostics (`unsupported`,
 * or `barrier-divergence` for a barrier in non-uniform control flow).
 */
export function compile(
  source: string | readonly Global[],
  entryPoint: string,
  overrides: Readonly<Record<string, number>> = {},
  hardware: Hardware = {},
): CompileResult {
  const W = warpSizeOf(hardware);
  const options = { entryPoint, overrides, limits: hardware.limits ?? CAPABLE_ADAPTER_LIMITS };
  const checked: CheckResult = typeof source === 'string' ? check(source, options) : checkParsed([...source], [], options);
  const invalid = checked.diagnostics.filter((d) => d.severity === 'error');
  if (invalid.length) return { ok: false, diagnostics: invalid.map(fromFrontEnd) };
  try {
    const module = checked.module.ast;
    const program = new Compiler(W, { module, entryPoint, overrides, fusedFma: hardware.fusedFma ?? false, shaderF16: hardware.shaderF16 ?? false }).compile();
    return { ok: true, program };
  } catch (e) {
    if (e instanceof WgslError) {
      return { ok: false, diagnostics: [{ kind: 'unsupported', line: e.pos.line, column: e.pos.col, message: e.message }] };
    }
    throw e;
  }
}

const CACHE_SIZE = 32;
const cache = new Map<string, CompileResult>();

/**
 * {@link compile} for WGSL text, remembering the last {@link CACHE_SIZE} results (least recently
 * used goes first). Programs are immutable once compiled, so sharing one is safe.
 */
export function compileCached(
  source: string,
  entryPoint: string,
  overrides: Readonly<Record<string, number>> = {},
  hardware: Hardware = {},
): CompileResult {
  const ov = Object.keys(overrides)
    .sort()
    .map((k) => `${k}=${overrides[k]}`)
    .join(',');
  const lim = hardware.limits
    ? Object.entries(hardware.limits)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${v}`)
        .join(',')
    : '';
  const key = `${warpSizeOf(hardware)}|${hardware.fusedFma ? 1 : 0}|${hardware.shaderF16 ? 1 : 0}|${lim}|${entryPoint}|${ov}|${source}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const r = compile(source, entryPoint, overrides, hardware);
  cache.set(key, r);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return r;
}
