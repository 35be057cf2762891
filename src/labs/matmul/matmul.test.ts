import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { indexTrace } from '../../trace/index.ts';
import { seededRandom } from '../../util/random.ts';
import { resolveParams } from '../../workbench/lab.ts';
import { caseOperand } from './cases.ts';
import { matmulCheck, matmulInputs, matmulLab, type MatmulParams } from './index.ts';
import { MATMUL_VARIANTS, matmulReference, matmulRun, matmulTypes, withElementType, type MatmulShape, type MatmulType, type MatmulVariant } from './kernel.ts';
import { boundaryWaste, globalLoadCounts, loadsOfElement, matmulMemories, stageAt, tileRequestAtOrBefore, workgroupCounters } from './queries.ts';

const operands = (type: MatmulType, shape: MatmulShape, seed: number) => {
  const rng = seededRandom(seed);
  return { a: caseOperand(type, rng, shape.m * shape.k), b: caseOperand(type, rng, shape.k * shape.n) };
};

/** Simulates one multiply, tracing every workgroup unless told which. */
function sim(variant: MatmulVariant, type: MatmulType, shape: MatmulShape, tile = 16, traceWorkgroups?: number[]) {
  const { a, b } = operands(type, shape, 5);
  const result = simulate(matmulRun(variant, type, shape, tile, a, b), { warpSize: 32, trace: 'full', ...(traceWorkgroups ? { traceWorkgroups } : {}) });
  return { a, b, result };
}

describe('matrix multiply reference', () => {
  it('multiplies a 2 × 3 by a 3 × 2 exactly in i32, wrapping like WGSL', () => {
    const a = Int32Array.from([1, 2, 3, 4, 5, 6]);
    const b = Int32Array.from([7, 8, 9, 10, 11, 12]);
    expect([...matmulReference('i32', { m: 2, n: 2, k: 3 }, a, b)]).toEqual([58, 64, 139, 154]);
    expect([...matmulReference('i32', { m: 1, n: 1, k: 2 }, Int32Array.from([65536, 1]), Int32Array.from([65536, 1]))]).toEqual([1]);
  });

  it('rounds every f32 step: 1 + 2^-24 + 2^-24 stays 1 when added in order', () => {
    const a = Float32Array.from([1, 2 ** -24, 2 ** -24]);
    const b = Float32Array.from([1, 1, 1]);
    expect([...matmulReference('f32', { m: 1, n: 1, k: 3 }, a, b)]).toEqual([1]);
  });

  it('only the alias line changes for i32', () => {
    const code = matmulLab.variants[0]!.wgsl;
    const lines = code.split('\n');
    const changed = withElementType(code, 'i32').split('\n').flatMap((l, i) => (l === lines[i] ? [] : [i]));
    expect(changed).toHaveLength(1);
  });
});

describe('every variant on the simulator', () => {
  // Not multiples of any tile; the vec4 kernels get K and N rounded to multiples of 4.
  const shapes: MatmulShape[] = [{ m: 70, n: 36, k: 20 }, { m: 33, n: 100, k: 44 }, { m: 1, n: 4, k: 4 }];
  for (const variant of MATMUL_VARIANTS) {
    for (const type of matmulTypes(variant)) {
      it(`${variant} ${type}: equals the CPU reference bit for bit (additions in the same order), no race`, () => {
        for (const shape of shapes) {
          for (const tile of variant === 'tiled' ? [16, 32] : [16]) {
            const { a, b, result } = sim(variant, type, shape, tile, [0]);
            expect(result.diagnostics, `${variant} ${JSON.stringify(shape)}`).toEqual([]);
            expect([...result.buffers[0]![2]!]).toEqual([...matmulReference(type, shape, a, b)]);
          }
        }
      });
    }
  }
});

