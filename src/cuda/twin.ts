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

/** One lab variant's twin at one size: its passes, the CPU's answer for them, and what they read. */
export interface TwinCase {
  /** A few words for messages and the bench, e.g. `n = 1000, wg 256`. */
  readonly label: string;
  /** The passes, each with its inputs fixed beforehand (a later pass does not read an earlier one's output). */
  readonly passes: readonly TwinPass[];
  /**
   * The CPU reference, per pass: output name → the words the output's first elements must hold
   * (the rest is padding). A pass with `undefined` (or an output not named) is only compared
   * with the hand-written WGSL.
   */
  readonly reference: readonly (Readonly<Record<string, readonly number[]>> | undefined)[];
  /** Bytes the passes read, for the read baseline the bench times beside them. */
  readonly bytes: number;
}

/** The GPU limits a case may need to respect (the bench's sizes are the lab's benchmark sizes, capped by these). */
export interface TwinLimits {
  /** The largest storage binding, bytes. */
  readonly maxBindingBytes: number;
  readonly maxInvocationsPerWorkgroup: number;
}

/** WebGPU's defaults: what the simulator and every adapter allow. */
export const DEFAULT_TWIN_LIMITS: TwinLimits = { maxBindingBytes: 128 * 2 ** 20, maxInvocationsPerWorkgroup: 256 };

/** A lab variant written twice, as hand-written WGSL and as CUDA that `src/cuda` translates. */
export interface LabTwin {
  readonly lab: string;
  /** The lab's variant id. */
  readonly variant: string;
  /** Where the CUDA lives, e.g. `src/labs/convolution/cuda/tiled.cu`. */
  readonly fileName: string;
  readonly source: string;
  /** Small cases for the tests, on the simulator and on the GPU. */
  cases(limits: TwinLimits): TwinCase[];
  /** The lab's benchmark size (capped by `limits`). */
  bench(limits: TwinLimits): TwinCase;
}

const twinPrograms = new Map<string, CudaProgram>();

/** The twin's CUDA, translated once per process. */
export function twinProgram(twin: Pick<LabTwin, 'fileName' | 'source'>): CudaProgram {
  let p = twinPrograms.get(twin.fileName);
  if (!p) twinPrograms.set(twin.fileName, (p = compileLabCuda(twin.source, twin.fileName)));
  return p;
}

/** Whether the twin's kernels use warp functions (they need 32-lane subgroups on a GPU). */
export const twinUsesWarps = (twin: Pick<LabTwin, 'fileName' | 'source'>): boolean => twinProgram(twin).kernels.some((k) => k.usesWarpFunctions);

/** The generated WGSL's `KernelRun` of each pass of a case, as a CUDA host would launch it. */
export function twinGeneratedRuns(twin: Pick<LabTwin, 'fileName' | 'source'>, c: TwinCase): KernelRun[] {
  const program = twinProgram(twin);
  return c.passes.map((p) => prepareLaunch(program, p.kernel, p.config, p.args).run);
}

/** Runs every pass of a case both ways on `executor`. */
export async function runTwinCase(executor: TwinExecutor, twin: Pick<LabTwin, 'fileName' | 'source'>, c: TwinCase): Promise<TwinResult[]> {
  const program = twinProgram(twin);
  const out: TwinResult[] = [];
  for (const p of c.passes) out.push(await runTwin(executor, program, p));
  return out;
}

/**
 * What differs between a case's runs and its reference: one line per output that is not the same
 * both ways or not what the CPU computed (empty when all agree).
 */
export function twinMismatches(c: TwinCase, results: readonly TwinResult[]): string[] {
  const out: string[] = [];
  const firstDiff = (a: readonly number[], b: readonly number[]): number => {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
    return -1;
  };
  results.forEach((r, i) => {
    for (const name of Object.keys(r.cuda)) {
      const d = firstDiff(r.cuda[name]!, r.wgsl[name]!);
      if (d >= 0) out.push(`${c.label}, pass ${i + 1}, '${name}'[${d}]: generated ${r.cuda[name]![d]}, hand-written ${r.wgsl[name]![d]}`);
    }
    for (const [name, want] of Object.entries(c.reference[i] ?? {})) {
      const got = r.cuda[name];
      if (!got) {
        out.push(`${c.label}, pass ${i + 1}: no output '${name}'`);
        continue;
      }
      const d = firstDiff(got.slice(0, want.length), want);
      if (d >= 0) out.push(`${c.label}, pass ${i + 1}, '${name}'[${d}]: generated ${got[d]}, CPU ${want[d]}`);
    }
  });
  return out;
}

/** A typed array's 32-bit words (a `Float32Array`'s bits), for references. */
export const wordsOf = (data: BindingData): number[] => words(data);

/** A case of one pass. */
export const onePassCase = (label: string, pass: TwinPass, reference: Readonly<Record<string, readonly number[]>> | undefined, bytes: number): TwinCase => ({
  label,
  passes: [pass],
  reference: [reference],
  bytes,
});

/** The largest power of two of elements of `bytesPerElement` that fits `maxLog2` and the binding limit. */
export function benchElements(limits: TwinLimits, maxLog2: number, bytesPerElement = 4): number {
  let log2 = maxLog2;
  while (log2 > 10 && bytesPerElement * 2 ** log2 > limits.maxBindingBytes) log2--;
  return 2 ** log2;
}
