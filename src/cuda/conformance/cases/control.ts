/**
 * §2 Control flow: for, while, do, break, continue, switch with fallthrough, early return, block
 * scope; goto is outside the subset (C++ [stmt.iter], [stmt.jump], [stmt.switch], [basic.scope]).
 */
import { dim3, group, iota } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('control');
const N = 64;
const one = { grid: dim3(1), block: dim3(N) };

g.test('while_divergent_trip_count', 'C++ [stmt.while]: each thread loops its own number of times (Collatz steps)').run(() => {
  const steps = (v: number) => {
    let s = 0;
    while (v !== 1) {
      v = v % 2 === 0 ? v / 2 : 3 * v + 1;
      s++;
    }
    return s;
  };
  return {
    from: 'reference',
    source: cu`
__global__ void collatz(const int* in, int* out)
{
    int v = in[threadIdx.x];
    int s = 0;
    while (v != 1) {
        v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
        s++;
    }
    out[threadIdx.x] = s;
}
`,
    kernel: 'collatz',
    launch: one,
    args: { in: Int32Array.from(iota(N), (t) => t + 1), out: new Int32Array(N) },
    expect: { out: iota(N).map((t) => steps(t + 1)) },
  };
});

g.test('do_while_runs_once', 'C++ [stmt.do]: the body runs before the first test').run(() => ({
  from: 'reference',
  source: cu`
__global__ void doOnce(int* out)
{
    int t = threadIdx.x;
    int k = t;
    int runs = 0;
    do {
        runs++;
        k -= 10;
    } while (k > 0);
    out[t] = runs;
}
`,
  kernel: 'doOnce',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => Math.max(1, Math.ceil(t / 10))) },
}));

g.test('break_and_continue', 'C++ [stmt.break], [stmt.cont]: break leaves only the innermost loop; continue skips to the next iteration').run(() => ({
  from: 'reference',
  source: cu`
__global__ void loops(int* out)
{
    int t = threadIdx.x;
    int s = 0;
    for (int i = 0; i < 10; ++i) {
        if (i % 2 == 1) continue;
        for (int j = 0; j < 10; ++j) {
            if (j > t % 7) break;
            s += i * 10 + j;
        }
    }
    out[t] = s;
}
`,
  kernel: 'loops',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: {
    out: iota(N).map((t) => {
      let s = 0;
      for (let i = 0; i < 10; i += 2) for (let j = 0; j <= Math.min(9, t % 7); j++) s += i * 10 + j;
      return s;
    }),
  },
}));

g.test('infinite_loop_with_break', 'C++ [stmt.for]: for (;;) and while (true) end by break').run(() => ({
  from: 'reference',
  source: cu`
__global__ void forever(int* out)
{
    int t = threadIdx.x;
    int a = 0;
    for (;;) {
        if (a * a > t) break;
        a++;
    }
    int b = 1;
    while (true) {
        b *= 2;
        if (b > t) break;
    }
    out[t] = a * 1000 + b;
}
`,
  kernel: 'forever',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: {
    out: iota(N).map((t) => {
      let a = 0;
      while (a * a <= t) a++;
      let b = 2;
      while (b <= t) b *= 2;
      return a * 1000 + b;
    }),
  },
}));

/** The switch below, case by case: 0 falls into 1; 2 and 3 share a body; default falls into 5. */
const SWITCH_REF = (v: number): number => {
  if (v === 0) return 1 + 10;
  if (v === 1) return 10;
  if (v === 2 || v === 3) return 100;
  if (v === 5) return 1000;
  return -1 + 1000;
};

g.test('switch_fallthrough', 'C++ [stmt.switch]: control falls through case labels until break; default may sit anywhere').run(() => ({
  from: 'reference',
  source: cu`
__global__ void switches(int* out)
{
    int v = threadIdx.x % 8;
    int r = 0;
    switch (v) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r = 100;
        break;
    default:
        r = -1;
    case 5:
        r += 1000;
    }
    out[threadIdx.x] = r;
}
`,
  kernel: 'switches',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => SWITCH_REF(t % 8)) },
}));

g.test('switch_without_match', 'C++ [stmt.switch]: with no matching case and no default, nothing runs').run(() => ({
  from: 'reference',
  source: cu`
__global__ void noMatch(const char* codes, int* out)
{
    int r = 7;
    switch (codes[threadIdx.x]) {
    case 'a': r = 1; break;
    case 'b': { int k = 20; r = k + 2; break; }
    }
    out[threadIdx.x] = r;
}
`,
  kernel: 'noMatch',
  launch: { grid: dim3(1), block: dim3(4) },
  args: { codes: Int8Array.from([97, 98, 99, 0]), out: new Int32Array(4) },
  expect: { out: [1, 22, 7, 7] },
}));

