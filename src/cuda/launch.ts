/**
 * `prepareLaunch`: a compiled kernel and a launch `<<<grid, block, sharedBytes>>>` with its
 * arguments → the `KernelRun` both executors take (buffers, uniform, overrides, workgroups), and
 * the way back: outputs in the parameters' own element types, and what `printf` wrote.
 *
 * `printf` order: records are appended to one buffer with an atomic counter, so lines appear in the
 * order the threads reached `printf`. On the simulator that is its fixed schedule (blocks in
 * order, warps in order within a block, lanes in order within a warp, up to each barrier); on a GPU
 * the order between warps and blocks is not defined, as in CUDA.
 */
import { MAX_WORKGROUPS_PER_DIMENSION, foldWorkgroups, type BindingData, type KernelRun, type Workgroups } from '../kernel/types.ts';
import { formatPrintf } from './printf.ts';
import type { CudaProgram, CudaScalarType, Dim3, KernelArg, KernelInfo, LaunchConfig, PreparedLaunch } from './types.ts';

/** A launch CUDA would refuse, with the error CUDA reports (`cudaErrorInvalidValue`, …). */
export class CudaLaunchError extends Error {
  constructor(
    readonly code: 'cudaErrorInvalidConfiguration' | 'cudaErrorInvalidValue' | 'cudaErrorLaunchOutOfResources' | 'cudaErrorInvalidDeviceFunction',
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'CudaLaunchError';
  }
}

/** Words of the printf buffer (word 0 counts the words written). */
export const PRINTF_WORDS = 1 << 16;
/** CUDA's default limit of shared memory per block (48 KiB). */
const MAX_SHARED = 48 * 1024;

const dimText = (d: Dim3): string => `(${d.x}, ${d.y}, ${d.z})`;

/**
 * CUDA 13 reports every launch configuration it refuses (more than 1024 threads, a block z over
 * 64, an empty grid or block, a grid y over 65 535, too much shared memory) as
 * `cudaErrorInvalidValue` ("invalid argument"); older toolkits said
 * `cudaErrorInvalidConfiguration`. Measured on the H100 with CUDA 13.0:
 * docs/runs/2026-11-26-h100-seed-programs/cuda-runtime.txt.
 */
const BAD_LAUNCH = 'cudaErrorInvalidValue';

function validate(kernel: KernelInfo, config: LaunchConfig): void {
  const { grid, block } = config;
  for (const [name, d] of [['block', block], ['grid', grid]] as const) {
    for (const c of ['x', 'y', 'z'] as const) {
      const v = d[c];
      if (!Number.isInteger(v) || v < 1) throw new CudaLaunchError(BAD_LAUNCH, `${name}.${c} is ${v}: every dimension of the ${name} must be a whole number of at least 1 (launch of ${kernel.name})`);
    }
  }
  const threads = block.x * block.y * block.z;
  if (block.x > 1024 || block.y > 1024 || block.z > 64 || threads > 1024) {
    throw new CudaLaunchError(
      BAD_LAUNCH,
      `a block of ${dimText(block)} = ${threads} threads is too large: CUDA allows at most 1024 threads per block (x ≤ 1024, y ≤ 1024, z ≤ 64); launch more blocks of fewer threads (launch of ${kernel.name})`,
    );
  }
  if (grid.x > 2 ** 31 - 1 || grid.y > 65535 || grid.z > 65535) {
    throw new CudaLaunchError(BAD_LAUNCH, `a grid of ${dimText(grid)} blocks is too large: CUDA allows x < 2^31 and y, z ≤ 65535 (launch of ${kernel.name})`);
  }
  const shared = kernel.staticSharedBytes + (config.sharedBytes ?? 0);
  if ((config.sharedBytes ?? 0) < 0 || !Number.isInteger(config.sharedBytes ?? 0)) throw new CudaLaunchError('cudaErrorInvalidValue', `shared bytes ${config.sharedBytes} must be a whole number ≥ 0`);
  if (shared > MAX_SHARED) {
    throw new CudaLaunchError(BAD_LAUNCH, `${shared} bytes of shared memory per block (${kernel.staticSharedBytes} static + ${config.sharedBytes ?? 0} dynamic) exceed CUDA's 48 KiB limit (launch of ${kernel.name})`);
  }
}

