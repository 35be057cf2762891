/**
 * Small experiments behind docs/benchmarks.md's "Why 2^28 figures moved between runs": each
 * candidate cause of the spread measured on its own, on raw WebGPU (Dawn) buffers, with every
 * timed pass queued back to back after a warm-up so the clocks stay up.
 *
 *   placement   six buffers of the same size, allocated the same way, read in alternating rounds
 *   first-use   the first passes over a new 1 GiB buffer: lazily zeroed by Dawn, written through
 *               mappedAtCreation, or written with queue.writeBuffer
 *   order       buffers allocated before and after 24 GiB of other allocations, and after those
 *               are freed, read in alternating rounds
 *   chain       reduce chains at 2^28 timed the old way (kernel alone) and the new way (rounds
 *               beside a read of their own input), twice each
 *   steady      a 1 GiB read, 40 rounds, every sample printed (run once with nvidia-smi polling
 *               and once without, by the shell)
 *   aftermath   a settled 1 GiB read timed over the 600 ms after one event: nothing; allocating
 *               4 GiB; allocating and clearing 4 GiB; destroying those 4 GiB; a 1 GiB buffer made
 *               with mappedAtCreation (Dawn's staging copy); queue.writeBuffer of 1 GiB
 *   grid        the one-pass vec4 reduction (one atomicAdd per workgroup) at 2^26 and 2^28 with
 *               grids of 264 to 8192 workgroups, each against a read of its input
 *
 * Usage: node … timing-experiments.mjs [experiment ...] (default: all). Prints figures only.
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, table } from '../../src/bench/format.ts';
import { median } from '../../src/util/stats.ts';
import { timingPasses } from '../../src/labs/reduce/driver.ts';
import { bytesMoved } from '../../src/labs/reduce/driver.ts';
import type { ReduceVariantId } from '../../src/labs/reduce/variants.ts';
import READ_WGSL from '../../shaders/bandwidth/read.wgsl?raw';

const chosen = new Set(process.argv.slice(2));
const wants = (name: string): boolean => chosen.size === 0 || chosen.has(name);
/** EXP_SCALE=1024 shrinks every buffer 1024-fold, to try the script on SwiftShader. */
const SCALE = Number(process.env.EXP_SCALE ?? 1);
const GiB = 2 ** 30 / SCALE;
const MiB = 2 ** 20 / SCALE;

const gpu = await createNodeGpu();
const ctx = await gpu.ready();
const device = ctx.device;
console.log(`# Timing experiments on ${ctx.summary.name}`);

const module = device.createShaderModule({ code: READ_WGSL });
const readPipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
const sink = device.createBuffer({ size: 4096 * 256 * 4, usage: GPUBufferUsage.STORAGE });

type Fill = 'lazy' | 'mapped' | 'write';
/** A storage buffer, left for Dawn to zero on first use, or written at creation / by the queue. */
function makeBuffer(size: number, fill: Fill): GPUBuffer {
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const b = device.createBuffer({ size, usage, mappedAtCreation: fill === 'mapped' });
  if (fill === 'mapped') {
    const words = new Uint32Array(b.getMappedRange());
    for (let i = 0; i < words.length; i += 1024) words[i] = i;
    b.unmap();
  } else if (fill === 'write') {
    const chunk = new Uint32Array((64 * MiB) / 4);
    for (let i = 0; i < chunk.length; i += 1024) chunk[i] = i;
    for (let off = 0; off < size; off += chunk.byteLength) device.queue.writeBuffer(b, off, chunk, 0, Math.min(chunk.length, (size - off) / 4));
  }
  return b;
}

interface Item {
  readonly name: string;
  readonly bytes: number;
  readonly encode: (pass: GPUComputePassEncoder) => void;
}

