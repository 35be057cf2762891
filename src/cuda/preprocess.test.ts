import { describe, expect, it } from 'vitest';
import { preprocess } from './preprocess.ts';

const text = (src: string, files: Record<string, string> = {}): string =>
  preprocess(src, 'k.cu', files).tokens.slice(0, -1).map((t) => t.text).join(' ');

describe('preprocessor', () => {
  it('expands object-like and function-like macros, # and ##', () => {
    expect(text('#define N 4\n#define SQ(x) ((x)*(x))\nint a = SQ(N+1);')).toBe('int a = ( ( 4 + 1 ) * ( 4 + 1 ) ) ;');
    expect(text('#define STR(x) #x\n#define CAT(a,b) a##b\nCAT(foo,bar) STR(a + b)')).toBe('foobar "a + b"');
    expect(text('#define F(...) g(__VA_ARGS__)\nF(1, 2)')).toBe('g ( 1 , 2 )');
  });
  it('does not expand a macro inside itself', () => {
    expect(text('#define x x + 1\nx')).toBe('x + 1');
  });
  it('evaluates #if, #elif, #else, defined', () => {
    expect(text('#define A 2\n#if A > 1 && defined(A)\nyes\n#elif 1\nno\n#else\nno\n#endif')).toBe('yes');
    expect(text('#ifndef B\nb\n#endif\n#ifdef B\nc\n#endif\n#if 0\n#error no\n#endif')).toBe('b');
    expect(text('#define A\n#undef A\n#ifdef A\nq\n#else\nr\n#endif')).toBe('r');
  });
  it('maps macro tokens to the use site', () => {
    const r = preprocess('#define N 4\n\nint a[N];', 'k.cu');
    const four = r.tokens.find((t) => t.text === '4')!;
    expect([four.line, four.col]).toEqual([3, 7]);
  });
  it('reads local headers from files and knows system headers', () => {
    expect(text('#include <stdio.h>\n#include "a.cuh"\nx', { 'a.cuh': '#pragma once\n#define x 7' })).toBe('7');
    const r = preprocess('#include "missing.cuh"\n', 'k.cu');
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error', line: 1, column: 10 });
    expect(r.diagnostics[0]!.message).toMatch(/'missing.cuh' file not found/);
    const h = preprocess('#include "a.cuh"\n', 'k.cu', { 'a.cuh': '\n  #error stop' });
    expect(h.diagnostics[0]).toMatchObject({ line: 2, column: 4, file: 'a.cuh', message: '#error stop' });
  });
  it('accepts #pragma unroll and reports #error and unterminated #if', () => {
    const r = preprocess('#pragma unroll\nfor(;;);\n#if 1\n', 'k.cu');
    expect(r.pragmas).toHaveLength(1);
    expect(r.diagnostics.map((d) => [d.line, d.message])).toEqual([[3, 'unterminated #if: add #endif']]);
  });
  it('predefines the limits teaching code uses without their header', () => {
    expect(text('INT_MIN')).toBe('( - 2147483647 - 1 )');
  });
});
