import type { KernelRun } from '../kernel/types.ts';
import { copyBindings, instantiate, type RunOptions, type SimResult } from './instance.ts';
import { Machine, type Diagnostic } from './machine.ts';
import { compileCached, warpSizeOf, type Hardware } from './program.ts';

export type { SimResult } from './instance.ts';
export { CAPABLE_ADAPTER_LIMITS } from './program.ts';

/** Options of {@link simulate}. */
export interface SimOptions extends RunOptions {
  /** Lanes per warp (= subgroup size). Default 32. */
  warpSize?: number;
  /** Follow a device that fuses `fma` (see src/gpu's fma probe). Default false. */
  fusedFma?: boolean;
  /**
   * The device limits the kernel is checked against (workgroup size, workgroup storage), as the
   * browser would at pipeline creation. Default: `CAPABLE_ADAPTER_LIMITS`; pass the learner's
   * adapter limits (or WebGPU's defaults) to check against those.
   */
  limits?: Hardware['limits'];
  /** The adapter offers `shader-f16` (f16 kernels run; otherwise they are refused). Default false. */
  shaderF16?: boolean;
}

function failed(run: KernelRun, W: number, diagnostics: readonly Diagnostic[]): SimResult {
  return {
    buffers: copyBindings(run.bindings),
    metrics: new Machine(W).metrics(),
    diagnostics: diagnostics.map((d) => ({
      ...d,
      message: `${run.file ? `${run.file}:${d.line}:${d.column}: ` : ''}${d.message}`,
    })),
    incomplete: true,
  };
}

/**
 * Runs `run` warp by warp, synchronously: checks it with the WGSL front end and compiles it
 * (cached per source text, entry point, overrides, warp size, fma and limits), binds its buffers
 * and runs the dispatch. Lanes are grouped into warps
 * by `local_invocation_index`; see `machine.ts` for the fixed schedule. Unsupported or invalid
 * WGSL yields an `unsupported` diagnostic with its line and column (never a throw), and the input
 * buffers come back unchanged.
 */
export function simulate(run: KernelRun, options: SimOptions = {}): SimResult {
  const hardware: Hardware = {
    warpSize: options.warpSize ?? 32,
    fusedFma: options.fusedFma ?? false,
    shaderF16: options.shaderF16 ?? false,
    ...(options.limits ? { limits: options.limits } : {}),
  };
  const W = warpSizeOf(hardware);
  const compiled = compileCached(run.code, run.entryPoint, run.overrides ?? {}, hardware);
  if (!compiled.ok) return failed(run, W, compiled.diagnostics);
  const inst = instantiate(compiled.program, run.bindings);
  if (!inst.ok) return failed(run, W, inst.diagnostics);
  const result = inst.instance.run(run.workgroups, run.file && !options.file ? { ...options, file: run.file } : options);
  const aliases = run.aliases;
  if (!aliases || !result.trace) return result;
  const memories = result.trace.memories.map((m) => {
    const alias = m.space === 'workgroup' ? undefined : aliases[m.group]?.[m.binding];
    return alias === undefined ? m : { ...m, alias };
  });
  return { ...result, trace: { ...result.trace, memories } };
}
