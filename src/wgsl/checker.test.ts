import { describe, expect, it } from 'vitest';
import { check } from './checker.ts';

const errors = (src: string, o?: Parameters<typeof check>[1]): string[] =>
  check(src, o)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.line}:${d.col} ${d.message}`);

const kernel = (size: string, decls = ''): string =>
  `${decls}\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(${size}) fn main(@builtin(local_invocation_index) i: u32) {\n  out[i] = i;\n}\n`;

describe('checker: every diagnostic, not only the first', () => {
  it('reports independent errors in one module, in source order, each with a range', () => {
    const r = check(`fn a() -> i32 {\n}\nfn b() {\n  let x: u32 = -1;\n  let y = z;\n}\nfn c() {\n  let q = 1 / 0;\n}\n`);
    expect(r.diagnostics.map((d) => `${d.line}:${d.col}`)).toEqual(['2:1', '4:16', '5:11', '8:11']);
    for (const d of r.diagnostics) {
      expect(d.severity).toBe('error');
      expect(d.range.end.offset!).toBeGreaterThan(d.range.pos.offset!);
    }
  });
});

describe('checker: constant evaluation', () => {
  it('folds const-expressions across declarations, in any order at module scope', () => {
    expect(errors(`const_assert B == 12;\nconst B = A * 3;\nconst A = 1 << 2;\nconst_assert select(1, 2, A > 3) == 2;\nconst_assert max(-3, 2) == 2;`)).toEqual([]);
    expect(errors(`const A = 4;\nconst_assert A == 5;`)).toEqual(['2:1 const assertion failed']);
  });

  it('wraps concrete integer arithmetic and checks abstract-int against i64', () => {
    expect(errors('const a = 2147483647i + 1i;\nconst b = 4294967295u + 1u;\nconst c = 9223372036854775807;')).toEqual([]);
    expect(errors('const c = 9223372036854775807 * 2;')).toEqual([`1:11 '9223372036854775807 * 2' cannot be represented as 'abstract-int'`]);
  });

  it('checks values against their concrete type when converting', () => {
    expect(errors('const a: i32 = -2147483648;\nconst b: u32 = 4294967295;\nconst c: f32 = 3.4e38;')).toEqual([]);
    expect(errors('const b: u32 = 4294967296;')).toEqual([`1:16 value 4294967296 cannot be represented as 'u32'`]);
    expect(errors('const v = vec2<u32>(1, -1);')).toEqual([`1:24 value -1 cannot be represented as 'u32'`]);
  });
});

describe('checker: memory layout', () => {
  it('lays out structs with @size and @align as WGSL does', () => {
    const r = check(`struct S { a: u32, @align(16) b: vec3<f32>, @size(8) c: f32, d: vec2<f32> }`);
    const s = r.module.structs.get('S')!;
    expect(s.k === 'struct' && s.members.map((m) => [m.name, m.offset, m.size])).toEqual([
      ['a', 0, 4],
      ['b', 16, 12],
      ['c', 28, 8],
      ['d', 40, 8],
    ]);
    expect(s.k === 'struct' && [s.align, s.size]).toEqual([16, 48]);
  });
});

describe('checker: pipeline checks against device limits, with line and column', () => {
  it('rejects a workgroup of 100 000 invocations at the attribute argument', () => {
    expect(errors(kernel('100000'))).toEqual([
      '3:26 workgroup size x = 100000 exceeds the device limit maxComputeWorkgroupSizeX (256): the pipeline cannot be created; use a smaller @workgroup_size',
    ]);
  });

  it('rejects too many invocations in total, unless the adapter allows them', () => {
    expect(errors(kernel('16, 32'))[0]).toMatch(/^3:11 workgroup size 16×32×1 = 512 invocations exceeds the device limit maxComputeInvocationsPerWorkgroup \(256\)/);
    expect(errors(kernel('16, 32'), { limits: { maxComputeInvocationsPerWorkgroup: 1024 } })).toEqual([]);
  });

  it('rejects workgroup storage over 16 KiB (or the limit passed in), at the variable', () => {
    const big = 'var<workgroup> tile: array<u32, 16384>;';
    const use = (src: string): string => src.replace('out[i] = i;', 'tile[i] = i;\n  out[i] = tile[0];');
    expect(errors(use(kernel('64', big)))[0]).toMatch(/^1:1 workgroup storage of entry point 'main' is 65536 bytes, over the device limit maxComputeWorkgroupStorageSize \(16384 bytes\)/);
    expect(errors(use(kernel('64', big)), { limits: { maxComputeWorkgroupStorageSize: 65536 } })).toEqual([]);
    const huge = 'var<workgroup> tile: array<u32, 268435456>;';
    expect(errors(use(kernel('64', huge)))[0]).toMatch(/1073741824 bytes/);
    // A workgroup variable the entry point never uses costs nothing.
    expect(errors(kernel('64', big))).toEqual([]);
  });

  it('evaluates override-sized workgroups with given or default values', () => {
    const src = kernel('WG', 'override WG: u32 = 64;');
    expect(check(src).module.entryPoints[0]!.workgroupSize).toEqual([64, 1, 1]);
    expect(check(src, { overrides: { WG: 128 } }).module.entryPoints[0]!.workgroupSize).toEqual([128, 1, 1]);
    expect(errors(src, { overrides: { WG: 1024 } })[0]).toMatch(/^3:26 workgroup size x = 1024 exceeds/);
  });

  it('rejects an override that has neither a default nor a value, at its declaration', () => {
    const src = kernel('WG', '@id(5) override WG: u32;');
    expect(errors(src)).toEqual([
      `1:8 override 'WG' has no initializer and no value was provided for it: the pipeline cannot be created; give it a default (override WG: … = …;) or pass a value`,
    ]);
    expect(errors(src, { overrides: { WG: 32 } })).toEqual([]);
    expect(errors(src, { overrides: { 5: 32 } })).toEqual([]);
  });

  it('reports a missing entry point', () => {
    expect(errors(kernel('64'), { entryPoint: 'other' })).toEqual([
      `1:1 entry point 'other' not found: the module has no @compute function named 'other'`,
    ]);
  });
});

describe('checker: uniformity diagnostics honour the diagnostic rules', () => {
  const sub = (attr: string, directive = ''): string =>
    `enable subgroups;\n${directive}\n@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n  ${attr}if (i > 0u) {\n    _ = subgroupAdd(i);\n  }\n}\n`;
  const sev = (src: string): string[] => check(src).diagnostics.map((d) => `${d.severity} ${d.line}:${d.col}`);

  it('is an error by default, a warning or nothing when the module or the statement says so', () => {
    expect(sev(sub(''))).toEqual(['error 5:9']);
    expect(sev(sub('', 'diagnostic(warning, subgroup_uniformity);'))).toEqual(['warning 5:9']);
    expect(sev(sub('', 'diagnostic(off, subgroup_uniformity);'))).toEqual([]);
    expect(sev(sub('@diagnostic(info, subgroup_uniformity) '))).toEqual(['info 5:9']);
    expect(sev(sub('@diagnostic(error, subgroup_uniformity) ', 'diagnostic(off, subgroup_uniformity);'))).toEqual(['error 5:9']);
  });

  it('barriers stay errors whatever the subgroup rule says', () => {
    const src = `diagnostic(off, subgroup_uniformity);\n@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n  if (i > 0u) {\n    workgroupBarrier();\n  }\n}\n`;
    expect(sev(src)).toEqual(['error 4:5']);
  });

  it('follows values through variables: uniform again after a uniform assignment', () => {
    const src = `@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3<u32>) {\n  var x = i;\n  x = w.x;\n  if (x > 0u) {\n    workgroupBarrier();\n  }\n}\n`;
    expect(sev(src)).toEqual([]);
  });
});

describe('checker: robustness for an editor', () => {
  it('never throws on truncated or mutated programs, and always gives a position', async () => {
    const { INVALID, VALID } = await import('./testdata/parity.ts');
    const sources = [...INVALID, ...VALID].map((c) => c.code);
    let checked = 0;
    for (const s of sources) {
      const step = Math.max(1, Math.floor(s.length / 25));
      for (let i = 0; i < s.length; i += step) {
        for (const v of [s.slice(0, i), `${s.slice(0, i)})${s.slice(i)}`, `${s.slice(0, i)}<${s.slice(i)}`, s.slice(0, i) + s.slice(i + 2)]) {
          const r = check(v, { entryPoint: 'main' });
          for (const d of r.diagnostics) expect(d.line).toBeGreaterThan(0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });
});
