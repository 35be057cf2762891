/**
 * The race observer's exact reports: who, where, which word, and what does not race. Pinned so
 * that its bookkeeping (keys per barrier interval) can change without changing a single message.
 */
import { describe, expect, it } from 'vitest';
import { run } from './testkit.ts';

const races = (r: ReturnType<typeof run>) => r.diagnostics.filter((d) => d.kind === 'race');
const SH = `var<workgroup> sh: array<u32, 64>; var<workgroup> at: array<atomic<u32>, 4>;`;

describe('race reports', () => {
  it('write after write by another invocation names both invocations, the word and both lines', () => {
    const r = run(`sh[0] = lid;\nout[lid] = 1u;`, { threads: 4, decls: SH });
    const [d, ...more] = races(r);
    expect(more).toEqual([]);
    expect(d!.line).toBe(8);
    expect(d!.message).toContain(`race on 'sh' word 0 in workgroup 0: invocation 0 writes it (line 8:`);
    expect(d!.message).toContain(`and invocation 1 writes it (line 8:`);
    expect(d!.message).toContain('(3 occurrences)');
  });

  it('read then write by another invocation, and write then read', () => {
    const rw = races(run(`let v = sh[1];\nif (lid == 3u) { sh[1] = v + 1u; }\nout[lid] = v;`, { threads: 4, decls: SH }));
    expect(rw).toHaveLength(1);
    expect(rw[0]!.line).toBe(9);
    expect(rw[0]!.message).toContain(`invocation 0 reads it (line 8:`);
    expect(rw[0]!.message).toContain(`invocation 3 writes it (line 9:`);
    const wr = races(run(`if (lid == 2u) { sh[5] = 7u; }\nout[lid] = sh[5];`, { threads: 4, decls: SH }));
    expect(wr).toHaveLength(1);
    expect(wr[0]!.line).toBe(9);
    expect(wr[0]!.message).toContain(`invocation 2 writes it (line 8:`);
    expect(wr[0]!.message).toContain(`invocation 0 reads it (line 9:`);
  });

  it('a writer that was the first of several readers races with "another invocation"', () => {
    const r = run(`let v = sh[9];\nif (lid == 0u) { sh[9] = v + 1u; }\nout[lid] = v;`, { threads: 4, decls: SH });
    const [d, ...more] = races(r);
    expect(more).toEqual([]);
    expect(d!.message).toContain(`another invocation reads it (line 8:`);
    expect(d!.message).toContain(`invocation 0 writes it (line 9:`);
  });

  it('a lone reader that writes back is no race; neither is each invocation on its own word', () => {
    expect(races(run(`let v = sh[2];\nif (lid == 0u) { sh[2] = v + 1u; }`, { threads: 1, decls: SH }))).toEqual([]);
    expect(races(run(`sh[lid] = lid;\nsh[lid] = sh[lid] + 1u;\nout[lid] = sh[lid];`, { threads: 32, decls: SH }))).toEqual([]);
  });

  it('a barrier ends the interval: write, barrier, read is no race; a later workgroup starts clean', () => {
    const r = run(`sh[lid] = lid;\nworkgroupBarrier();\nout[lid + 64u * wid.x] = sh[(lid + 1u) % 32u];`, {
      threads: 32,
      decls: SH,
      workgroups: 3,
      outLength: 256,
    });
    expect(races(r)).toEqual([]);
    expect(r.out.slice(64, 68)).toEqual([1, 2, 3, 4]);
  });

  it('atomics never race with atomics; a plain write and a read in two warps do', () => {
    const a = run(`atomicAdd(&at[0], 1u);\nout[lid] = atomicLoad(&at[0]);`, { threads: 64, decls: SH });
    expect(races(a)).toEqual([]);
    const b = run(`if (lid == 40u) { sh[3] = 1u; }\nif (lid == 1u) { out[0] = sh[3]; }`, { threads: 64, decls: SH });
    const [d, ...more] = races(b);
    expect(more).toEqual([]);
    // Warp 0 runs to its end before warp 1, so the read comes first.
    expect(d!.message).toContain(`invocation 1 reads it (line 9:`);
    expect(d!.message).toContain(`invocation 40 writes it (line 8:`);
  });

  it('vector words (one request, several words per lane) race word by word', () => {
    const r = run(`v4[lid % 2u] = vec4<u32>(lid);\nout[lid] = v4[0].x;`, {
      threads: 4,
      decls: `var<workgroup> v4: array<vec4<u32>, 2>;`,
    });
    const msgs = races(r).map((d) => d.message);
    expect(msgs.length).toBeGreaterThan(0);
    expect(msgs.some((m) => m.includes(`'v4' word 0 in workgroup 0: invocation 0 writes it`))).toBe(true);
  });
});
