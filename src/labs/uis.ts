/**
 * Lab UI modules by lab id, for labs that add panels of their own; a lab not listed here shows the
 * shared views only. Imported by the app only (it brings React along).
 */
import type { LabUi } from '../workbench/panel.ts';
import { scanUi } from './scan/ui/index.ts';
import { histogramUi } from './histogram/ui/index.ts';
import { convolutionUi } from './convolution/ui/index.ts';
import { mergeUi } from './merge/ui/index.ts';
import { topkUi } from './topk/ui/index.ts';
import { matmulUi } from './matmul/ui/index.ts';
import { spmvUi } from './spmv/ui/index.ts';

export const LAB_UIS: Readonly<Record<string, LabUi>> = {
  scan: scanUi,
  histogram: histogramUi,
  convolution: convolutionUi,
  merge: mergeUi,
  topk: topkUi,
  matmul: matmulUi,
  spmv: spmvUi,
};
