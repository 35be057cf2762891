import { describe, expect, it } from 'vitest';
import { simulate, OpKind } from '../../sim/index.ts';
import { indexTrace, requestWavefronts } from '../../trace/index.ts';
import { dataflowTree, levelShape, mainSharedMemory } from '../../trace/memory.ts';
import { reduceLab } from './index.ts';

/** One workgroup of 256 invocations over 256 elements, 32-lane warps, full trace. */
function one(variant: string) {
  const params = { n: 256, workgroupSize: 256, type: 'u32' as const };
  const result = simulate(reduceLab.stepRun(variant, params, reduceLab.inputs(params, 3)), { warpSize: 32, trace: 'full' });
  expect(result.diagnostics).toEqual([]);
  return result;
}

describe('reduction metrics, checked by hand (256 invocations, 8 warps of 32)', () => {
  it('neighbored: lid % (2s) == 0 splits every warp for s = 1…16, then warps 0,2,4,6 / 0,4 / 0, and the final lid == 0', () => {
    // 8 warps × 5 levels + 4 + 2 + 1 + 1 (the final store) = 48 divergent branch evaluations.
    expect(one('neighbored').metrics.divergentBranches).toBe(48);
  });

  it('interleaved: lid < s keeps whole warps together until s < 32, so only warp 0 splits (s = 16…1, and lid == 0)', () => {
    expect(one('interleaved').metrics.divergentBranches).toBe(6);
  });

  it('less divergent: index = 2·s·lid packs the workers into the first warps; only s ≥ 8 splits warp 0', () => {
    // s = 8, 16, 32, 64, 128 leave 16, 8, 4, 2, 1 lanes of warp 0 working, plus the final lid == 0.
    expect(one('neighbored-less-divergent').metrics.divergentBranches).toBe(6);
  });

  it('less divergent has bank conflicts: at s = 1 the stride is 2 words, so lanes 0 and 16 share bank 0 (2-way)', () => {
    const r = one('neighbored-less-divergent');
    expect(r.metrics.sharedBankConflicts).toBeGreaterThan(0);
    const trace = r.trace!;
    const index = indexTrace(trace, 256);
    // The first workgroup-memory load after the first barrier is warp 0 reading sdata[2·lid].
    const firstBarrier = index.barrierSteps[0]!;
    let s = firstBarrier + 1;
    while (trace.opKind[trace.stepOp[s]!] !== OpKind.loadShared) s++;
    expect(requestWavefronts(trace, s)).toBe(2);
    expect(Math.max(...index.wavefronts)).toBeGreaterThanOrEqual(8);
  });

  it('interleaved has no bank conflicts: consecutive lanes read consecutive words', () => {
    const r = one('interleaved');
    expect(r.metrics.sharedBankConflicts).toBe(0);
    expect(Math.max(...indexTrace(r.trace!, 256).wavefronts)).toBe(1);
  });

  it('the provenance trees have the textbook shapes: neighbored writes every 2^k-th word, interleaved a contiguous prefix', () => {
    for (const [variant, strides] of [
      ['neighbored', [2, 4, 8]],
      ['interleaved', [1, 1, 1]],
    ] as const) {
      const trace = one(variant).trace!;
      const tree = dataflowTree(trace, mainSharedMemory(trace));
      expect(tree.levels).toBe(9); // 256 leaves, log2(256) = 8 levels of additions
      strides.forEach((stride, i) => expect(levelShape(tree, i + 1).stride).toBe(stride));
      expect(levelShape(tree, 8).addrs).toEqual([0]);
    }
  });
});
