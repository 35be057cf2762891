import { describe, expect, it } from 'vitest';
import { compile } from './program.ts';
import { instantiate } from './instance.ts';
import { WriteProvenance } from './observers.ts';
import { traceStep } from './trace.ts';
import type { Bindings } from '../kernel/types.ts';

/** Compiles and runs `code` with a WriteProvenance observer; returns it with the run and memory ids by name. */
function withProvenance(code: string, bindings: Bindings, workgroups: [number], trace: 'full' | 'summary' = 'summary', shaderF16 = false) {
  const c = compile(code, 'main', {}, { shaderF16 });
  if (!c.ok) throw new Error(c.diagnostics.map((d) => d.message).join('\n'));
  const prov = new WriteProvenance();
  const inst = instantiate(c.program, bindings, [prov]);
  if (!inst.ok) throw new Error('instantiate failed');
  const result = inst.instance.run(workgroups, { trace });
  const id = (name: string) => c.program.mems.find((m) => m.name === name)!.id;
  return { prov, result, id };
}

describe('WriteProvenance: the last writer of every memory word', () => {
  const SCATTER = `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  let k = g.x * 8u + i;
  out[(k * 3u) % 16u] = inp[k];
  if (i % 4u == 0u) {
    out[k / 4u] = 7u;
  }
}`;

  it('names the invocation, workgroup and line of the last write; words never written have none', () => {
    const { prov, result, id } = withProvenance(SCATTER, { 0: { 0: new Uint32Array(20), 1: new Uint32Array(16) } }, [2]);
    expect(result.diagnostics).toEqual([]);
    const out = id('out');
    // The program order, replayed: workgroup by workgroup, line 6 in every invocation, then line 8
    // in invocations 0 and 4 of each.
    const want = new Map<number, { workgroup: number; invocation: number; line: number }>();
    for (let g = 0; g < 2; g++) {
      for (let i = 0; i < 8; i++) want.set(((g * 8 + i) * 3) % 16, { workgroup: g, invocation: i, line: 6 });
      for (const i of [0, 4]) want.set((g * 8 + i) / 4, { workgroup: g, invocation: i, line: 8 });
    }
    for (let word = 0; word < 16; word++) expect(prov.writer(out, word)).toMatchObject({ ...want.get(word)!, step: -1 });
    expect(prov.writer(out, 16)).toBeNull();
    expect(prov.writer(out, 19)).toBeNull();
    // Reads leave no writer.
    expect(prov.writer(id('inp'), 0)).toBeNull();
  });

  it('links each write to its trace step when the run is traced', () => {
    const { prov, result, id } = withProvenance(SCATTER, { 0: { 0: new Uint32Array(16), 1: new Uint32Array(16) } }, [2], 'full');
    const trace = result.trace!;
    const out = id('out');
    for (let word = 0; word < 16; word++) {
      const wr = prov.writer(out, word)!;
      expect(wr.step).toBeGreaterThanOrEqual(0);
      const st = traceStep(trace, wr.step);
      expect([st.line, st.workgroup, st.memory]).toEqual([wr.line, wr.workgroup, out]);
      expect(st.accesses().some((a) => a.addr === word && st.warp * trace.warpSize + a.lane === wr.invocation)).toBe(true);
    }
  });

  it('counts atomic read-modify-writes as writes, atomicLoad not', () => {
    const { prov, id } = withProvenance(`@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>, 2>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  atomicAdd(&c[0], 1u);
  let x = atomicLoad(&c[1]);
  _ = x;
}`, { 0: { 0: new Uint32Array(2) } }, [1]);
    // Atomics apply in lane order: lane 3 is the last to add.
    expect(prov.writer(id('c'), 0)).toMatchObject({ invocation: 3, line: 4 });
    expect(prov.writer(id('c'), 1)).toBeNull();
  });

  it('a write of one f16 half names its word; workgroup memory keeps the last workgroup', () => {
    const { prov, id } = withProvenance(`enable f16;
var<workgroup> s: array<f16, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  s[7u - i] = f16(i);
  workgroupBarrier();
  if (g.x == 1u && i < 3u) { out[i] = s[i]; }
}`, { 0: { 0: new Uint32Array(2) } }, [2], 'summary', true);
    // s[6] and s[7] share word 3: lane 0 writes s[7] and lane 1 s[6] in one instruction, lane 1 last.
    expect(prov.writer(id('s'), 3)).toMatchObject({ workgroup: 1, invocation: 1, line: 6 });
    expect(prov.writer(id('out'), 1)).toMatchObject({ workgroup: 1, invocation: 2, line: 8 });
    expect(prov.writer(id('out'), 0)).toMatchObject({ workgroup: 1, invocation: 1 });
  });
});
