/**
 * `npm run bench:scan-tuning`: the vec4 single-pass scan (shaders/scan/single-pass-vec4.wgsl) at
 * several workgroup sizes and spin limits, and microkernels that build its tile scan up step by
 * step (loads and stores alone; + subgroup scans; + a barrier and the chunk totals), each timed
 * beside a copy over the very same buffers. Every pass of every case is submitted back to back
 * after a second of warm-up, so the GPU's clocks stay up and all cases see the same state. Each
 * configuration is first checked against the CPU on random data with a poisoned output; look-back
 * events (window reads per tile, fallbacks) come from a build with COUNT_EVENTS, where the kernel
 * has it. Prints figures; never fails on time.
 *
 * Environment: TUNING_LOG2 (default 26), TUNING_REPEATS (default 9 rounds), TUNING_DISPATCHES
 * (dispatches per timed pass, default 10), TUNING_ONLY (a regular expression: only the cases it
 * matches), TUNING_QUICK=1 (a few cases), TUNING_ABLATION_WG (the ablation's workgroup size,
 * default 1024), TUNING_EXTRA_TYPES (u32,f32: the extra kernels' element types), TUNING_EXTRA_WG
 * (their workgroup sizes, default 128,256,384,512,768,1024), TUNING_GROUPS (workgroups dispatched
 * for a persistent extra kernel, one with `workgroup_count` in its params: default 132,264),
 * TUNING_EXTRA_ABLATION=1 (each extra kernel's ablation too). Other kernels with the same bindings
 * may be named as arguments (`file.wgsl`).
 *
 * The ablation (cases named `ablation …`; none gives right results unless checked): the shipped
 * kernel with its look-back replaced by one read of the predecessor's slot (whose result the
 * compiler may see is unused), and by the same read with its value used (the round trip, no
 * wait); with the look-back's code whole but every slot read as an inclusive prefix (the same code
 * and one round trip, no wait); with its subgroup exclusive scans cut out (the reduction that the
 * aggregate needs kept); with its fallback's code cut out (right while no tile falls back, so
 * checked); and a build that counts window reads and fallbacks. With the bound without the
 * look-back and micro 1 at the shipped tile (loads and stores alone), these say where the time
 * goes. A persistent extra kernel's ablation adds a copy with its tiling (ticketed tiles, the next
 * tile loaded before the current one is stored).
 */
import { readFileSync } from 'node:fs';
import { createNodeGpu } from '../src/gpu/node.ts';
import { fmt, gbps, log2Label, table } from '../src/bench/format.ts';
import { randomU32, seededRandom } from '../src/util/random.ts';
import { foldWorkgroups } from '../src/kernel/types.ts';
import { scanReference, scanReferenceF64 } from '../src/labs/scan/reference.ts';
import SCAN_WGSL from '../shaders/scan/single-pass-vec4.wgsl?raw';
import COPY_WGSL from '../shaders/bandwidth/copy.wgsl?raw';
import READ_WGSL from '../shaders/bandwidth/read.wgsl?raw';
import LINEAR_WGSL from '../shaders/common/linear-workgroup.wgsl?raw';
import { median } from '../src/util/stats.ts';

const LOG2 = Number(process.env.TUNING_LOG2 ?? 26);
const ROUNDS = Number(process.env.TUNING_REPEATS ?? 9);
const K = Number(process.env.TUNING_DISPATCHES ?? 10);
const QUICK = process.env.TUNING_QUICK === '1';
/** Element types the extra kernels run with (TUNING_EXTRA_TYPES=u32,f32; default u32). */
const EXTRA_TYPES = (process.env.TUNING_EXTRA_TYPES ?? 'u32').split(',') as ('u32' | 'f32')[];
const t0 = performance.now();
const stamp = (): string => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

const gpu = await createNodeGpu();
const ctx = await gpu.ready();
const device = ctx.device;
console.log(`# Scan tuning on ${ctx.summary.name}, N = ${log2Label(2 ** LOG2)}, ${K} dispatches per timed pass, ${ROUNDS} rounds (median)`);


