import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { genKernel } from './matmul-kernel-gen.ts';

/** The code alone: comments and whitespace removed. */
const tokens = (wgsl: string): string => wgsl.replace(/\/\/[^\n]*/g, '').replace(/\s+/g, '');

describe('the shipped tile-16x8 kernel', () => {
  it('is the generated kernel the H100 timed (g256x128x8-t16x8-b1-rows), with only comments and indentation added', () => {
    const shipped = readFileSync('shaders/matmul/tile-16x8.wgsl', 'utf8');
    const generated = genKernel({ BM: 256, BN: 128, BK: 8, TM: 16, TN: 8, buffers: 1, aMap: 'rows' });
    expect(tokens(shipped)).toBe(tokens(generated));
    // And the check can fail: one changed offset is seen.
    expect(tokens(shipped.replace('tileA[ty + 16u]', 'tileA[ty + 17u]'))).not.toBe(tokens(generated));
  });
});
