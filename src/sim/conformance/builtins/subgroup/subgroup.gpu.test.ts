/**
 * WGSL §17.12 subgroup and §17.13 quad builtins, simulator vs Dawn, bit for bit: one dispatch per
 * builtin, the simulator's warp size set to the adapter's (fixed) subgroup size. Sums and products
 * run on integers or on f32 values that are small integers, so the combining order (which the GPU
 * does not promise) cannot change them. Uniform control flow, plus divergent cases under
 * `diagnostic(off, subgroup_uniformity)`.
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../../../kernel/types.ts';
import { simulate } from '../../../simulate.ts';
import { fixedSubgroupSize, nodeGpu } from '../../harness.ts';

const N = 256;
const INPUT = Uint32Array.from({ length: N }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 0) % 97);

function kernel(expr: string, divergent: boolean): string {
  const body = divergent ? `if (x % 3u != 0u) { out[i] = ${expr}; } else { out[i] = 7777u; }` : `out[i] = ${expr};`;
  return `enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(subgroup_invocation_id) sid: u32,
        @builtin(subgroup_size) ssz: u32) {
  let i = gid.x;
  let x = inp[i];
  let xi = i32(x) - 48;
  let xf = f32(x % 8u) - 3.0;
  ${body}
}
`;
}

const OPS: [string, string][] = [
  ['subgroupAdd u32', 'subgroupAdd(x)'],
  ['subgroupAdd i32', 'bitcast<u32>(subgroupAdd(xi))'],
  ['subgroupAdd f32', 'bitcast<u32>(subgroupAdd(xf))'],
  ['subgroupMul i32', 'bitcast<u32>(subgroupMul(xi % 3 + 2))'],
  ['subgroupMul f32', 'bitcast<u32>(subgroupMul(f32(x % 2u) + 1.0))'],
  ['subgroupMin i32', 'bitcast<u32>(subgroupMin(xi))'],
  ['subgroupMax u32', 'subgroupMax(x)'],
  ['subgroupMin f32', 'bitcast<u32>(subgroupMin(xf))'],
  ['subgroupAnd', 'subgroupAnd(x | 0xf0u)'],
  ['subgroupOr', 'subgroupOr(1u << (x % 32u))'],
  ['subgroupXor', 'subgroupXor(x)'],
  ['subgroupExclusiveAdd', 'subgroupExclusiveAdd(x)'],
  ['subgroupInclusiveAdd', 'subgroupInclusiveAdd(x)'],
  ['subgroupExclusiveMul', 'bitcast<u32>(subgroupExclusiveMul(xi % 3 + 2))'],
  ['subgroupInclusiveMul', 'subgroupInclusiveMul(x % 3u + 1u)'],
  ['subgroupInclusiveAdd f32', 'bitcast<u32>(subgroupInclusiveAdd(xf))'],
  ['subgroupBallot', 'subgroupBallot(x % 3u == 1u).x'],
  ['subgroupElect', 'select(0u, 1u, subgroupElect())'],
  ['subgroupAll', 'select(0u, 1u, subgroupAll(x < 90u))'],
  ['subgroupAny', 'select(0u, 1u, subgroupAny(x == 5u))'],
  ['subgroupBroadcast', 'subgroupBroadcast(x, 1u)'],
  ['subgroupBroadcastFirst', 'subgroupBroadcastFirst(x)'],
  ['subgroupShuffle', 'subgroupShuffle(x, (sid + 1u) % ssz)'],
  ['subgroupShuffleXor', 'subgroupShuffleXor(x, 1u)'],
  ['subgroupShuffleUp', 'select(0u, subgroupShuffleUp(x, 1u), sid >= 1u)'],
  ['subgroupShuffleDown', 'select(0u, subgroupShuffleDown(x, 1u), sid + 1u < ssz)'],
  ['subgroup vec', 'dot(subgroupAdd(vec2u(x, 2u * x)), vec2u(1u, 3u))'],
  ['quadBroadcast', 'quadBroadcast(x, 2u)'],
  ['quadSwapX', 'quadSwapX(x)'],
  ['quadSwapY', 'quadSwapY(x)'],
  ['quadSwapDiagonal', 'quadSwapDiagonal(x)'],
];
// In divergent flow, only operations whose result does not read inactive lanes.
const DIVERGENT = new Set(['subgroupAdd u32', 'subgroupMax u32', 'subgroupInclusiveAdd', 'subgroupExclusiveAdd', 'subgroupBallot', 'subgroupElect', 'subgroupBroadcastFirst', 'subgroupAll', 'subgroupAny']);

describe('subgroup builtins: simulator vs GPU', () => {
  const cases = [
    ...OPS.map(([n, e]) => [n, e, false] as [string, string, boolean]),
    ...OPS.filter(([n]) => DIVERGENT.has(n)).map(([n, e]) => [`${n} (divergent)`, e, true] as [string, string, boolean]),
  ];
  it.each(cases)('%s', async (_n, expr, divergent) => {
    const gpu = await nodeGpu();
    const warpSize = fixedSubgroupSize(gpu);
    const run: KernelRun = {
      code: kernel(expr, divergent),
      entryPoint: 'main',
      workgroups: [N / 64],
      bindings: { 0: { 0: INPUT, 1: new Uint32Array(N) } },
    };
    const sim = simulate(run, { warpSize, trace: 'summary' });
    expect(sim.diagnostics).toEqual([]);
    const out = await gpu.run(run);
    expect(Array.from(sim.buffers[0]![1]!)).toEqual(Array.from(out[0]![1]!));
  });
});
