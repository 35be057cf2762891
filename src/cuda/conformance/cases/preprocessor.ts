/**
 * The preprocessor (issue §1): object-like and function-like #define (with # and ##), #undef,
 * #if arithmetic and defined, #ifdef/#ifndef/#elif/#else, #include of a local header from
 * `files`, standard and CUDA headers understood and not read, #pragma unroll, #error
 * (C++ [cpp]; positions as the C preprocessor gives them, checked against gcc's).
 */
import { dim3, group, iota } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('preprocessor');
const N = 32;
const one = { grid: dim3(1), block: dim3(N) };

g.test('object_like_macro', 'C++ [cpp.replace]: an object-like macro sizes an array and bounds a loop').run(() => ({
  from: 'reference',
  source: cu`
#define BLOCK 32
#define HALF (BLOCK / 2)

__global__ void halves(const int* in, int* out)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = t < HALF ? s[t + HALF] : s[t - HALF];
}
`,
  kernel: 'halves',
  launch: one,
  args: { in: Int32Array.from(iota(N), (t) => t * 10), out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => ((t + 16) % 32) * 10) },
  info: { staticSharedBytes: 128 },
}));

g.test('function_like_macro', 'C++ [cpp.replace]: arguments replace parameters textually, so an unparenthesised body changes the meaning').run(() => ({
  from: 'reference',
  source: cu`
#define SQR(x) ((x) * (x))
#define BAD_SQR(x) x * x
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define IDX(row, col, width) ((row) * (width) + (col))

__global__ void macros(int* out)
{
    int t = threadIdx.x;
    int* r = out + 4 * t;
    r[0] = SQR(t + 1);
    r[1] = BAD_SQR(t + 1);
    r[2] = MAX(t, 10 - t);
    r[3] = IDX(t / 4, t % 4, 4);
}
`,
  kernel: 'macros',
  launch: one,
  args: { out: new Int32Array(4 * N) },
  expect: { out: iota(N).flatMap((t) => [(t + 1) * (t + 1), t + t + 1, Math.max(t, 10 - t), t]) },
}));

g.test('stringify_and_paste', 'C++ [cpp.stringize], [cpp.concat]: # makes a string literal, ## joins tokens').run(() => ({
  from: 'literal',
  source: cu`
#include <cstdio>

#define NAME(x) #x
#define FIELD(n) value##n
#define SHOW(var) printf(#var " = %d\n", var)

__global__ void tokens()
{
    int FIELD(1) = 11;
    int FIELD(2) = 22;
    SHOW(value1);
    SHOW(value2 + value1);
    printf("%s\n", NAME(hello   warp));
}
`,
  kernel: 'tokens',
  launch: { grid: dim3(1), block: dim3(1) },
  args: {},
  expect: {},
  printed: ['value1 = 11', 'value2 + value1 = 33', 'hello warp'],
}));

g.test('conditional_arithmetic_and_defined', 'C++ [cpp.cond]: #if evaluates integer arithmetic; defined(X); unknown names are 0').run(() => ({
  from: 'literal',
  source: cu`
#define N 256
#define USE_FAST

__global__ void branches(int* out)
{
#if (1 << 4) == 16 && N % 32 == 0
    out[0] = 1;
#else
    out[0] = -1;
#endif
#if defined(USE_FAST) && !defined(USE_SLOW)
    out[1] = 2;
#endif
#ifdef USE_SLOW
    out[2] = -1;
#elif N > 128
    out[2] = 3;
#else
    out[2] = -2;
#endif
#if UNDEFINED_NAME
    out[3] = -1;
#else
    out[3] = 4;
#endif
#ifndef USE_FAST
    out[4] = -1;
#else
    out[4] = 5;
#endif
#if N / 3 == 85 && -1 < 0 && (N - 1) % 100 == 55
    out[5] = 6;
#endif
}
`,
  kernel: 'branches',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(6) },
  expect: { out: [1, 2, 3, 4, 5, 6] },
}));

