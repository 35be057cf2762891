/**
 * Named moments of a histogram trace for lessons: `atomic` with arg `first` (the first counting
 * atomic), `first-global`, `first-workgroup`, `merge` (the first global atomic after its warp's
 * last barrier) or `longest` (the atomic with the longest same-address queue). -1 when the trace
 * has no such moment (the lesson falls back to the nearest step).
 */
import type { LabMoment } from '../../workbench/lab.ts';
import { OpKind } from '../../sim/index.ts';
import { countingAtomics } from './trace.ts';

export const ATOMIC_MOMENTS = ['first', 'first-global', 'first-workgroup', 'merge', 'longest'] as const;

const atomic: LabMoment = (index, arg) => {
  const trace = index.trace;
  const steps = countingAtomics(trace);
  switch (arg) {
    case 'first':
      return steps[0]?.step ?? -1;
    case 'first-global':
      return steps.find((a) => a.space === 'global')?.step ?? -1;
    case 'first-workgroup':
      return steps.find((a) => a.space === 'workgroup')?.step ?? -1;
    case 'merge': {
      const lastBarrier = new Map<number, number>();
      for (let s = 0; s < trace.stepCount; s++) if (trace.opKind[trace.stepOp[s]!] === OpKind.barrier) lastBarrier.set(trace.stepWarp[s]!, s);
      return steps.find((a) => a.space === 'global' && a.step > (lastBarrier.get(a.warp) ?? Infinity))?.step ?? -1;
    }
    case 'longest': {
      let best: (typeof steps)[number] | undefined;
      for (const a of steps) if (!best || a.sameAddress > best.sameAddress) best = a;
      return best?.step ?? -1;
    }
    default:
      throw new RangeError(`The histogram lab has no atomic moment “${arg}”; use one of ${ATOMIC_MOMENTS.join(', ')}.`);
  }
};

export const histogramMoments = { atomic };