function storage(size: number, label: string): GPUBuffer {
  return device.createBuffer({ label, size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
}

async function readBack(buffer: GPUBuffer, size: number): Promise<Uint32Array> {
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buffer, 0, staging, 0, size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return out;
}

async function pipeline(code: string, label: string, constants: Record<string, number> = {}): Promise<GPUComputePipeline> {
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length) throw new Error(`${label}: ${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; ')}`);
  return device.createComputePipelineAsync({ label, layout: 'auto', compute: { module, entryPoint: 'main', constants } });
}

function bindGroup(p: GPUComputePipeline, buffers: readonly GPUBuffer[]): GPUBindGroup {
  return device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })) });
}

const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
const resolveBuf = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });

/** Milliseconds per dispatch of a pass of `k` dispatches (timestamp queries around the pass). */
async function timePass(p: GPUComputePipeline, bg: GPUBindGroup, groups: [number, number], k: number): Promise<number> {
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } });
  pass.setPipeline(p);
  pass.setBindGroup(0, bg);
  for (let i = 0; i < k; i++) pass.dispatchWorkgroups(groups[0], groups[1]);
  pass.end();
  enc.resolveQuerySet(querySet, 0, 2, resolveBuf, 0);
  const staging = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  enc.copyBufferToBuffer(resolveBuf, 0, staging, 0, 16);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const [a, b] = new BigUint64Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return Number(b! - a!) / 1e6 / k;
}

// ---- Data: random u32, and small integers as f32 for the f32 runs; CPU references.
const n = 2 ** LOG2;
const rng = seededRandom(LOG2 * 7919);
const dataU32 = randomU32(rng, n);
const dataF32 = Float32Array.from(randomU32(rng, n, 8)); // small integers: checked within a relative 1e-4
const refU32Incl = scanReference(dataU32, false);
const refU32Excl = scanReference(dataU32, true);
const refF32Incl = scanReferenceF64(dataF32, false);
const bytes = n * 4;
const input = { u32: storage(bytes, 'input.u32'), f32: storage(bytes, 'input.f32') };
device.queue.writeBuffer(input.u32, 0, dataU32);
device.queue.writeBuffer(input.f32, 0, dataF32);
const output = storage(bytes, 'output');

// ---- The copy baselines over the same buffers, and the read kernel for the state probe.
const copyPipe = await pipeline(COPY_WGSL, 'copy');
const copyParams = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(copyParams, 0, new Uint32Array([n / 4, 0, 0, 0]));
const copyGrid = Math.min(4096, Math.ceil(n / 4 / 256));
const copyBg = bindGroup(copyPipe, [input.u32, output, copyParams]);
const readPipe = await pipeline(READ_WGSL, 'read');
const readSink = storage(copyGrid * 256 * 4, 'read.sink');
const readBg = bindGroup(readPipe, [input.u32, readSink, copyParams]);

console.log(`\n## State probe (${stamp()})`);
for (let i = 0; i < 3; i++) {
  const r = await timePass(readPipe, readBg, [copyGrid, 1], K);
  const c = await timePass(copyPipe, copyBg, [copyGrid, 1], K);
  console.log(`round ${i + 1}: read ${fmt(gbps(bytes, r))} GB/s, copy ${fmt(gbps(2 * bytes, c))} GB/s (same buffers as the scans)`);
}

// ---- Cases: microkernels that build the tile scan up step by step, then the kernel itself.
// Every case binds input (0), output (1), status (2) and params (3) where its WGSL declares them.
type ElemType = 'u32' | 'f32';
interface Case {
  readonly name: string;
  readonly code: string;
  readonly vecs: number;
  readonly wg: number;
  readonly spin: number;
  readonly type: ElemType;
  readonly exclusive: boolean;
  /** Results are meant to be right (false for upper bounds that skip work). */
  readonly checked: boolean;
  /** Persistent kernels (`workgroup_count` in their params): workgroups dispatched. */
  readonly groups?: number | undefined;
}
/** The kernel as run: its element type swapped in, the linear-workgroup snippet appended. */
const source = (code: string, type: ElemType): string =>
  `${type === 'u32' ? code : code.replace(/alias T = u32;/, `alias T = ${type};`)}\n${LINEAR_WGSL}`;
