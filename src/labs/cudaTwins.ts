/**
 * Every lab's CUDA twins (issue #26): the CUDA a learner would write for each hand-written WGSL
 * variant, translated by `src/cuda`, with the variants that have none and why. The tests
 * (`cudaTwins.test.ts` on the simulator, `cudaTwins.gpu.test.ts` on Dawn) and the bench
 * (`BENCH_ONLY=cuda`, `scripts/cuda-twins-bench.ts`) read these lists; the reduction lab's twins have
 * their own pass-chain tests and bench section (`reduce/cudaTwins.ts`).
 */
import { BASICS_TWINS } from './basics/cudaTwins.ts';
import { CONVOLUTION_TWINS } from './convolution/cudaTwins.ts';
import { DIVERGENCE_TWINS } from './divergence/cudaTwins.ts';
import { HISTOGRAM_TWINS } from './histogram/cudaTwins.ts';
import { MATMUL_TWINS } from './matmul/cudaTwins.ts';
import { MERGE_TWINS } from './merge/cudaTwins.ts';
import { ROWSUM_TWINS } from './rowsum/cudaTwins.ts';
import { SCAN_TWINS } from './scan/cudaTwins.ts';
import { SPMV_TWINS } from './spmv/cudaTwins.ts';
import { TOPK_TWINS } from './topk/cudaTwins.ts';

export const LAB_TWINS = [...BASICS_TWINS, ...DIVERGENCE_TWINS, ...ROWSUM_TWINS, ...HISTOGRAM_TWINS, ...CONVOLUTION_TWINS, ...MATMUL_TWINS, ...SPMV_TWINS, ...SCAN_TWINS, ...MERGE_TWINS, ...TOPK_TWINS] as const;

/** A variant with no CUDA twin, and why. */
export interface NotTwinned {
  readonly lab: string;
  readonly variant: string;
  readonly reason: string;
}

/** The labs whose CUDA is still display text only (each lab's `cuda.ts`). */
const NOT_YET = 'not written in this session (time): the lab\u2019s CUDA tab still shows a rendering (cuda.ts) that nothing translates or checks';
const notYet = (lab: string, variants: readonly string[]): NotTwinned[] => variants.map((variant) => ({ lab, variant, reason: NOT_YET }));

export const NOT_TWINNED: readonly NotTwinned[] = [
  ...notYet('topk', ['radix-ahead']),
];
