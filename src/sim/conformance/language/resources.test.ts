/**
 * Resource interface of an entry point (WGSL §13.3.2 "Resource interface of a shader"; WebGPU
 * `layout: 'auto'`): only the resources an entry point statically uses belong to its pipeline.
 * A module with several entry points over different buffers is common in public kernels, and the
 * browser binds only what the chosen entry point uses, so the simulator must not ask for more.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../simulate.ts';

const TWO_ENTRIES = `
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@group(0) @binding(2) var<uniform> k: vec4<u32>;
var<workgroup> scratch: array<u32, 64>;
fn bump(i: u32) { b[i] = b[i] + k.x; }
@compute @workgroup_size(2) fn first(@builtin(local_invocation_index) i: u32) { a[i] = i + 10u; }
@compute @workgroup_size(2) fn second(@builtin(local_invocation_index) i: u32) {
  scratch[i] = i;
  workgroupBarrier();
  bump(scratch[1u - i]);
}
`;

describe('§13.3.2 an entry point binds only the resources it statically uses', () => {
  it('runs the first entry point with only its own buffer bound', () => {
    const r = simulate({ code: TWO_ENTRIES, entryPoint: 'first', workgroups: [1], bindings: { 0: { 0: new Uint32Array(2) } } });
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
    expect([...r.buffers[0]![0]!]).toEqual([10, 11]);
  });

  it('runs the second entry point with the buffers its helper function uses (b, k), without a', () => {
    const r = simulate({
      code: TWO_ENTRIES,
      entryPoint: 'second',
      workgroups: [1],
      bindings: { 0: { 1: Uint32Array.of(5, 7), 2: Uint32Array.of(3, 0, 0, 0) } },
    });
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
    expect([...r.buffers[0]![1]!]).toEqual([8, 10]);
  });

  it('runs entry points that reuse one binding slot with different types, each with its own data', () => {
    const code = `@group(0) @binding(0) var<storage, read_write> ints: array<u32>;
@group(0) @binding(0) var<storage, read_write> floats: array<f32>;
@compute @workgroup_size(1) fn asInts() { ints[0] = ints[0] + 1u; }
@compute @workgroup_size(1) fn asFloats() { floats[0] = floats[0] * 0.5; }`;
    const a = simulate({ code, entryPoint: 'asInts', workgroups: [1], bindings: { 0: { 0: Uint32Array.of(41) } } });
    const b = simulate({ code, entryPoint: 'asFloats', workgroups: [1], bindings: { 0: { 0: Float32Array.of(3) } } });
    expect([...a.diagnostics, ...b.diagnostics]).toEqual([]);
    expect([a.buffers[0]![0]![0], b.buffers[0]![0]![0]]).toEqual([42, 1.5]);
  });

  it('still asks for a buffer the entry point does use, at its declaration', () => {
    const r = simulate({ code: TWO_ENTRIES, entryPoint: 'second', workgroups: [1], bindings: { 0: { 2: new Uint32Array(4) } } });
    expect(r.diagnostics.map((d) => `${d.line}:${d.column}`)).toEqual(['3:23']);
    expect(r.diagnostics[0]!.message).toMatch(/@group\(0\) @binding\(1\).*'b'/);
  });
});
