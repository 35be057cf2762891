/**
 * WGSL §13.4 memory layout: struct members with @size/@align in storage and workgroup memory, and
 * builtins passed in entry-point structs, simulator vs Dawn (every word of the buffers compared).
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../../kernel/types.ts';
import { simulate } from '../../simulate.ts';
import { nodeGpu } from '../harness.ts';

const LAYOUT = `enable subgroups;
struct Inner { a: u32, @align(16) b: vec2<u32>, @size(12) c: u32 }
struct Rec {
  x: u32,
  @align(32) y: u32,
  @size(20) z: vec3<u32>,
  inner: Inner,
  @align(8) @size(16) w: i32,
  tail: array<u32, 3>,
}
@group(0) @binding(0) var<storage, read_write> recs: array<Rec>;
@group(0) @binding(1) var<storage, read_write> sizes: array<u32>;
var<workgroup> shared_recs: array<Rec, 4>;

struct Ids {
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
}

@compute @workgroup_size(4)
fn main(ids: Ids, @builtin(subgroup_size) ssz: u32) {
  let k = ids.gid.x;
  var r: Rec;
  r.x = k + 1u;
  r.y = k * 10u;
  r.z = vec3<u32>(k, k + 100u, k + 200u);
  r.inner = Inner(k ^ 7u, vec2<u32>(k << 2u, k << 3u), 0xabc0u + k);
  r.w = -i32(k) - 1;
  r.tail = array<u32, 3>(ids.lid, ids.wid.x, ids.nwg.x);
  shared_recs[ids.lid] = r;
  workgroupBarrier();
  recs[k] = shared_recs[(ids.lid + 1u) % 4u];
  if (k == 0u) {
    sizes[0] = arrayLength(&recs);
    sizes[1] = select(0u, 1u, ssz > 0u);
  }
}`;

describe('memory layout: simulator vs GPU', () => {
  it('@size/@align members, nested structs and entry-point structs agree word for word', async () => {
    // Rec: x@0, y@32, z@48 (size 20), inner@80 (align 16: a@80, b@96, c@104 size 12 → 116 → 128), w@128 (size 16),
    // tail@144 (12) → 156 → struct size 160 bytes = 40 words.
    const words = 40;
    const run: KernelRun = {
      code: LAYOUT,
      entryPoint: 'main',
      workgroups: [2],
      bindings: { 0: { 0: new Uint32Array(8 * words).fill(0xdeadbeef), 1: new Uint32Array(2) } },
    };
    const sim = simulate(run, { trace: 'summary' });
    expect(sim.diagnostics).toEqual([]);
    expect(sim.buffers[0]![1]![0]).toBe(8);
    const out = await (await nodeGpu()).run(run);
    expect(Array.from(sim.buffers[0]![0]!)).toEqual(Array.from(out[0]![0]!));
    expect(Array.from(sim.buffers[0]![1]!)).toEqual(Array.from(out[0]![1]!));
  });
});
