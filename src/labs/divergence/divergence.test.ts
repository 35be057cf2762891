import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { indexTrace, warpsAt } from '../../trace/index.ts';
import { divergenceLab } from './index.ts';
import {
  divergenceReference,
  divergenceRun,
  PATTERN_WARP_SIZE,
  takesFirstBranch,
  type DivergenceVariant,
} from './kernel.ts';

const inputOf = (n: number) => new Float32Array(n).map((_, i) => ((i * 37) % 201) - 100.5);
const simulateRun = (variant: DivergenceVariant, n: number, workgroupSize: number) =>
  simulate(divergenceRun(variant, inputOf(n), workgroupSize), {
    warpSize: PATTERN_WARP_SIZE,
    trace: 'full',
    traceWorkgroups: [0],
  });

/**
 * The divergent branches the CUDA model predicts, counted lane by lane from the pattern (not from
 * the simulator): a warp counts once per branch at which its active lanes disagree.
 */
function predictedDivergentBranches(variant: DivergenceVariant, n: number, workgroupSize: number): number {
  const lanes = Math.max(1, Math.ceil(n / workgroupSize)) * workgroupSize;
  let count = 0;
  for (let start = 0; start < lanes; start += PATTERN_WARP_SIZE) {
    const tids = Array.from({ length: PATTERN_WARP_SIZE }, (_, l) => start + l);
    // The bounds check: lanes past n leave.
    const inside = tids.filter((t) => t < n);
    if (inside.length > 0 && inside.length < tids.length) count++;
    const first = inside.filter((t) => takesFirstBranch(variant, t));
    if (first.length > 0 && first.length < inside.length) count++;
  }
  return count;
}

describe('warp divergence patterns', () => {
  it('computes x · 2 on the first branch and x + 100 on the second, with f32 rounding', () => {
    const x = new Float32Array([1.5, 2, 3, 0.1]);
    expect([...divergenceReference('even-odd', x)]).toEqual([
      3,
      Math.fround(102),
      6,
      Math.fround(Math.fround(0.1) + 100),
    ]);
    // Lanes 0…31 form warp 0: all take the first branch.
    expect([...divergenceReference('warp-aligned', x)]).toEqual([3, 4, 6, Math.fround(Math.fround(0.1) * 2)]);
  });

  it.each([
    ['even-odd', 1024, 256],
    ['warp-aligned', 1024, 256],
    ['even-odd', 1000, 64],
    ['warp-aligned', 100, 32],
  ] as const)('%s n=%i wg=%i: the simulator computes the reference, with no race', (variant, n, wg) => {
    const result = simulateRun(variant, n, wg);
    expect(result.diagnostics).toEqual([]);
    expect([...result.buffers[0]![1]!.slice(0, n)]).toEqual([
      ...divergenceReference(variant, inputOf(n)).slice(0, n),
    ]);
  });

  it.each([
    ['even-odd', 1024, 256, 32],
    ['warp-aligned', 1024, 256, 0],
    ['even-odd', 1000, 256, 33],
    ['warp-aligned', 1000, 256, 1],
    ['even-odd', 64, 32, 2],
  ] as const)(
    '%s n=%i wg=%i splits %i warps, as the lane-by-lane model predicts',
    (variant, n, wg, count) => {
      expect(predictedDivergentBranches(variant, n, wg)).toBe(count);
      expect(simulateRun(variant, n, wg).metrics.divergentBranches).toBe(count);
    },
  );

  it('the warp grid sees it: even–odd has a split warp at its branch, warp-aligned none anywhere', () => {
    const evenOdd = indexTrace(simulateRun('even-odd', 256, 256).trace!);
    const aligned = indexTrace(simulateRun('warp-aligned', 256, 256).trace!);
    const splitSteps = (index: typeof evenOdd) =>
      Array.from({ length: index.trace.stepCount }, (_, s) => s).filter((s) =>
        warpsAt(index, s).some((w) => w.divergent),
      );
    expect(splitSteps(evenOdd).length).toBeGreaterThan(0);
    expect(splitSteps(aligned)).toEqual([]);
  });

  it('reports how many warps reach the branch, and checks an output element by element', () => {
    const params = { n: 1000, workgroupSize: 64 };
    expect(divergenceLab.metrics!({} as never, params)[0]!.value).toBe('32');
    const x = inputOf(8);
    const wrong = divergenceReference('even-odd', x).slice(0, 8);
    wrong[5] = 0;
    expect(divergenceLab.check('even-odd', params, { x }, wrong)).toEqual({
      ok: false,
      message: expect.stringMatching(/element 5/) as unknown,
    });
    expect(
      divergenceLab.check('even-odd', params, { x }, divergenceReference('even-odd', x).slice(0, 8)),
    ).toEqual({ ok: true });
  });

  it('refuses a dispatch larger than one grid dimension, saying what to do', () => {
    expect(() => divergenceRun('even-odd', new Float32Array(32 * 70_000), 32)).toThrow(
      /Use a larger workgroup/,
    );
  });
});
