import { describe, expect, it } from 'vitest';
import type { Expr, Global, Stmt } from './ast.ts';
import { parse } from './parser.ts';

function fnBody(src: string): readonly Stmt[] {
  const r = parse(src);
  expect(r.diagnostics).toEqual([]);
  const f = r.ast.find((g): g is Global & { k: 'fn' } => g.k === 'fn')!;
  return f.body;
}

describe('parser', () => {
  it('parses directives and every module-scope declaration', () => {
    const r = parse(`enable f16, subgroups;
requires readonly_and_readwrite_storage_textures;
diagnostic(off, derivative_uniformity);
alias T = array<vec4<f32>, 4>;
struct S { @align(16) a: f32, @size(8) b: u32, }
const C: u32 = 4u;
override O = 2.0;
@id(3) override P: i32;
var<private> p: mat2x3<f32>;
@group(0) @binding(0) var<storage, read_write> buf: array<atomic<u32>>;
const_assert C > 1u;
@compute @workgroup_size(64, 1) fn main(@builtin(local_invocation_index) i: u32) {}
fn helper(x: ptr<function, u32>) -> @location(0) u32 { return *x; }
`);
    expect(r.diagnostics).toEqual([]);
    expect(r.ast.map((g) => g.k)).toEqual([
      'directive', 'directive', 'diagnostic', 'alias', 'struct', 'const', 'override', 'override', 'gvar', 'gvar',
      'const_assert', 'fn', 'fn',
    ]);
    const buf = r.ast[9] as Global & { k: 'gvar' };
    expect([buf.space, buf.access, buf.ty?.name, buf.attrs.map((a) => a.name)]).toEqual(['storage', 'read_write', 'array', ['group', 'binding']]);
  });

  it('parses every statement form', () => {
    const body = fnBody(`fn f(a: i32) -> i32 {
  var x: i32 = 0;
  let y = a;
  const z = 3;
  x += y; x <<= 1u; x++; x--;
  _ = z;
  if (x > 0) { x = 1; } else if (x < 0) { x = 2; } else { x = 3; }
  switch (x) { case 1, 2: { x = 4; } case default, 3 { } }
  for (var i = 0; i < 4; i++) { continue; }
  while (x > 10) { break; }
  loop { x--; continuing { break if x <= 0; } }
  @diagnostic(off, subgroup_uniformity) { discard; }
  const_assert z == 3;
  ;
  return x;
}`);
    expect(body.map((s) => s.k)).toEqual([
      'decl', 'decl', 'decl', 'assign', 'assign', 'incdec', 'incdec', 'assign', 'if', 'switch', 'for', 'while', 'loop', 'block',
      'const_assert', 'return',
    ]);
    const loop = body[12] as Stmt & { k: 'loop' };
    expect(loop.breakIf?.k).toBe('bin');
    const block = body[13] as Stmt & { k: 'block' };
    expect(block.attrs?.[0]?.name).toBe('diagnostic');
  });

  it('gives every node a start and end; binary nodes keep the operator as pos', () => {
    const body = fnBody('fn f() {\n  let v = (1 + 2) * a[3].x;\n}');
    const decl = body[0] as Stmt & { k: 'decl' };
    const e = decl.init as Expr & { k: 'bin' };
    expect([e.start.line, e.start.col, e.end.col, e.pos.col]).toEqual([2, 11, 27, 19]);
    expect([decl.start.col, decl.end.col, decl.nameRange.pos.col]).toEqual([3, 27, 7]);
    const mem = e.r as Expr & { k: 'mem' };
    expect([mem.start.col, mem.pos.col, mem.nameRange.pos.col]).toEqual([21, 25, 26]);
    expect(e.start.offset).toBe('fn f() {\n  let v = '.length);
  });

  it('enforces WGSL precedence rules: no mixing of & and |, no chained comparisons', () => {
    expect(parse('fn f() { let a = 1 & 2 | 3; }').diagnostics[0]!.message).toBe(`mixing '&' and '|' requires parenthesis`);
    expect(parse('fn f() { let a = 1 < 2 == true; }').diagnostics[0]!.message).toBe(`mixing '<' and '==' requires parenthesis`);
    expect(parse('fn f() { let a = (1 & 2) | 3; let b = 1 & 2 & 3; }').diagnostics).toEqual([]);
  });

  it('rejects reserved words and keywords as names', () => {
    expect(parse('fn f() { let class = 1; }').diagnostics.map((d) => `${d.col} ${d.message}`)).toEqual([`14 'class' is a reserved keyword`]);
    expect(parse('struct union { a: i32 }').diagnostics[0]!.message).toBe(`'union' is a reserved keyword`);
    expect(parse('fn f() { let __x = 1; }').diagnostics[0]!.message).toMatch(/two or more underscores/);
  });

  it('recovers after an error and reports the next one too', () => {
    const r = parse(`fn f() {
  let a = ;
  let b = 2;
  let c = 3 +;
}
fn g( {
}
fn h() -> u32 { return 1u }
`);
    expect(r.diagnostics.map((d) => d.line)).toEqual([2, 4, 6, 8]);
    expect(r.ast.filter((g) => g.k === 'fn').map((g) => (g as { name: string }).name)).toContain('h');
  });

  it('reads templates in expressions: constructors, bitcast, nested arrays', () => {
    const body = fnBody('fn f() {\n  let a = array<vec2<f32>, 2>(vec2<f32>(1.0), vec2f());\n  let b = bitcast<u32>(1.0f);\n}');
    const a = (body[0] as Stmt & { k: 'decl' }).init as Expr & { k: 'call' };
    expect(a.name).toBe('array');
    expect(a.tmpl?.map((t) => ('k' in t ? t.k : t.name))).toEqual(['vec2', 'lit']);
    const b = (body[1] as Stmt & { k: 'decl' }).init as Expr & { k: 'call' };
    expect([b.name, b.tmpl?.length]).toEqual(['bitcast', 1]);
  });
});