function readItem(name: string, buffer: GPUBuffer): Item {
  const vec4s = buffer.size / 16;
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM, mappedAtCreation: true });
  new Uint32Array(params.getMappedRange()).set([vec4s, 0, 0, 0]);
  params.unmap();
  const group = device.createBindGroup({
    layout: readPipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer } },
      { binding: 1, resource: { buffer: sink } },
      { binding: 2, resource: { buffer: params } },
    ],
  });
  const wgs = Math.min(4096, Math.ceil(vec4s / 256));
  return {
    name,
    bytes: buffer.size,
    encode: (pass) => {
      pass.setPipeline(readPipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(wgs);
    },
  };
}

/** Passes (item, dispatches) queued back to back; ms of each pass, from timestamps. */
async function timePasses(passes: readonly { item: Item; k: number }[]): Promise<number[]> {
  const qs = device.createQuerySet({ type: 'timestamp', count: 2 * passes.length });
  const resolve = device.createBuffer({ size: 16 * passes.length, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const staging = device.createBuffer({ size: 16 * passes.length, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  passes.forEach(({ item, k }, i) => {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } });
    for (let j = 0; j < k; j++) item.encode(pass);
    pass.end();
    device.queue.submit([enc.finish()]);
  });
  const enc = device.createCommandEncoder();
  enc.resolveQuerySet(qs, 0, 2 * passes.length, resolve, 0);
  enc.copyBufferToBuffer(resolve, 0, staging, 0, 16 * passes.length);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const t = new BigUint64Array(staging.getMappedRange().slice(0));
  staging.unmap();
  for (const b of [resolve, staging]) b.destroy();
  qs.destroy();
  return passes.map((_, i) => Number(t[2 * i + 1]! - t[2 * i]!) / 1e6);
}

/** About `ms` of untimed passes over the items, so the clocks are up. */
async function warmUp(items: readonly Item[], ms = 300): Promise<void> {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    for (const it of items) it.encode(pass);
    pass.end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
  }
}

/** Alternating rounds over the items, k dispatches per pass; a table of GB/s per item. */
async function rounds(title: string, items: readonly Item[], count = 10, k = 6): Promise<void> {
  await warmUp(items);
  const passes = Array.from({ length: count }, () => items.map((item) => ({ item, k }))).flat();
  const ms = await timePasses(passes);
  const rows = items.map((item, j) => {
    const per = ms.filter((_, i) => i % items.length === j).map((x) => x / k);
    const rates = per.map((x) => item.bytes / (x * 1e6));
    return [item.name, fmt(median(per), 4), fmt(median(rates)), fmt(Math.min(...rates)), fmt(Math.max(...rates)), fmt(Math.max(...per) / Math.min(...per), 3)];
  });
  console.log(`\n## ${title}`);
  console.log(table(['buffer', 'median ms', 'GB/s', 'min GB/s', 'max GB/s', 'max/min'], rows));
}

if (wants('placement')) {
  for (const size of [256 * MiB, GiB]) {
    const bufs = Array.from({ length: 6 }, () => makeBuffer(size, 'mapped'));
    await rounds(`placement: six ${size / MiB} MiB buffers, mappedAtCreation, read in alternating rounds`, bufs.map((b, i) => readItem(`#${i + 1}`, b)), 10, size === GiB ? 6 : 24);
    for (const b of bufs) b.destroy();
  }
}

if (wants('first-use')) {
  const warm = readItem('warm-up', makeBuffer(256 * MiB, 'mapped'));
  const out: string[][] = [];
  for (const fill of ['lazy', 'mapped', 'write'] as const) {
    const item = readItem(fill, makeBuffer(GiB, fill));
    await warmUp([warm]);
    // The first five single-dispatch passes over the new buffer, then its steady figure.
    const ms = await timePasses([...Array.from({ length: 5 }, () => ({ item, k: 1 })), ...Array.from({ length: 5 }, () => ({ item, k: 6 }))]);
    const first = ms.slice(0, 5).map((x) => fmt(item.bytes / (x * 1e6)));
    const steady = median(ms.slice(5).map((x) => item.bytes / ((x / 6) * 1e6)));
    out.push([fill, ...first, fmt(steady)]);
  }
  console.log('\n## first use of a new 1 GiB buffer: GB/s of each of its first five passes (one read each), then steady');
  console.log(table(['made by', 'pass 1', 'pass 2', 'pass 3', 'pass 4', 'pass 5', 'steady (6/pass)'], out));
}

