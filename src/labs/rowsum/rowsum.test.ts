import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { indexTrace, warpsAt } from '../../trace/index.ts';
import { rowsumLab, rowSumSpec } from './index.ts';
import { rowSumReference, rowSumRun } from './kernel.ts';

const simulateRun = (variant: 'simple' | 'better', rows: number, cols: number) => {
  const matrix = new Uint32Array(rows * cols).map((_, i) => (i * 7 + 3) % 1000);
  return { matrix, result: simulate(rowSumRun(variant, matrix, rows, cols), { warpSize: 32, trace: 'full', traceWorkgroups: [0] }) };
};

describe('row sum', () => {
  it('sums every row, wrapping at 2^32', () => {
    const m = new Uint32Array([1, 2, 3, 4, 0xffffffff, 2, 0, 0]);
    expect([...rowSumReference(m, 2, 4)]).toEqual([10, 1]);
  });

  it.each(['simple', 'better'] as const)('%s: one workgroup of N/2 invocations per row, each row summed exactly, no race', (variant) => {
    const { matrix, result } = simulateRun(variant, 3, 128);
    expect(result.diagnostics).toEqual([]);
    expect(result.trace!.invocations).toBe(64);
    expect([...result.buffers[0]![1]!.slice(0, 3)]).toEqual([...rowSumReference(matrix, 3, 128)]);
  });

  it('simple splits every warp at stride 2; better keeps whole warps until the stride is below 32', () => {
    // 256 invocations: simple splits 8 warps at strides 2…32, then 4, 2, 1, and the final tx == 0;
    // better only splits warp 0 at strides 16…1, and tx == 0.
    expect(simulateRun('simple', 1, 512).result.metrics.divergentBranches).toBe(8 * 5 + 4 + 2 + 1 + 1);
    expect(simulateRun('better', 1, 512).result.metrics.divergentBranches).toBe(5 + 1);
    const better = indexTrace(simulateRun('better', 1, 512).result.trace!);
    for (const s of better.barrierSteps.slice(0, 4)) expect(warpsAt(better, s).filter((w) => w.divergent)).toHaveLength(0);
  });

  it('simple crowds banks (2·tx is even), better does not', () => {
    expect(simulateRun('simple', 1, 512).result.metrics.sharedBankConflicts).toBeGreaterThan(0);
    expect(simulateRun('better', 1, 512).result.metrics.sharedBankConflicts).toBe(0);
  });

  it('refuses rows it cannot sum in one workgroup, saying what works', () => {
    expect(() => rowSumRun('simple', new Uint32Array(100), 1, 100)).toThrow(/use one of 64, 128, 256, 512, 1024, 2048/);
    expect(() => rowSumRun('better', new Uint32Array(64), 2, 64)).toThrow(/needs 128/);
  });

  it('fits a URL’s N and M to what it can step through, and says so', () => {
    const r = rowSumSpec.cols.resolve(500, rowsumLab.variants[0]!, {});
    expect(r).toEqual({ value: 512, notice: expect.stringMatching(/N must be one of/) as unknown });
    const m = rowSumSpec.rows.resolve(1000, rowsumLab.variants[0]!, { cols: 2048 });
    expect(m.value).toBe(32);
    expect(m.notice).toMatch(/simulating 32/);
  });
});