/** Converts one argument array into the WGSL element layout of its buffer. */
function toBuffer(data: KernelArg, type: CudaScalarType, packed: boolean, atomicFloat: boolean, what: string): BindingData {
  if (typeof data === 'number' || typeof data === 'boolean') throw new CudaLaunchError('cudaErrorInvalidValue', `${what} is a pointer: pass an array, not the number ${String(data)}`);
  const values = data as ArrayLike<number>;
  if (packed) {
    const bits = type.includes('char') || type === 'bool' ? 8 : 16;
    const per = 32 / bits;
    const out = new Uint32Array(Math.max(1, Math.ceil(values.length / per)));
    const mask = bits === 8 ? 0xff : 0xffff;
    for (let i = 0; i < values.length; i++) out[Math.floor(i / per)]! |= ((values[i]! & mask) << ((i % per) * bits)) >>> 0;
    return out;
  }
  if (type === 'float' || type === 'double') {
    const f = Float32Array.from(values);
    return atomicFloat ? new Uint32Array(f.buffer) : f;
  }
  const signed = !type.startsWith('unsigned') && type !== 'bool';
  const out = signed ? new Int32Array(Math.max(1, values.length)) : new Uint32Array(Math.max(1, values.length));
  for (let i = 0; i < values.length; i++) out[i] = Number(values[i]);
  return out;
}

function fromBuffer(data: BindingData, type: CudaScalarType, packed: boolean, length: number): KernelArg {
  if (packed) {
    const bits = type.includes('char') || type === 'bool' ? 8 : 16;
    const per = 32 / bits;
    const words = new Uint32Array(data.buffer, data.byteOffset, data.length);
    const out = type === 'char' || type === 'signed char' ? new Int8Array(length) : type === 'unsigned char' || type === 'bool' ? new Uint8Array(length) : type === 'short' ? new Int16Array(length) : new Uint16Array(length);
    for (let i = 0; i < length; i++) out[i] = (words[Math.floor(i / per)]! >>> ((i % per) * bits)) & (bits === 8 ? 0xff : 0xffff);
    return out;
  }
  if (type === 'float' || type === 'double') return new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + length * 4));
  const signed = !type.startsWith('unsigned') && type !== 'bool';
  return signed ? new Int32Array(data.buffer.slice(data.byteOffset, data.byteOffset + length * 4)) : new Uint32Array(data.buffer.slice(data.byteOffset, data.byteOffset + length * 4));
}

function scalarWord(value: KernelArg, type: string, what: string): number {
  if (typeof value !== 'number' && typeof value !== 'boolean') throw new CudaLaunchError('cudaErrorInvalidValue', `${what} is a scalar '${type}': pass a number, not an array`);
  const v = Number(value);
  if (type === 'float' || type === 'double') return new Uint32Array(Float32Array.of(v).buffer)[0]!;
  return v >>> 0;
}