/** Steps of the tile scan with subgroups numbered by lid / subgroup_size (true on NVIDIA). */
const micro = (step: 1 | 2 | 3, vecs = 4): string => `enable subgroups;
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;
const VECS = ${vecs}u;
struct Params { n: u32, tile_count: u32 }
@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<T>>;
@group(0) @binding(3) var<uniform> params: Params;
var<workgroup> chunk_totals: array<T, WORKGROUP_SIZE>;
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>, @builtin(subgroup_invocation_id) rank: u32,
        @builtin(subgroup_size) live: u32) {
  let tile = linear_workgroup_index(wid, nwg);
  if (tile >= params.tile_count) { return; }
  let here = tile * WORKGROUP_SIZE * VECS + (lid - rank) * VECS + rank;
  var x: array<vec4<T>, VECS>;
  for (var r = 0u; r < VECS; r++) { x[r] = input[here + r * live]; }
  ${step >= 2 ? `var carry = T(0);
  for (var r = 0u; r < VECS; r++) {
    let v = x[r];
    let s1 = v.x; let s2 = s1 + v.y; let s3 = s2 + v.z; let s4 = s3 + v.w;
    x[r] = vec4<T>(carry + subgroupExclusiveAdd(s4)) + vec4<T>(s1, s2, s3, s4);
    carry += subgroupAdd(s4);
  }` : ''}
  ${step >= 3 ? `if (rank == 0u) { chunk_totals[lid / live] = carry; }
  workgroupBarrier();
  var before = T(0);
  for (var g = rank; g < lid / live; g += live) { before += chunk_totals[g]; }
  let b = vec4<T>(subgroupAdd(before));
  for (var r = 0u; r < VECS; r++) { x[r] += b; }` : ''}
  for (var r = 0u; r < VECS; r++) { output[here + r * live] = x[r]; }
}`;
/** A copy with a persistent kernel's tiling (4 vec4s): ticketed tiles, the next tile loaded before the current one is stored. */
const persistentCopy = `enable subgroups;
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;
const VECS = 4u;
struct Params { n: u32, tile_count: u32, workgroup_count: u32 }
@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;
var<workgroup> ticket: u32;
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  if (linear_workgroup_index(wid, nwg) >= params.workgroup_count) { return; }
  let round = params.tile_count + params.workgroup_count;
  if (lid == 0u) { ticket = atomicAdd(&status[0], 1u); }
  var tile = workgroupUniformLoad(&ticket) % round;
  if (tile >= params.tile_count) { return; }
  var base = tile * WORKGROUP_SIZE * VECS + lid;
  var x0 = input[base]; var x1 = input[base + WORKGROUP_SIZE];
  var x2 = input[base + 2u * WORKGROUP_SIZE]; var x3 = input[base + 3u * WORKGROUP_SIZE];
  loop {
    if (lid == 0u) { ticket = atomicAdd(&status[0], 1u); }
    let next = workgroupUniformLoad(&ticket) % round;
    let more = next < params.tile_count;
    let nb = min(next, params.tile_count - 1u) * WORKGROUP_SIZE * VECS + lid;
    let y0 = input[nb]; let y1 = input[nb + WORKGROUP_SIZE];
    let y2 = input[nb + 2u * WORKGROUP_SIZE]; let y3 = input[nb + 3u * WORKGROUP_SIZE];
    output[base] = x0; output[base + WORKGROUP_SIZE] = x1;
    output[base + 2u * WORKGROUP_SIZE] = x2; output[base + 3u * WORKGROUP_SIZE] = x3;
    workgroupBarrier();
    if (!more) { break; }
    base = nb; x0 = y0; x1 = y1; x2 = y2; x3 = y3;
  }
}`;
/** `code` with `from` replaced by `to`; throws if `from` is not there (the ablation would be void). */
const cut = (code: string, from: string, to: string): string => {
  if (!code.includes(from)) throw new Error(`scan-tuning: ablation text not found: ${from}`);
  return code.split(from).join(to);
};
const LOOK_BACK_CALL = 'let prefix = look_back(tile, mark, rank, live);';
const ONE_READ = 'let s1 = read_slot(max(tile, 1u) - 1u, mark);\n    let prefix = select(T(0), T(1), s1.x == 7u);';
// The same read with its value feeding the stores: read_slot's state is 0, 1 or 2, so a compiler
// may prove ONE_READ's prefix 0 and not wait for the loads at all (docs/benchmarks.md, 2026-11-27).
const ONE_READ_USED = 'let s1 = read_slot(max(tile, 1u) - 1u, mark);\n    let prefix = bitcast<T>(s1.y);';
/** The shipped kernel with single-pass-pipelined's COUNT_EVENTS counters (off: the same kernel). */
const SCAN_COUNTED = cut(cut(cut(cut(SCAN_WGSL,
  'const VECS = 8u;',
  'const VECS = 8u;\noverride COUNT_EVENTS: bool = false;\nfn count_event(e: u32) { if (COUNT_EVENTS) { atomicAdd(&status[1u + 2u * params.tile_count + e], 1u); } }'),
  'for (var tries = 0u; tries < SPIN_LIMIT; tries = tries + 1u) {', 'for (var tries = 0u; tries < SPIN_LIMIT; tries = tries + 1u) {\n      if (rank == 0u) { count_event(0u); }'),
  'prefix = prefix + reduce_tile(j - 1u, rank, live);', 'if (rank == 0u) { count_event(1u); }\n      prefix = prefix + reduce_tile(j - 1u, rank, live);'),
  LOOK_BACK_CALL, `if (rank == 0u) { count_event(2u); }\n    ${LOOK_BACK_CALL}`);
