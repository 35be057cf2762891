import { describe, expect, it } from 'vitest';
import { excerptAround, formatShaderMessage } from './errors.ts';

describe('excerptAround', () => {
  it('keeps short lines whole', () => {
    expect(excerptAround('  let x = 1u +;', 15)).toEqual({ text: '  let x = 1u +;', caret: 15 });
  });

  it('shows a window around the column of a long line, with ellipses where it was cut', () => {
    const line = 'a'.repeat(500_000) + 'X' + 'b'.repeat(500_000);
    const { text, caret } = excerptAround(line, 500_001, 40);
    expect(text).toBe(`…${'a'.repeat(20)}X${'b'.repeat(19)}…`);
    expect(text[caret - 1]).toBe('X');
  });

  it('cuts one side only at either end', () => {
    const line = 'x'.repeat(200);
    expect(excerptAround(line, 1, 10)).toEqual({ text: `${'x'.repeat(10)}…`, caret: 1 });
    const end = excerptAround(line, 200, 10);
    expect(end.text).toBe(`…${'x'.repeat(10)}`);
    expect(end.caret).toBe(11);
  });

  it('is what formatShaderMessage prints', () => {
    const sourceLine = 'y'.repeat(10_000);
    const s = formatShaderMessage({ severity: 'error', message: 'bad', line: 1, column: 5000, sourceLine, file: 'big.wgsl' });
    expect(s.length).toBeLessThan(400);
    expect(s).toMatch(/^big\.wgsl:1:5000: error: bad\n {2}…y+…\n {2} +\^$/);
  });
});
