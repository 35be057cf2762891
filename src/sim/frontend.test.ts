import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../wgsl/checker.ts';
import { simulate } from './simulate.ts';
import { run } from './testkit.ts';

const one = (code: string, overrides?: Record<string, number>) =>
  simulate(
    { code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(4) } }, ...(overrides ? { overrides } : {}), file: 'k.wgsl' },
    { trace: 'summary' },
  );

describe('the simulator rejects what the browser rejects, with line and column', () => {
  it.each([
    ['a constant shift by 32 or more', 'let x = 1u << 33u;\nout[0] = x;', 9, 9],
    ['let x: u32 = -1', 'let x: u32 = -1;\nout[0] = x;', 9, 14],
    ['a reserved word as a name', 'let class = 1u;\nout[0] = class;', 9, 5],
  ])('%s', (_, body, line, column) => {
    const r = run(`\n${body}`);
    expect(r.incomplete).toBe(true);
    const d = r.diagnostics[0]!;
    expect([d.kind, d.line, d.column]).toEqual(['unsupported', line, column]);
    expect(d.message).toMatch(/browser rejects/);
  });

  it('workgroupBarrier under a data-dependent if is barrier divergence, found before running', () => {
    const r = run(`if (inp[lid] > 0u) {\n  workgroupBarrier();\n}`, { threads: 64 });
    expect(r.diagnostics.map((d) => [d.kind, d.line])).toEqual([['barrier-divergence', 9]]);
    expect(r.metrics.barriers).toBe(0);
  });

  it('subgroupAdd in non-uniform control flow is rejected unless a diagnostic directive allows it', () => {
    const body = `if (lid > 3u) {\n  out[lid] = subgroupAdd(lid);\n}`;
    expect(run(body, { threads: 32 }).diagnostics.map((d) => [d.kind, d.line, d.column])).toEqual([['unsupported', 9, 14]]);
    const allowed = run(body, { threads: 32, decls: 'diagnostic(off, subgroup_uniformity);' });
    expect(allowed.diagnostics).toEqual([]);
    expect(allowed.out[4]).toBe([...Array(28).keys()].reduce((s, k) => s + k + 4, 0));
  });

  it('an empty @workgroup_size() and a workgroup of 100 000 are rejected before any memory is allocated', () => {
    const k = (ws: string) => `@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(${ws}) fn main() {\n  out[0] = 1u;\n}\n`;
    expect(one(k('')).diagnostics.map((d) => [d.line, d.column])).toEqual([[2, 11]]);
    const big = one(k('100000'));
    expect(big.diagnostics.map((d) => [d.line, d.column])).toEqual([[2, 26]]);
    expect(big.diagnostics[0]!.message).toMatch(/^k\.wgsl:2:26: workgroup size x = 100000 exceeds/);
  });

  it('checks against the limits passed in: 512 invocations run by default, not on WebGPU default limits', () => {
    const k = `@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(512) fn main() {\n  out[0] = 1u;\n}\n`;
    const base = { code: k, entryPoint: 'main', workgroups: [1] as [number], bindings: { 0: { 0: new Uint32Array(4) } } };
    expect(simulate(base, { trace: 'summary' }).diagnostics).toEqual([]);
    const strict = simulate(base, { trace: 'summary', limits: DEFAULT_LIMITS });
    expect(strict.diagnostics.map((d) => [d.line, d.column])).toEqual([[2, 26]]);
    expect(strict.diagnostics[0]!.message).toMatch(/maxComputeWorkgroupSizeX \(256\)/);
  });

  it('a 1 GB workgroup array is rejected at its declaration instead of allocated', () => {
    const code = `var<workgroup> huge: array<u32, 268435456>;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(1) fn main() {\n  huge[0] = 1u;\n  out[0] = huge[0];\n}\n`;
    const r = one(code);
    expect(r.diagnostics.map((d) => [d.line, d.column])).toEqual([[1, 1]]);
    expect(r.diagnostics[0]!.message).toMatch(/maxComputeWorkgroupStorageSize/);
  });

  it('an override without default or value is reported at its declaration', () => {
    const code = `override N: u32;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(1) fn main() {\n  out[0] = N;\n}\n`;
    expect(one(code).diagnostics.map((d) => [d.line, d.column])).toEqual([[1, 1]]);
    const given = one(code, { N: 7 });
    expect(given.diagnostics).toEqual([]);
    expect(given.buffers[0]![0]![0]).toBe(7);
  });

  it('runs the valid identifier ñandú', () => {
    const r = run('let ñandú = lid * 2u;\nout[lid] = ñandú;', { threads: 4 });
    expect(r.diagnostics).toEqual([]);
    expect(r.out.slice(0, 4)).toEqual([0, 2, 4, 6]);
  });
});
