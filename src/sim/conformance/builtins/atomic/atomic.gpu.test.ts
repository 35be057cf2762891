/**
 * WGSL §17.8 atomic builtins, simulator vs Dawn: the final memory after many invocations update a
 * few words (storage and workgroup memory), which does not depend on the order they ran in. The
 * values atomics return depend on that order, so only memory is compared.
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../../../kernel/types.ts';
import { simulate } from '../../../simulate.ts';
import { nodeGpu } from '../../harness.ts';

const OPS = ['atomicAdd', 'atomicSub', 'atomicMax', 'atomicMin', 'atomicAnd', 'atomicOr', 'atomicXor'];

function kernel(op: string, t: 'u32' | 'i32'): string {
  const v = t === 'u32' ? 'v' : 'bitcast<i32>(v)';
  return `
@group(0) @binding(0) var<storage, read_write> g: array<atomic<${t}>, 8>;
var<workgroup> s: array<atomic<${t}>, 8>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let v = (gid.x * 2654435761u) ^ (gid.x << 7u);
  ${op}(&g[gid.x % 8u], ${v});
  ${op}(&s[lid % 8u], ${v});
  workgroupBarrier();
  if (lid < 8u) { ${op}(&g[lid], atomicLoad(&s[lid])); }
}
`;
}

describe('atomic builtins: simulator vs GPU', () => {
  const cases = OPS.flatMap((op) => (['u32', 'i32'] as const).map((t) => [`${op} ${t}`, op, t] as [string, string, 'u32' | 'i32']));
  it.each(cases)('%s', async (_n, op, t) => {
    const init = t === 'u32' ? Uint32Array.from({ length: 8 }, (_, i) => (i * 0x9e3779b9) >>> 0) : Int32Array.from({ length: 8 }, (_, i) => (i * 0x9e3779b9) | 0);
    const run: KernelRun = {
      code: kernel(op, t),
      entryPoint: 'main',
      workgroups: [4],
      bindings: { 0: { 0: init } },
    };
    const sim = simulate(run, { trace: 'summary' });
    expect(sim.diagnostics).toEqual([]);
    const out = await (await nodeGpu()).run(run);
    expect(Array.from(sim.buffers[0]![0]!)).toEqual(Array.from(out[0]![0]!));
  });

  it('atomicCompareExchangeWeak: a spin-free counter reaches the same total', async () => {
    const code = `
@group(0) @binding(0) var<storage, read_write> g: array<atomic<u32>, 2>;
@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var done = false;
  for (var k = 0u; k < 64u && !done; k++) {
    let cur = atomicLoad(&g[0]);
    let r = atomicCompareExchangeWeak(&g[0], cur, cur + gid.x + 1u);
    done = r.exchanged;
  }
  if (!done) { atomicAdd(&g[1], 1u); }
}`;
    const run: KernelRun = { code, entryPoint: 'main', workgroups: [2], bindings: { 0: { 0: new Uint32Array(2) } } };
    const sim = simulate(run, { trace: 'summary' });
    expect(sim.diagnostics).toEqual([]);
    const out = await (await nodeGpu()).run(run);
    expect(Array.from(sim.buffers[0]![0]!)).toEqual(Array.from(out[0]![0]!));
    expect(sim.buffers[0]![0]![0]).toBe((64 * 65) / 2);
  });
});

describe('atomics never race with each other (WGSL §6.2.8, §17.8)', () => {
  it('atomicLoad beside atomicAdd and atomicExchange in one barrier interval is no race', () => {
    const code = `
var<workgroup> c: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  atomicAdd(&c, 1u);
  let e = atomicExchange(&c, atomicLoad(&c));
  atomicStore(&c, atomicLoad(&c) + 0u * e);
  out[i] = atomicLoad(&c);
}`;
    const sim = simulate({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(64) } } }, { trace: 'summary' });
    expect(sim.diagnostics).toEqual([]);
    expect(sim.buffers[0]![0]![63]).toBe(64);
  });
});
