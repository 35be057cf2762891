import { additionsSoFar } from '../../moments.ts';
import type { Lesson } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'scan', params: { n: 512, workgroupSize: 256 } } as const;

/** Scan: Hillis–Steele's short network against Blelloch's work-efficient sweeps. */
export const scanLesson: Lesson = {
  id: 'scan',
  courseOrder: 4,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      ...base,
      params: { n: 256, workgroupSize: 256 },
      stage: { panel: 'scan-insights', width: 'picture' },
      get title() {
        return m('s1.title');
      },
      variant: 'hillis-steele',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'network' }, barriers: 1 },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
    },
    {
      ...base,
      params: { n: 256, workgroupSize: 256 },
      stage: { panel: 'scan-insights', width: 'picture' },
      get title() {
        return m('s2.title');
      },
      variant: 'hillis-steele',
      moment: { kind: 'end' },
      get narrative() {
        return m('s2.narrative');
      },
      question: {
        get prompt() {
          return m('s2.prompt');
        },
        answer: additionsSoFar,
        explain: (s) => m('s2.explain', { additionsSoFar: additionsSoFar(s) }),
      },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      get title() {
        return m('s3.title');
      },
      variant: 'blelloch',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'up-sweep' }, barriers: 1 },
      get narrative() {
        return m('s3.narrative');
      },
      get lookAt() {
        return m('s3.lookAt');
      },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      get title() {
        return m('s4.title');
      },
      variant: 'blelloch',
      moment: { kind: 'lab', name: 'scan-phase', arg: 'root-clear' },
      get narrative() {
        return m('s4.narrative');
      },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      get title() {
        return m('s5.title');
      },
      variant: 'blelloch',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'down-sweep' }, barriers: 1 },
      get narrative() {
        return m('s5.narrative');
      },
      get lookAt() {
        return m('s5.lookAt');
      },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      get title() {
        return m('s6.title');
      },
      variant: 'blelloch',
      moment: { kind: 'end' },
      get narrative() {
        return m('s6.narrative');
      },
      question: {
        get prompt() {
          return m('s6.prompt');
        },
        answer: additionsSoFar,
        explain: (s) => m('s6.explain', { additionsSoFar: additionsSoFar(s) }),
      },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      get title() {
        return m('s7.title');
      },
      variant: 'blelloch-padded',
      moment: { kind: 'end' },
      get narrative() {
        return m('s7.narrative');
      },
      question: {
        get prompt() {
          return m('s7.prompt');
        },
        answer: (s) => s.metrics.sharedBankConflicts,
        explain: (s) => m('s7.explain', { sharedBankConflicts: s.metrics.sharedBankConflicts }),
      },
    },
  ],
};
