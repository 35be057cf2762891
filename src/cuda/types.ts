/**
 * The CUDA front end's contract: what `compileCuda` returns and how a compiled kernel becomes an
 * ordinary `KernelRun` that both executors run unchanged. Pure TypeScript (no DOM, React or
 * WebGPU); see README.md for what this room may import.
 *
 * Positions are 1-based, as editors show them, and always in the learner's CUDA source (the file
 * the learner gave, or a header named in `files`).
 */
import type { BindingData, KernelRun } from '../kernel/types.ts';

/** A message about the learner's CUDA source, at a CUDA line and column. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** 1-based, in the CUDA source. */
  readonly line: number;
  /** 1-based, in the CUDA source. */
  readonly column: number;
  /** Where the construct ends, when it spans more than one point (1-based, exclusive column). */
  readonly endLine?: number;
  readonly endColumn?: number;
  /** The file the position is in when it is not the main source (a header from `files`). */
  readonly file?: string;
}

export interface CompileOptions {
  /** The main source's name, for messages (default `kernel.cu`). */
  readonly fileName?: string;
  /** Local headers by name, for `#include "x.cuh"`. */
  readonly files?: Readonly<Record<string, string>>;
  /**
   * Preprocess as nvcc's device pass does, with `__CUDA_ARCH__` defined (`compileCuda` sets it;
   * the host interpreter's parse leaves it out, as nvcc's host pass does).
   */
  readonly device?: boolean;
}

