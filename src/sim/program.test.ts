import { describe, expect, it } from 'vitest';
import { compile, compileCached, instantiate, simulate, type MemoryObserver } from './index.ts';
import { parse } from '../wgsl/parser.ts';

const SUM = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
  let n = arrayLength(&inp);
  var acc = 0u;
  for (var i = lid; i < n; i += 4u) { acc += inp[i]; }
  out[lid] = acc + n * 1000u;
}`;

describe('compile once, run many', () => {
  it('one program runs on bindings of different sizes (arrayLength and runtime arrays follow the run)', () => {
    const c = compile(SUM, 'main');
    if (!c.ok) throw new Error(JSON.stringify(c.diagnostics));
    for (const n of [3, 8, 13]) {
      const inp = Uint32Array.from({ length: n }, (_, i) => i + 1);
      const bindings = { 0: { 0: inp, 1: new Uint32Array(4) } };
      const inst = instantiate(c.program, bindings);
      if (!inst.ok) throw new Error('instantiate failed');
      const r = inst.instance.run([1], { trace: 'summary' });
      const want = [0, 1, 2, 3].map((l) => inp.filter((_, i) => i % 4 === l).reduce((a, x) => a + x, 0) + n * 1000);
      expect(Array.from(r.buffers[0]![1]!)).toEqual(want);
      expect(r.diagnostics).toEqual([]);
      // The inputs are never modified.
      expect(bindings[0][1].every((x) => x === 0)).toBe(true);
    }
  });

  it('the program is data-free: the same result as simulate, and cached per source text', () => {
    const inp = Uint32Array.from({ length: 10 }, (_, i) => i * 7);
    const run = { code: SUM, entryPoint: 'main', workgroups: [1] as [number], bindings: { 0: { 0: inp, 1: new Uint32Array(4) } } };
    const a = simulate(run, { trace: 'summary' });
    const c = compileCached(SUM, 'main');
    expect(compileCached(SUM, 'main')).toBe(c);
    expect(compileCached(SUM, 'main', {}, { warpSize: 16 })).not.toBe(c);
    if (!c.ok) throw new Error('compile failed');
    const inst = instantiate(c.program, run.bindings);
    if (!inst.ok) throw new Error('instantiate failed');
    const b = inst.instance.run([1], { trace: 'summary' });
    expect(b.buffers).toEqual(a.buffers);
    expect(b.metrics).toEqual(a.metrics);
    expect(() => inst.instance.run([1])).toThrow(/already run/);
  });

  it('reports WGSL errors as diagnostics and a missing binding at its declaration', () => {
    const bad = compile('fn main( {', 'main');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.diagnostics[0]!.line).toBe(1);
    const c = compile(SUM, 'main');
    if (!c.ok) throw new Error('compile failed');
    const inst = instantiate(c.program, { 0: { 0: new Uint32Array(4) } });
    expect(inst.ok).toBe(false);
    if (!inst.ok) {
      expect(inst.diagnostics[0]!.line).toBe(3);
      expect(inst.diagnostics[0]!.message).toMatch(/@binding\(1\).*'out'/);
    }
  });

  it('user memory observers see every warp request', () => {
    const c = compile(SUM, 'main');
    if (!c.ok) throw new Error('compile failed');
    const seen: string[] = [];
    const obs: MemoryObserver = { access: (_M, w, mem, span, mode) => seen.push(`${mem.name}:${w.n}:${span}:${mode}`) };
    const inst = instantiate(c.program, { 0: { 0: new Uint32Array(4), 1: new Uint32Array(4) } }, [obs]);
    if (!inst.ok) throw new Error('instantiate failed');
    const r = inst.instance.run([1], { trace: 'summary' });
    expect(seen).toEqual(['inp:4:1:0', 'out:4:1:1']);
    expect(r.metrics.globalRequests).toBe(2);
  });
});

describe('compile checks with the front end first', () => {
  const BIG = `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> scratch: array<u32, 5000>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  scratch[lid] = lid;
  workgroupBarrier();
  out[lid] = scratch[63u - lid];
}`;

  it('against the given limits (a capable adapter by default), and caches per limits', () => {
    // 20 000 bytes of workgroup memory: a capable adapter grants it, WebGPU's default 16 KiB does not.
    const capable = compileCached(BIG, 'main');
    expect(capable.ok).toBe(true);
    const strict = compileCached(BIG, 'main', {}, { limits: { maxComputeWorkgroupStorageSize: 16384 } });
    expect(strict.ok).toBe(false);
    if (!strict.ok) {
      expect(strict.diagnostics[0]).toMatchObject({ kind: 'unsupported', line: 3 });
      expect(strict.diagnostics[0]!.message).toMatch(/maxComputeWorkgroupStorageSize/);
    }
  });

  it('a module already parsed by the front end is checked too, with every error at its place', () => {
    const { ast } = parse('@compute @workgroup_size(1)\nfn main() {\n  let x: u32 = -1;\n  let y = 1u << 40u;\n}\n');
    const r = compile(ast, 'main');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics.map((d) => `${d.kind} ${d.line}:${d.column}`)).toEqual(['unsupported 3:16', 'unsupported 4:11']);
  });
});

describe('a binding smaller than its type is refused, as the browser refuses it', () => {
  const code = `struct Config { n: u32, tol: f32, @align(16) pad: u32 }
struct Lines { count: u32, seen: u32, data: array<vec2f> }
@group(0) @binding(0) var<uniform> config: Config;
@group(0) @binding(1) var<storage, read_write> lines: Lines;
@compute @workgroup_size(1) fn main() { lines.count = config.n; }`;
  const run = (cfg: number, lines: number) =>
    simulate({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(cfg), 1: new Uint32Array(lines) } } });

  it('a uniform buffer under its struct size (32 bytes; 16 given), at the declaration', () => {
    const r = run(4, 4);
    expect(r.diagnostics.map((d) => [d.line, d.column])).toEqual([[3, 23]]);
    expect(r.diagnostics[0]!.message).toMatch(/'config'.*16 bytes.*at least 32/);
  });

  it('a storage buffer without room for one element of its runtime-sized array (16 bytes needed, 8 given)', () => {
    const r = run(8, 2);
    expect(r.diagnostics.map((d) => [d.line, d.column])).toEqual([[4, 23]]);
    expect(r.diagnostics[0]!.message).toMatch(/'lines'.*8 bytes.*at least 16/);
  });

  it('big enough: runs (a uniform block is padded to 16 bytes as the GPU executor pads it)', () => {
    expect(run(5, 4).diagnostics).toEqual([]);
    expect(run(8, 4).buffers[0]![1]![0]).toBe(0);
  });
});
