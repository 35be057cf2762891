import { describe, expect, it } from 'vitest';
import { kernel, run } from './testkit.ts';
import { simulate } from './simulate.ts';

const f = Math.fround;

function ok(r: { diagnostics: unknown[] }): void {
  expect(r.diagnostics).toEqual([]);
}

describe('integer semantics', () => {
  it('u32 wraps around', () => {
    const r = run(
      `out[0] = 0xffffffffu + 2u; out[1] = 0u - 1u; out[2] = 0x10000u * 0x10000u; out[3] = 3u * 0x80000001u;`,
    );
    ok(r);
    expect(r.out.slice(0, 4)).toEqual([1, 0xffffffff, 0, 0x80000003]);
  });

  it('i32 division and remainder follow WGSL (no traps)', () => {
    const r = run(
      `let z = i32(lid); let m = -2147483647 - 1 + z; let mo = -1 + z;
       out[0] = -7 / 2; out[1] = -7 % 2; out[2] = 7 / z; out[3] = 7 % z;
       out[4] = m / mo; out[5] = m % mo; out[6] = 7 / -2; out[7] = (2147483647 + z) + 1;`,
      { out: 'i32' },
    );
    ok(r);
    expect(r.out.slice(0, 8)).toEqual([-3, -1, 7, 0, -2147483648, 0, -3, -2147483648]);
  });

  it('u32 division by zero returns the dividend, remainder 0', () => {
    const r = run(`let z = lid; out[0] = 9u / z; out[1] = 9u % z; out[2] = 9u / 4u;`);
    expect(r.out.slice(0, 3)).toEqual([9, 0, 2]);
  });

  it('shifts take the amount modulo 32; >> is arithmetic for i32', () => {
    const r = run(
      `let k = 33u + lid; out[0] = bitcast<i32>(1u << k); out[1] = -8 >> 1u; out[2] = bitcast<i32>(0x80000000u >> 31u); out[3] = bitcast<i32>(1u << 31u);`,
      { out: 'i32' },
    );
    expect(r.out.slice(0, 4)).toEqual([2, -4, 1, -2147483648]);
  });

  it('bit builtins', () => {
    const r = run(
      `let x = 0x00f0u + lid; out[0] = countOneBits(x); out[1] = firstLeadingBit(x); out[2] = firstTrailingBit(x);
       out[3] = reverseBits(1u); out[4] = extractBits(0xabcdu, 4u, 8u); out[5] = insertBits(0u, 0xffu, 8u, 4u);
       out[6] = firstLeadingBit(0u + lid); out[7] = countLeadingZeros(1u);`,
    );
    expect(r.out.slice(0, 8)).toEqual([4, 7, 4, 0x80000000, 0xbc, 0xf00, 0xffffffff, 31]);
  });
});

describe('f32 semantics', () => {
  it('rounds to f32 after every operation', () => {
    const r = run(
      `let a = inp[0]; let b = inp[1]; out[0] = a + b; out[1] = (a + b) - a; out[2] = a * b / 3.0;`,
      {
        out: 'f32',
        input: Float32Array.of(16777216, 1, 0),
      },
    );
    ok(r);
    expect(r.out.slice(0, 3)).toEqual([16777216, 0, f(16777216 / 3)]);
  });

  it('conversions saturate and truncate', () => {
    const r = run(
      `let x = inp[0]; out[0] = u32(x); out[1] = u32(-x); out[2] = u32(x * 1e10); out[3] = bitcast<u32>(x);`,
      {
        input: Float32Array.of(3.75),
      },
    );
    // f32 → u32 saturates at 2^32 - 256, the largest f32 below 2^32 (WGSL; Dawn agrees, see
    // conformance/expressions).
    expect(r.out.slice(0, 4)).toEqual([3, 0, 4294967040, 0x40700000]);
  });

  it('numeric builtins', () => {
    const r = run(
      `let x = inp[0]; out[0] = min(x, 2.0); out[1] = max(x, 2.0); out[2] = clamp(x, 0.0, 1.0); out[3] = abs(-x);
       out[4] = floor(x); out[5] = sqrt(x * x); out[6] = select(1.0, 2.0, x > 3.0); out[7] = fma(x, 2.0, 1.0);`,
      { out: 'f32', input: Float32Array.of(3.5) },
    );
    expect(r.out.slice(0, 8)).toEqual([2, 3.5, 1, 3.5, 3, 3.5, 2, 8]);
  });
});