const cases: Case[] = [];
const add = (c: Partial<Case> & { name: string; code: string }): void => {
  cases.push({ vecs: 4, wg: 256, spin: 64, type: 'u32', exclusive: false, checked: true, ...c });
};
/** A kernel's vec4s per invocation, from its `VECS` constant (the tile is wg · VECS · 4 elements). */
const vecsOf = (code: string): number => Number(/const VECS = (\d+)u;/.exec(code)?.[1] ?? 4);
const kernel = (wg: number, spin: number, type: ElemType = 'u32', exclusive = false): void =>
  add({ name: `scan wg ${wg} spin ${spin} ${type}${exclusive ? ' excl' : ''}`, code: SCAN_WGSL, vecs: vecsOf(SCAN_WGSL), wg, spin, type, exclusive });
add({ name: 'micro 1 tile copy', code: micro(1), checked: false });
add({ name: 'micro 2 + subgroup scans', code: micro(2), checked: false });
add({ name: 'micro 3 + barrier, totals', code: micro(3), checked: false });
// The same steps with the shipped kernel's tile (8 vec4s per invocation, 1024 invocations), and
// that kernel without its look-back: an ablation from a copy with its loads up to the kernel.
for (const step of [1, 2, 3] as const) add({ name: `micro ${step} at the shipped tile (8 vec4s, wg 1024)`, code: micro(step, 8), vecs: 8, wg: 1024, checked: false });
// The ablation of the shipped kernel (see the header).
const ABLATION_WG = Number(process.env.TUNING_ABLATION_WG ?? 1024);
const ablationMakers: [string, (code: string) => string][] = [
  ['one read', (code) => cut(code, LOOK_BACK_CALL, ONE_READ)],
  ['one read, value used', (code) => cut(code, LOOK_BACK_CALL, ONE_READ_USED)],
  ['look-back never waits', (code) => cut(code, 'let s = read_slot(t, mark);', 'let s = vec2<u32>(INCLUSIVE, read_slot(t, mark).y);')],
  ['without tile scan', (code) => code.replace(/subgroupExclusiveAdd\((sums\d?)\)/g, 'vec4<T>(T(0))')],
  ['without look-back', (code) => cut(code, LOOK_BACK_CALL, 'let prefix = T(0);')],
];
const ablations = (code: string): [string, string][] => ablationMakers.map(([what, make]) => [what, make(code)]);
for (const [what, code] of ablations(SCAN_WGSL).filter(([w]) => w !== 'without look-back')) {
  add({ name: `ablation shipped ${what} wg ${ABLATION_WG}`, code, vecs: vecsOf(SCAN_WGSL), wg: ABLATION_WG, checked: false });
}
add({ name: `ablation shipped without fallback code wg ${ABLATION_WG}`, code: cut(SCAN_WGSL, 'prefix = prefix + reduce_tile(j - 1u, rank, live);', 'prefix = prefix + T(0);'), vecs: vecsOf(SCAN_WGSL), wg: ABLATION_WG });
add({ name: `shipped, counted build, wg ${ABLATION_WG}`, code: SCAN_COUNTED, vecs: vecsOf(SCAN_WGSL), wg: ABLATION_WG });
kernel(ABLATION_WG, 64, 'f32');
if (QUICK) {
  kernel(256, 64);
} else {
  for (const wg of [128, 256, 384, 512, 640, 768, 1024]) kernel(wg, 64);
  for (const spin of [16, 256]) kernel(256, spin);
  for (const wg of [256, 512]) kernel(wg, 64, 'f32');
  for (const wg of [256, 512]) kernel(wg, 64, 'u32', true);
  // An upper bound with wrong results: the kernel without its look-back.
  const noLookBack = SCAN_WGSL.replace('let prefix = look_back(tile, mark, rank, live);', 'let prefix = T(0);');
  if (noLookBack === SCAN_WGSL) throw new Error('scan-tuning: the look-back call to cut out was not found');
  for (const wg of [256, 512, 1024]) add({ name: `bound: scan without look-back, wg ${wg}`, code: noLookBack, vecs: vecsOf(noLookBack), wg, checked: false });
}
const EXTRA_WG = (process.env.TUNING_EXTRA_WG ?? '128,256,384,512,768,1024').split(',').map(Number);
const GROUPS = (process.env.TUNING_GROUPS ?? '132,264').split(',').map(Number);
for (const [i, file] of process.argv.slice(2).entries()) {
  const code = readFileSync(file, 'utf8');
  const vecs = vecsOf(code);
  const persistent = /workgroup_count/.test(code);
  for (const wg of EXTRA_WG) {
    for (const groups of persistent ? GROUPS : [undefined]) {
      const at = `wg ${wg}${groups ? ` groups ${groups}` : ''}`;
      for (const type of EXTRA_TYPES) add({ name: `extra ${i + 1} (${file}) ${at} ${type}`, code, vecs, wg, type, groups });
      if (process.env.TUNING_EXTRA_ABLATION !== '1') continue;
      // One ablation whose text this kernel lacks is left out with a line saying so (it used to
      // stop the whole run before its first case; the shipped kernel's still must match).
      for (const [what, make] of ablationMakers) {
        try {
          add({ name: `ablation extra ${i + 1} ${what} ${at}`, code: make(code), vecs, wg, groups, checked: false });
        } catch (e) {
          console.log(`ablation extra ${i + 1} ${what} ${at}: left out (${(e as Error).message})`);
        }
      }
      if (persistent && vecs === 4) add({ name: `ablation extra ${i + 1} copy with its tiling ${at}`, code: persistentCopy, vecs, wg, groups, checked: false });
    }
  }
}

