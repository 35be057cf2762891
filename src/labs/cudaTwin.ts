/**
 * Test helper shared by every lab that ships CUDA sources (`src/labs/<id>/cuda/*.cu`): a lab's
 * CUDA twin of a WGSL variant is translated with `compileCuda`, launched with the lab's own
 * configuration through `prepareLaunch`, and run beside the WGSL variant on one executor (the
 * simulator or the GPU). Outputs are compared as 32-bit words, so a CUDA `int` buffer and a WGSL
 * `u32` buffer that hold the same bits agree.
 */
import { compileCuda, prepareLaunch, type CudaProgram, type KernelArg, type LaunchConfig } from '../cuda/index.ts';
import type { BindingData, KernelRun } from '../kernel/types.ts';
import { simulate } from '../sim/index.ts';
import type { KernelExecutor } from '../workbench/labTypes.ts';

/** Translates a lab's CUDA file; a translation error fails with every diagnostic at its CUDA line. */
export function compileLabCuda(source: string, fileName: string): CudaProgram {
  const r = compileCuda(source, { fileName });
  if (!r.ok) throw new Error(`${fileName} does not translate:\n${r.diagnostics.map((d) => `${fileName}:${d.line}:${d.column}: ${d.severity}: ${d.message}`).join('\n')}`);
  const warnings = r.diagnostics.filter((d) => d.severity === 'warning');
  if (warnings.length) throw new Error(`${fileName} translates with warnings:\n${warnings.map((d) => `${fileName}:${d.line}:${d.column}: ${d.message}`).join('\n')}`);
  return r.program;
}

/** One launch of the lab's CUDA kernel next to the WGSL variant's pass that it must match. */
export interface TwinPass {
  /** The WGSL variant's pass, exactly as the lab runs it. */
  readonly wgsl: KernelRun;
  /** The CUDA kernel (its name, or a template instance such as `reduceUnrolled<256>`). */
  readonly kernel: string;
  readonly config: LaunchConfig;
  readonly args: Record<string, KernelArg>;
  /** CUDA output parameter → the binding (group 0) of the WGSL pass that holds the same values. */
  readonly outputs: Readonly<Record<string, number>>;
}

/** Both runs' outputs, as 32-bit words, by CUDA parameter name. */
export interface TwinResult {
  readonly cuda: Record<string, number[]>;
  readonly wgsl: Record<string, number[]>;
  /** The CUDA launch's own `KernelRun` (the generated WGSL), for further checks. */
  readonly run: KernelRun;
}

const words = (data: ArrayLike<number> & { buffer?: ArrayBufferLike; byteOffset?: number; byteLength?: number }): number[] => {
  const d = data as BindingData;
  return Array.from(new Uint32Array(d.buffer, d.byteOffset, d.byteLength / 4));
};

/** Runs `pass` both ways on `executor`. */
export async function runTwin(executor: KernelExecutor, program: CudaProgram, pass: TwinPass): Promise<TwinResult> {
  const launch = prepareLaunch(program, pass.kernel, pass.config, pass.args);
  const cudaOut = launch.readBack(await executor.run(launch.run));
  const wgslOut = (await executor.run(pass.wgsl))[0] ?? {};
  const cuda: Record<string, number[]> = {};
  const wgsl: Record<string, number[]> = {};
  for (const [name, binding] of Object.entries(pass.outputs)) {
    const c = cudaOut[name];
    const w = wgslOut[binding];
    if (!c || typeof c !== 'object') throw new Error(`the CUDA launch of ${pass.kernel} returned no '${name}'`);
    if (!w) throw new Error(`the WGSL pass ${pass.wgsl.label ?? pass.wgsl.entryPoint} returned no binding ${binding}`);
    cuda[name] = words(c);
    wgsl[name] = words(w);
  }
  return { cuda, wgsl, run: launch.run };
}

/**
 * The simulator as a `KernelExecutor` (32-lane warps). A construct it cannot run rejects with its
 * place; `onDiagnostics` receives each run's diagnostics (races, out-of-bounds reads, …).
 */
export function simulatorExecutor(onDiagnostics?: (run: KernelRun, kinds: string[]) => void): KernelExecutor {
  return {
    run(run) {
      const result = simulate(run, { trace: 'summary' });
      const stop = result.diagnostics.find((d) => d.kind === 'unsupported' || d.kind === 'step-limit');
      if (stop || result.incomplete) return Promise.reject(new Error(`simulator: ${run.file ?? 'kernel'}:${stop?.line}:${stop?.column}: ${stop?.message ?? 'stopped early'}`));
      onDiagnostics?.(run, [...new Set(result.diagnostics.map((d) => d.kind))].sort());
      return Promise.resolve(result.buffers);
    },
  };
}
