/**
 * f16 on the simulator against Dawn, on an adapter with `shader-f16` (Dawn on SwiftShader has
 * none, so src/sim/conformance/types/f16.test.ts checks the spec only). Runs one kernel over a
 * table of edge-case and random f32 inputs on both, compares every f16 result bit for bit and
 * prints, per expression, the cases that differ. Exact operations (conversions, + - * /, layout,
 * bitcast, min/max/abs/floor…) must agree bit for bit; the math builtins may differ within WGSL's
 * f16 accuracy, so their largest distance in f16 units in the last place is printed, not judged.
 * A GPU may flush f16 subnormals: such results are counted apart.
 *
 * Usage (GPU host, from the bundle): node f16-dawn.mjs. Exit status 1 when an exact expression
 * differs, 2 when the adapter lacks shader-f16.
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import { simulate } from '../../src/sim/simulate.ts';

/** [WGSL expression over x and y (f16), exact?] */
const EXPRS: readonly (readonly [string, boolean])[] = [
  ['x', true],
  ['x + y', true],
  ['x - y', true],
  ['x * y', true],
  ['x / y', false],
  ['-x', true],
  ['abs(x)', true],
  ['min(x, y)', true],
  ['max(x, y)', true],
  ['floor(x)', true],
  ['ceil(x)', true],
  ['trunc(x)', true],
  ['round(x)', true],
  ['fract(x)', false],
  ['sqrt(abs(x))', false],
  ['fma(x, y, 1.0h)', false],
  ['clamp(x, -1.0h, 1.0h)', true],
  ['select(x, y, x < y)', true],
  ['f16(i32(x))', true],
  ['f16(u32(x))', true],
  ['bitcast<vec2<f16>>(bitcast<u32>(vec2<f16>(x, y))).y', true],
  ['exp2(x)', false],
  ['sin(x)', false],
  ['dot(vec2<f16>(x, y), vec2<f16>(y, x))', false],
];

const edges = [
  0, -0, 1, -1, 0.5, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2049, 65504, 65519, 65520, 65536, -65520, 1e9,
  2 ** -24, 2 ** -25, 1.5 * 2 ** -24, 2 ** -14, 2 ** -14 - 2 ** -24, 3.14159, -2.5, 1000.1, Infinity, -Infinity,
];
// A fixed pseudo-random tail: magnitudes 2^-26 … 2^17, both signs.
let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const inputs: number[] = [...edges];
while (inputs.length < 256) inputs.push((rnd() < 0.5 ? -1 : 1) * 2 ** (rnd() * 43 - 26));
const N = inputs.length;

const code = `enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= ${N}u) { return; }
  let x = f16(inp[i]);
  let y = f16(inp[(i * 7u + 3u) % ${N}u]);
${EXPRS.map(([e], k) => `  out[${k}u * ${N}u + i] = ${e};`).join('\n')}
}`;

const outWords = Math.ceil((EXPRS.length * N) / 2);
const run = () => ({
  code,
  entryPoint: 'main',
  workgroups: [Math.ceil(N / 64)] as [number],
  bindings: { 0: { 0: new Uint32Array(outWords), 1: Float32Array.from(inputs) } },
});

const gpu = await createNodeGpu();
const ctx = await gpu.ready();
console.log(`adapter: ${ctx.summary.name}`);
if (!ctx.device.features.has('shader-f16')) {
  console.log('this adapter does not offer shader-f16: nothing to compare');
  process.exit(2);
}
const onGpu = (await gpu.run(run()))[0]![0] as Uint32Array;
const sim = simulate(run(), { shaderF16: true });
if (sim.diagnostics.length) {
  console.log(sim.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  process.exit(1);
}
const onSim = sim.buffers[0]![0] as Uint32Array;

const half = (w: Uint32Array, k: number) => (k & 1 ? w[k >> 1]! >>> 16 : w[k >> 1]! & 0xffff);
const isNaN16 = (b: number) => (b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0;
const subnormal = (b: number) => (b & 0x7c00) === 0 && (b & 0x3ff) !== 0;
/** Distance in f16 ulps (ordered integer form of the bits). */
const ord = (b: number) => (b & 0x8000 ? -(b & 0x7fff) : b);
let exactFailures = 0;
for (const [k, [expr, exact]] of EXPRS.entries()) {
  let diff = 0;
  let flushed = 0;
  let maxUlp = 0;
  const shown: string[] = [];
  for (let i = 0; i < N; i++) {
    const g = half(onGpu, k * N + i);
    const s = half(onSim, k * N + i);
    if (g === s || (isNaN16(g) && isNaN16(s))) continue;
    if ((g & 0x7fff) === 0 && subnormal(s)) {
      flushed++;
      continue;
    }
    diff++;
    maxUlp = Math.max(maxUlp, Math.abs(ord(g) - ord(s)));
    if (shown.length < 4) shown.push(`x=${inputs[i]} gpu=0x${g.toString(16)} sim=0x${s.toString(16)}`);
  }
  const verdict = diff === 0 ? 'same' : exact ? 'DIFFERS' : `within ${maxUlp} ulp`;
  if (diff && exact) exactFailures++;
  console.log(`${expr.padEnd(56)} ${verdict}${diff ? ` (${diff} of ${N})` : ''}${flushed ? `, ${flushed} subnormals flushed by the GPU` : ''}`);
  for (const line of shown) console.log(`    ${line}`);
}
console.log(exactFailures ? `${exactFailures} exact expressions differ` : 'every exact expression agrees bit for bit');
process.exit(exactFailures ? 1 : 0);