interface Ready {
  readonly c: Case;
  readonly pipe: GPUComputePipeline;
  readonly bg: GPUBindGroup;
  readonly groups: [number, number];
  readonly note: string;
}
const ready: Ready[] = [];
const failed: string[][] = [];
const only = process.env.TUNING_ONLY ? new RegExp(process.env.TUNING_ONLY) : undefined;
for (const c of cases.filter((x) => !only || only.test(x.name))) {
  const tileElems = c.wg * c.vecs * 4;
  const tiles = Math.ceil(n / tileElems);
  const code = source(c.code, c.type);
  const persistent = c.groups === undefined ? 0 : Math.min(c.groups, tiles);
  const groups = foldWorkgroups(persistent || tiles);
  const statusWords = 1 + 2 * tiles + 3;
  const prm = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(prm, 0, new Uint32Array([n, tiles, persistent, 0]));
  const declared = new Set([...code.matchAll(/@binding\((\d)\)/g)].map((m) => Number(m[1])));
  const constants: Record<string, number> = { WORKGROUP_SIZE: c.wg };
  if (/override SPIN_LIMIT/.test(code)) constants.SPIN_LIMIT = c.spin;
  if (/override EXCLUSIVE/.test(code)) constants.EXCLUSIVE = c.exclusive ? 1 : 0;
  const withStatus = (st: GPUBuffer): GPUBuffer[] => [input[c.type], output, st, prm];
  const bindAll = (pipe: GPUComputePipeline, st: GPUBuffer): GPUBindGroup =>
    device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: withStatus(st).map((buffer, binding) => ({ binding, resource: { buffer } })).filter((e) => declared.has(e.binding)),
    });
  try {
    const pipe = await pipeline(code, c.name, constants);
    const status = storage(statusWords * 4, `${c.name}.status`);
    const bg = bindAll(pipe, status);
    // Correctness: poisoned output, one dispatch, every element checked (not for upper bounds).
    let bad = 0;
    if (!c.checked) {
      // nothing to check: the case skips work on purpose
    } else if (c.type === 'u32') {
      device.queue.writeBuffer(output, 0, new Uint32Array(n).fill(0xdeadbeef));
      await timePass(pipe, bg, groups, 1);
      const got = await readBack(output, bytes);
      const ref = c.exclusive ? refU32Excl : refU32Incl;
      for (let i = 0; i < n; i++) if (got[i] !== ref[i]) bad++;
    } else {
      device.queue.writeBuffer(output, 0, new Uint32Array(n).fill(0xdeadbeef));
      await timePass(pipe, bg, groups, 1);
      const f = new Float32Array((await readBack(output, bytes)).buffer);
      for (let i = 0; i < n; i++) if (!(Math.abs(f[i]! - refF32Incl[i]!) <= 1e-4 * refF32Incl[i]! + 1)) bad++;
    }
    let note = c.checked ? (bad === 0 ? 'ok' : `${bad} WRONG`) : 'not a scan';
    // Look-back events per dispatch, from the COUNT_EVENTS build on its own status buffer.
    if (/override COUNT_EVENTS/.test(code) && c.checked) {
      const counted = storage(statusWords * 4, `${c.name}.counted`);
      const pc = await pipeline(code, `${c.name} counted`, { ...constants, COUNT_EVENTS: 1 });
      await timePass(pc, bindAll(pc, counted), groups, 4);
      const w = await readBack(counted, statusWords * 4);
      note += `; ${fmt(w[1 + 2 * tiles]! / Math.max(w[3 + 2 * tiles]!, 1), 2)} reads/tile, ${fmt(w[2 + 2 * tiles]! / 4, 0)} fallbacks`;
      counted.destroy();
    }
    ready.push({ c, pipe, bg, groups, note });
    console.log(`${stamp()} prepared ${c.name}: ${note}`);
  } catch (e) {
    failed.push([c.name, (e as Error).message.replace(/\s+/g, ' ').slice(0, 100)]);
  }
}