export type CompileResult =
  | { readonly ok: true; readonly program: CudaProgram; readonly diagnostics: Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

/** `dim3`: missing components are 1. */
export interface Dim3 {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** A launch configuration, `<<<grid, block, sharedBytes>>>`. */
export interface LaunchConfig {
  readonly grid: Dim3;
  readonly block: Dim3;
  /** Dynamic shared memory in bytes, for `extern __shared__` arrays (default 0). */
  readonly sharedBytes?: number;
}

/** A CUDA element or scalar type, spelled in one canonical way. */
export type CudaScalarType =
  | 'bool'
  | 'char'
  | 'signed char'
  | 'unsigned char'
  | 'short'
  | 'unsigned short'
  | 'int'
  | 'unsigned int'
  | 'long'
  | 'unsigned long'
  | 'long long'
  | 'unsigned long long'
  | 'float'
  | 'double';

/** One parameter of a `__global__` function. */
export interface KernelParam {
  readonly name: string;
  /** Position in the CUDA parameter list, from 0. */
  readonly index: number;
  /** A pointer becomes a storage buffer; anything else is a scalar passed in a uniform. */
  readonly kind: 'buffer' | 'scalar';
  /** The pointee type of a buffer, or the scalar's own type. Structs are named `struct Name`. */
  readonly type: CudaScalarType | `struct ${string}`;
  /** `sizeof` of that type in CUDA. */
  readonly bytes: number;
  /** A buffer's binding (group 0). Scalars share `KernelInfo.uniformBinding`. */
  readonly binding?: number;
  /** Inferred from `const` and from the kernel's own writes and atomics. */
  readonly access?: 'read' | 'read_write';
  /** Whether any atomic touches the buffer (it is then `atomic` throughout in the WGSL). */
  readonly atomic?: boolean;
  /** The WGSL name of the buffer or uniform field (the CUDA name unless it is a WGSL keyword). */
  readonly wgslName?: string;
  /** `char`/`short` buffers are packed four (two) elements to a `u32` word. */
  readonly packed?: boolean;
  /**
   * A buffer of CUDA vectors (`int4 *`, `float2 *`): components per element. `type` is then the
   * component type, and the launch passes and reads back the components as one flat array.
   */
  readonly vector?: number;
}

/** A `__constant__`, `__device__` or `__managed__` variable a kernel binds (a storage buffer). */
export interface KernelGlobal {
  readonly name: string;
  readonly kind: 'constant' | 'device' | 'managed';
  readonly type: CudaScalarType;
  /** Elements (1 for a scalar). */
  readonly length: number;
  readonly binding: number;
  readonly access: 'read' | 'read_write';
  readonly atomic: boolean;
  /** The initializer's values, when the declaration has one. */
  readonly init?: readonly number[];
}

/** A `printf` call site of a kernel: its format and the types its arguments are recorded as. */
export interface PrintfFormat {
  readonly format: string;
  readonly args: readonly ('int' | 'unsigned int' | 'float')[];
}

/**
 * A source map between the CUDA text and the generated WGSL, both ways. Lines and columns are
 * 1-based. `toCuda` answers for any WGSL position inside generated code (the nearest mapped
 * statement or expression); `toWgsl` for any CUDA position inside a kernel or device function.
 */
export interface SourceMap {
  toCuda(wgslLine: number, wgslColumn?: number): { line: number; column: number; file?: string } | undefined;
  toWgsl(cudaLine: number, cudaColumn?: number): { line: number; column: number } | undefined;
  /** Every CUDA line that some WGSL line came from, in order (what the gutter may break on). */
  readonly cudaLines: readonly number[];
}

/** One `__global__` function, lowered. */
export interface KernelInfo {
  /** The CUDA name (and, for a template instance, its arguments: `reduce<256>`). */
  readonly name: string;
  /** The WGSL `@compute` entry point. */
  readonly entryPoint: string;
  /** Where the `__global__` function starts in the CUDA source. */
  readonly line: number;
  readonly params: readonly KernelParam[];
  /** The uniform buffer that carries the scalar parameters and the launch's sizes (group 0). */
  readonly uniformBinding: number;
  /** Static `__shared__` bytes, as CUDA counts them. */
  readonly staticSharedBytes: number;
  /** Whether the kernel declares an `extern __shared__` array (sized by the launch). */
  readonly dynamicShared: boolean;
  /** Whether the kernel uses warp functions (`__shfl_*_sync`, `__ballot_sync`, ...). */
  readonly usesWarpFunctions: boolean;
  /** Whether the kernel calls `printf`. */
  readonly usesPrintf: boolean;
  /** Device globals the kernel reads or writes, each a storage buffer. */
  readonly globals: readonly KernelGlobal[];
  /** The `printf` buffer's binding and the formats (by id), when `usesPrintf`. */
  readonly printf?: { readonly binding: number; readonly formats: readonly PrintfFormat[] };
  /** The `override` that sizes the `extern __shared__` array, and its element size in bytes. */
  readonly dynamicSharedOverride?: { readonly name: string; readonly elementBytes: number };
}

/** A translation unit: its kernels, one WGSL module holding them all, and the map. */
export interface CudaProgram {
  readonly fileName: string;
  /** The preprocessed-and-checked CUDA source as the learner gave it. */
  readonly source: string;
  /** The generated WGSL: readable, with the learner's identifiers and statements. */
  readonly wgsl: string;
  readonly kernels: readonly KernelInfo[];
  readonly sourceMap: SourceMap;
  /** The local headers it was compiled with (`#include "x.cuh"`), by name: a run needs them too. */
  readonly files?: Readonly<Record<string, string>>;
  /**
   * The kernel each launch of a template instance runs (`k<float><<<…>>>` → `k<float>`), keyed by
   * where the launch starts (`launchSite` in lower.ts: `file:line:column`); a plain kernel's
   * launch is not listed (its kernel has its own name).
   */
  readonly launchKernels?: Readonly<Record<string, string>>;
}

/** An argument of a launch: an array for a pointer parameter, a number for a scalar. */
export type KernelArg = BindingData | Uint8Array | Int8Array | Uint16Array | Int16Array | number | boolean;

/** What `launchRun` returns: the `KernelRun` to execute and how to read its buffers back. */
export interface PreparedLaunch {
  readonly run: KernelRun;
  /**
   * Turns the executor's output bindings back into the CUDA parameters' arrays, in the
   * parameters' own element types (a `unsigned char*` comes back as a `Uint8Array`).
   */
  readBack(outputs: KernelRun['bindings']): Record<string, KernelArg>;
  /** The lines `printf` wrote, in the stated order, once the outputs are read back. */
  printed(outputs: KernelRun['bindings']): string[];
}
