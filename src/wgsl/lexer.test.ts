import { describe, expect, it } from 'vitest';
import { lex } from './lexer.ts';

const kinds = (src: string): string[] => lex(src).toks.map((t) => `${t.k}:${t.s}`);

describe('lexer', () => {
  it('reads Unicode XID identifiers as one token, with UTF-16 columns', () => {
    const r = lex('let ñandú = Δx;');
    expect(r.diagnostics).toEqual([]);
    expect(r.toks.slice(0, 4).map((t) => [t.s, t.pos.col])).toEqual([
      ['let', 1],
      ['ñandú', 5],
      ['=', 11],
      ['Δx', 13],
    ]);
  });

  it('skips line comments and nested block comments, counting their lines', () => {
    const r = lex('/* a /* b */ c\n */ x // y\nz');
    expect(r.toks.map((t) => [t.s, t.pos.line, t.pos.col])).toEqual([
      ['x', 2, 5],
      ['z', 3, 1],
      ['<end of file>', 3, 2],
    ]);
  });

  it('reports an unterminated block comment where it starts', () => {
    const r = lex('fn f() {}\n  /* open /* nested */');
    expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual(['2:3 unterminated block comment']);
  });

  it('reports a NUL and other invalid characters at their real line and column, and goes on', () => {
    const r = lex('fn f() {\n  let x = 1\u0000;\n  let y = 2 $ 3;\n}');
    expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([
      '2:12 null character U+0000 (NUL) found',
      "3:13 invalid character '$' (U+0024) found",
    ]);
    expect(r.toks.some((t) => t.s === 'y')).toBe(true);
  });

  it('names an invisible character by its code point alone', () => {
    expect(lex('let x = 1\u0007;').diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual(['1:10 invalid character U+0007 found']);
  });

  it('counts CRLF, CR, VT, FF, NEL, LS and PS as one line break each', () => {
    const r = lex('a\r\nb\rc\vd\fe\u0085f\u2028g\u2029h');
    expect(r.toks.slice(0, 8).map((t) => t.pos.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('reads every numeric literal form', () => {
    expect(kinds('0 12u 7i 0x1Fu 1.5 .5 1. 1e3 1e-3f 2h 0x1p4 0x1.8p1f 0f')).toEqual([
      'int:0', 'int:12u', 'int:7i', 'int:0x1Fu', 'float:1.5', 'float:.5', 'float:1.', 'float:1e3',
      'float:1e-3f', 'float:2h', 'float:0x1p4', 'float:0x1.8p1f', 'float:0f', 'eof:<end of file>',
    ]);
  });

  it('rejects an integer literal with a leading zero', () => {
    expect(lex('012').diagnostics[0]!.message).toBe('integer literal cannot have leading 0s');
  });

  it('discovers template lists as the spec does (§3.9)', () => {
    expect(kinds('a<b>c')).toEqual(['id:a', 'tmplStart:<', 'id:b', 'tmplEnd:>', 'id:c', 'eof:<end of file>']);
    // `||` ends the candidate: two comparisons.
    expect(kinds('a < b || c > d').filter((k) => k.startsWith('tmpl'))).toEqual([]);
    // `>>` closing two lists is split in two.
    expect(kinds('array<vec4<f32>>')).toEqual([
      'id:array', 'tmplStart:<', 'id:vec4', 'tmplStart:<', 'id:f32', 'tmplEnd:>', 'tmplEnd:>', 'eof:<end of file>',
    ]);
    // `a<b` inside a call argument list is closed by `)`: a comparison.
    expect(kinds('select(0, 1, a<b) > c').filter((k) => k.startsWith('tmpl'))).toEqual([]);
    // `<=` after a name is a comparison; `>=` closing a list leaves `=`.
    expect(kinds('a<=b').filter((k) => k.startsWith('tmpl'))).toEqual([]);
    expect(kinds('x = vec2<u32>=')).toContain('tmplEnd:>');
  });
});
