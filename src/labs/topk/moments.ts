/** The top-k lab's lesson moments, read from the trace. */
import type { LabMoment } from '../../workbench/lab.ts';
import { readTopkTrace } from './trace.ts';

/** `merge-level` with arg "1": the first step of tree level 1 (arg "0": the insert phase's end). */
const mergeLevel: LabMoment = (index, arg) => {
  const view = readTopkTrace(index.trace);
  const level = Number(arg);
  if (level <= 0) return view.insertEnd;
  return view.levels[level - 1]?.start ?? index.trace.stepCount - 1;
};

export const topkMoments = { 'merge-level': mergeLevel } as const;
