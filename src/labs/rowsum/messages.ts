/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  'simple.title': 'Simple: growing stride, tx % stride == 0',
  'simple.summary': 'Each invocation loads two elements; the stride doubles and invocation tx adds word 2·tx + stride into 2·tx when tx is a multiple of the stride. The workers thin out inside every warp, so warps split at every level.',
  'better.title': 'Better: halving stride, tx < stride',
  'better.summary': 'The stride halves from the workgroup size and the first stride invocations add word tx + stride into tx. The workers stay contiguous: whole warps work or rest until the stride drops below 32.',
  'rowsum.title': 'Row sum (one workgroup per row)',
  'rowsum.summary': 'Sum every row of an M × N matrix, one workgroup per row with two elements per invocation: a growing stride that splits every warp against a halving one that keeps whole warps busy.',
  'param.cols': 'columns N',
  'param.rows': 'rows M',
  'notice.cols': 'One workgroup sums a row loading two elements per invocation, so N must be one of {lengths}; using {use}.',
  'notice.rows': 'Stepping through {n} rows of {cols} would trace too much; simulating {most}.',
  'metric.levels': 'Tree levels per row',
  'metric.levels.hint': 'log₂ N strides',
  'metric.adds': 'Additions per row',
  'metric.adds.hint': 'N − 1, whichever order',
} as const;

export const m = createCatalog('lab-rowsum', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
