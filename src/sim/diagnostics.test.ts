import { describe, expect, it } from 'vitest';
import type { DiagnosticKind } from './index.ts';
import { run, type KernelOverrides } from './testkit.ts';
import type { SimOptions } from './simulate.ts';

interface Twin {
  kind: DiagnosticKind;
  name: string;
  bad: string;
  good: string;
  o?: KernelOverrides;
  opts?: SimOptions;
  /** 1-based line (inside the generated kernel) where the diagnostic must point. */
  line?: number;
}

const SHARED = { threads: 64, decls: `var<workgroup> s: array<u32, 64>;` };
// The kernel body starts on line 8 of the generated source (see testkit.kernel) when `decls` is one line.
const BODY = 8;

const twins: Twin[] = [
  {
    kind: 'race',
    name: 'read of a neighbour without a barrier',
    bad: `s[lid] = lid;\nout[lid] = s[(lid + 1u) % 64u];`,
    good: `s[lid] = lid;\nworkgroupBarrier();\nout[lid] = s[(lid + 1u) % 64u];`,
    o: SHARED,
    line: BODY + 1,
  },
  {
    kind: 'race',
    name: 'warp-synchronous last-warp reduction (write while another lane reads)',
    bad: `s[lid] = 1u;\nworkgroupBarrier();\nif (lid < 16u) { s[lid] += s[lid + 16u]; }\nif (lid < 8u) { s[lid] += s[lid + 8u]; }`,
    good: `s[lid] = 1u;\nworkgroupBarrier();\nif (lid < 16u) { s[lid] += s[lid + 16u]; }\nworkgroupBarrier();\nif (lid < 8u) { s[lid] += s[lid + 8u]; }`,
    o: { threads: 32, decls: `var<workgroup> s: array<u32, 64>;` },
  },
  {
    kind: 'barrier-divergence',
    name: 'barrier inside a divergent if',
    bad: `if (lid < 16u) {\nworkgroupBarrier(); }`,
    good: `workgroupBarrier();\nif (lid < 16u) { out[lid] = 1u; }`,
    o: { threads: 64 },
    line: BODY + 1,
  },
  {
    kind: 'barrier-divergence',
    name: 'only some warps reach the barrier',
    bad: `if (lid >= 32u) { return; }\nworkgroupBarrier();`,
    good: `if (lid >= 32u) { out[lid] = 1u; }\nworkgroupBarrier();`,
    o: { threads: 64 },
  },
  {
    kind: 'out-of-bounds',
    name: 'write one past the end',
    bad: `out[lid + 1u] = lid;`,
    good: `if (lid + 1u < arrayLength(&out)) { out[lid + 1u] = lid; }`,
    o: { threads: 16, outLength: 16 },
    line: BODY,
  },
  {
    kind: 'out-of-bounds',
    name: 'workgroup array index past its size',
    bad: `s[lid * 2u] = lid;`,
    good: `if (lid * 2u < 64u) { s[lid * 2u] = lid; }`,
    o: SHARED,
  },
  {
    kind: 'step-limit',
    name: 'a loop that never ends',
    bad: `var i = 0u;\nloop { i += 1u; if (i == 0u) { break; } }\nout[0] = i;`,
    good: `var i = 0u;\nloop { i += 1u; if (i == 10u) { break; } }\nout[0] = i;`,
    opts: { maxSteps: 10_000 },
  },
  {
    kind: 'unsupported',
    name: 'f16 (not offered yet)',
    bad: `let h = f16(1.0);\nout[0] = 1u;`,
    good: `let h = f32(1.0);\nout[0] = 1u;`,
    line: BODY,
  },
];

describe.each(twins)('$kind: $name', (t) => {
  it('is reported for the faulty kernel, with a position and an explanation', () => {
    const r = run(t.bad, t.o, t.opts);
    const found = r.diagnostics.filter((d) => d.kind === t.kind);
    expect(found.length, JSON.stringify(r.diagnostics)).toBeGreaterThan(0);
    for (const d of found) {
      expect(d.line).toBeGreaterThan(0);
      expect(d.column).toBeGreaterThan(0);
      expect(d.message.length).toBeGreaterThan(20);
    }
    if (t.line !== undefined) expect(found[0]!.line).toBe(t.line);
  });

  it('is not reported for the corrected twin', () => {
    const r = run(t.good, t.o, t.opts);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('diagnostic wording', () => {
  it('barrier divergence mentions WGSL rejection and CUDA undefined behaviour', () => {
    const r = run(`if (lid < 16u) { workgroupBarrier(); }`, { threads: 64 });
    const msg = r.diagnostics.map((d) => d.message).join(' ');
    expect(msg).toMatch(/WGSL/);
    expect(msg).toMatch(/CUDA/);
  });

  it('out-of-bounds says what WebGPU does instead', () => {
    const r = run(`out[lid + 1u] = lid;`, { threads: 16, outLength: 16 });
    expect(r.diagnostics[0]!.message).toMatch(/clamp/);
    // The simulator clamps the write into the last element, as robust access may.
    expect(r.out[15]).toBe(15);
  });

  it('step limit marks the result incomplete', () => {
    const r = run(`loop { }`, {}, { maxSteps: 100 });
    expect(r.incomplete).toBe(true);
  });
});

describe('no phantom barrier after every lane has left a loop', () => {
  it('a loop whose lanes all break before its barrier reports nothing and runs no empty instruction', async () => {
    const { simulate } = await import('./index.ts');
    const code = `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> s: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  var j = 0u;
  loop {
    if (j == 0u) { break; }
    s[lid] = j;
    workgroupBarrier();
    j = j - 1u;
  }
  out[lid] = j + 7u;
}`;
    const r = simulate({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(64) } } }, { warpSize: 32 });
    expect(r.diagnostics).toEqual([]);
    expect(Array.from(r.buffers[0]![0]!).every((v) => v === 7)).toBe(true);
    expect(r.metrics.barriers).toBe(0);
    expect(r.metrics.warpExecutionEfficiency).toBe(1);
  });
});
