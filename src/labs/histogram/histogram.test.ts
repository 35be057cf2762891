import { describe, expect, it } from 'vitest';
import { OpKind, simulate } from '../../sim/index.ts';
import { histogramLab, histogramSpec } from './index.ts';
import { BYTE_RANGE, binOf, copiesInterleaved, HISTOGRAM_KERNELS, HISTOGRAM_VARIANTS, histogramReference, histogramRun, lanes16Run, LETTER_RANGE, packBytes, privateCopiesOf, unpackBytes, type BinRange, type HistogramVariant } from './kernel.ts';
import { generateBytes } from './data.ts';
import { atomicAt, atomicMemories, atomicSteps, atomicSummary, binsAfter, countingAtomics, nextAtomic, packedBinOf, packedBinsAfter, privateWordOf } from './trace.ts';

const sim = (variant: HistogramVariant, bytes: Uint8Array, bins: number, range: BinRange) =>
  simulate(histogramRun(variant, packBytes(bytes), bytes.length, bins, range), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });

describe('histogram reference and data', () => {
  it('puts letters in the seed’s bins of four (a–d, e–h, …, y–z) and skips anything else', () => {
    const text = new TextEncoder().encode('abcd efgh yz!Z');
    expect([...histogramReference(text, 7, LETTER_RANGE)]).toEqual([4, 4, 0, 0, 0, 0, 2]);
    expect(binOf(255, 256, BYTE_RANGE)).toBe(255);
    expect(binOf(255, 100, BYTE_RANGE)).toBe(99);
    expect(binOf(96, 7, LETTER_RANGE)).toBe(-1);
  });

  it('packs bytes four to a word and back', () => {
    const bytes = Uint8Array.from({ length: 21 }, (_, i) => i * 11);
    const words = packBytes(bytes);
    expect(words.length).toBe(8);
    expect(words[0]).toBe(0 | (11 << 8) | (22 << 16) | (33 << 24));
    expect([...unpackBytes(words, 21)]).toEqual([...bytes]);
  });

  it('the seed’s buffer (a–z over and over) puts four letters in each of the first six bins, two in the last', () => {
    const h = histogramReference(generateBytes('alphabet', 26 * 10, 1), 7, LETTER_RANGE);
    expect([...h]).toEqual([40, 40, 40, 40, 40, 40, 20]);
  });

  it('the letter text is skewed like prose: e–h outweighs u–x and y–z is nearly empty', () => {
    const h = histogramReference(generateBytes('letters', 20_000, 1), 7, LETTER_RANGE);
    expect(h[1]!).toBeGreaterThan(h[5]!);
    expect(h[6]!).toBeLessThan(h[1]! / 10);
  });
});

