/**
 * Compile once, run many: `compile(source, entryPoint, overrides, hardware)` turns WGSL into a
 * data-free {@link Program} (no buffer contents or sizes, no counters), or the diagnostics that
 * stopped it. The same program runs on any bindings through `instantiate` (instance.ts). Results
 * are cached per source text, entry point, overrides and hardware.
 */
import type { Global } from './ast.ts';
import { WgslError } from './ast.ts';
import { Compiler, type Program } from './compile.ts';
import type { Diagnostic } from './machine.ts';
import { parseWgsl } from './parser.ts';

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
 * Compiles `source` (WGSL text or an already parsed module) for `entryPoint`. Never throws for
 * bad WGSL: the result then carries an `unsupported` diagnostic with line and column.
 */
export function compile(
  source: string | readonly Global[],
  entryPoint: string,
  overrides: Readonly<Record<string, number>> = {},
  hardware: Hardware = {},
): CompileResult {
  const W = warpSizeOf(hardware);
  try {
    const module = typeof source === 'string' ? parseWgsl(source) : source;
    const program = new Compiler(W, { module, entryPoint, overrides, fusedFma: hardware.fusedFma ?? false }).compile();
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
  const key = `${warpSizeOf(hardware)}|${hardware.fusedFma ? 1 : 0}|${entryPoint}|${ov}|${source}`;
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
