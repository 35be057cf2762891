/** WGSL §17.5 bit builtins and the packed integer dot products: bit for bit, simulator vs Dawn. */
import { describe, expect, it } from 'vitest';
import { AMOUNTS, conform, I32_EDGES, pairs, U32_EDGES, type Suite } from '../../harness.ts';

const one = (xs: number[]) => xs.map((x) => [[x]]);
const u1 = (name: string): Suite => ({ name: `${name} u32`, expr: `${name}(a0)`, args: ['u32'], result: 'u32', cases: one(U32_EDGES) });
const i1 = (name: string): Suite => ({ name: `${name} i32`, expr: `${name}(a0)`, args: ['i32'], result: 'i32', cases: one(I32_EDGES) });
const NAMES = ['countOneBits', 'countLeadingZeros', 'countTrailingZeros', 'firstLeadingBit', 'firstTrailingBit', 'reverseBits'];
const OFFSET_COUNT = pairs(AMOUNTS, AMOUNTS).filter(([o, c]) => o + c <= 32);

const suites: Suite[] = [
  ...NAMES.map(u1),
  ...NAMES.map(i1),
  {
    name: 'countOneBits vec3u', expr: 'countOneBits(a0)', args: ['vec3u'], result: 'vec3u',
    cases: [[[0, 0xffffffff, 0x80000001]], [[7, 0x10000, 0x12345678]]],
  },
  {
    name: 'extractBits u32', expr: 'extractBits(a0, a1, a2)', args: ['u32', 'u32', 'u32'], result: 'u32',
    cases: pairs([0xdeadbeef, 0xffffffff, 0x80000001], OFFSET_COUNT).map(([e, [o, c]]) => [[e], [o], [c]]),
  },
  {
    name: 'extractBits i32', expr: 'extractBits(a0, a1, a2)', args: ['i32', 'u32', 'u32'], result: 'i32',
    cases: pairs([-559038737, -1, 0x7fffffff, 0x12345678], OFFSET_COUNT).map(([e, [o, c]]) => [[e], [o], [c]]),
  },
  {
    name: 'insertBits u32', expr: 'insertBits(a0, a1, a2, a3)', args: ['u32', 'u32', 'u32', 'u32'], result: 'u32',
    cases: pairs([0, 0xffffffff], OFFSET_COUNT).map(([e, [o, c]]) => [[e], [0xa5a5a5a5], [o], [c]]),
  },
  {
    name: 'insertBits i32', expr: 'insertBits(a0, a1, a2, a3)', args: ['i32', 'i32', 'u32', 'u32'], result: 'i32',
    cases: pairs([0, -1], OFFSET_COUNT).map(([e, [o, c]]) => [[e], [0x5a5a5a5a], [o], [c]]),
  },
  {
    name: 'dot4I8Packed', expr: 'dot4I8Packed(a0, a1)', args: ['u32', 'u32'], result: 'i32',
    cases: pairs([0, 0xffffffff, 0x80808080, 0x7f7f7f7f, 0x01ff7f80], [0, 0xffffffff, 0x80808080, 0x7f7f7f7f, 0x12345678]).map(([a, b]) => [[a], [b]]),
  },
  {
    name: 'dot4U8Packed', expr: 'dot4U8Packed(a0, a1)', args: ['u32', 'u32'], result: 'u32',
    cases: pairs([0, 0xffffffff, 0x80808080, 0x7f7f7f7f], [0, 0xffffffff, 0x12345678]).map(([a, b]) => [[a], [b]]),
  },
];

describe('bit builtins: simulator vs GPU', () => {
  it.each(suites.map((s) => [s.name, s] as [string, Suite]))('%s', async (_n, s) => {
    expect(await conform(s)).toEqual([]);
  });
});