g.test('undef_and_redefine', 'C++ [cpp.scope]: #undef ends a definition').run(() => ({
  from: 'literal',
  source: cu`
#define SCALE 2
__device__ int first(int x) { return x * SCALE; }
#undef SCALE
#ifdef SCALE
#error SCALE should be gone
#endif
#define SCALE 5
__device__ int second(int x) { return x * SCALE; }

__global__ void scales(int* out)
{
    out[threadIdx.x] = first(threadIdx.x) * 100 + second(threadIdx.x);
}
`,
  kernel: 'scales',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => t * 200 + t * 5) },
}));

g.test('skipped_group_is_not_compiled', 'C++ [cpp.cond]: tokens in a skipped group are not compiled').run(() => ({
  from: 'literal',
  source: cu`
__global__ void skip(int* out)
{
#if 0
    this is not C++ at all {{{
    #error not reached
#endif
    out[0] = 42;
}
`,
  kernel: 'skip',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(1) },
  expect: { out: [42] },
}));

const HEADER = cu`
#ifndef COMMON_CUH
#define COMMON_CUH

#define THREADS 32

__device__ inline int clampIndex(int i, int n)
{
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

#endif
`;

g.test('local_header_from_files', 'C++ [cpp.include]: #include "x.cuh" reads the learner\'s file; its guard makes a second include empty').run(() => ({
  from: 'reference',
  source: cu`
#include <cuda_runtime.h>
#include <cstdio>
#include <stdio.h>
#include <math.h>
#include "common.cuh"
#include "common.cuh"

__global__ void shifted(const int* in, int* out, int n)
{
    int t = threadIdx.x;
    out[t] = in[clampIndex(t - 3, n)];
}
`,
  files: { 'common.cuh': HEADER },
  kernel: 'shifted',
  launch: one,
  args: { in: Int32Array.from(iota(N), (t) => t * 2), out: new Int32Array(N), n: N },
  expect: { out: iota(N).map((t) => Math.max(0, t - 3) * 2) },
}));

g.test('pragma_once_and_nested_include', 'C++ [cpp.include]: a header includes another; #pragma once').run(() => ({
  from: 'reference',
  source: cu`
#include "ops.cuh"
#include "ops.cuh"

__global__ void useOps(int* out)
{
    out[threadIdx.x] = triple(threadIdx.x) + BASE;
}
`,
  files: {
    'ops.cuh': '#pragma once\n#include "base.h"\n__device__ int triple(int x) { return 3 * x; }\n',
    'base.h': '#pragma once\n#define BASE 1000\n',
  },
  kernel: 'useOps',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => 3 * t + 1000) },
}));

g.test('pragma_unroll', 'CUDA Programming Guide, #pragma unroll: a hint that never changes results').run(() => ({
  from: 'reference',
  source: cu`
__global__ void unrolled(const int* in, int* out)
{
    int t = threadIdx.x;
    int s = 0;
    #pragma unroll
    for (int k = 0; k < 4; ++k) s += in[(t + k) % 32];
    #pragma unroll 2
    for (int k = 0; k < 5; ++k) s += k;
#pragma unroll 1
    for (int k = 0; k < t % 3; ++k) s *= 2;
    out[t] = s;
}
`,
  kernel: 'unrolled',
  launch: one,
  args: { in: Int32Array.from(iota(N), (t) => t), out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (iota(4).reduce((s, k) => s + ((t + k) % 32), 0) + 10) * 2 ** (t % 3)) },
}));

g.test('predefined_macros', 'C++ [cpp.predefined]: __LINE__; nvcc defines __CUDACC__, and __CUDA_ARCH__ while compiling device code').run(() => ({
  from: 'literal',
  source: cu`
__global__ void predefined(int* out)
{
    out[0] = __LINE__;
#ifdef __CUDACC__
    out[1] = 1;
#endif
#if defined(__CUDA_ARCH__)
    out[2] = 1;
#else
    out[2] = -1;
#endif
}
`,
  kernel: 'predefined',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(3) },
  expect: { out: [3, 1, 1] },
}));

