/**
 * Semantics the simulator must share with WGSL (issue 12): `&&`/`||` short-circuit, and races
 * only on in-bounds words (an out-of-bounds access is reported as out-of-bounds, never as a race).
 */
import { describe, expect, it } from 'vitest';
import { run } from './testkit.ts';

describe('short-circuit && and ||', () => {
  it('&& does not evaluate its right side where the left side is false', () => {
    const input = Uint32Array.from({ length: 8 }, (_, i) => i * 3);
    const r = run(`let i = lid; if (i > 0u && inp[i - 1u] > 5u) { out[i] = 1u; } else { out[i] = 2u; }`, {
      threads: 8,
      input,
    });
    expect(r.diagnostics).toEqual([]);
    // inp[i - 1] = 3(i - 1) > 5 from i = 3 on.
    expect(r.out.slice(0, 8)).toEqual([2, 2, 2, 1, 1, 1, 1, 1]);
  });

  it('|| does not evaluate its right side where the left side is true', () => {
    const input = Uint32Array.from({ length: 8 }, (_, i) => i);
    const r = run(`let i = lid; out[i] = select(0u, 1u, i == 0u || inp[i - 1u] > 2u);`, { threads: 8, input });
    expect(r.diagnostics).toEqual([]);
    expect(r.out.slice(0, 8)).toEqual([1, 0, 0, 0, 1, 1, 1, 1]);
  });

  it('the right side runs only in the lanes that need it (side effects)', () => {
    const r = run(
      `let i = lid; let t = i % 2u == 0u && atomicAdd(&cnt, 1u) < 100u; out[i] = select(0u, 1u, t);
       workgroupBarrier(); out[8] = atomicLoad(&cnt);`,
      { threads: 8, decls: `var<workgroup> cnt: atomic<u32>;` },
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.out.slice(0, 9)).toEqual([1, 0, 1, 0, 1, 0, 1, 0, 4]);
  });

  it('nested in a loop condition, uniform and divergent', () => {
    const input = new Uint32Array(16).fill(1);
    const r = run(
      `var j = lid; while (j < 16u && inp[j] == 1u) { j += 1u; } out[lid] = j;`,
      { threads: 4, input },
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.out.slice(0, 4)).toEqual([16, 16, 16, 16]);
  });
});

describe('races are only reported on in-bounds words', () => {
  const decls = `var<workgroup> s: array<u32, 4>;`;

  it('an out-of-bounds read clamped onto a word another invocation writes is out-of-bounds, not a race', () => {
    // Lanes 1…3 read s[4], s[8], s[12]: out of bounds, clamped onto s[3], which lane 3 writes.
    const r = run(`s[lid] = lid; let v = select(0u, s[lid * 4u], lid == 0u); out[lid] = v;`, {
      threads: 4,
      decls,
    });
    expect(r.diagnostics.map((d) => d.kind)).toEqual(['out-of-bounds']);
    expect(r.out.slice(0, 4)).toEqual([0, 0, 0, 0]);
  });

  it('the same through a nested index (address computed before the load)', () => {
    // Lanes 1 and 3 read rows 2 and 6: clamped onto row 1, word 2, which lane 2 writes.
    const r = run(
      `s[lid / 2u][lid % 2u] = lid; let v = select(0u, s[lid * 2u][0], lid == 0u); out[lid] = v;`,
      { threads: 4, decls: `var<workgroup> s: array<array<u32, 2>, 2>;` },
    );
    expect(r.diagnostics.map((d) => d.kind)).toEqual(['out-of-bounds']);
  });

  it('an out-of-bounds write is not a race either, but a real in-bounds race still is', () => {
    const oob = run(`s[lid] = lid; s[lid + 4u] = 7u;`, { threads: 4, decls });
    expect(oob.diagnostics.map((d) => d.kind)).toEqual(['out-of-bounds']);
    const real = run(`s[lid] = lid; out[lid] = s[(lid + 1u) % 4u];`, { threads: 4, decls });
    expect(real.diagnostics.map((d) => d.kind)).toEqual(['race']);
  });
});
