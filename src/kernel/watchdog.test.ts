import { describe, expect, it } from 'vitest';
import { WgslError } from '../wgsl/ast.ts';
import { parseWgsl } from '../wgsl/parser.ts';
import { addWatchdog, iterationBudget, loopAround, originalPosition } from '../wgsl/watchdog.ts';
import { describeTrips, trippedLoops } from '../wgsl/watchdogReport.ts';
import { guardKernel } from './watchdog.ts';
import { vectorAddRun } from '../labs/basics/vectorAdd.ts';
import { simulate } from '../sim/simulate.ts';

const EDITED = `struct Params { n: u32, }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  loop { c[i] = c[i] + 1.0; if (params.n == 7u) { break; } }
  for (var k = 0u; k < 4u; k++) {
    while (c[i] < 0.0) { c[i] = c[i] + a[i]; }
  }
}
`;

describe('watchdog source transform', () => {
  it('guards every loop, keeps every line where it was, and still parses', () => {
    const g = addWatchdog(EDITED, { budget: 1 << 20 });
    const w = g.watchdog!;
    expect(w.loops.map((l) => [l.kind, l.line, l.column])).toEqual([
      ['loop', 8, 3],
      ['for', 9, 3],
      ['while', 10, 5],
    ]);
    // The flags go one past the highest binding of the last group in use.
    expect([w.group, w.binding]).toEqual([0, 4]);
    // Two levels of nesting share the budget: 2^20 → 2^10 per loop.
    expect(w.bound).toBe(1024);
    const before = EDITED.split('\n');
    const after = g.code.split('\n');
    for (let i = 0; i < before.length - 1; i++) {
      if (![7, 8, 9].includes(i)) expect(after[i]).toBe(before[i]);
    }
    expect(after[7]).toContain('>= 1024u');
    expect(after[7]).toContain('_flags[0] = 1u; break;');
    expect(g.code).toMatch(/@group\(0\) @binding\(4\) var<storage, read_write> warpscope_watchdog_flags: array<u32, 3>;/);
    expect(() => parseWgsl(g.code)).not.toThrow();
  });

  it('maps columns in guarded code back to the original', () => {
    const g = addWatchdog(EDITED);
    const guardedLine = g.code.split('\n')[7]!;
    const originalLine = EDITED.split('\n')[7]!;
    // `params.n` after the insertions maps to where it is in the original line.
    const col = guardedLine.indexOf('params.n') + 1;
    expect(originalPosition(g, 8, col)).toEqual({ line: 8, column: originalLine.indexOf('params.n') + 1 });
    // Inside inserted text: the insertion point.
    expect(originalPosition(g, 8, guardedLine.indexOf('warpscope_watchdog_n0') + 1)).toEqual({ line: 8, column: 3 });
    // Untouched lines keep their columns; the appended binding maps into the original.
    expect(originalPosition(g, 7, 5)).toEqual({ line: 7, column: 5 });
    expect(originalPosition(g, 20, 1).line).toBeLessThanOrEqual(EDITED.split('\n').length);
  });

  it('picks names the kernel does not use', () => {
    const code = EDITED.replace('let i = gid.x;', 'let i = gid.x; let warpscope_watchdog_flags = 1u;');
    const g = addWatchdog(code);
    expect(g.code).toContain('warpscope_watchdog2_flags');
  });

  it('leaves loop-free code alone and reports unreadable code with its line and column', () => {
    const plain = '@compute @workgroup_size(1) fn main() { let x = 1u; }';
    expect(addWatchdog(plain)).toMatchObject({ code: plain, watchdog: undefined });
    let err: unknown;
    try {
      addWatchdog('@compute @workgroup_size(1)\nfn main() {\n  loop { let x = ; }\n}\n');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(WgslError);
    expect((err as WgslError).pos).toMatchObject({ line: 3, col: 18 });
  });

  it('adds a zeroed flag buffer to the bindings of a guarded run, leaving the original untouched', () => {
    const n = 8;
    const run = vectorAddRun({ a: new Float32Array(n), b: new Float32Array(n) });
    const { run: guarded, guarded: g } = guardKernel(run);
    expect(g.watchdog!.file).toBe('shaders/basics/vector-add.wgsl');
    expect(guarded.bindings[0]![4]).toEqual(new Uint32Array(1));
    expect(run.bindings[0]![4]).toBeUndefined();
    expect(trippedLoops(g.watchdog!, new Uint32Array([0]))).toEqual([]);
    const trips = trippedLoops(g.watchdog!, new Uint32Array([1]));
    expect(describeTrips(g.watchdog!, trips)).toBe(
      `The for loop at line 20, column 3 of shaders/basics/vector-add.wgsl ran past ${g.watchdog!.bound.toLocaleString('en')} iterations and was stopped by the watchdog.`,
    );
  });

  it('finds the innermost loop around a line', () => {
    expect(loopAround(EDITED, 8)).toEqual({ kind: 'loop', line: 8, column: 3 });
    expect(loopAround(EDITED, 10)).toEqual({ kind: 'while', line: 10, column: 5 });
    expect(loopAround(EDITED, 9)).toEqual({ kind: 'for', line: 9, column: 3 });
    expect(loopAround(EDITED, 7)).toBeUndefined();
  });

  it('never cuts a loop below 1 024 iterations by sharing the budget over a deep nest (only a smaller budget does)', () => {
    const nest = `@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  for (var a = 0u; a < 7u; a++) { for (var b = 0u; b < 64u; b++) { for (var c = 0u; c < 64u; c++) { o[lid] += c; } } }
}
`;
    // 2^15 per invocation, three deep: the cube root (32) would stop loops of 64 in a correct kernel.
    expect(addWatchdog(nest, { budget: 2 ** 15 }).watchdog!.bound).toBe(1024);
    expect(addWatchdog(nest, { budget: 100 }).watchdog!.bound).toBe(100);
    expect(addWatchdog(nest, { budget: 2 ** 33 }).watchdog!.bound).toBe(2048);
  });

  it('scales the per-invocation budget with the dispatch', () => {
    expect(iterationBudget(1)).toBe(2 ** 20);
    expect(iterationBudget(2 ** 20)).toBe(256);
    expect(iterationBudget(2 ** 30)).toBe(64);
  });
});

describe('the simulator\'s step budget refuses a loop that never ends, with its place', () => {
  it.each([
    ['an empty loop whose only exit is never taken', '  loop { if (i > 1000000u) { break; } }', 'loop'],
    ['the home page example', '  loop { c[i] = c[i] + 1.0; if (params.n == 7u) { break; } }', 'loop'],
    ['a while that never changes its condition', '  var k = 0u;\n  while (k < 10u) { c[i] = 2.0; }', 'while'],
  ])('%s', (_name, body, kind) => {
    const base = vectorAddRun({ a: new Float32Array(64), b: new Float32Array(64) });
    const code = base.code.replace('  let stride = nwg.x * WORKGROUP_SIZE;', `  let stride = nwg.x * WORKGROUP_SIZE;\n  let i = gid.x;\n${body}`);
    const loopLine = code.split('\n').findIndex((l) => /^\s*(loop|while)\b/.test(l)) + 1;
    const r = simulate({ ...base, code }, { trace: 'summary', maxSteps: 50_000 });
    expect(r.incomplete).toBe(true);
    const stop = r.diagnostics.find((d) => d.kind === 'step-limit')!;
    expect(stop.line).toBe(loopLine);
    expect(loopAround(code, stop.line)).toEqual({ kind, line: loopLine, column: 3 });
  });
});

describe('a loop with no exit at all', () => {
  it('loop {} is refused before it runs, at the loop\'s line and column, as the browser refuses it', () => {
    const base = vectorAddRun({ a: new Float32Array(64), b: new Float32Array(64) });
    const code = base.code.replace('  let stride = nwg.x * WORKGROUP_SIZE;', '  let stride = nwg.x * WORKGROUP_SIZE;\n  loop {}');
    const loopLine = code.split('\n').findIndex((l) => /^\s*loop\b/.test(l)) + 1;
    const r = simulate({ ...base, code }, { trace: 'summary', maxSteps: 50_000 });
    expect(r.metrics.warpInstructions).toBe(0);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ kind: 'unsupported', line: loopLine, column: 3 });
    expect(r.diagnostics[0]!.message).toMatch(/loop does not exit/);
    expect(loopAround(code, loopLine)).toEqual({ kind: 'loop', line: loopLine, column: 3 });
  });
});
