/**
 * The scan lab's lesson moments and check-question helpers, read from the trace's provenance
 * (see `trace.ts`).
 */
import type { Trace } from '../../sim/index.ts';
import type { TraceIndex } from '../../trace/index.ts';
import { mainSharedMemory } from '../../trace/memory.ts';
import type { LabMoment } from '../../workbench/lab.ts';
import { additionsAt, phaseStart, scanDataflow, type ScanPhase } from './trace.ts';

const PHASES: readonly ScanPhase[] = ['load', 'up-sweep', 'root-clear', 'down-sweep', 'network', 'write-out'];

/** `scan-phase:<phase>`: where a scan phase begins (up-sweep, root clear, down-sweep…); step 0 when it does not occur. */
const scanPhase: LabMoment = (index: TraceIndex, arg: string) => {
  const phase = PHASES.find((p) => p === arg);
  if (!phase) throw new RangeError(`There is no scan phase “${arg}”; use one of ${PHASES.join(', ')}.`);
  const last = Math.max(0, index.trace.stepCount - 1);
  const memory = mainSharedMemory(index.trace);
  const s = memory >= 0 ? phaseStart(scanDataflow(index.trace, memory), phase) : -1;
  return s < 0 ? 0 : Math.min(last, s);
};

export const scanMoments = { 'scan-phase': scanPhase } as const;

/** Additions performed in the traced workgroup by `step`, counted from provenance. */
export function additionsSoFar(state: { readonly trace: Trace; readonly step: number }): number {
  const memory = mainSharedMemory(state.trace);
  return memory < 0 ? 0 : additionsAt(scanDataflow(state.trace, memory), state.step);
}