describe('hand-checked load counts, 64 × 64 × 64', () => {
  const shape = { m: 64, n: 64, k: 64 };
  const countsOf = (variant: MatmulVariant) => {
    const { result } = sim(variant, 'f32', shape, 16);
    const trace = result.trace!;
    const mems = matmulMemories(trace);
    const end = trace.stepCount - 1;
    return { a: globalLoadCounts(trace, mems.a, 64 * 64, end), b: globalLoadCounts(trace, mems.b, 64 * 64, end), trace };
  };

  it('naive: every element of A and of B is loaded 64 times (once per column, once per row of C)', () => {
    const { a, b } = countsOf('naive');
    expect(new Set(a)).toEqual(new Set([64]));
    expect(new Set(b)).toEqual(new Set([64]));
  });

  it('tiled, TILE 16: every element of A and of B is loaded 64 / 16 = 4 times', () => {
    const { a, b, trace } = countsOf('tiled');
    expect(new Set(a)).toEqual(new Set([4]));
    expect(new Set(b)).toEqual(new Set([4]));
    expect(loadsOfElement(trace, shape, 'a', 3, 5, trace.stepCount - 1)).toBe(4);
  });

  it('counts grow with the step: A[3][5] has been loaded 0 times at the start and once after the first tile of workgroup 0', () => {
    const { result } = sim('tiled', 'f32', shape, 16, [0]);
    const index = indexTrace(result.trace!);
    expect(loadsOfElement(index.trace, shape, 'a', 3, 5, 0)).toBe(0);
    expect(loadsOfElement(index.trace, shape, 'a', 3, 5, index.barrierSteps[index.warpCount - 1]!)).toBe(1);
    expect(() => loadsOfElement(index.trace, shape, 'a', 64, 0, 0)).toThrow(/outside its 64 × 64/);
  });
});

describe('trace queries', () => {
  it('the tiled stage: workgroup 0 owns C[0…16)[0…16) and its A tile slides along K, one TILE per phase', () => {
    const shape = { m: 40, n: 40, k: 40 };
    const { result } = sim('tiled', 'f32', shape, 16, [0]);
    const index = indexTrace(result.trace!);
    const afterFirst = index.barrierSteps[index.warpCount - 1]!;
    const first = stageAt(index, 'tiled', shape, 16, afterFirst);
    expect(first.block).toEqual({ r0: 0, r1: 16, c0: 0, c1: 16 });
    expect(first.aRect).toEqual({ r0: 0, r1: 16, c0: 0, c1: 16 });
    expect(first.bRect).toEqual({ r0: 0, r1: 16, c0: 0, c1: 16 });
    const last = stageAt(index, 'tiled', shape, 16, index.trace.stepCount - 1);
    // The third phase reads columns 32…40 of A (the rest of the tile is zero, never loaded).
    expect(last.aRect).toEqual({ r0: 0, r1: 16, c0: 32, c1: 40 });
    expect(last.bRect).toEqual({ r0: 32, r1: 40, c0: 0, c1: 16 });
  });

  it('the swizzle removes the bank conflicts of the transposed A-tile store: vec4-2d conflicts, fast does not', () => {
    const shape = { m: 64, n: 64, k: 32 };
    const storeWavefronts = (variant: MatmulVariant) => {
      const index = indexTrace(sim(variant, 'f32', shape, 16, [0]).result.trace!);
      const req = tileRequestAtOrBefore(index, index.barrierSteps[0]!, 'tileA');
      expect(req?.kind).toBe('store');
      return req!.wavefronts;
    };
    expect(storeWavefronts('vec4-2d')).toBeGreaterThan(1);
    expect(storeWavefronts('fast')).toBe(1);
  });

  it('tile-16x8: each invocation stores its row of A down its own column of the transposed tile (one wavefront), with two barriers per step', () => {
    const shape = { m: 64, n: 64, k: 32 };
    const index = indexTrace(sim('tile-16x8', 'f32', shape, 16, [0]).result.trace!);
    const req = tileRequestAtOrBefore(index, index.barrierSteps[0]!, 'tileA');
    expect(req?.kind).toBe('store');
    expect(req!.wavefronts).toBe(1);
    const c = workgroupCounters(index, 'tile-16x8', shape, 16);
    expect(c.tileSteps).toBe(4);
    expect(c.barriers).toBe(2 * c.tileSteps + 1);
  });

  it('counters: global loads per FMA fall from 2 (naive) to 2 / TILE (tiled) and further with register tiles', () => {
    const shape = { m: 64, n: 64, k: 64 };
    const perFma = (variant: MatmulVariant, tile = 16) => {
      const index = indexTrace(sim(variant, 'f32', shape, tile, [0]).result.trace!);
      const c = workgroupCounters(index, variant, shape, tile);
      return c.globalLoads / c.usefulFmas;
    };
    expect(perFma('naive')).toBe(2);
    expect(perFma('tiled')).toBe(2 / 16);
    expect(perFma('tiled', 32)).toBe(2 / 32);
    expect(perFma('column')).toBe(2 / 64);
    const tiled = workgroupCounters(indexTrace(sim('tiled', 'f32', shape, 16, [0]).result.trace!), 'tiled', shape, 16);
    expect(tiled.barriers / tiled.tileSteps).toBe(2);
    const fast = workgroupCounters(indexTrace(sim('fast', 'f32', shape, 16, [0]).result.trace!), 'fast', shape, 16);
    expect(fast.barriers).toBe(fast.tileSteps + 1);
  });

  it('boundary waste: 100 × 100 in 16 × 16 blocks launches 112² positions', () => {
    expect(boundaryWaste('tiled', { m: 100, n: 100, k: 8 }, 16)).toBeCloseTo(1 - 10000 / 112 ** 2, 12);
    expect(boundaryWaste('tiled', { m: 64, n: 64, k: 8 }, 16)).toBe(0);
  });
});

