/**
 * Red-team corpus (issue 12): small kernels, one language corner each, found by probing the simulator
 * against Dawn. `rejectedAt` holds the line and column of Dawn's compilation error (recorded
 * through the `webgpu` package, SwiftShader adapter); the others must run and agree word for word.
 * Bindings are words at @group(0) @binding(n); binding 0 is `out` with `words` words (filled with
 * `fill` when given).
 */
export interface CorpusKernel {
  readonly name: string;
  readonly code: string;
  readonly words: number;
  readonly fill?: number;
  readonly bindings?: Readonly<Record<string, readonly number[]>>;
  readonly workgroups?: readonly [number, number?, number?];
  readonly warpSize?: number;
  readonly rejectedAt?: readonly [number, number];
  readonly dawnMessage?: string;
}

export const CORPUS: readonly CorpusKernel[] = [
  {
    name: "break/continue in switch in loop",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var r = 0u; for (var j = 0u; j < 4u; j++) { switch (inp[j] % 3u) { case 0u: { break; } case 1u: { r += 10u; continue; } default: { r += 100u; } } r += 1u; } out[i] = r; }\n",
    words: 16,
    bindings: { 1: [0,  1,  2,  3,  4,  5,  6,  7] },
  },
  {
    name: "user fn named max",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nfn max(a: u32, b: u32) -> u32 { return a + b; }\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { out[i] = max(i, 10u); }\n",
    words: 16,
  },
  {
    name: "alias + hex floats",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nalias float4 = vec4<f32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let v = float4(1.0, 2.0, 3.0, 4.0) * 0x1p-3f + float4(.5, 1., 2e0, 0x1.8p1); out[i] = bitcast<u32>(v[i]); }\n",
    words: 16,
  },
  {
    name: "barrier after nonuniform return",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { if (inp[i] > 2u) { return; } workgroupBarrier(); out[i] = 1u; }\n",
    words: 16,
    bindings: { 1: [0,  1,  2,  3] },
    rejectedAt: [2, 109],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "barrier under read-only storage cond",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { if (inp[0] > 2u) { workgroupBarrier(); } out[i] = 1u; }\n",
    words: 16,
    bindings: { 1: [5,  1,  2,  3] },
  },
  {
    name: "barrier under rw storage cond",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { if (out[0] > 2u) { workgroupBarrier(); } out[i] = 1u; }\n",
    words: 16,
    rejectedAt: [2, 99],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "int vector ops",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let a = vec3i(i32(inp[i]) - 3, 7, -9); let b = vec3i(2, -3, 4); let q = a / b; let m = a % b; let d = dot(a, b); let s = a << vec3u(1u, 2u, 31u); let n = ~a; out[i*5u] = bitcast<u32>(q.x + q.y*100 + q.z*10000); out[i*5u+1u] = bitcast<u32>(m.x + m.y*100 + m.z*10000); out[i*5u+2u] = bitcast<u32>(d); out[i*5u+3u] = bitcast<u32>(s.z); out[i*5u+4u] = bitcast<u32>(n.x); }\n",
    words: 20,
    bindings: { 1: [0,  1,  5,  9] },
  },
  {
    name: "f32 remainder",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let x = f32(inp[i]) - 5.5; let y = select(2.5, -1.75, i % 2u == 0u); out[i] = bitcast<u32>(x % y); out[i+4u] = bitcast<u32>(vec2f(x, -x) % vec2f(y).x); }\n",
    words: 8,
    bindings: { 1: [0,  3,  9,  20] },
    rejectedAt: [2, 191],
    dawnMessage: "no matching call to 'bitcast<u32>(vec2<f32>)'",
  },
  {
    name: "pointer to vector component",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var v = vec4u(1u, 2u, 3u, 4u); let p = &v[i]; *p += 10u; let q = &v.y; *q = *q * 2u; out[i] = v[i]; }\n",
    words: 16,
    rejectedAt: [2, 120],
    dawnMessage: "cannot take the address of a vector component",
  },
  {
    name: "workgroupUniformLoad of an array",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\nvar<workgroup> arr: array<u32, 4>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { arr[i] = inp[i]; let a = workgroupUniformLoad(&arr); out[i] = a[3u - i]; }\n",
    words: 16,
    bindings: { 1: [4,  5,  6,  7] },
  },
  {
    name: "workgroupUniformLoad of atomic",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nvar<workgroup> c: atomic<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { atomicAdd(&c, i); let v = workgroupUniformLoad(&c); out[i] = v; }\n",
    words: 16,
  },
  {
    name: "cmpxchg i32 workgroup contention",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nvar<workgroup> c: atomic<i32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { atomicStore(&c, -5); workgroupBarrier(); let r = atomicCompareExchangeWeak(&c, -5, i32(i)); workgroupBarrier(); out[i] = u32(r.exchanged); out[4u + i] = bitcast<u32>(r.old_value); }\n",
    words: 8,
  },
  {
    name: "const arrays of vectors and structs",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nconst LUT = array(vec2u(1u, 2u), vec2u(3u, 4u));\nstruct P { a: u32, b: f32 }\nconst PS = array<P, 2>(P(5u, 1.5), P(6u, 2.5));\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { out[i] = LUT[i % 2u].y + PS[i % 2u].a + u32(PS[1].b * 2.0); }\n",
    words: 16,
  },
  {
    name: "matrix arithmetic",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let m = mat3x3f(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0); let n = -m + m * 2.0 - 0.5 * m; let v = vec3f(f32(i), 1.0, 2.0) * n; let mm = mat2x3f(1.0,2.0,3.0,4.0,5.0,6.0) * mat4x2f(1.0,0.0,0.0,1.0,1.0,1.0,2.0,0.5); out[i] = bitcast<u32>(v.z + mm[i][2]); out[i+4u] = bitcast<u32>(determinant(n) + determinant(mat4x4f(2.0,0.0,0.0,0.0,0.0,3.0,0.0,0.0,0.0,0.0,4.0,0.0,0.0,0.0,0.0,f32(i)))); }\n",
    words: 8,
    rejectedAt: [2, 151],
    dawnMessage: "no matching overload for 'operator - (mat3x3<f32>)'",
  },
  {
    name: "mat3x3 array in storage (stride 48)",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> ms: array<mat3x3f>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { ms[i][1] = vec3f(f32(i)); ms[i][2].z = 9.0; out[i] = arrayLength(&ms); }\n",
    words: 16,
    bindings: { 1: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0] },
  },
  {
    name: "vector conversions",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let a = vec4f(vec4u(inp[i], 2u, 3u, 4u)); let b = vec4<u32>(a * 1.5); let c = vec3(a.xy, 1.0); let d = vec2<i32>(vec2f(-1.5, 2.7)); out[i] = b.x + b.y + u32(c.z) + bitcast<u32>(d.x) ; }\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4] },
  },
  {
    name: "divergent return from loop in helper",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nfn find(p: ptr<function, array<u32, 8>>, x: u32) -> i32 { for (var k = 0; k < 8; k++) { if ((*p)[k] == x) { return k; } } return -1; }\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var a = array<u32, 8>(5u, 3u, 9u, 1u, 0u, 2u, 7u, 4u); out[i] = bitcast<u32>(find(&a, i * 3u)); }\n",
    words: 16,
  },
  {
    name: "enable after a declaration",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nenable subgroups;\n\n@compute @workgroup_size(16) fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_invocation_id) s: u32) { let x = i * 3u + 1u; out[i] = subgroupShuffleUp(x, 1u) + 1000u * subgroupShuffleDown(x, 2u) + 100000u * u32(subgroupAll(x > 0u)) + 1000000u * u32(subgroupAny(x == 7u)); out[16u+i] = quadBroadcast(x, 2u) + 100u * quadSwapX(x) + 10000u * quadSwapY(x) + 1000000u * quadSwapDiagonal(x); }\n",
    words: 32,
    warpSize: 4,
    rejectedAt: [2, 1],
    dawnMessage: "directives must come before all global declarations",
  },
  {
    name: "f32 remainder (2)",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let x = f32(inp[i]) - 5.5; let y = select(2.5, -1.75, i % 2u == 0u); out[i] = bitcast<u32>(x % y); out[i+4u] = bitcast<u32>((vec2f(x, -x) % vec2f(y)).y); out[i+8u] = bitcast<u32>(f32(inp[i]) * 1.1 % 0.3); }\n",
    words: 12,
    bindings: { 1: [0,  3,  9,  20] },
  },
  {
    name: "matrix arithmetic (2)",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let m = mat3x3f(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0); let n = m * 2.0 - 0.5 * m + m; let v = vec3f(f32(i), 1.0, 2.0) * n; let mm = mat2x3f(1.0,2.0,3.0,4.0,5.0,6.0) * mat4x2f(1.0,0.0,0.0,1.0,1.0,1.0,2.0,0.5); out[i] = bitcast<u32>(v.z + mm[i][2]); out[i+4u] = bitcast<u32>(determinant(n) + determinant(mat4x4f(2.0,0.0,0.0,0.0,0.0,3.0,0.0,0.0,0.0,0.0,4.0,0.0,0.0,0.0,0.0,f32(i)))); }\n",
    words: 8,
  },
  {
    name: "subgroup_id",
    code: "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(16) fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) ns: u32) { out[i] = sg * 100u + ns; }\n",
    words: 16,
    warpSize: 4,
  },
  {
    name: "private arrays and structs",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nvar<private> state: array<u32, 4>;\nstruct G { n: u32, v: vec3f }\nvar<private> g: G;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { state[i] = i * 2u; g.n = i; g.v = vec3f(1.0); for (var k = 0u; k < 4u; k++) { state[k] += k; } out[i] = state[(i + 1u) % 4u] + g.n + u32(g.v.z); }\n",
    words: 16,
  },
  {
    name: "array value copies",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var a: array<u32, 4>; a[i] = 5u; var b = a; b[0] = 7u; let c = b; var s = 0u; for (var k = 0u; k < 4u; k++) { s += a[k] * 10u + c[k]; } out[i] = s; }\n",
    words: 16,
  },
  {
    name: "int ops",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let x = i32(i) - 2; out[i] = bitcast<u32>(x >> 1u) ^ (u32(x) >> 1u) ^ bitcast<u32>(abs(x) * -3); let big = 0xffffffffu; out[i + 4u] = big * big + big / (i + 1u) + big % 7u; }\n",
    words: 8,
  },
  {
    name: "grid stride",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(8, 1, 1) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) { let stride = nwg.x * 8u; var acc = 0u; for (var j = gid.x; j < arrayLength(&inp); j += stride) { acc += inp[j]; } out[gid.x] = acc; }\n",
    words: 16,
    bindings: { 1: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60,  61,  62,  63,  64,  65,  66,  67,  68,  69,  70,  71,  72,  73,  74,  75,  76,  77,  78,  79,  80,  81,  82,  83,  84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,  96,  97,  98,  99] },
    workgroups: [2],
  },
  {
    name: "uniform loop bound barrier",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nstruct Cfg { n: u32 }\n@group(0) @binding(1) var<uniform> cfg: Cfg;\nvar<workgroup> sh: array<u32, 8>;\n@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) { sh[i] = i + 1u; for (var s = cfg.n; s > 0u; s >>= 1u) { workgroupBarrier(); if (i < s) { sh[i] += sh[i + s]; } } workgroupBarrier(); out[i] = sh[0]; }\n",
    words: 8,
    bindings: { 1: [4,  0,  0,  0] },
  },
  {
    name: "storing a struct leaves its padding bytes",
    code: "struct S { a: u32, @size(16) b: u32, @align(32) c: vec3u, d: u32 }\n@group(0) @binding(0) var<storage, read_write> out: array<S>;\n@group(0) @binding(1) var<storage, read> inp: array<u32>;\n@compute @workgroup_size(1) fn main() { out[0] = S(1u, 2u, vec3u(3u, 4u, 5u), 6u); var t: S; t.a = inp[0]; out[1] = t; }\n",
    words: 32,
    fill: 0xaaaaaaaa,
    bindings: { 1: [9] },
  },
  {
    name: "vec3 store padding",
    code: "struct S { a: u32, b: vec3f }\n@group(0) @binding(0) var<storage, read_write> out: array<S>;\n@compute @workgroup_size(1) fn main() { out[0] = S(1u, vec3f(2.0)); out[1].b = vec3f(3.0); }\n",
    words: 16,
    fill: 0xaaaaaaaa,
  },
  {
    name: "vec3 array store",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<vec3u>;\n@compute @workgroup_size(1) fn main() { out[0] = vec3u(1u, 2u, 3u); out[1].y = 7u; let a = array<vec3u, 2>(vec3u(4u), vec3u(5u)); out[2] = a[1]; }\n",
    words: 16,
    fill: 0xaaaaaaaa,
  },
  {
    name: "array copy padding",
    code: "struct In { v: array<vec3f, 2> }\nstruct O { @size(64) x: array<vec3f, 2>, y: u32 }\n@group(0) @binding(0) var<storage, read_write> out: O;\n@group(0) @binding(1) var<storage, read> inp: In;\n@compute @workgroup_size(1) fn main() { out.x = inp.v; out.y = 1u; }\n",
    words: 20,
    fill: 0xaaaaaaaa,
    bindings: { 1: [1,  2,  3,  4,  5,  6,  7,  8] },
  },
  {
    name: "module let",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nlet D = 0.67;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { out[i] = u32(D * 10.0); }\n",
    words: 16,
    rejectedAt: [2, 1],
    dawnMessage: "module-scope 'let' is invalid, use 'const'",
  },
  {
    name: "order independence",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { out[i] = helper(i) + LATER; let t = Later(i); out[i + 4u] = t.v; }\nfn helper(x: u32) -> u32 { return twice(x) + 1u; }\nfn twice(x: u32) -> u32 { return x * 2u; }\nconst LATER = 100u;\nstruct Later { v: u32 }\n",
    words: 8,
  },
  {
    name: "empty statements",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var x = 0u; ; if i > 1u { x = 1u; } else { x = 2u; }; ;; out[i] = x; }\n",
    words: 16,
  },
  {
    name: "trailing commas and block comments /* nested /* */ */",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nfn f(a: u32, /*flag=*/ b: bool,) -> u32 { return select(a, 0u, b); }\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { out[i] = f(i, /*b=*/ i == 2u,); }\n",
    words: 16,
  },
  {
    name: "inferred mat2x2",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let v = vec4(1.0, 2.0, 3.0, 4.0); let m = mat2x2(v.xy, v.zw); let r = m * vec2(1.0); let mm = mat2x2(1., 2., 3., 4.); out[i] = u32(r[i % 2u] + mm[1].y); }\n",
    words: 16,
  },
  {
    name: "const array indexed by runtime",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nconst A = array(1u, 2u, 3u, 4u);\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let b = A; var s = 0u; for (var k = 0u; k < 4u; k++) { s += b[k] * A[k]; } out[i] = s + A[i]; }\n",
    words: 16,
  },
  {
    name: "else if chain",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let x = i32(i) - 2; var r: i32; if x < 0 { r = -1; } else if x == 0 { r = 0; } else { r = 1; } out[i] = bitcast<u32>(r); }\n",
    words: 16,
  },
  {
    name: "pointer to struct member and dot sugar",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nstruct S { a: u32, b: array<u32, 2> }\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var s = S(1u, array(2u, 3u)); let p = &s; let q = &(*p).b; (*q)[1] = 9u; p.a = 5u; out[i] = s.a + s.b[1] + (*p).b[0]; }\n",
    words: 16,
  },
  {
    name: "int literal extremes",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let a = 0x7fffffff; let b = 2147483647i; let c = 4294967295u; let d = -2147483648; out[i] = bitcast<u32>(a) + bitcast<u32>(b) + c + bitcast<u32>(d) + 1u; }\n",
    words: 16,
  },
  {
    name: "f32 const-expression overflow",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let big = 1e38f * 10.0; out[i] = bitcast<u32>(big); }\n",
    words: 16,
    rejectedAt: [2, 90],
    dawnMessage: "'99999996802856924650656260769173209088.0 * 10.0' cannot be represented as 'f32'",
  },
  {
    name: "division by zero const",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var x = 3.0; x = x / 0.0; out[i] = bitcast<u32>(1.0 / 0.0); }\n",
    words: 16,
    rejectedAt: [2, 128],
    dawnMessage: "'1.0 / 0.0' cannot be represented as 'abstract-float'",
  },
  {
    name: "runtime int div by zero",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let z = 0u; out[i] = 7u / z + 7u % z + u32(-7 / i32(z)) + u32(-7 % i32(z) + 100); }\n",
    words: 16,
  },
  {
    name: "const int div by zero",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { out[i] = 7u / 0u; }\n",
    words: 16,
    rejectedAt: [2, 89],
    dawnMessage: "integer division by zero is invalid",
  },
  {
    name: "shift to sign",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let a = 1u << 31u; let b = i32(i) << 31u; out[i] = a + bitcast<u32>(b); }\n",
    words: 16,
  },
  {
    name: "const shift 32",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { out[i] = 1u << 32u; }\n",
    words: 16,
    rejectedAt: [2, 89],
    dawnMessage: "shift left value must be less than the bit width of the lhs, which is 32",
  },
  {
    name: "runtime shift >= 32 masked",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let s = i + 30u; out[i] = 1u << s; }\n",
    words: 16,
  },
  {
    name: "loop bound from workgroupUniformLoad",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { let n = workgroupUniformLoad(&wg); for (var k = 0u; k < n; k++) { workgroupBarrier(); } out[i] = n; }\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
  },
  {
    name: "barrier under workgroup_id cond",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { if w.x == 0u { workgroupBarrier(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
  },
  {
    name: "var reassigned uniform after nonuniform",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { var x = 0u; if i == 0u { x = 1u; } x = 5u; if x == 5u { workgroupBarrier(); } out[i] = x;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
  },
  {
    name: "private var cond",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { pv = 3u; if pv == 3u { workgroupBarrier(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 136],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "var made nonuniform in loop",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { var x = u.x; for (var k = 0u; k < 4u; k++) { if k == i { x += 1u; } } if x > 0u { workgroupBarrier(); } out[i] = x;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 195],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "barrier after nonuniform break in loop",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { for (var k = 0u; k < 4u; k++) { if k == i { break; } workgroupBarrier(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 166],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "nonuniform continue at end",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { for (var k = 0u; k < 4u; k++) { workgroupBarrier(); if k == i { continue; } } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 145],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "fn with nonuniform return then barrier",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\nfn helper(x: u32) { if x == 0u { return; } rw[x] = 1u; }\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { helper(i); workgroupBarrier(); out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
  },
  {
    name: "fn with barrier called nonuniformly",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\nfn bar() { workgroupBarrier(); }\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { if i > 0u { bar(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [6, 12],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "storageBarrier under rw cond",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { let p = &rw[0]; if *p > 0u { storageBarrier(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 142],
    dawnMessage: "'storageBarrier' must only be called from uniform control flow",
  },
  {
    name: "workgroupUniformLoad under nonuniform",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { let v = workgroupUniformLoad(&wg); if i > v { let z = workgroupUniformLoad(&wg); out[i] = z; }}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 167],
    dawnMessage: "'workgroupUniformLoad' must only be called from uniform control flow",
  },
  {
    name: "switch nonuniform return then barrier",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { switch i { case 0u: { return; } default: {} } workgroupBarrier(); out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 159],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "function array written nonuniformly index",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { var a = array<u32, 4>(); a[i] = 1u; if a[0] == 1u { workgroupBarrier(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 165],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "uniform cond uniform buffer",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { let x = select(0u, 1u, i > 2u); if u.x == 1u { workgroupBarrier(); } out[i] = x;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
  },
  {
    name: "arrayLength cond",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { if arrayLength(&rw) > 2u { workgroupBarrier(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
  },
  {
    name: "attribute on a block statement does not make a barrier uniform",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> rw: array<u32>;\n@group(0) @binding(2) var<uniform> u: vec4u;\nvar<workgroup> wg: u32;\nvar<private> pv: u32;\n\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u) { @diagnostic(off, derivative_uniformity) { } if i > 0u { workgroupBarrier(); } out[i] = 1u;}\n",
    words: 16,
    bindings: { 1: [1,  2,  3,  4], 2: [1,  2,  3,  4] },
    rejectedAt: [7, 169],
    dawnMessage: "'workgroupBarrier' must only be called from uniform control flow",
  },
  {
    name: "dynamic matrix/vector component compound assign",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var m: mat3x2f; m[i % 3u][i % 2u] = 2.0; m[1] += vec2f(1.0); var v = vec3f(1.0, 2.0, 3.0); v[i % 3u] += 10.0; let p = &v; (*p).y *= 2.0; out[i] = bitcast<u32>(m[0].x + m[1].y + m[2][1] + v.x + v.y + v.z); }\n",
    words: 16,
  },
  {
    name: "mat3x2 mat2x3 in storage",
    code: "struct S { a: mat3x2f, b: mat2x3f, c: f32 }\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@group(0) @binding(1) var<storage, read_write> s: S;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { if i == 0u { s.a = mat3x2f(1.0, 2.0, 3.0, 4.0, 5.0, 6.0); s.b = transpose(s.a); s.c = s.b[1][2] + s.a[2][1]; } out[i] = 1u; }\n",
    words: 16,
    bindings: { 1: [2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530,  2863311530] },
  },
  {
    name: "uniform arrays of mat2x2 and vec3",
    code: "struct U { m: array<mat2x2f, 2>, v: array<vec3f, 2>, s: f32 }\n@group(0) @binding(1) var<uniform> u: U;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let m = u.m[i % 2u]; out[i] = bitcast<u32>(m[1][0] + u.v[i % 2u].z + u.s); }\n",
    words: 16,
    bindings: { 1: [1065353216,  1065418752,  1065484288,  1065549824,  1065615360,  1065680896,  1065746432,  1065811968,  1065877504,  1065943040,  1066008576,  1066074112,  1066139648,  1066205184,  1066270720,  1066336256,  1066401792,  1066467328,  1066532864,  1066598400] },
  },
  {
    name: "conversions and dot wrap",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let big = 0xffffffffu - i; out[i] = bitcast<u32>(i32(big)); out[i+4u] = bitcast<u32>(f32(big)); out[i+8u] = dot(vec4u(big), vec4u(2u, 3u, 4u, 5u)); out[i+12u] = bitcast<u32>(round(-2.5 + f32(i))); }\n",
    words: 16,
  },
  {
    name: "whole workgroup array assignment",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nvar<workgroup> W: array<u32, 4>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var l = array<u32, 4>(i, i * 2u, i * 3u, i * 4u); if i == 2u { W = l; } workgroupBarrier(); let c = W; out[i] = c[i]; }\n",
    words: 16,
  },
  {
    name: "return from nested loops",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var s = 0u; for (var a = 0u; a < 4u; a++) { for (var b = 0u; b < 4u; b++) { if a * b > i + 2u { out[i] = s; return; } s += a * 4u + b; } } out[i] = 1000u + s; }\n",
    words: 16,
  },
  {
    name: "subgroup ops in divergent loop",
    code: "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) { var k = 0u; var r = 0u; loop { if k >= i { break; } r += countOneBits(subgroupBallot(true).x) * 100u + subgroupAdd(1u); k++; } out[i] = r + 10000u * subgroupAdd(r); }\n",
    words: 16,
    warpSize: 4,
    rejectedAt: [3, 183],
    dawnMessage: "'subgroupAdd' must only be called from subgroup uniform control flow",
  },
  {
    name: "bool vectors",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let b = vec3<bool>(i > 0u, i > 1u, i > 2u); out[i] = u32(any(b)) + 2u * u32(all(b)) + 4u * u32(all(!b)) + 8u * u32(select(vec3u(1u), vec3u(2u), b).y); }\n",
    words: 16,
  },
  {
    name: "private array of structs init",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nstruct P { x: u32, y: u32 }\nvar<private> pa: array<P, 4> = array(P(1u, 2u), P(3u, 4u), P(5u, 6u), P(7u, 8u));\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { pa[i].x += 100u; let q = pa[(i + 1u) % 4u]; out[i] = pa[i].x + q.x; }\n",
    words: 16,
  },
  {
    name: "vector rounding",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { let v = vec4f(-0.0, 1.5, -2.5, 3.5); let r = round(v); let a = abs(v); out[i] = bitcast<u32>(r[i]) ^ bitcast<u32>(a[i]) ^ bitcast<u32>(trunc(-v[i])) ^ bitcast<u32>(i32(v[i] * -3.0)); }\n",
    words: 16,
  },
  {
    name: "switch empty case",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var x = 0u; switch i { case 0u, 1u: { x = 1u; } case 2u: { } default: { x = 9u; } } let y = select(x, 7u, i == 2u); out[i] = y; }\n",
    words: 16,
  },
  {
    name: "scalar var with init in loop",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var s = 0u; for (var k = 0u; k < 3u; k++) { var x = 0u; x += k + 1u; s = s * 10u + x; } out[0] = s; }\n",
    words: 16,
  },
  {
    name: "for shadow",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var n = 0u; for (var i = 0u; i < 3u; i++) { var i = 100u; n += i; } out[0] = n; }\n",
    words: 16,
  },
  {
    name: "continuing",
    code: "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var s = 0u; var k = 0u; loop { let t = k * 2u; var y = t + 1u; s += y; k++; continuing { s += y * 100u; break if t >= 4u; } } out[0] = s; }\n",
    words: 16,
  },
];