g.test('break_and_continue_inside_switch_in_loop', 'C++ [stmt.break]: break in a switch leaves the switch; continue goes to the loop').run(() => ({
  from: 'reference',
  source: cu`
__global__ void switchInLoop(int* out)
{
    int s = 0;
    for (int i = 0; i < 8; ++i) {
        switch ((i + threadIdx.x) % 3) {
        case 0:
            continue;
        case 1:
            s += 1;
            break;
        default:
            s += 10;
        }
        s += 100;
    }
    out[threadIdx.x] = s;
}
`,
  kernel: 'switchInLoop',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: {
    out: iota(N).map((t) => {
      let s = 0;
      for (let i = 0; i < 8; i++) {
        const m = (i + t) % 3;
        if (m === 0) continue;
        s += m === 1 ? 1 : 10;
        s += 100;
      }
      return s;
    }),
  },
}));

g.test('divergent_return', 'C++ [stmt.return]: threads that return early write nothing more').run(() => ({
  from: 'reference',
  source: cu`
__global__ void partial(int* out)
{
    int t = threadIdx.x;
    out[t] = 1;
    if (t % 3 == 0) return;
    out[t] = 2;
    if (t % 3 == 1) return;
    out[t] = 3;
}
`,
  kernel: 'partial',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t % 3) + 1) },
}));

g.test('block_scope_shadowing', 'C++ [basic.scope.block]: an inner declaration hides the outer one until its block ends').run(() => ({
  from: 'literal',
  source: cu`
__global__ void scopes(int* out)
{
    int x = 1;
    {
        int x = 2;
        out[1] = x;
    }
    for (int x = 5; x < 6; ++x) {
        out[2] = x;
    }
    out[0] = x;
}
`,
  kernel: 'scopes',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(3) },
  expect: { out: [1, 2, 5] },
}));

g.test('dangling_else', 'C++ [stmt.if]: else binds to the nearest if').run(() => ({
  from: 'reference',
  source: cu`
__global__ void dangling(int* out)
{
    int t = threadIdx.x;
    int r = 0;
    if (t % 2 == 0)
        if (t % 4 == 0)
            r = 1;
        else
            r = 2;
    out[t] = r;
}
`,
  kernel: 'dangling',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t % 2 === 0 ? (t % 4 === 0 ? 1 : 2) : 0)) },
}));

// ---- errors

const GOTO = cu`
__global__ void k(int* out)
{
    int i = 0;
again:
    out[i] = i;
    i++;
    if (i < 4) goto again;
}
`;
g.test('goto_outside_subset', 'Issue §2: goto is outside the subset (WGSL has only structured control flow); write a loop').error(() => ({
  nvccAccepts: true,
  source: GOTO,
  error: { ...at(GOTO, 'goto'), includes: ['goto'] },
}));

const BREAK_OUTSIDE = cu`
__global__ void k(int* out)
{
    out[0] = 1;
    break;
}
`;
g.test('break_outside_loop', 'C++ [stmt.break]: break only inside a loop or switch').error(() => ({
  source: BREAK_OUTSIDE,
  error: { ...at(BREAK_OUTSIDE, 'break'), includes: ['break'] },
}));

const BAD_STEP_NESTED = cu`
__global__ void k(int* out, int n)
{
    for (int i = 0; i < n; i += 2) {
        for (int j = 1; j < 8; jj *= 2) {
            out[i] += j;
        }
        out[i] += 1;
    }
}
`;
g.test('for_step_undeclared_in_nested_loop', 'C++ [basic.lookup]: a loop step naming an undeclared identifier, inside another loop, is reported there (the statements after it keep their place)').error(() => ({
  source: BAD_STEP_NESTED,
  error: { ...at(BAD_STEP_NESTED, 'jj'), includes: ["undeclared identifier 'jj'"] },
}));

const CONTINUE_OUTSIDE = cu`
__global__ void k(int* out)
{
    switch (out[0]) {
    case 0:
        continue;
    }
}
`;
g.test('continue_outside_loop', 'C++ [stmt.cont]: continue only inside a loop').error(() => ({
  source: CONTINUE_OUTSIDE,
  error: { ...at(CONTINUE_OUTSIDE, 'continue'), includes: ['continue'] },
}));

const DUP_CASE = cu`
__global__ void k(int* out)
{
    switch (threadIdx.x) {
    case 1: out[0] = 1; break;
    case 1: out[0] = 2; break;
    }
}
`;
g.test('duplicate_case', 'C++ [stmt.switch]: no two case constants may be equal').error(() => ({
  source: DUP_CASE,
  error: { ...at(DUP_CASE, 'case 1', 2), includes: ['case'] },
}));

const MISSING_SEMI = cu`
__global__ void k(int* out)
{
    int a = 1
    out[0] = a;
}
`;
g.test('syntax_error_position', 'C++ [stmt.expr]: a missing semicolon is reported right after the expression').error(() => ({
  source: MISSING_SEMI,
  error: { line: 3, column: 14, includes: [';'] },
}));
