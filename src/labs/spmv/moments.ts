/**
 * Named moments of an SpMV trace for lessons: `gather` with arg `first` (the first gather of x),
 * `idle` (the first gather of x with idle lanes), `last` (the last gather), and `atomic` with arg
 * `first`. -1 when the trace has no such moment.
 */
import type { LabMoment } from '../../workbench/lab.ts';
import { OpKind } from '../../sim/index.ts';
import { iterationStrip, loadSteps } from './trace.ts';

export const GATHER_MOMENTS = ['first', 'idle', 'last'] as const;

const gather: LabMoment = (index, arg) => {
  const trace = index.trace;
  switch (arg) {
    case 'first':
      return loadSteps(trace, 'x')[0] ?? -1;
    case 'last':
      return loadSteps(trace, 'x').at(-1) ?? -1;
    case 'idle': {
      let best = -1;
      for (let w = 0; w < index.warpCount; w++) {
        const it = iterationStrip(trace, w).find((i) => i.idle > 0);
        if (it && (best < 0 || it.step < best)) best = it.step;
      }
      return best;
    }
    default:
      throw new RangeError(`The SpMV lab has no gather moment “${arg}”; use one of ${GATHER_MOMENTS.join(', ')}.`);
  }
};

const atomic: LabMoment = (index, arg) => {
  if (arg !== 'first') throw new RangeError(`The SpMV lab has no atomic moment “${arg}”; use first.`);
  const trace = index.trace;
  for (let s = 0; s < trace.stepCount; s++) if (trace.opKind[trace.stepOp[s]!] === OpKind.atomicGlobal) return s;
  return -1;
};

export const spmvMoments = { gather, atomic };
