/**
 * The scan lab's lesson moments and check-question helpers, read from the trace's provenance
 * (see `trace.ts`).
 */
import type { Trace } from '../../sim/index.ts';
import type { TraceIndex } from '../../trace/index.ts';
import { mainSharedMemory } from '../../trace/memory.ts';
import type { LabMoment } from '../../workbench/lab.ts';
import { lookBackOf } from './lookBack.ts';
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

const LOOK_BACK_MOMENTS = ['publish-aggregate', 'read', 'publish-inclusive'] as const;

/**
 * `scan-look-back:<moment>` (single pass): the traced tile publishing its own sum
 * (`publish-aggregate`), its first read of a predecessor's slot that found a value (`read`), or it
 * publishing its inclusive prefix (`publish-inclusive`); step 0 when that never happens.
 */
const scanLookBack: LabMoment = (index: TraceIndex, arg: string) => {
  if (!LOOK_BACK_MOMENTS.some((a) => a === arg)) throw new RangeError(`There is no look-back moment “${arg}”; use one of ${LOOK_BACK_MOMENTS.join(', ')}.`);
  const look = lookBackOf(index.trace);
  const event = look?.events.find((e) => (arg === 'read' ? e.kind === 'read' && e.ready : e.kind === 'publish' && `publish-${e.part}` === arg));
  return event?.step ?? 0;
};

export const scanMoments = { 'scan-phase': scanPhase, 'scan-look-back': scanLookBack } as const;

/** The inclusive prefix the traced tile publishes (its predecessor's prefix plus its own sum); 0 without a look-back. */
export function publishedPrefix(state: { readonly trace: Trace }): number {
  return lookBackOf(state.trace)?.events.find((e) => e.kind === 'publish' && e.part === 'inclusive')?.value ?? 0;
}

/** Additions performed in the traced workgroup by `step`, counted from provenance. */
export function additionsSoFar(state: { readonly trace: Trace; readonly step: number }): number {
  const memory = mainSharedMemory(state.trace);
  return memory < 0 ? 0 : additionsAt(scanDataflow(state.trace, memory), state.step);
}
