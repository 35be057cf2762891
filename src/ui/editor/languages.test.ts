/**
 * The code panes' colouring: which kind each token of a kernel gets from the CUDA and the WGSL
 * stream languages (the kinds `highlight.ts` colours).
 */
import { describe, expect, it } from 'vitest';
import { highlightTree, tagHighlighter, tags as t } from '@lezer/highlight';
import type { Language } from '@codemirror/language';
import { cudaLanguage } from './cudaLanguage.ts';
import { wgslLanguage } from './wgslLanguage.ts';

const KINDS = tagHighlighter([
  { tag: t.keyword, class: 'keyword' },
  { tag: t.typeName, class: 'type' },
  { tag: t.standard(t.variableName), class: 'builtin' },
  { tag: t.function(t.variableName), class: 'call' },
  { tag: t.number, class: 'number' },
  { tag: t.string, class: 'string' },
  { tag: t.atom, class: 'atom' },
  { tag: t.meta, class: 'meta' },
  { tag: t.comment, class: 'comment' },
  { tag: t.operator, class: 'operator' },
]);

/** The coloured tokens of `text` by kind, each kind's in the order they come (plain names and brackets left out). */
function tokens(language: Language, text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  highlightTree(language.parser.parse(text), KINDS, (from, to, kind) => {
    (out[kind] ??= []).push(text.slice(from, to));
  });
  return out;
}

describe('CUDA colouring', () => {
  it('tells keywords, types, built-ins, calls, numbers, strings, directives and comments apart (comments do not nest)', () => {
    const src = `#include <cstdio>
#define N 256 // tile
__global__ void k(const float *x, uint4 *y, int n) {
  /* a block
     comment */ int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && true) y[i] = make_uint4(0x1Fu, 2.5e-3f, 'c', 7);
  __syncthreads(); printf("%d\\n", i); // done
  k<<<1, 32>>>(nullptr, y, n); /* C's comments do /* not nest */ float z;
}`;
    expect(tokens(cudaLanguage, src)).toEqual({
      meta: ['#include <cstdio>', '#define N 256 // tile'],
      keyword: ['__global__', 'const', 'if'],
      type: ['void', 'float', 'uint4', 'int', 'int', 'float'],
      call: ['k', 'make_uint4'],
      operator: ['*', '*', '=', '*', '+', '<', '&&', '='],
      comment: ['/* a block', '     comment */', '// done', "/* C's comments do /* not nest */"],
      builtin: ['blockIdx', 'blockDim', 'threadIdx', '__syncthreads', 'printf'],
      atom: ['true', 'nullptr'],
      number: ['0x1Fu', '2.5e-3f', '7', '1', '32'],
      string: ["'c'", '"%d\\n"'],
    });
  });
});

describe('WGSL colouring', () => {
  it('tells keywords, types, built-ins, calls, numbers, attributes and nested comments apart', () => {
    const src = `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
/* outer /* inner */ still a comment */ const W = 64u;
@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let x = select(1.5e2f, 0x10i, gid.x > 3u && false); // pick
  workgroupBarrier();
  out[gid.x] = helper(u32(x));
}`;
    expect(tokens(wgslLanguage, src)).toEqual({
      meta: ['@group', '@binding', '@compute', '@workgroup_size', '@builtin'],
      number: ['0', '0', '64u', '1.5e2f', '0x10i', '3u'],
      keyword: ['var', 'const', 'fn', 'let'],
      operator: ['<', '>', '<', '>', '=', '<', '>', '=', '>', '&&', '='],
      type: ['storage', 'read_write', 'array', 'u32', 'vec3', 'u32', 'u32'],
      comment: ['/* outer /* inner */ still a comment */', '// pick'],
      call: ['main', 'helper'],
      builtin: ['select', 'workgroupBarrier'],
      atom: ['false'],
    });
  });
});
