/**
 * Named moments of a convolution trace for lessons: `phase` with arg `load` (the first global load
 * of the image), `compute` (warp 0's first workgroup-memory read after its barrier, or the first output
 * store when there is no barrier) or `store` (the first output store).
 */
import type { LabMoment } from '../../workbench/lab.ts';
import { OpKind } from '../../sim/index.ts';
import { memoryNamed } from '../../trace/names.ts';
import { computePhaseStart } from './trace.ts';

const first = (trace: Parameters<LabMoment>[0]['trace'], kind: number, memory: string) => {
  const id = memoryNamed(trace, memory);
  if (id < 0) return -1;
  for (let s = 0; s < trace.stepCount; s++) if (trace.opKind[trace.stepOp[s]!] === kind && trace.stepMemory[s] === id) return s;
  return -1;
};

const phase: LabMoment = (index, arg) => {
  switch (arg) {
    case 'load':
      return first(index.trace, OpKind.loadGlobal, 'input');
    case 'compute':
      return computePhaseStart(index.trace);
    case 'store':
      return first(index.trace, OpKind.storeGlobal, 'output');
    default:
      throw new RangeError(`The convolution lab has no phase “${arg}”; use load, compute or store.`);
  }
};

export const convolutionMoments = { phase };