export function prepareLaunch(program: CudaProgram, kernelName: string, config: LaunchConfig, args: Record<string, KernelArg> | readonly KernelArg[]): PreparedLaunch {
  const kernel = program.kernels.find((k) => k.name === kernelName) ?? program.kernels.find((k) => k.entryPoint === kernelName);
  if (!kernel) {
    throw new CudaLaunchError('cudaErrorInvalidDeviceFunction', `no kernel named '${kernelName}' in ${program.fileName} (it has: ${program.kernels.map((k) => k.name).join(', ') || 'none'})`);
  }
  const grid = { x: config.grid.x, y: config.grid.y ?? 1, z: config.grid.z ?? 1 };
  const block = { x: config.block.x, y: config.block.y ?? 1, z: config.block.z ?? 1 };
  validate(kernel, { grid, block, sharedBytes: config.sharedBytes ?? 0 });
  const argOf = (name: string, index: number): KernelArg | undefined => (Array.isArray(args) ? (args as readonly KernelArg[])[index] : (args as Record<string, KernelArg>)[name]);
  const bindings: Record<number, BindingData> = {};
  const lengths = new Map<string, number>();
  const uniformWords: number[] = [grid.x, grid.y, grid.z, 0];
  for (const p of kernel.params) {
    const value = argOf(p.name, p.index);
    if (value === undefined) throw new CudaLaunchError('cudaErrorInvalidValue', `missing the argument for parameter '${p.name}' of ${kernel.name}`);
    if (p.kind === 'buffer') {
      const len = typeof value === 'object' ? (value as ArrayLike<number>).length : 0;
      lengths.set(p.name, len);
      bindings[p.binding!] = toBuffer(value, p.type as CudaScalarType, !!p.packed, !!p.atomic && p.type === 'float', `parameter '${p.name}'`);
    } else uniformWords.push(scalarWord(value, p.type, `parameter '${p.name}'`));
  }
  for (const g of kernel.globals) {
    const given = Array.isArray(args) ? undefined : (args as Record<string, KernelArg>)[g.name];
    const values: ArrayLike<number> = given !== undefined ? (typeof given === 'object' ? given : [Number(given)]) : Array.from({ length: g.length }, (_, i) => g.init?.[i] ?? 0);
    lengths.set(g.name, g.length);
    const padded = Array.from({ length: g.length }, (_, i) => Number(values[i] ?? 0));
    bindings[g.binding] = toBuffer(Float64Array.from(padded) as unknown as Float32Array, g.type, g.type.includes('char') || g.type.includes('short') || g.type === 'bool', g.atomic && g.type === 'float', `'${g.name}'`);
  }
  // Grid: fold a long 1-D grid into rows, as src/kernel does; anything else must fit.
  let workgroups: Workgroups = [grid.x, grid.y, grid.z];
  if (grid.x > MAX_WORKGROUPS_PER_DIMENSION) {
    if (grid.y !== 1 || grid.z !== 1) throw new CudaLaunchError('cudaErrorInvalidConfiguration', `a grid of ${dimText(grid)}: WebGPU dispatches at most 65 535 blocks in x; a grid wider than that is supported only when it is 1-D (y = z = 1)`);
    workgroups = foldWorkgroups(grid.x);
    uniformWords[3] = 1;
  }
  const uniform = new Uint32Array(Math.ceil(uniformWords.length / 4) * 4);
  uniform.set(uniformWords);
  bindings[kernel.uniformBinding] = uniform;
  if (kernel.printf) bindings[kernel.printf.binding] = new Uint32Array(PRINTF_WORDS);
  const overrides: Record<string, number> = { BLOCK_DIM_X: block.x, BLOCK_DIM_Y: block.y, BLOCK_DIM_Z: block.z };
  if (kernel.dynamicSharedOverride) {
    overrides[kernel.dynamicSharedOverride.name] = Math.max(1, Math.floor((config.sharedBytes ?? 0) / kernel.dynamicSharedOverride.elementBytes));
  }
  const run: KernelRun = { code: program.wgsl, entryPoint: kernel.entryPoint, workgroups, bindings: { 0: bindings }, overrides, file: `${program.fileName} (generated WGSL)`, label: `cuda.${kernel.entryPoint}` };
  return {
    run,
    readBack(outputs) {
      const out: Record<string, KernelArg> = {};
      const group = outputs[0] ?? {};
      for (const p of kernel.params) {
        if (p.kind !== 'buffer') continue;
        const data = group[p.binding!];
        if (data) out[p.name] = fromBuffer(data, p.type as CudaScalarType, !!p.packed, lengths.get(p.name) ?? data.length);
      }
      for (const g of kernel.globals) {
        const data = group[g.binding];
        if (data) out[g.name] = fromBuffer(data, g.type, g.type.includes('char') || g.type.includes('short') || g.type === 'bool', g.length);
      }
      return out;
    },
    printed(outputs) {
      if (!kernel.printf) return [];
      const buf = outputs[0]?.[kernel.printf.binding];
      if (!buf) return [];
      const words = new Uint32Array(buf.buffer, buf.byteOffset, buf.length);
      const lines: string[] = [];
      const used = Math.min(words[0]!, words.length - 1);
      let at = 1;
      while (at <= used) {
        const f = kernel.printf.formats[words[at]!];
        if (!f) break;
        const vals = Array.from({ length: f.args.length }, (_, i) => words[at + 1 + i]!);
        lines.push(formatPrintf(f.format, f.args, vals));
        at += 1 + f.args.length;
      }
      if (words[0]! > words.length - 1) lines.push(`[printf buffer full: ${words[0]! - (words.length - 1)} words were not recorded]`);
      return lines.join('').split(/(?<=\n)/).filter((l) => l.length);
    },
  };
}