if (wants('order')) {
  const before = [makeBuffer(GiB, 'mapped'), makeBuffer(GiB, 'mapped')];
  const filler = Array.from({ length: 24 }, () => makeBuffer(GiB, 'lazy'));
  // Touch every filler so its memory is really in use.
  const enc = device.createCommandEncoder();
  for (const f of filler) enc.clearBuffer(f);
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  const after = [makeBuffer(GiB, 'mapped'), makeBuffer(GiB, 'mapped')];
  await rounds('order: 1 GiB buffers allocated before and after 24 GiB of other buffers', [
    readItem('before #1', before[0]!),
    readItem('before #2', before[1]!),
    readItem('after #1', after[0]!),
    readItem('after #2', after[1]!),
  ]);
  for (const f of filler) f.destroy();
  await device.queue.onSubmittedWorkDone();
  const freed = [makeBuffer(GiB, 'mapped'), makeBuffer(GiB, 'mapped')];
  await rounds('order: the same, plus two allocated after the 24 GiB were freed', [
    readItem('before #1', before[0]!),
    readItem('after #1', after[0]!),
    readItem('after free #1', freed[0]!),
    readItem('after free #2', freed[1]!),
  ]);
  for (const b of [...before, ...after, ...freed]) b.destroy();
}

if (wants('chain')) {
  const n = 2 ** 28 / SCALE;
  const lim = ctx.summary.limits;
  const params = { workgroupSize: 256, maxWorkgroupsPerDimension: lim.maxComputeWorkgroupsPerDimension };
  console.log('\n## chain: reduce chains at 2^28, timed alone (old method) and in rounds beside a read of their own input (new)');
  const rows: string[][] = [];
  for (const id of ['global-inplace', 'neighbored-less-divergent', 'vec4-atomic'] as ReduceVariantId[]) {
    for (let run = 1; run <= 2; run++) {
      const chain = timingPasses(id, n, params);
      const old = await gpu.time(chain, { repeats: 10, maxAttempts: 1, maxSpread: Infinity });
      const paired = await gpu.time(timingPasses(id, n, params), { repeats: 10, maxAttempts: 1, maxSpread: Infinity, baseline: { kind: 'read', bytes: bytesMoved(n) } });
      const r = paired.relative!;
      rows.push([
        `${id} #${run}`,
        `${fmt(old.medianMs, 4)} (${fmt(old.minMs, 3)}–${fmt(old.maxMs, 3)})`,
        String(old.dispatchesPerPass),
        `${fmt(paired.medianMs, 4)} (${fmt(paired.minMs, 3)}–${fmt(paired.maxMs, 3)})`,
        `${fmt(r.baseline.medianMs, 4)} (${fmt(r.baselineGBps)} GB/s)`,
        `${fmt(100 * r.ratio, 1)} % (${fmt(100 * r.ratioMin, 1)}–${fmt(100 * r.ratioMax, 1)})`,
      ]);
    }
  }
  console.log(table(['variant', 'alone: median ms (min–max)', 'chains/pass', 'in rounds: median ms (min–max)', 'read of its input', '% of read'], rows));
}

if (wants('steady')) {
  const item = readItem('1 GiB', makeBuffer(GiB, 'mapped'));
  await warmUp([item], 500);
  const ms = (await timePasses(Array.from({ length: 40 }, () => ({ item, k: 6 })))).map((x) => x / 6);
  const rates = ms.map((x) => item.bytes / (x * 1e6));
  console.log(`\n## steady: a 1 GiB read, 40 passes of 6 back to back (GB/s each)\n${rates.map((r) => fmt(r, 0)).join(' ')}`);
  console.log(`median ${fmt(median(rates))}, min ${fmt(Math.min(...rates))}, max ${fmt(Math.max(...rates))}`);
}

