import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulate } from './index.ts';
import { run } from './testkit.ts';

const INTERLEAVED = readFileSync('src/sim/testdata/reduce-interleaved.wgsl', 'utf8');
const NEIGHBORED = readFileSync('src/sim/testdata/reduce-neighbored.wgsl', 'utf8');

function reduceRun(code: string, workgroups: number) {
  const n = workgroups * 256;
  return {
    code,
    entryPoint: 'main',
    workgroups: [workgroups] as [number],
    bindings: { 0: { 0: new Uint32Array(n).fill(1), 1: new Uint32Array(workgroups), 2: Uint32Array.of(n) } },
  };
}

describe('divergent branches: 256 threads, warpSize 32', () => {
  it('interleaved (lid < s): only warp 0 diverges, for s = 16, 8, 4, 2, 1, plus `lid == 0`', () => {
    // s = 128, 64, 32: whole warps on one side (0 divergent); s < 32: warp 0 splits (5);
    // the final `if (lid == 0u)` splits warp 0 once more → 6 per workgroup.
    const r = simulate(reduceRun(INTERLEAVED, 3), { trace: 'summary' });
    expect(r.diagnostics).toEqual([]);
    expect(Array.from(r.buffers[0]![1]!)).toEqual([256, 256, 256]);
    expect(r.metrics.divergentBranches).toBe(6 * 3);
    expect(r.metrics.barriers).toBe(9 * 3);
  });

  it('neighbored (lid % (2*s) == 0): every warp diverges while 2*s <= 32', () => {
    // s = 1..16: 8 warps × 5 = 40; s = 32: warps 0,2,4,6 → 4; s = 64: warps 0,4 → 2;
    // s = 128: warp 0 → 1; final `lid == 0` → 1. Total 48 per workgroup.
    const r = simulate(reduceRun(NEIGHBORED, 2), { trace: 'summary' });
    expect(r.diagnostics).toEqual([]);
    expect(Array.from(r.buffers[0]![1]!)).toEqual([256, 256]);
    expect(r.metrics.divergentBranches).toBe(48 * 2);
  });

  it('warp execution efficiency is the mean active fraction', () => {
    const r = run(`if (lid < 8u) { out[lid] = lid; }`, { threads: 32 });
    // Instructions: `lid < 8` (32 lanes), branch (32), store (8) → (32+32+8)/(3*32).
    expect(r.metrics.warpInstructions).toBe(3);
    expect(r.metrics.laneInstructions).toBe(72);
    expect(r.metrics.warpExecutionEfficiency).toBeCloseTo(72 / 96);
  });
});

describe('shared-memory bank conflicts', () => {
  it.each([
    [1, 0],
    [2, 1],
    [4, 3],
    [8, 7],
    [16, 15],
    [32, 31],
    [33, 0],
  ])('s[%i * lid] from 32 lanes: %i extra wavefronts', (stride, conflicts) => {
    // Word stride*lid sits in bank (stride*lid) % 32: stride 2 → lanes 0 and 16 share bank 0 → 2-way.
    const r = run(`s[lid * ${stride}u] = lid;`, { threads: 32, decls: `var<workgroup> s: array<u32, ${33 * 32}>;` });
    expect(r.metrics.sharedRequests).toBe(1);
    expect(r.metrics.sharedBankConflicts).toBe(conflicts);
  });

  it('lanes reading the same word share it (broadcast, no conflict)', () => {
    const r = run(`out[lid] = s[0];`, { threads: 32, decls: `var<workgroup> s: array<u32, 32>;` });
    expect(r.metrics.sharedBankConflicts).toBe(0);
  });

  it('the reduction tree s[2*s*lid] pattern: n-way conflicts per step', () => {
    // Strided neighbored variant: index 2*s*lid for the active lanes → 2-, 4-, 8-, 16-way …
    const r = run(
      `s[lid] = lid; workgroupBarrier();
       for (var st = 1u; st < 32u; st *= 2u) { let i = 2u * st * lid; if (i < 32u) { s[i] += s[i + st]; } workgroupBarrier(); }`,
      { threads: 32, decls: `var<workgroup> s: array<u32, 64>;` },
    );
    expect(r.diagnostics).toEqual([]);
    // st=1: 16 lanes touch words 0,2,…,30 (+1 for the second read) → distinct banks → 0;
    // every step stays inside 32 words so no bank holds two words → 0 conflicts.
    expect(r.metrics.sharedBankConflicts).toBe(0);
    const wide = run(
      `for (var st = 1u; st <= 16u; st *= 2u) { let i = 2u * st * lid; s[i] = lid; }`,
      { threads: 32, decls: `var<workgroup> s: array<u32, 1024>;` },
    );
    // 2*st*lid for st = 1, 2, 4, 8, 16 → strides 2, 4, 8, 16, 32 → 2, 4, 8, 16, 32-way.
    expect(wide.metrics.sharedBankConflicts).toBe(1 + 3 + 7 + 15 + 31);
  });
});

describe('global memory sectors', () => {
  it.each([
    [1, 4],
    [2, 8],
    [4, 16],
    [8, 32],
    [16, 32],
  ])('in[lid * %i] from 32 lanes: %i 32-byte sectors per request', (stride, sectors) => {
    const r = run(`out[lid] = inp[lid * ${stride}u];`, { threads: 32, input: new Uint32Array(32 * 16) });
    expect(r.metrics.globalRequests).toBe(2);
    // The store out[lid] is contiguous: 128 bytes = 4 sectors.
    expect(r.metrics.globalTransactions).toBe(sectors + 4);
  });
});