describe('composite values', () => {
  it('vectors, swizzles and component-wise operators', () => {
    const r = run(
      `var v = vec4<u32>(1u, 2u, 3u, 4u); let w = v.wzyx + vec4u(10u); v.y = 20u; let s = v.xy * 2u;
       out[0] = w.x; out[1] = w.w; out[2] = v.y; out[3] = s.y; out[4] = dot(vec3u(1u,2u,3u), vec3u(4u,5u,6u));
       let b = vec2<bool>(true, false); out[5] = select(0u, 1u, any(b)); out[6] = select(0u, 1u, all(b));
       let i = lid + 2u; out[7] = v[i];`,
    );
    ok(r);
    expect(r.out.slice(0, 8)).toEqual([14, 11, 20, 40, 32, 1, 0, 3]);
  });

  it('structs and arrays in function memory, dynamic indexing', () => {
    const r = run(
      `var a: array<u32, 4>; for (var i = 0u; i < 4u; i++) { a[i] = i * i; }
       var p = Pair(7u, vec2f(1.5, 2.5)); p.a += a[lid + 3u];
       out[0] = p.a; out[1] = u32(p.b.y * 2.0); out[2] = a[2];
       let c = array<u32, 3>(5u, 6u, 7u); out[3] = c[lid + 1u];`,
      { decls: `struct Pair { a: u32, b: vec2<f32> }` },
    );
    ok(r);
    expect(r.out.slice(0, 4)).toEqual([16, 5, 4, 6]);
  });

  it('storage structs with runtime arrays and arrayLength', () => {
    const r = run(`out[0] = arrayLength(&inp); out[1] = arrayLength(&out);`, {
      outLength: 8,
      input: new Uint32Array(13),
    });
    expect(r.out.slice(0, 2)).toEqual([13, 8]);
  });
});

describe('control flow under SIMT', () => {
  it('if/else per lane, for, while, loop/continuing/break if, continue, switch', () => {
    const r = run(
      `var acc = 0u;
       if (lid % 2u == 0u) { acc = 100u; } else if (lid % 3u == 0u) { acc = 200u; } else { acc = 300u; }
       for (var i = 0u; i < lid; i++) { if (i == 2u) { continue; } acc += 1u; }
       var j = 0u; while (j < 3u) { j++; if (lid == 1u && j == 2u) { break; } }
       var k = 0u; loop { k += 1u; if (k == 5u) { break; } continuing { k += 1u; break if k >= lid; } }
       var sw = 0u;
       switch (lid) { case 0u, 1u: { sw = 10u; } case 2u: { sw = 20u; } default: { sw = 30u; } }
       out[lid] = acc * 1000000u + j * 10000u + k * 100u + sw;`,
      { threads: 6 },
    );
    ok(r);
    const expected = [0, 1, 2, 3, 4, 5].map((lid) => {
      let acc = lid % 2 === 0 ? 100 : lid % 3 === 0 ? 200 : 300;
      for (let i = 0; i < lid; i++) if (i !== 2) acc++;
      let j = 0;
      while (j < 3) {
        j++;
        if (lid === 1 && j === 2) break;
      }
      let k = 0;
      for (;;) {
        k += 1;
        if (k === 5) break;
        k += 1;
        if (k >= lid) break;
      }
      const sw = lid <= 1 ? 10 : lid === 2 ? 20 : 30;
      return acc * 1000000 + j * 10000 + k * 100 + sw;
    });
    expect(r.out.slice(0, 6)).toEqual(expected);
  });

  it("a loop's continuing block and its break-if see the loop body's declarations (WGSL §9.4.5)", () => {
    const r = run(
      `var s = 0u; var k = 0u;
       loop { let t = k * 2u; var y = t + 1u; s += y; k++; continuing { s += y * 100u; break if t >= 4u; } }
       out[lid] = s;`,
      { threads: 4 },
    );
    ok(r);
    // t = 0, 2, 4 and y = 1, 3, 5: s = 1 + 100 + 3 + 300 + 5 + 500.
    expect(r.out.slice(0, 4)).toEqual([909, 909, 909, 909]);
  });

  it("a for loop's update sees the loop variable, not a body declaration that shadows it", () => {
    const r = run(`var n = 0u; for (var i = 0u; i < 3u; i++) { var i = 100u; n += i; } out[lid] = n;`, { threads: 1 });
    ok(r);
    expect(r.out[0]).toBe(300);
  });

  it('a var declared in a loop body starts again at its zero value in every iteration (WGSL §7.3)', () => {
    const r = run(
      `var s = 0u;
       for (var k = 0u; k < 3u; k++) { var x: u32; var a: array<u32, 2>; x += k + 1u; a[k % 2u] += x; s = s * 10u + x + a[0] + a[1]; }
       out[lid] = s;`,
      { threads: 2 },
    );
    ok(r);
    // x = 1, 2, 3 and a holds only x: s = 2, 24, 246.
    expect(r.out.slice(0, 2)).toEqual([246, 246]);
  });

  it('early return masks lanes until the end; user functions with ptr params', () => {
    const r = run(
      `if (lid >= 3u) { return; }
       var x = lid; bump(&x, 10u); bumpShared(lid);
       out[lid] = x + twice(lid) + sdata[lid];`,
      {
        threads: 8,
        decls: `var<workgroup> sdata: array<u32, 8>;
          fn bump(p: ptr<function, u32>, by: u32) { if (*p == 1u) { return; } *p = *p + by; }
          fn bumpShared(i: u32) { let q = &sdata[i]; *q = 5u; }
          fn twice(v: u32) -> u32 { if (v == 0u) { return 1000u; } return v * 2u; }`,
      },
    );
    ok(r);
    expect(r.out.slice(0, 8)).toEqual([1015, 1 + 2 + 5, 12 + 4 + 5, 0, 0, 0, 0, 0]);
  });

  it('const, override and module-scope private vars', () => {
    const code = run(`counter += lid; out[lid] = K * 2u + counter;`, {
      threads: 2,
      decls: `const K: u32 = 3u; var<private> counter: u32 = 7u;`,
    });
    expect(code.out.slice(0, 2)).toEqual([13, 14]);
  });
});

