/** WGSL §17.9 data packing and §17.10 unpacking builtins, simulator vs Dawn. */
import { describe, expect, it } from 'vitest';
import { conform, U32_EDGES, type Suite } from '../../harness.ts';

const fr = Math.fround;
const UNIT = [0, -0, 1, -1, 0.5, -0.5, 0.25, 0.999, -0.999, 1 / 3, 2, -2, 100, -100, 0.00196, 0.5 / 255].map(fr);
const f4 = (i: number) => [UNIT[i % UNIT.length]!, UNIT[(i * 3 + 1) % UNIT.length]!, UNIT[(i * 5 + 2) % UNIT.length]!, UNIT[(i * 7 + 3) % UNIT.length]!];
const F4 = Array.from({ length: 32 }, (_, i) => [f4(i)]);
const F2 = Array.from({ length: 32 }, (_, i) => [f4(i).slice(0, 2)]);
const HALF = [0, -0, 1, -1, 0.5, 65504, -65504, 1 / 3, 0.1, 1000.7, 2 ** -14, 3.0e-4, -7.25].map(fr);
const H2 = HALF.map((x, i) => [[x, HALF[(i + 5) % HALF.length]!]]);
const I4 = [[[0, -1, 127, -128]], [[128, -129, 255, 1000]], [[-1000, 7, -7, 2147483647]], [[-2147483648, 3, 0, 100]]];
const U4 = [[[0, 1, 127, 128]], [[255, 256, 1000, 0xffffffff]], [[7, 0x80000000, 42, 254]]];
const WORDS = [...U32_EDGES, 0x807f01ff, 0x3c00bc00, 0x7bff0001, 0x00007c00].map((x) => [[x]]);
// 16-bit float halves that are f16 subnormals may be flushed to zero; NaN/infinity halves are
// indeterminate in f32 code that assumes finite math, so unpack2x16float gets finite normal halves.
const F16_WORDS = [0x3c00bc00, 0x7bff0400, 0x00000000, 0x80003555, 0x4248c000, 0x2e66fbff].map((x) => [[x]]);

const pack = (name: string, arg: 'vec4f' | 'vec2f' | 'vec4i' | 'vec4u', cases: Suite['cases']): Suite => ({
  name, expr: `${name}(a0)`, args: [arg], result: 'u32', cases,
});
const unpack = (name: string, result: 'vec4f' | 'vec2f' | 'vec4i' | 'vec4u', cases: Suite['cases'], ulp = 0): Suite => ({
  name, expr: `${name}(a0)`, args: ['u32'], result, cases, tolerance: { ulp },
});

const suites: Suite[] = [
  pack('pack4x8snorm', 'vec4f', F4),
  pack('pack4x8unorm', 'vec4f', F4),
  pack('pack2x16snorm', 'vec2f', F2),
  pack('pack2x16unorm', 'vec2f', F2),
  pack('pack2x16float', 'vec2f', H2),
  pack('pack4xI8', 'vec4i', I4),
  pack('pack4xU8', 'vec4u', U4),
  pack('pack4xI8Clamp', 'vec4i', I4),
  pack('pack4xU8Clamp', 'vec4u', U4),
  // The spec allows 3 ulp for the unorm/snorm divisions.
  unpack('unpack4x8snorm', 'vec4f', WORDS, 3),
  unpack('unpack4x8unorm', 'vec4f', WORDS, 3),
  unpack('unpack2x16snorm', 'vec2f', WORDS, 3),
  unpack('unpack2x16unorm', 'vec2f', WORDS, 3),
  unpack('unpack2x16float', 'vec2f', F16_WORDS),
  unpack('unpack4xI8', 'vec4i', WORDS),
  unpack('unpack4xU8', 'vec4u', WORDS),
];

describe('pack/unpack builtins: simulator vs GPU', () => {
  it.each(suites.map((s) => [s.name, s] as [string, Suite]))('%s', async (_n, s) => {
    expect(await conform(s)).toEqual([]);
  });
});
