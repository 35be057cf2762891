/**
 * Twins: a lab's CUDA source beside the lab's WGSL variant. Shared by every lab that ships CUDA
 * sources (`src/labs/<id>/cuda/*.cu`): the CUDA is translated with `compileCuda`, launched with
 * the lab's own configuration through `prepareLaunch`, and run beside the WGSL variant's pass on
 * one executor (the simulator or the GPU). Outputs are compared as 32-bit words, so a CUDA `int`
 * buffer and a WGSL `u32` buffer that hold the same bits agree.
 */
import type { BindingData, Bindings, KernelRun } from '../kernel/types.ts';
import { compileCudaWith } from './compile.ts';
import { prepareLaunch } from './launch.ts';
import type { CudaProgram, KernelArg, LaunchConfig } from './types.ts';

/** Anything that runs a `KernelRun`: the GPU executor, or the simulator wrapped in a promise. */
export interface TwinExecutor {
  run(run: KernelRun): Promise<Bindings>;
}

/** Translates a lab's CUDA file; an error or a warning throws with every diagnostic at its CUDA line. */
export function compileLabCuda(source: string, fileName: string): CudaProgram {
  const r = compileCudaWith(source, { fileName });
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
export async function runTwin(executor: TwinExecutor, program: CudaProgram, pass: TwinPass): Promise<TwinResult> {
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