describe('atomics and barriers', () => {
  it('atomics in workgroup and storage memory', () => {
    const r = run(
      `let old = atomicAdd(&hist, 1u); atomicMax(&mx, lid * 3u); atomicMin(&mn, 100u - lid);
       workgroupBarrier();
       let r = atomicCompareExchangeWeak(&cas, lid, 99u);
       workgroupBarrier();
       if (lid == 0u) { out[0] = atomicLoad(&hist); out[1] = atomicLoad(&mx); out[2] = atomicLoad(&mn); out[3] = atomicLoad(&cas); }
       if (r.exchanged) { out[4] = lid + 1u; }
       out[5 + lid] = old;`,
      {
        threads: 4,
        decls: `var<workgroup> hist: atomic<u32>; var<workgroup> mx: atomic<u32>; var<workgroup> mn: atomic<u32>;
                var<workgroup> cas: atomic<u32>;`,
      },
    );
    expect(r.diagnostics.filter((d) => d.kind !== 'race')).toEqual([]);
    // mn starts at 0 (workgroup memory is zeroed), so min stays 0; lane 0 wins the CAS (0 == lid).
    expect(r.out.slice(0, 9)).toEqual([4, 9, 0, 99, 1, 0, 1, 2, 3]);
    expect(r.metrics.atomics).toBe(4 * 3 + 4 + 4 * 1);
  });

  it('workgroupBarrier orders workgroup memory across warps', () => {
    const r = run(`s[lid] = lid * 2u; workgroupBarrier(); out[lid] = s[63u - lid];`, {
      threads: 64,
      decls: `var<workgroup> s: array<u32, 64>;`,
    });
    ok(r);
    expect(r.out.slice(0, 64)).toEqual(Array.from({ length: 64 }, (_, i) => (63 - i) * 2));
    expect(r.metrics.barriers).toBe(1);
  });

  it('workgroupUniformLoad broadcasts', () => {
    const r = run(`if (lid == 0u) { flag = 42u; } let v = workgroupUniformLoad(&flag); out[lid] = v;`, {
      threads: 40,
      decls: `var<workgroup> flag: u32;`,
    });
    ok(r);
    expect(r.out.slice(0, 40)).toEqual(new Array(40).fill(42));
  });
});

