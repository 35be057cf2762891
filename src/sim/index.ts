/**
 * `src/sim`: the SIMT simulator. It replays the same WGSL compute kernels the GPU runs, warp by
 * warp, and returns output buffers, metrics, diagnostics and a trace. Pure TypeScript: see
 * README.md for what this folder may import.
 */
export { simulate } from './simulate.ts';
export type { SimOptions, SimResult } from './simulate.ts';
export { compile, compileCached } from './program.ts';
export type { CompileResult, Hardware, Program } from './program.ts';
export { instantiate, Instance } from './instance.ts';
export type { InstantiateResult, RunOptions } from './instance.ts';
export { BankConflicts, Coalescing, Races, WriteProvenance, defaultObservers } from './observers.ts';
export type { MemoryObserver, WordWriter } from './observers.ts';
export type { Diagnostic, DiagnosticKind, Metrics } from './machine.ts';
export {
  OpKind,
  OP_KIND_NAMES,
  TAINT_SLOTS,
  traceStep,
  provenanceOf,
  stepOfRecord,
  traceTransferables,
  traceBytes,
} from './trace.ts';
export type { Trace, TraceAccess, TraceMemory, TraceStepView, OpKindValue } from './trace.ts';
export { WgslError } from './ast.ts';
export { createSimWorker, SimCancelled } from './workerClient.ts';
export type { SimJob } from './workerClient.ts';
export type { WorkerRequest, WorkerResponse, WorkerSimOptions } from './worker.ts';
