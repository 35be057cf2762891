import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { reflectBindings, reflectModule } from './reflect.ts';

describe('reflectBindings', () => {
  it('lists storage and uniform bindings in source order with their access', () => {
    const code = `
struct Params { n: u32, scale: f32 }
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(1) @binding(0)
  var<storage, read_write> out: array<f32>;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  out[id.x] = a[id.x] * params.scale;
}`;
    expect(reflectBindings(code)).toEqual([
      { group: 0, binding: 2, name: 'params', kind: 'uniform' },
      { group: 0, binding: 0, name: 'a', kind: 'storage-read' },
      { group: 1, binding: 0, name: 'out', kind: 'storage-read-write' },
    ]);
  });

  it('with an entry point, lists only the resources it uses (directly or through a function)', () => {
    const code = `@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(0) var<storage, read_write> b: array<f32>;
@group(0) @binding(1) var<uniform> k: u32;
fn scale(i: u32) { b[i] = b[i] * f32(k); }
@compute @workgroup_size(1) fn first() { a[0] = 1u; }
@compute @workgroup_size(1) fn second() { scale(0u); }`;
    expect(reflectBindings(code, 'first')).toEqual([{ group: 0, binding: 0, name: 'a', kind: 'storage-read-write' }]);
    expect(reflectBindings(code, 'second').map((b) => b.name)).toEqual(['b', 'k']);
    expect(reflectBindings(code, 'absent').map((b) => b.name)).toEqual(['a', 'b', 'k']);
  });

  it('ignores declarations inside comments, including nested block comments', () => {
    const code = `/* @group(0) @binding(5) var<storage, read_write> ghost: array<u32>; /* nested */ still comment */
// @group(0) @binding(6) var<uniform> ghost2: u32;
@group(0) @binding(0) var<storage, read_write> real: array<u32>;
@compute @workgroup_size(1) fn main() { real[0] = 1u; }`;
    expect(reflectBindings(code).map((b) => b.name)).toEqual(['real']);
  });

  it('reads attribute values written as constant expressions', () => {
    const code = `const G = 1;
@group(G) @binding(G + 2) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() { out[0] = 1u; }`;
    expect(reflectBindings(code)).toEqual([{ group: 1, binding: 3, name: 'out', kind: 'storage-read-write' }]);
  });

  it('still finds bindings written as literals when the module has errors elsewhere', () => {
    const code = `@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() { out[0] = undefined_name; }`;
    expect(reflectBindings(code)).toEqual([{ group: 0, binding: 1, name: 'out', kind: 'storage-read-write' }]);
  });
});

describe('reflectModule', () => {
  it('gives types, sizes (with @size/@align), workgroup size and overrides', () => {
    const code = `
struct S { a: u32, @align(16) b: vec3<f32>, @size(8) c: f32, d: array<u32> }
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<uniform> m: mat4x4<f32>;
override WG: u32 = 128;
@id(7) override SCALE: f32;
var<workgroup> tile: array<u32, WG>;
@compute @workgroup_size(WG, 2) fn main() { s.d[0] = tile[0] + u32(m[0][0] * SCALE); }`;
    const r = reflectModule(code, { overrides: { SCALE: 2 } });
    expect(r.diagnostics).toEqual([]);
    expect(r.bindings.map((b) => [b.name, b.type, b.size, b.runtimeSized])).toEqual([
      ['s', 'S', 48, true],
      ['m', 'mat4x4<f32>', 64, false],
    ]);
    expect(r.entryPoints).toEqual([{ name: 'main', workgroupSize: [128, 2, 1], workgroupStorage: 512 }]);
    expect(r.overrides).toEqual([
      { name: 'WG', id: null, type: 'u32', hasDefault: true },
      { name: 'SCALE', id: 7, type: 'f32', hasDefault: false },
    ]);
  });

  it('reflects every shipped kernel the same way the old regex did: all its storage and uniform bindings', () => {
    const code = readFileSync('shaders/scan/single-pass.wgsl', 'utf8') + '\n' + readFileSync('shaders/common/linear-workgroup.wgsl', 'utf8');
    const r = reflectModule(code);
    expect(r.diagnostics).toEqual([]);
    expect(r.bindings.length).toBeGreaterThan(1);
    for (const b of r.bindings) expect(b.size).toBeGreaterThan(0);
  });
});