// ---- Timing: every case in every round, all passes submitted back to back so the GPU never idles
// (on an H100 the SM clock falls within ~100 ms of idling and a short pass then runs at part speed).
const copyCase = { pipe: copyPipe, bg: copyBg, groups: [copyGrid, 1] as [number, number] };
const timed = [copyCase, ...ready];
const slots = timed.length * ROUNDS;
const qs = device.createQuerySet({ type: 'timestamp', count: 2 * slots });
const qResolve = device.createBuffer({ size: 16 * slots, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const qRead = device.createBuffer({ size: 16 * slots, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const encodePass = (enc: GPUCommandEncoder, t: (typeof timed)[number], k: number, slot?: number): void => {
  const pass = enc.beginComputePass(slot === undefined ? {} : { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * slot, endOfPassWriteIndex: 2 * slot + 1 } });
  pass.setPipeline(t.pipe);
  pass.setBindGroup(0, t.bg);
  for (let i = 0; i < k; i++) pass.dispatchWorkgroups(t.groups[0], t.groups[1]);
  pass.end();
};
// Warm-up: about a second of work, so the clocks are up before the first timed pass.
{
  const t1 = performance.now();
  let submitted = 0;
  while (performance.now() - t1 < 1500) {
    const enc = device.createCommandEncoder();
    for (const t of timed) encodePass(enc, t, K);
    device.queue.submit([enc.finish()]);
    if (++submitted % 4 === 0) await device.queue.onSubmittedWorkDone();
  }
  await device.queue.onSubmittedWorkDone();
  console.log(`\n${stamp()} warm-up: ${submitted} rounds of every case`);
}
for (let r = 0; r < ROUNDS; r++) {
  const enc = device.createCommandEncoder();
  timed.forEach((t, i) => encodePass(enc, t, K, r * timed.length + i));
  device.queue.submit([enc.finish()]);
}
{
  const enc = device.createCommandEncoder();
  enc.resolveQuerySet(qs, 0, 2 * slots, qResolve, 0);
  enc.copyBufferToBuffer(qResolve, 0, qRead, 0, 16 * slots);
  device.queue.submit([enc.finish()]);
}
await qRead.mapAsync(GPUMapMode.READ);
const ticks = new BigUint64Array(qRead.getMappedRange().slice(0));
qRead.unmap();
const msAt = (r: number, i: number): number => Number(ticks[2 * (r * timed.length + i) + 1]! - ticks[2 * (r * timed.length + i)]!) / 1e6 / K;
const copySeries = Array.from({ length: ROUNDS }, (_, r) => msAt(r, 0));
const copyMs = median(copySeries);
console.log(`${stamp()} copy GB/s by round: ${copySeries.map((m) => fmt(gbps(2 * bytes, m), 0)).join(' ')}`);

const rows = ready.map((t, j) => {
  const i = j + 1;
  const series = Array.from({ length: ROUNDS }, (_, r) => msAt(r, i));
  // Ratio within each round (the copy ran just before), then the median of those.
  const ratios = series.map((m, r) => copySeries[r]! / m);
  const ms = median(series);
  return [
    t.c.name,
    String(t.c.wg * t.c.vecs * 4),
    fmt(ms, 4),
    fmt(Math.min(...series), 4),
    fmt(gbps(2 * bytes, ms)),
    `${fmt((100 * copyMs) / ms, 1)} %`,
    `${fmt(100 * median(ratios), 1)} %`,
    t.note,
  ];
});
console.log(`\n## Results (${stamp()})`);
console.log(`copy over the same buffers: median ${fmt(copyMs, 4)} ms, ${fmt(gbps(2 * bytes, copyMs))} GB/s. GB/s counts 8 bytes per element.\n`);
console.log(table(['case', 'tile', 'median ms', 'min ms', 'GB/s', '% of copy', 'per-round % of copy', 'check'], rows));
if (failed.length) console.log(`\n${table(['case', 'failed'], failed)}`);
gpu.destroy();
process.exit(0);
