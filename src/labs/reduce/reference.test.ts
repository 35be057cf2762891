import { describe, expect, it } from 'vitest';
import { randomF32, seededRandom } from '../../util/random.ts';
import { reduceCases } from './cases.ts';
import { ELEMENT_ALIAS_LINE, kernelCode, passPlan, timingPasses, withElementType } from './driver.ts';
import { kernelOrderSumF32, sumF32Sequential, sumF64, sumI32, sumU32 } from './reference.ts';
import { REDUCE_VARIANTS } from './variants.ts';

describe('integer references', () => {
  it('wrap around like WGSL u32 and i32 addition', () => {
    expect(sumU32(new Uint32Array([0xffffffff, 2]))).toBe(1);
    expect(sumI32(new Int32Array([0x7fffffff, 1]))).toBe(-0x80000000);
    expect(sumI32(new Int32Array([-5, 3]))).toBe(-2);
  });
});

describe('element type substitution', () => {
  it.each(REDUCE_VARIANTS.map((v) => [v.id, v] as const))(
    '%s: rewrites one line and keeps the others in place',
    (_id, v) => {
      const lines = v.wgsl.split('\n');
      expect(lines.filter((l) => l === ELEMENT_ALIAS_LINE)).toHaveLength(1);
      for (const type of ['i32', 'f32'] as const) {
        const out = withElementType(v.wgsl, type).split('\n');
        expect(out).toHaveLength(lines.length);
        const changed = out.flatMap((l, i) => (l === lines[i] ? [] : [i]));
        expect(changed).toEqual([lines.indexOf(ELEMENT_ALIAS_LINE)]);
        expect(out[changed[0]!]).toBe(`alias T = ${type};`);
      }
      // The linear workgroup helper goes after the kernel, so the kernel's lines keep their numbers.
      expect(kernelCode(v, 'u32').startsWith(v.wgsl)).toBe(true);
      expect(kernelCode(v, 'u32').includes('fn linear_workgroup_index')).toBe(v.foldsWorkgroups);
    },
  );
});

describe('pass plans', () => {
  it('fold first passes above 65 535 workgroups and end with one workgroup', () => {
    const plan = passPlan('interleaved', 2 ** 26, { workgroupSize: 256 });
    expect(plan.map((p) => p.workgroupCount)).toEqual([262_144, 1024, 4, 1]);
    expect(plan[0]!.dispatch).toEqual([52_429, 5]);
    expect(plan.slice(1).every((p) => p.dispatch[1] === 1)).toBe(true);
    expect(
      passPlan('first-add-during-load', 2 ** 26, { workgroupSize: 256 }).map((p) => p.workgroupCount),
    ).toEqual([131_072, 256, 1]);
  });

  it('give the grid-stride variant a capped grid, then one workgroup', () => {
    const plan = passPlan('vec4-grid-stride', 2 ** 26, { workgroupSize: 256 });
    expect(plan.map((p) => [p.n, p.workgroupCount, p.outputLength])).toEqual([
      [2 ** 26, 2048, 2048],
      [2048, 1, 4],
    ]);
    expect(passPlan('vec4-grid-stride', 31).map((p) => p.workgroupCount)).toEqual([1]);
  });

  it('give the one-pass atomic variant a grid of up to 8192 workgroups (99 % of the read on an H100, against 98.4 % at 2048)', () => {
    expect(passPlan('vec4-atomic', 2 ** 26, { workgroupSize: 256 }).map((p) => [p.workgroupCount, p.outputLength])).toEqual([[8192, 1]]);
    expect(passPlan('vec4-atomic', 2 ** 28, { workgroupSize: 256 }).map((p) => p.workgroupCount)).toEqual([8192]);
    // Each invocation still loads at least 4 vec4s: 2^22 elements need 1024 workgroups of 256.
    expect(passPlan('vec4-atomic', 2 ** 22, { workgroupSize: 256 }).map((p) => p.workgroupCount)).toEqual([1024]);
    expect(passPlan('vec4-atomic', 2 ** 26, { workgroupSize: 256, maxGridWorkgroups: 2048 })[0]!.workgroupCount).toBe(2048);
  });

  it('always run at least one pass, and reject workgroup sizes a variant is not written for', () => {
    expect(passPlan('neighbored', 1)).toHaveLength(1);
    expect(() => passPlan('neighbored', 100, { workgroupSize: 96 })).toThrow(RangeError);
  });

  it('build timing chains whose inputs have the sizes of the real chain', () => {
    const chain = timingPasses('vec4-grid-stride', 1000, { elementType: 'f32', workgroupSize: 64 });
    expect(chain).toHaveLength(1);
    expect(chain[0]!.bindings[0]![0]).toBeInstanceOf(Float32Array);
    expect(chain[0]!.bindings[0]![0]!.length).toBe(1000);
  });
});

describe('f32 summation order (the lesson)', () => {
  it('a float accumulator stalls at 2^24 while a tree keeps every unit', () => {
    // 2^24 + 2^16 ones: once the running sum reaches 2^24, adding 1 rounds back to 2^24.
    const n = 2 ** 24 + 2 ** 16;
    const ones = new Float32Array(n).fill(1);
    expect(sumF32Sequential(ones)).toBe(2 ** 24);
    expect(sumF64(ones)).toBe(n);
    expect(kernelOrderSumF32('interleaved', ones).value).toBe(n);
  });

  it('the tree order is closer to the double sum than the sequential order on random data', () => {
    const x = randomF32(seededRandom(3), 2 ** 20, -1, 1);
    const exact = sumF64(x);
    const tree = kernelOrderSumF32('interleaved', x);
    expect(tree.exact).toBe(true);
    expect(Math.abs(tree.value - exact)).toBeLessThan(Math.abs(sumF32Sequential(x) - exact));
    expect(kernelOrderSumF32('last-warp-subgroup', x).exact).toBe(false);
  });
});

describe('kernel cases', () => {
  it('cover every variant, element type and a small and a large workgroup size', () => {
    for (const v of REDUCE_VARIANTS) {
      const mine = reduceCases.filter((c) => c.file === v.file);
      expect(mine.length, v.id).toBe(v.elementTypes.length * 2);
      expect(mine.every((c) => Boolean(c.subgroups) === v.needsSubgroups)).toBe(true);
    }
    expect(
      reduceCases
        .filter((c) => c.f32UlpBound !== undefined)
        .every((c) => c.subgroups && c.name.includes(' f32 ')),
    ).toBe(true);
  });

  it('build one pass from seeded input, the same for the same seed', () => {
    const c = reduceCases.find((k) => k.name === 'reduce/interleaved u32 wg=64')!;
    const a = c.build(seededRandom(9), 1000);
    const b = c.build(seededRandom(9), 1000);
    expect(a.bindings[0]![0]).toEqual(b.bindings[0]![0]);
    expect(a.workgroups).toEqual([16, 1]);
    expect(a.overrides).toEqual({ WORKGROUP_SIZE: 64 });
  });
});
