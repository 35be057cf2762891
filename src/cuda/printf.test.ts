import { describe, expect, it } from 'vitest';
import { formatPrintf } from './printf.ts';

const f32 = (v: number): number => new Uint32Array(Float32Array.of(v).buffer)[0]!;

describe('kernel printf formatting (expected strings printed by glibc, gcc on x86-64)', () => {
  it('formats integers and floats as glibc does, ties to even included', () => {
    const out = formatPrintf(
      '[%08x][%.1f][%.0f][%.0f][%g][%e][%-6d|][%+5.2f][%#o][%5.3d][%G]',
      ['unsigned int', 'float', 'float', 'float', 'float', 'float', 'int', 'float', 'unsigned int', 'int', 'float'],
      [255, f32(-2.25), f32(0.5), f32(2.5), f32(0.0001234), f32(12345.678), -42 >>> 0, f32(3.14159), 8, 7, f32(1e-10)],
    );
    expect(out).toBe('[000000ff][-2.2][0][2][0.0001234][1.234568e+04][-42   |][+3.14][010][  007][1E-10]');
  });
});