/**
 * The lab's check of `p`'s product on inputs from `seed`: it passes the CPU's C (asserted here),
 * and this is what it says once element `at` of C is off by `by`.
 */
function checkWithOneWrong(p: MatmulParams, seed: number, at: number, by: number): ReturnType<typeof matmulCheck> {
  const inputs = matmulInputs(p, seed);
  const want = matmulReference(p.type as MatmulType, p, inputs.a!, inputs.b!);
  expect(matmulCheck(p, inputs, want)).toEqual({ ok: true });
  const off = want.slice();
  off[at] = off[at]! + by;
  return matmulCheck(p, inputs, off);
}

describe('the lab module', () => {
  it('fits sizes the step-through cannot trace, and vec4 kernels to multiples of 4, saying so', () => {
    const r = resolveParams(matmulLab, 'fast', { m: 1000, n: 30, k: 33 });
    expect(r.params).toMatchObject({ m: 128, n: 32, k: 36 });
    expect(r.notices.join(' ')).toMatch(/simulating 128.*multiple of 4; using 32.*multiple of 4; using 36/s);
    expect(resolveParams(matmulLab, 'tiled', { tile: 8 }).notices.join(' ')).toMatch(/TILE 16 or 32/);
    // tile-16x8 calls fma, which takes floats: i32 falls back to f32.
    expect(resolveParams(matmulLab, 'tile-16x8', { type: 'i32' }).params).toMatchObject({ type: 'f32' });
    // The roofline traces it beside an i32 variant on the same operands, as f32.
    const p = { m: 8, n: 8, k: 8, tile: 16, type: 'i32' };
    const run = matmulLab.stepRun('tile-16x8', p, matmulInputs(p, 1));
    expect(run.code).toContain('alias T = f32;');
    expect(run.bindings[0]![0]).toBeInstanceOf(Float32Array);
    expect(() => matmulRun('tile-16x8', 'i32', { m: 4, n: 4, k: 4 }, 16, new Int32Array(16), new Int32Array(16))).toThrow(/multiplies f32 only, not i32/);
  });

  it('checks f32 within the stated bound and names the element outside it', () => {
    const check = checkWithOneWrong({ m: 3, n: 5, k: 7, tile: 16, type: 'f32' }, 3, 7, 1e-3);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(/^C\[1\]\[2\] is .* beyond the f32 bound/);
  });
});

describe('the check of large products', () => {
  it('samples C above 2^24 multiply-adds and still names a wrong corner', () => {
    const check = checkWithOneWrong({ m: 300, n: 260, k: 240, tile: 16, type: 'i32' }, 4, 300 * 260 - 1, 1);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(/^C\[299\]\[259\] is -?\d+ where the CPU reference has -?\d+ \(sampled check of 516 elements/);
  });
});