describe.each([4, 8, 16, 32])('subgroup operations with warpSize %i', (W) => {
  const threads = 64;
  it('reductions, scans, shuffles, ballot, elect', () => {
    const r = run(
      `let v = lid + 1u;
       let sum = subgroupAdd(v); let inc = subgroupInclusiveAdd(v); let exc = subgroupExclusiveAdd(v);
       let bc = subgroupBroadcast(v, 1u); let sx = subgroupShuffleXor(v, 1u); let dn = subgroupShuffleDown(v, 1u);
       let b = subgroupBallot(lid % 2u == 0u); let e = subgroupElect();
       out[lid * 8u + 0u] = sum; out[lid * 8u + 1u] = inc; out[lid * 8u + 2u] = exc; out[lid * 8u + 3u] = bc;
       out[lid * 8u + 4u] = sx; out[lid * 8u + 5u] = dn; out[lid * 8u + 6u] = b.x; out[lid * 8u + 7u] = select(0u, 1u, e) + ssz * 10u;`,
      { threads, outLength: threads * 8 },
      { warpSize: W },
    );
    ok(r);
    for (let lid = 0; lid < threads; lid++) {
      const base = lid - (lid % W);
      const lane = lid % W;
      const vals = Array.from({ length: W }, (_, k) => base + k + 1);
      const sum = vals.reduce((a, b) => a + b, 0);
      const inc = vals.slice(0, lane + 1).reduce((a, b) => a + b, 0);
      let ballot = 0;
      for (let k = 0; k < Math.min(W, 32); k++) if ((base + k) % 2 === 0) ballot |= 1 << k;
      const down = lane + 1 < W ? lid + 2 : lid + 1;
      expect(r.out.slice(lid * 8, lid * 8 + 8)).toEqual([
        sum,
        inc,
        inc - (lid + 1),
        base + 2,
        (lid ^ 1) + 1,
        down,
        ballot >>> 0,
        (lane === 0 ? 1 : 0) + W * 10,
      ]);
    }
  });
});

describe('unsupported WGSL never throws', () => {
  it.each([
    ['f16', `let h = f16(1.0); out[0] = 1u;`],
    ['an unknown builtin', `out[0] = textureLoad(1u);`],
    ['a syntax error', `out[0] = (1u + ;`],
  ])('%s', (_name, body) => {
    const r = run(body);
    expect(r.diagnostics.length).toBe(1);
    expect(r.diagnostics[0]!.kind).toBe('unsupported');
    expect(r.diagnostics[0]!.line).toBeGreaterThan(0);
    expect(r.diagnostics[0]!.column).toBeGreaterThan(0);
  });
});

describe('workgroup order', () => {
  // Each workgroup takes a ticket from one atomic counter: the tickets show the running order.
  const body = `if (lid == 0u) { let t = atomicAdd(&counter, 1u); out[wid.x] = t; }`;
  const decls = '@group(0) @binding(2) var<storage, read_write> counter: atomic<u32>;';
  const ordered = (order?: 'linear' | 'reverse' | readonly number[]): number[] => {
    const k = kernel(body, { decls, workgroups: 4, outLength: 4 });
    const r = simulate(
      { ...k, bindings: { 0: { ...k.bindings[0], 2: new Uint32Array(1) } } },
      { trace: 'summary', ...(order ? { workgroupOrder: order } : {}) },
    );
    return Array.from(r.buffers[0]![0]!);
  };

  it('runs workgroups by linear id unless told otherwise', () => {
    expect(ordered()).toEqual([0, 1, 2, 3]);
    expect(ordered('reverse')).toEqual([3, 2, 1, 0]);
    expect(ordered([2, 0, 3, 1])).toEqual([1, 3, 0, 2]);
  });

  it('rejects an order that is not a permutation of the workgroups', () => {
    expect(() => ordered([0, 1, 2])).toThrow(/names 3 workgroups; the dispatch has 4/);
    expect(() => ordered([0, 1, 1, 2])).toThrow(/1 is out of range or repeated/);
    expect(() => ordered([0, 1, 2, 4])).toThrow(/permutation of 0 … 3/);
  });
});

describe('a named temporary keeps its value when a variable is assigned from it', () => {
  it('let t = a op b; x = t; then t is read again', () => {
    const r = run(`var x = 0u; let t = lid + 5u; x = t; out[0] = t + x;
      var y = 1u; y = y * 3u + lid; let u = y + 1u; y = u; out[1] = u + y;`);
    expect(r.diagnostics).toEqual([]);
    expect(r.out.slice(0, 2)).toEqual([10, 8]);
  });
});