g.test('self_reference_and_variadic', 'C++ [cpp.rescan]: a macro is not re-expanded inside itself; [cpp.replace] __VA_ARGS__').run(() => ({
  from: 'literal',
  source: cu`
#include <cstdio>

#define LOG(fmt, ...) printf("[k] " fmt "\n", __VA_ARGS__)

__global__ void selfRef(int* out)
{
    int count = 5;
#define count (count + 1)
    out[0] = count;
#undef count
    LOG("%d and %d", out[0], count);
}
`,
  kernel: 'selfRef',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(1) },
  expect: { out: [6] },
  printed: ['[k] 6 and 5'],
}));

g.test('line_continuation_and_comments', 'C++ [lex.phases]: backslash-newline joins lines; comments are whitespace').run(() => ({
  from: 'reference',
  source: cu`
#define ADD3(a, b, c) \
    ((a) + \
     (b) + (c))

/* a comment
   over lines */
__global__ void continued(int* out /* the output */)
{
    int t = threadIdx.x; // the thread
    out[t] = ADD3(t, /* inline */ 2 * t, 3);
}
`,
  kernel: 'continued',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => 3 * t + 3) },
}));

// ---- errors

const ERROR_DIRECTIVE = cu`
#define BLOCK 48
#if BLOCK % 32 != 0
#error BLOCK must be a multiple of the warp size
#endif
__global__ void k(int* out) { out[0] = BLOCK; }
`;
g.test('error_directive', 'C++ [cpp.error]: #error stops compilation with its message (gcc: at the directive name, column 2)').error(() => ({
  source: ERROR_DIRECTIVE,
  error: { line: 3, column: 2, includes: ['BLOCK must be a multiple of the warp size'] },
}));

const MISSING_HEADER = cu`
#include "helpers.cuh"
__global__ void k(int* out) { out[0] = 1; }
`;
g.test('missing_local_header', 'C++ [cpp.include]: a header that is not among the files (gcc: at the header name)').error(() => ({
  source: MISSING_HEADER,
  error: { ...at(MISSING_HEADER, '"helpers.cuh"'), includes: ['helpers.cuh'] },
}));

const UNTERMINATED = cu`
#ifdef DEBUG
__global__ void k(int* out) { out[0] = 1; }
`;
g.test('unterminated_conditional', 'C++ [cpp.cond]: every #ifdef needs its #endif (gcc: "unterminated #ifdef" at its line)').error(() => ({
  source: UNTERMINATED,
  error: { line: 1, includes: ['#ifdef'] },
}));

const BAD_ARGS = cu`
#define SQR(x) ((x) * (x))
__global__ void k(int* out)
{
    out[0] = SQR(1, 2);
}
`;
g.test('macro_argument_count', 'C++ [cpp.replace]: a function-like macro takes as many arguments as it has parameters').error(() => ({
  source: BAD_ARGS,
  error: { line: 4, includes: ['SQR'] },
}));

const IN_HEADER = cu`
#include "bad.cuh"
__global__ void k(int* out) { out[0] = twice(1); }
`;
g.test('error_inside_header', 'Issue §1: diagnostics in a header name the header and its own line and column').error(() => ({
  source: IN_HEADER,
  files: { 'bad.cuh': '// helpers\n__device__ int twice(int x)\n{\n    return x * factor;\n}\n' },
  error: { file: 'bad.cuh', line: 4, column: 16, includes: ['factor'] },
}));

const AFTER_CONTINUATION = cu`
#define LONG_MACRO(a) \
    ((a) * 2 + \
     1)
/* one
   two */
__global__ void k(int* out)
{
    out[0] = LONG_MACRO(3) + missing;
}
`;
g.test('position_after_continuations_and_comments', 'C++ [lex.phases]: spliced and commented lines still count').error(() => ({
  source: AFTER_CONTINUATION,
  error: { ...at(AFTER_CONTINUATION, 'missing'), includes: ['missing'] },
}));

const ELIF_AFTER_ELSE = cu`
#if 1
#else
#elif 2
#endif
__global__ void k(int* out) { out[0] = 1; }
`;
g.test('elif_after_else', 'C++ [cpp.cond]: #elif cannot follow #else (gcc: at the #elif, column 2)').error(() => ({
  source: ELIF_AFTER_ELSE,
  error: { line: 3, column: 2, includes: ['#elif'] },
}));
