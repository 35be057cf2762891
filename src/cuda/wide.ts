/**
 * 64-bit integers in WGSL, which has none: a `long long` or `unsigned long long` value is a
 * `vec2<u32>` holding (low word, high word), two's complement, as the GPU holds it in a register
 * pair. Bitwise `& | ^ ~` and `==` work on the vector as it is; the rest are these helpers, each
 * a few readable lines, emitted into the generated WGSL only when a kernel uses them.
 *
 * Semantics (C++ [expr]): arithmetic wraps modulo 2^64; `/` truncates toward zero and `%` takes the
 * dividend's sign; `>>` of a signed value is arithmetic (C++20); conversions to float round once to
 * nearest; conversions from float truncate. Shift counts are taken modulo 64 (larger ones are
 * undefined in C), and division by zero, undefined in C, gives all ones instead of trapping.
 */

interface WideHelper {
  readonly uses: readonly string[];
  readonly code: string;
}

const H: Record<string, WideHelper> = {
  u64_add: {
    uses: [],
    code: `// 64-bit a + b: add the low words, carry into the high word
fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}`,
  },
  u64_sub: {
    uses: [],
    code: `// 64-bit a - b: subtract the low words, borrow from the high word
fn u64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}`,
  },
  u64_neg: {
    uses: ['u64_sub'],
    code: `// 64-bit -a (two's complement)
fn u64_neg(a: vec2<u32>) -> vec2<u32> {
  return u64_sub(vec2<u32>(0u, 0u), a);
}`,
  },
  u64_mul32: {
    uses: [],
    code: `// the full 64-bit product of two 32-bit words, from their 16-bit halves
fn u64_mul32(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}`,
  },
  u64_mul: {
    uses: ['u64_mul32'],
    code: `// 64-bit a * b (the low 64 bits of the product, the same for signed and unsigned)
fn u64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let p = u64_mul32(a.x, b.x);
  return vec2<u32>(p.x, p.y + a.x * b.y + a.y * b.x);
}`,
  },
  u64_shl: {
    uses: [],
    code: `// 64-bit a << n (n modulo 64)
fn u64_shl(a: vec2<u32>, n: u32) -> vec2<u32> {
  let s = n & 63u;
  if (s == 0u) { return a; }
  if (s >= 32u) { return vec2<u32>(0u, a.x << (s - 32u)); }
  return vec2<u32>(a.x << s, (a.y << s) | (a.x >> (32u - s)));
}`,
  },
  u64_shr: {
    uses: [],
    code: `// unsigned 64-bit a >> n (n modulo 64): zeros come in
fn u64_shr(a: vec2<u32>, n: u32) -> vec2<u32> {
  let s = n & 63u;
  if (s == 0u) { return a; }
  if (s >= 32u) { return vec2<u32>(a.y >> (s - 32u), 0u); }
  return vec2<u32>((a.x >> s) | (a.y << (32u - s)), a.y >> s);
}`,
  },
  i64_shr: {
    uses: [],
    code: `// signed 64-bit a >> n (n modulo 64): copies of the sign bit come in
fn i64_shr(a: vec2<u32>, n: u32) -> vec2<u32> {
  let s = n & 63u;
  let hi = bitcast<i32>(a.y);
  if (s == 0u) { return a; }
  if (s >= 32u) { return vec2<u32>(bitcast<u32>(hi >> (s - 32u)), bitcast<u32>(hi >> 31u)); }
  return vec2<u32>((a.x >> s) | (a.y << (32u - s)), bitcast<u32>(hi >> s));
}`,
  },
  u64_lt: {
    uses: [],
    code: `// unsigned 64-bit a < b
fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}`,
  },
  i64_lt: {
    uses: [],
    code: `// signed 64-bit a < b: the high words compare signed
fn i64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
  let ah = bitcast<i32>(a.y);
  let bh = bitcast<i32>(b.y);
  return ah < bh || (ah == bh && a.x < b.x);
}`,
  },
  u64_divmod: {
    uses: ['u64_shl', 'u64_lt', 'u64_sub'],
    code: `// unsigned 64-bit a / b and a % b as (quotient, remainder), by long division one bit at a time
fn u64_divmod(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
  if (a.y == 0u && b.y == 0u && b.x != 0u) { return vec4<u32>(a.x / b.x, 0u, a.x % b.x, 0u); }
  var q = vec2<u32>(0u, 0u);
  var r = vec2<u32>(0u, 0u);
  for (var i = 63i; i >= 0i; i--) {
    r = u64_shl(r, 1u);
    r.x = r.x | ((select(a.x, a.y, i >= 32i) >> (u32(i) & 31u)) & 1u);
    if (!u64_lt(r, b)) {
      r = u64_sub(r, b);
      if (i >= 32i) { q.y = q.y | (1u << (u32(i) - 32u)); } else { q.x = q.x | (1u << u32(i)); }
    }
  }
  return vec4<u32>(q, r);
}`,
  },
  u64_div: {
    uses: ['u64_divmod'],
    code: `fn u64_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return u64_divmod(a, b).xy;
}`,
  },
  u64_rem: {
    uses: ['u64_divmod'],
    code: `fn u64_rem(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return u64_divmod(a, b).zw;
}`,
  },
  i64_abs: {
    uses: ['u64_neg'],
    code: `// |a| of a signed 64-bit value (the most negative value stays itself, as on the GPU)
fn i64_abs(a: vec2<u32>) -> vec2<u32> {
  return select(a, u64_neg(a), bitcast<i32>(a.y) < 0i);
}`,
  },
  i64_div: {
    uses: ['u64_divmod', 'u64_neg', 'i64_abs'],
    code: `// signed 64-bit a / b: divide the magnitudes, the quotient truncated toward zero
fn i64_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let q = u64_divmod(i64_abs(a), i64_abs(b)).xy;
  return select(q, u64_neg(q), (bitcast<i32>(a.y) < 0i) != (bitcast<i32>(b.y) < 0i));
}`,
  },
  i64_rem: {
    uses: ['u64_divmod', 'u64_neg', 'i64_abs'],
    code: `// signed 64-bit a % b: the remainder takes the sign of a
fn i64_rem(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let r = u64_divmod(i64_abs(a), i64_abs(b)).zw;
  return select(r, u64_neg(r), bitcast<i32>(a.y) < 0i);
}`,
  },
  i64_from_i32: {
    uses: [],
    code: `// a 32-bit int widened to 64 bits: the high word copies its sign
fn i64_from_i32(x: i32) -> vec2<u32> {
  return vec2<u32>(bitcast<u32>(x), select(0u, 0xffffffffu, x < 0i));
}`,
  },
  u64_to_f32: {
    uses: [],
    code: `// unsigned 64-bit to float, rounded once to nearest (ties to even), in integers so every GPU agrees
fn u64_to_f32(a: vec2<u32>) -> f32 {
  if (a.y == 0u && a.x < 0x1000000u) { return f32(a.x); }
  // top: the 32 highest bits, the leading 1 at bit 31; rest: whether any lower bit is set
  var top = a.x << countLeadingZeros(a.x);
  var rest = false;
  var e = -i32(countLeadingZeros(a.x));
  if (a.y != 0u) {
    let lz = countLeadingZeros(a.y);
    top = select((a.y << lz) | (a.x >> (32u - lz)), a.y, lz == 0u);
    rest = select(a.x << lz, a.x, lz == 0u) != 0u;
    e = 32i - i32(lz);
  }
  // keep 24 bits: round up past the half, or at the half to make the last bit even
  let low = (top & 0xffu) | select(0u, 1u, rest);
  var q = top >> 8u;
  if (low > 0x80u || (low == 0x80u && (q & 1u) == 1u)) { q = q + 1u; }
  return ldexp(f32(q), e + 8i);
}`,
  },
  i64_to_f32: {
    uses: ['u64_to_f32', 'i64_abs'],
    code: `// signed 64-bit to float: the magnitude, then the sign
fn i64_to_f32(a: vec2<u32>) -> f32 {
  let m = u64_to_f32(i64_abs(a));
  return select(m, -m, bitcast<i32>(a.y) < 0i);
}`,
  },
  u64_from_f32: {
    uses: [],
    code: `// float to unsigned 64-bit, truncated: the high word is the multiple of 2^32, the low word the rest
fn u64_from_f32(f: f32) -> vec2<u32> {
  let t = trunc(max(f, 0.0f));
  let hi = floor(t / 4294967296.0f);
  return vec2<u32>(u32(t - hi * 4294967296.0f), u32(hi));
}`,
  },
  i64_from_f32: {
    uses: ['u64_from_f32', 'u64_neg'],
    code: `// float to signed 64-bit, truncated toward zero
fn i64_from_f32(f: f32) -> vec2<u32> {
  let m = u64_from_f32(abs(f));
  return select(m, u64_neg(m), f < 0.0f);
}`,
  },
};

/** Registers the helper `name` and the helpers it calls with `add`; returns `name`. */
export function wideHelper(name: string, add: (name: string, code: string) => void): string {
  const h = H[name];
  if (!h) throw new Error(`no 64-bit helper ${name}`);
  for (const u of h.uses) wideHelper(u, add);
  add(name, h.code);
  return name;
}

/** A 64-bit constant as WGSL: `vec2<u32>(low, high)`. */
export function wideLiteral(v: bigint): string {
  const u = BigInt.asUintN(64, v);
  return `vec2<u32>(${Number(u & 0xffffffffn)}u, ${Number(u >> 32n)}u)`;
}
