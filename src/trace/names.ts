/**
 * Memories by the names the views know them by. A lab's views look a buffer up by the name its
 * WGSL gives it (`row_ptr`, `input`); a learner's CUDA launched in its place names its parameters
 * as it likes, and the run then carries the lab's name of each buffer it took (`KernelRun.aliases`,
 * kept on the trace as `TraceMemory.alias`). These answer with the lab's name first.
 */
import type { Trace, TraceMemory } from '../sim/index.ts';

/** The name a view knows `memory` by: the lab's name of the buffer a stand-in kernel took, else the kernel's own. */
export function viewName(memory: TraceMemory): string {
  return memory.alias ?? memory.name;
}

/** The index in `trace.memories` of the memory a view knows as `name` (in `space`, where given), or -1. */
export function memoryNamed(trace: Trace, name: string, space?: TraceMemory['space']): number {
  return trace.memories.findIndex((m) => viewName(m) === name && (space === undefined || m.space === space));
}