if (wants('grid')) {
  const lim = ctx.summary.limits;
  const rows: string[][] = [];
  for (const log2 of [26, 28]) {
    const n = 2 ** log2 / SCALE;
    for (const grid of [264, 528, 1056, 2048, 4096, 8192]) {
      const params = { workgroupSize: 256, maxWorkgroupsPerDimension: lim.maxComputeWorkgroupsPerDimension, maxGridWorkgroups: grid };
      const t = await gpu.time(timingPasses('vec4-atomic', n, params), { repeats: 10, baseline: { kind: 'read', bytes: bytesMoved(n) } });
      const r = t.relative!;
      rows.push([`2^${log2}`, String(grid), fmt(t.medianMs, 4), fmt(r.baseline.medianMs, 4), fmt(1000 * (t.medianMs - r.baseline.medianMs), 2), `${fmt(100 * r.ratio, 2)} % (${fmt(100 * r.ratioMin, 1)}–${fmt(100 * r.ratioMax, 1)})`, t.steady ? '' : 'UNSTEADY']);
    }
  }
  console.log('\n## grid: one-pass vec4 reduction (vec4-atomic) by grid size, against a read of its input');
  console.log(table(['N', 'workgroups', 'kernel ms', 'read ms', 'gap µs', '% of read (rounds)', ''], rows));
}

if (wants('aftermath')) {
  const item = readItem('1 GiB', makeBuffer(GiB, 'mapped'));
  const k = 6;
  const rate = (ms: number): number => item.bytes / ((ms / k) * 1e6);
  let held: GPUBuffer[] = [];
  const events: [string, () => Promise<void>][] = [
    ['nothing', () => Promise.resolve()],
    ['allocate 4 × 1 GiB (not touched)', () => {
      held = Array.from({ length: 4 }, () => makeBuffer(GiB, 'lazy'));
      return Promise.resolve();
    }],
    ['clear those 4 GiB', async () => {
      const enc = device.createCommandEncoder();
      for (const b of held) enc.clearBuffer(b);
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
    }],
    ['destroy those 4 GiB', async () => {
      for (const b of held) b.destroy();
      held = [];
      await device.queue.onSubmittedWorkDone();
    }],
    ['nothing (again)', () => Promise.resolve()],
    ['new 1 GiB buffer, mappedAtCreation', () => {
      held.push(makeBuffer(GiB, 'mapped'));
      return Promise.resolve();
    }],
    ['queue.writeBuffer of 1 GiB into it', async () => {
      const chunk = new Uint32Array((64 * MiB) / 4).fill(7);
      for (let off = 0; off < GiB; off += chunk.byteLength) device.queue.writeBuffer(held[0]!, off, chunk);
      await device.queue.onSubmittedWorkDone();
    }],
    ['destroy that buffer', async () => {
      for (const b of held) b.destroy();
      held = [];
      await device.queue.onSubmittedWorkDone();
    }],
  ];
  const rows: string[][] = [];
  for (const [name, event] of events) {
    await warmUp([item], 1500);
    await event();
    // About 600 ms of back-to-back passes right after the event.
    const ms = await timePasses(Array.from({ length: 280 }, () => ({ item, k })));
    const r = ms.map(rate);
    let t = 0;
    let lastSlowAt = -1;
    r.forEach((x, i) => {
      if (x < 0.9 * 3100) lastSlowAt = t + ms[i]!;
      t += ms[i]!;
    });
    const seg = (a: number, b: number): string => fmt(median(r.slice(a, b)), 0);
    rows.push([name, fmt(r[0]!, 0), seg(0, 10), seg(10, 50), seg(50, 150), seg(150, 280), fmt(Math.min(...r), 0), lastSlowAt < 0 ? 'never' : `${fmt(lastSlowAt, 0)} ms`]);
  }
  console.log('\n## aftermath: GB/s of a settled 1 GiB read (passes of 6 reads, ~2 ms each) right after an event');
  console.log(table(['event', 'pass 1', 'passes 1–10', '11–50', '51–150', '151–280', 'min', 'slow (< 2790) until'], rows));
}

gpu.destroy();
process.exit(0);
