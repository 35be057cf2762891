/**
 * The reduction lab's CUDA sources against its WGSL variants (used by cuda.test.ts on the
 * simulator and cuda.gpu.test.ts on Dawn): every pass of the lab's chain runs the variant's WGSL
 * and the CUDA kernel launched as a CUDA host would launch it, `<<<passes' workgroups, workgroup
 * size, workgroup size × sizeof(int)>>>`, on the same input. The next pass reads the WGSL pass's
 * partial sums, so a difference shows at the pass where it appears.
 */
import type { BindingData } from '../../kernel/types.ts';
import { compileLabCuda, prepareLaunch, runTwin, type CudaProgram, type PreparedLaunch, type TwinPass, type TwinResult } from '../../cuda/index.ts';
import { padToVec4, type KernelExecutor } from '../../workbench/labTypes.ts';
import { passPlan, passRun, type PassShape } from './driver.ts';
import type { ReduceVariant } from './variants.ts';

const programs = new Map<string, CudaProgram>();

/** The variant's CUDA file, translated (once per test file). */
export function reduceCudaProgram(variant: ReduceVariant): CudaProgram {
  let p = programs.get(variant.id);
  if (!p) programs.set(variant.id, (p = compileLabCuda(variant.cuda, `src/labs/reduce/cuda/${variant.id}.cu`)));
  return p;
}

/** The kernel a host launches for this block size: the file's one kernel, or the template instance `<size>`. */
export function reduceCudaKernel(program: CudaProgram, workgroupSize: number): string {
  if (program.kernels.length === 1) return program.kernels[0]!.name;
  const k = program.kernels.find((x) => x.name.endsWith(`<${workgroupSize}>`));
  if (!k) throw new Error(`no instance for ${workgroupSize} threads among ${program.kernels.map((x) => x.name).join(', ')}`);
  return k.name;
}

/** The CUDA launch of one pass of the chain, `<<<workgroups, size, size × sizeof(int)>>>`, over `input`. */
export function reduceCudaLaunch(variant: ReduceVariant, shape: PassShape, input: BindingData, workgroupSize: number): TwinPass {
  const program = reduceCudaProgram(variant);
  const out = variant.atomicTotal ? 'result' : 'partials';
  return {
    wgsl: passRun(variant.id, 'u32', shape, input.slice(), { workgroupSize }),
    kernel: reduceCudaKernel(program, workgroupSize),
    config: { grid: { x: shape.workgroupCount, y: 1, z: 1 }, block: { x: workgroupSize, y: 1, z: 1 }, sharedBytes: workgroupSize * 4 },
    args: { [variant.id === 'global-inplace' ? 'data' : 'input']: input.slice(), [out]: new Uint32Array(shape.outputLength), n: shape.n },
    outputs: { [out]: 1 },
  };
}

/** The launch of `pass` through `prepareLaunch`: the `KernelRun` of the generated WGSL. */
export function reduceCudaPrepared(program: CudaProgram, pass: TwinPass): PreparedLaunch {
  return prepareLaunch(program, pass.kernel, pass.config, pass.args);
}

/** Runs every pass of the chain both ways; one result per pass (output `partials`, or `result` for the atomic variant). */
export async function reduceTwinChain(executor: KernelExecutor, variant: ReduceVariant, input: Uint32Array, workgroupSize: number): Promise<TwinResult[]> {
  const program = reduceCudaProgram(variant);
  const results: TwinResult[] = [];
  let data: BindingData = variant.layout === 'grid-stride' ? padToVec4(input) : input;
  for (const shape of passPlan(variant.id, input.length, { workgroupSize })) {
    const pass = reduceCudaLaunch(variant, shape, data, workgroupSize);
    const r = await runTwin(executor, program, pass);
    results.push(r);
    data = Uint32Array.from(Object.values(r.wgsl)[0]!);
  }
  return results;
}
