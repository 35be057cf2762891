/**
 * The list of labs: one line per lab folder. Adding a lab is adding its line here; everything
 * else (the address, the controls, the lessons, the kernel cases, the bench) reads the registry.
 */
export { basicsLab } from './basics/index.ts';
export { reduceLab } from './reduce/index.ts';
export { scanLab } from './scan/index.ts';
export { rowsumLab } from './rowsum/index.ts';
export { histogramLab } from './histogram/index.ts';
export { convolutionLab } from './convolution/index.ts';
export { mergeLab } from './merge/index.ts';
export { topkLab } from './topk/index.ts';
export { matmulLab } from './matmul/index.ts';
export { spmvLab } from './spmv/index.ts';