describe('histogram kernels on the simulator', () => {
  const cases: [string, Uint8Array, number, BinRange][] = [
    ['letters, 7 bins', generateBytes('letters', 3001, 5), 7, LETTER_RANGE],
    ['uniform, 100 bins (not a multiple of 256)', generateBytes('uniform', 5003, 6), 100, BYTE_RANGE],
    ['skewed, 256 bins', generateBytes('skewed', 4096, 7), 256, BYTE_RANGE],
    ['one value, 256 bins', generateBytes('one-value', 999, 8), 256, BYTE_RANGE],
  ];
  for (const variant of HISTOGRAM_VARIANTS) {
    it.each(cases)(`${variant}: %s matches the CPU reference, no race`, (_label, bytes, bins, range) => {
      const r = sim(variant, bytes, bins, range);
      expect(r.diagnostics).toEqual([]);
      expect([...r.buffers[0]![1]!.slice(0, bins)]).toEqual([...histogramReference(bytes, bins, range)]);
    });
  }

  it('hand-checked: all one value under variant 2 queues all 32 lanes of a warp on one address', () => {
    const r = sim('grid-stride', new Uint8Array(8192), 256, BYTE_RANGE);
    const steps = atomicSteps(r.trace!);
    expect(steps.length).toBeGreaterThan(0);
    for (const a of steps) {
      expect(a.space).toBe('global');
      expect(a.queues).toHaveLength(1);
      expect(a.sameAddress).toBe(32);
    }
    expect(atomicSummary(r.trace!)).toMatchObject({ maxSameAddress: 32, meanSameAddress: 32 });
  });

  it('on the seed’s a–z buffer a warp’s 32 consecutive letters queue up to 8 lanes on one bin', () => {
    // 32 letters span the alphabet and 6 more: a window starting at 'a' holds a–d twice.
    const r = sim('grid-stride', generateBytes('alphabet', 4096, 1), 7, LETTER_RANGE);
    expect(atomicSummary(r.trace!).maxSameAddress).toBe(8);
  });

  it('hand-checked: when every warp reads 32 distinct values the same-address count is 1', () => {
    const ramp = Uint8Array.from({ length: 8192 }, (_, i) => i % 256);
    const r = sim('grid-stride', ramp, 256, BYTE_RANGE);
    const s = atomicSummary(r.trace!);
    expect(s.maxSameAddress).toBe(1);
    expect(s.meanSameAddress).toBe(1);
    expect(atomicAt(r.trace!, nextAtomic(r.trace!, 0))!.queues).toHaveLength(32);
  });

  it('the bins of the traced workgroup fill to its share, and privatised bins merge once per bin', () => {
    const bytes = generateBytes('letters', 4096, 1);
    const run = sim('privatized', bytes, 7, LETTER_RANGE);
    const trace = run.trace!;
    const s = atomicSummary(trace);
    expect(s.globalLaneOps).toBe(7); // the merge only
    expect(s.mergeLaneOps).toBe(7);
    expect(s.clearLaneOps).toBe(7);
    const mems = trace.memories.filter((m) => m.space !== 'uniform');
    const priv = mems.find((m) => m.space === 'workgroup')!.id;
    const glob = mems.find((m) => m.name === 'histo')!.id;
    const privateBins = binsAfter(trace, priv, trace.stepCount - 1, 7);
    // Two workgroups of the grid share the text: workgroup 0 counted about half of every bin.
    const all = histogramReference(bytes, 7, LETTER_RANGE);
    expect(privateBins.reduce((a, x) => a + x, 0)).toBe(s.workgroupLaneOps);
    for (let b = 0; b < 7; b++) expect(privateBins[b]!).toBeLessThanOrEqual(all[b]!);
    expect([...binsAfter(trace, glob, trace.stepCount - 1, 7)]).toEqual([...privateBins]);
    expect([...binsAfter(trace, glob, 0, 7)]).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('aggregation and per-warp copies turn one-value data into one atomic per invocation', () => {
    const zeros = new Uint8Array(16_384);
    const agg = atomicSummary(sim('aggregated', zeros, 256, BYTE_RANGE).trace!);
    expect(agg.workgroupLaneOps).toBe(256);
    const fast = atomicSummary(sim('per-warp', zeros, 256, BYTE_RANGE).trace!);
    expect(fast.workgroupLaneOps).toBe(256);
    expect(fast.globalLaneOps).toBe(1); // one non-empty bin, merged once
  });

  it('packed counters: one workgroup flushes before an 8-bit counter passes 255, and the ragged end counts', () => {
    // Two full rounds of 64 × 240 zero bytes and 15 more: invocation 0 holds 240 + 15 = 255 zeros
    // in one counter before the last flush; a round of 16 vec4s (256 bytes) would wrap it to 0.
    for (const variant of ['packed', 'packed-atomic'] as const) {
      for (const n of [30_735, 30_720 + 1, 47_000]) {
        const bytes = n === 47_000 ? generateBytes('skewed', n, 9) : new Uint8Array(n);
        const run = histogramRun(variant, packBytes(bytes), n, 256, BYTE_RANGE, undefined, 1);
        expect(run.workgroups).toEqual([1, 1]);
        const r = simulate(run, { warpSize: 32 });
        expect(r.diagnostics).toEqual([]);
        expect([...r.buffers[0]![1]!.slice(0, 256)]).toEqual([...histogramReference(bytes, 256, BYTE_RANGE)]);
      }
    }
  });

  it('packed counters need no atomics while counting: workgroup 0 makes only its merge atomics', () => {
    const bytes = generateBytes('uniform', 20_000, 4);
    const s = atomicSummary(sim('packed', bytes, 256, BYTE_RANGE).trace!);
    expect(s.workgroupLaneOps).toBe(0);
    expect(s.globalLaneOps).toBe(s.mergeLaneOps);
    expect(s.globalLaneOps).toBeLessThanOrEqual(256);
    const atomic = atomicSummary(sim('packed-atomic', bytes, 256, BYTE_RANGE).trace!);
    expect(atomic.maxSameAddress).toBe(1); // every lane has its own word
  });

  it('packed-atomic: the counts decoded from its packed updates are what workgroup 0 merges', () => {
    const bytes = generateBytes('skewed', 40_000, 2);
    const trace = sim('packed-atomic', bytes, 256, BYTE_RANGE).trace!;
    const mems = atomicMemories(trace);
    const counted = packedBinsAfter(trace, mems.workgroup!, trace.stepCount - 1, 256, trace.invocations);
    const merged = binsAfter(trace, mems.global!, trace.stepCount - 1, 256);
    expect(counted.reduce((a, x) => a + x, 0)).toBeGreaterThan(0);
    expect([...counted]).toEqual([...merged]);
    // Word 65 of 64 invocations holds bins 4 … 7; 1 << 16 adds to the third of them.
    expect(packedBinOf(65, 1 << 16, 64)).toBe(6);
    expect(packedBinOf(65, 0, 64)).toBeUndefined();
  });

  it('packed-atomic counts before its first barrier, and those atomics are counting, not clearing', () => {
    // 4096 zero bytes: one workgroup, one round; every byte is a workgroup atomic before the flush.
    const trace = sim('packed-atomic', new Uint8Array(4096), 256, BYTE_RANGE).trace!;
    const s = atomicSummary(trace);
    expect(s.clearLaneOps).toBe(64 * 64); // the atomicStore of 0 into every counter
    expect(s.workgroupLaneOps).toBe(4096 + 64 * 64); // the bytes, then the flush's exchanges
    const first = countingAtomics(trace)[0]!;
    expect(first.space).toBe('workgroup');
    expect(first.queues.flatMap((q) => q.values)).toEqual(Array(32).fill(1));
  });

  it('batched: one workgroup through its pipelined batches, the leftover vec4s and a ragged end, on the shift-and-mask path and the general one', () => {
    // One workgroup of 256: 16 400 bytes are 1025 vec4s, one batch per invocation (loaded before
    // the loop, counted after it) and one leftover vec4 (invocation 0); 40 007 bytes are 2 batches
    // (the loop runs once), 452 leftover vec4s (two for invocations 0 … 195) and 7 ragged bytes;
    // 50 001 bytes are 3 batches with long runs of one value among skewed bytes.
    const setups: [number, BinRange][] = [[256, BYTE_RANGE], [7, LETTER_RANGE], [100, BYTE_RANGE], [256, LETTER_RANGE], [256, { lo: 16, span: 240 }]];
    for (const n of [16_400, 40_007, 50_001]) {
      const bytes = n === 50_001 ? generateBytes('skewed', n, 3) : generateBytes(n === 40_007 ? 'alphabet' : 'uniform', n, n);
      if (n === 50_001) bytes.fill(200, 1600, 9600);
      for (const [bins, range] of setups) {
        const run = histogramRun('batched', packBytes(bytes), n, bins, range, undefined, 1);
        expect(run.workgroups).toEqual([1, 1]);
        const r = simulate(run, { warpSize: 32 });
        expect(r.diagnostics).toEqual([]);
        expect([...r.buffers[0]![1]!.slice(0, bins)]).toEqual([...histogramReference(bytes, bins, range)]);
      }
    }
  });

  it('batched: loads a batch ahead: with two batches a warp issues all eight vec4 loads before its first count', () => {
    // 32 768 bytes on one workgroup are 2048 vec4s: two batches of four per invocation, no leftovers.
    const n = 32_768;
    const bytes = generateBytes('uniform', n, 4);
    const r = simulate(histogramRun('batched', packBytes(bytes), n, 256, BYTE_RANGE, undefined, 1), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    expect(r.diagnostics).toEqual([]);
    const trace = r.trace!;
    const data = trace.memories.find((m) => m.name === 'data')!.id;
    let loads = 0;
    let before = -1;
    let clears = true; // the atomicStores of 0 before the first barrier are no counting
    for (let s = 0; s < trace.stepCount && before < 0; s++) {
      if (trace.stepWarp[s] !== 0) continue;
      const kind = trace.opKind[trace.stepOp[s]!];
      if (kind === OpKind.barrier) clears = false;
      else if (kind === OpKind.loadGlobal && trace.stepMemory[s] === data) loads++;
      else if (kind === OpKind.atomicShared && !clears) before = loads;
    }
    expect(before).toBe(8);
  });

  it('batched: 256 bins over all bytes count by shift and mask; any other bins through bin_of', () => {
    const lines = HISTOGRAM_KERNELS.batched.wgsl.split('\n');
    const lineOf = (text: string) => lines.flatMap((l, i) => (l.includes(text) ? [i + 1] : []));
    const shiftMask = lineOf('& 0xff0u) | copy], 1u);');
    const general = lineOf('atomicAdd(&copies[bin * COPIES + copy], 1u);');
    expect(shiftMask).toHaveLength(4);
    expect(general).toHaveLength(1);
    const countingLines = (bins: number, range: BinRange) => {
      const trace = sim('batched', generateBytes('uniform', 4096, 9), bins, range).trace!;
      return new Set(countingAtomics(trace).filter((a) => a.space === 'workgroup').map((a) => trace.opLine[trace.stepOp[a.step]!]!));
    };
    expect([...countingLines(256, BYTE_RANGE)].sort((a, b) => a - b)).toEqual(shiftMask);
    // Other bins take the general path, and so do 256 bins that do not start at byte 0.
    expect([...countingLines(7, LETTER_RANGE)]).toEqual(general);
    expect([...countingLines(256, { lo: 16, span: 240 })]).toEqual(general);
  });

  it('batched: one atomicAdd of 1 per byte whatever the data, lane l into copy l % 16 (bin b of copy c at b × 16 + c), two lanes a word on one value', () => {
    const trace = sim('batched', new Uint8Array(16 * 1024), 256, BYTE_RANGE).trace!;
    const s = atomicSummary(trace);
    expect(s.workgroupLaneOps).toBe(16 * 1024); // no shortcut for a vec4 of 16 equal bytes
    const first = countingAtomics(trace)[0]!;
    expect(first.space).toBe('workgroup');
    expect(first.queues.flatMap((q) => q.values)).toEqual(Array(32).fill(1));
    // The 32 lanes on bin 0 of 16 copies: words 0 … 15, lanes l and l + 16 on each.
    expect(first.queues.map((q) => q.addr).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, c) => c));
    for (const q of first.queues) expect([...q.lanes].sort((a, b) => a - b)).toEqual([q.addr, q.addr + 16]);
    expect(first.sameAddress).toBe(2);
    expect(s.globalLaneOps).toBe(1);
    const bytes = generateBytes('uniform', 16 * 1024, 5);
    expect(atomicSummary(sim('batched', bytes, 256, BYTE_RANGE).trace!).workgroupLaneOps).toBe(16 * 1024);
  });

  it('batched: its 16 interleaved copies fill 16 KiB and decode bin by bin into what workgroup 0 merges', () => {
    const run = histogramRun('batched', packBytes(new Uint8Array(16)), 16, 256, BYTE_RANGE);
    expect(run.overrides).toMatchObject({ COPIES: 16, PRIVATE_WORDS: 4096 });
    expect(Number(run.overrides!.PRIVATE_WORDS) * 4).toBe(16_384); // WebGPU's guaranteed maxComputeWorkgroupStorageSize
    const bytes = generateBytes('skewed', 30_000, 6);
    const trace = sim('batched', bytes, 256, BYTE_RANGE).trace!;
    const mems = atomicMemories(trace);
    expect(privateCopiesOf('batched', trace.invocations)).toBe(16);
    expect(copiesInterleaved('batched')).toBe(true);
    expect(copiesInterleaved('per-warp')).toBe(false);
    const counted = binsAfter(trace, mems.workgroup!, trace.stepCount - 1, 256, 16, true);
    const merged = binsAfter(trace, mems.global!, trace.stepCount - 1, 256);
    expect(counted.reduce((a, x) => a + x, 0)).toBeGreaterThan(0);
    expect([...counted]).toEqual([...merged]);
  });

  it('privateWordOf: decodes a word of the private copies into its bin and copy, in both layouts', () => {
    // 3 copies of 5 bins: bin 4 of copy 2 is word 2 × 5 + 4 = 14 copy after copy, 4 × 3 + 2 = 14 bin by bin.
    for (let c = 0; c < 3; c++) {
      for (let b = 0; b < 5; b++) {
        expect(privateWordOf(c * 5 + b, 5, 3, false)).toEqual({ bin: b, copy: c });
        expect(privateWordOf(b * 3 + c, 5, 3, true)).toEqual({ bin: b, copy: c });
      }
    }
    expect(privateWordOf(6, 7, 1, false)).toEqual({ bin: 6, copy: 0 });
    expect(privateWordOf(7, 5, 3, false)).toEqual({ bin: 2, copy: 1 });
    expect(privateWordOf(7, 5, 3, true)).toEqual({ bin: 2, copy: 1 });
    expect(privateWordOf(8, 5, 3, true)).toEqual({ bin: 2, copy: 2 });
  });

  it('lanes16 (experiment): matches the CPU reference through several flushes, and its lanes never share a word', () => {
    // One workgroup of 32 with rounds of 3 vec4s: 10 007 bytes are 625 vec4s, 7 rounds (the last
    // short) and 7 ragged bytes. A round of 4096 vec4s of one value would wrap a 16-bit counter.
    for (const [n, dist] of [[10_007, 'skewed'], [20_000, 'one-value'], [3001, 'uniform']] as const) {
      const bytes = generateBytes(dist, n, 11);
      for (const [bins, range] of [[256, BYTE_RANGE], [7, LETTER_RANGE], [100, BYTE_RANGE]] as const) {
        const r = simulate(lanes16Run(packBytes(bytes), n, bins, range, { maxGrid: 1, round: 3 }), { warpSize: 32 });
        expect(r.diagnostics).toEqual([]);
        expect([...r.buffers[0]![1]!.slice(0, bins)]).toEqual([...histogramReference(bytes, bins, range)]);
      }
    }
    const traced = simulate(lanes16Run(packBytes(generateBytes('one-value', 4096, 1)), 4096, 256, BYTE_RANGE), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    expect(atomicSummary(traced.trace!).maxSameAddress).toBe(1);
    expect(() => lanes16Run(packBytes(new Uint8Array(16)), 16, 256, BYTE_RANGE, { round: 4096 })).toThrow(/1 to 4095/);
  });

  it('fits parameters and names a wrong distribution', () => {
    expect(histogramSpec.dist.parse('zipf')).toEqual({ error: expect.stringMatching(/letters, alphabet, uniform, skewed, one-value/) as unknown });
    expect(histogramSpec.n.resolve(1 << 20, histogramLab.variants[0]!, {}).value).toBe(65_536);
    const inputs = histogramLab.inputs({ n: 100, bins: 7, dist: 'letters' }, 1);
    const bad = new Uint32Array(7);
    expect(histogramLab.check('grid-stride', { n: 100, bins: 7, dist: 'letters' }, inputs, bad)).toMatchObject({ ok: false });
  });
});
