/**
 * `src/cuda`: the CUDA front end. `compileCuda` turns a CUDA translation unit into readable WGSL
 * (one entry point per `__global__` function) with a source map both ways; `prepareLaunch` turns a
 * launch into the `KernelRun` both executors take. Pure TypeScript: see README.md.
 */
import { compileCudaWith } from './compile.ts';
import type { CompileResult } from './types.ts';

export function compileCuda(source: string, options?: { fileName?: string; files?: Record<string, string> }): CompileResult {
  return compileCudaWith(source, options ?? {});
}

export { prepareLaunch, CudaLaunchError } from './launch.ts';
export { benchElements, compileLabCuda, DEFAULT_TWIN_LIMITS, onePassCase, runTwin, runTwinCase, twinGeneratedRuns, twinMismatches, twinProgram, twinUsesWarps, wordsOf } from './twin.ts';
export type { LabTwin, TwinCase, TwinExecutor, TwinLimits, TwinPass, TwinResult } from './twin.ts';
export { parseCuda } from './parser.ts';
export type { ParseResult } from './parser.ts';
export type * from './types.ts';
export type * from './ast.ts';
// C's arithmetic (the debugger computes CUDA expressions with it).
export { arithType, binary, CArithmeticError, convert, unary } from './host/ctypes.ts';
export type { BinaryOp, CArith, CValue } from './host/ctypes.ts';
// Whole programs (issue #27): the host interpreter and the CUDA runtime, in src/cuda/host.
export { runCudaProgram } from './host/index.ts';
export type { CudaLaunch, CudaRunResult } from './host/index.ts';
