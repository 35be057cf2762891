import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import { mergeInputs, MERGE_INPUTS } from './inputs.ts';
import { mergeLab } from './index.ts';
import { MERGE_FILES, MERGE_SHAPES, mergePasses, mergeStepRun, partitionKaryRun, partitionRun, partitionWideRun, runMerge, MERGE_VARIANTS, splitsOf, streamRun, typedSource, vec4Run, wideRun, wideSource, type MergeData } from './kernel.ts';
import { coRank, coRankIterationBound, mergePath, mergeReference } from './reference.ts';
import { pathPoints, readMergeTrace, searchesOf, searchResult } from './trace.ts';
import { mergeMoments, sourceOf } from './moments.ts';
import { indexTrace } from '../../trace/index.ts';
import { seededRandom } from '../../util/random.ts';

const simulator: KernelExecutor = { run: (r) => Promise.resolve(simulate(r, { warpSize: 32, trace: 'summary' }).buffers) };
const i32 = (xs: number[]) => Int32Array.from(xs.length ? xs : [0]);
const data = (a: number[], b: number[]): MergeData => ({ a: i32(a), b: i32(b), m: a.length, n: b.length });

describe('merge reference', () => {
  it('co-ranks a small case by hand: A = 1 3 5 7, B = 2 4 6 8, k = 5 takes 3 from A in 3 probes', () => {
    const a = [1, 3, 5, 7];
    const b = [2, 4, 6, 8];
    // Diagonal 5: i in [1, 4]. mid 2: A[2]=5 vs B[2]=6 → A first, lo 3; mid 3: A[3]=7 vs B[1]=4 → hi 3.
    const r = coRank(5, a, 4, b, 4);
    expect(r.i).toBe(3);
    expect(r.probes).toEqual([
      { i: 2, j: 2, a: true },
      { i: 3, j: 1, a: false },
    ]);
    // Diagonal 4: i in [0, 4]. mid 2: A[2]=5 vs B[1]=4 → B first, hi 2; mid 1: A[1]=3 vs B[2]=6 → A first, lo 2.
    const r4 = coRank(4, a, 4, b, 4);
    expect(r4.i).toBe(2);
    expect(r4.probes.map((p) => p.i)).toEqual([2, 1]);
    expect(coRankIterationBound(4, 4)).toBe(3);
  });

  it('never probes more than ⌈log2 min(m, n)⌉ + 1 times', () => {
    const rng = seededRandom(3);
    for (const [m, n] of [[1, 1], [5, 100], [64, 64], [100, 7], [1000, 999]] as const) {
      const { a, b } = mergeInputs(rng, 'random', m, n, 'i32');
      for (let k = 0; k <= m + n; k++) expect(coRank(k, a, m, b, n).probes.length).toBeLessThanOrEqual(coRankIterationBound(m, n));
    }
  });

  it('is stable: equal keys take A first', () => {
    expect(mergePath([1, 2, 2], 3, [2, 2, 3], 3)).toEqual([true, true, true, false, false, false]);
    expect([...mergeReference(i32([2]), 1, i32([2]), 1)]).toEqual([2, 2]);
  });
});

describe('merge kernels on the simulator', () => {
  it.each(MERGE_VARIANTS.flatMap((v) => MERGE_INPUTS.flatMap((kind) => (['i32', 'f32'] as const).map((t) => [v, kind, t] as const))))(
    '%s %s %s: agrees with the CPU reference, including sizes off the tile',
    async (variant, kind, type) => {
      for (const [m, n] of [[13, 30], [100, 157], [1, 2]] as const) {
        const d = mergeInputs(seededRandom(m * 31 + n), kind, m, n, type);
        const out = await runMerge(simulator, variant, d);
        expect([...out]).toEqual([...mergeReference(d.a, d.m, d.b, d.n)]);
      }
    },
  );

  it('stream: workgroups that walk over several tiles, with the next one prefetched, merge every input kind', () => {
    // 5000 outputs are four tiles of 1408 (the last one short); one and three workgroups take
    // every tile in turn (three: the first takes tiles 0 and 3), all of them on one.
    for (const kind of MERGE_INPUTS) {
      for (const type of ['i32', 'f32', 'u32'] as const) {
        const d = mergeInputs(seededRandom(kind.length * 7 + type.length), kind, 1700, 3300, type);
        for (const groups of [1, 3]) {
          const splits = simulate(partitionRun(d, undefined, 'stream'), { warpSize: 32, trace: 'summary' }).buffers[0]![2] as Uint32Array;
          expect([...splits]).toEqual([...splitsOf(d, 'stream')]);
          const res = simulate(streamRun(d, splits, undefined, groups), { warpSize: 32, trace: 'summary' });
          expect(res.diagnostics, `${kind} ${type} groups=${groups}`).toEqual([]);
          const out = (res.buffers[0]![2] as typeof d.a).slice(0, d.m + d.n);
          expect([...out], `${kind} ${type} groups=${groups}`).toEqual([...mergeReference(d.a, d.m, d.b, d.n)]);
        }
      }
    }
  });

  it.each(MERGE_VARIANTS)('%s is stable: of equal keys A’s come first (−0 in A and +0 in B compare equal but differ in bits)', async (variant) => {
    const a = Float32Array.from([-0, 1, 1, 2]);
    const b = Float32Array.from([0, 1, 2, 2]);
    const out = await runMerge(simulator, variant, { a, b, m: 4, n: 4 });
    expect([...out].map((x) => (Object.is(x, -0) ? '-0' : String(x)))).toEqual(['-0', '0', '1', '1', '1', '2', '2', '2']);
  });

  it('stream: the driver’s items per invocation is the shader’s ITEMS constant, and odd', () => {
    const items = Number(/^const ITEMS: u32 = (\d+)u;$/m.exec(MERGE_FILES.stream.wgsl)?.[1]);
    expect(items).toBe(MERGE_SHAPES.stream.items);
    expect(items % 2).toBe(1);
    expect(() => streamRun(data([1], [2]), new Uint32Array([0, 1]), undefined, 0)).toThrow(/1 to 65,535 workgroups/);
  });

  it('wide: every tuning shape merges every input kind across several full tiles and a short one', async () => {
    const shapes = [
      { workgroupSize: 32, items: 7 },
      { workgroupSize: 64, items: 23 },
      { workgroupSize: 128, items: 15 },
      { workgroupSize: 256, items: 15 },
    ];
    for (const shape of shapes) {
      for (const kind of MERGE_INPUTS) {
        // 3 full 64 × 23 tiles and a short one; for 32 × 7, 26 tiles.
        const d = mergeInputs(seededRandom(shape.items), kind, 1900, 3900 - 1900, 'i32');
        const splits = (await simulator.run(partitionRun(d, undefined, 'wide', shape)))[0]![2] as Uint32Array;
        expect([...splits], `${shape.workgroupSize} × ${shape.items} ${kind}`).toEqual([...splitsOf(d, 'wide', shape)]);
        const res = simulate(wideRun(d, splits, typedSource(wideSource(shape.items), 'i32'), shape), { warpSize: 32, trace: 'summary' });
        expect(res.diagnostics).toEqual([]);
        expect([...(res.buffers[0]![2] as Int32Array)], `${shape.workgroupSize} × ${shape.items} ${kind}`).toEqual([...mergeReference(d.a, d.m, d.b, d.n)]);
      }
    }
  });

  it('vec4: every shape merges every input kind and type over full tiles and a short one, whatever the shares’ alignment', async () => {
    // Sizes off whole vec4s, so every tile's A and B shares start and end inside a vector; C's
    // words past m + n come back zero.
    const shapes = [
      { workgroupSize: 32, items: 7 },
      { workgroupSize: 64, items: 23 },
      { workgroupSize: 256, items: 15 },
    ];
    for (const shape of shapes) {
      for (const kind of MERGE_INPUTS) {
        for (const type of ['i32', 'f32', 'u32'] as const) {
          const d = mergeInputs(seededRandom(shape.items + type.length), kind, 1901, 3903 - 1901, type);
          const splits = (await simulator.run(partitionRun(d, undefined, 'wide', shape)))[0]![2] as Uint32Array;
          expect([...splits], `${shape.workgroupSize} × ${shape.items} ${kind}`).toEqual([...splitsOf(d, 'wide', shape)]);
          const res = simulate(vec4Run(d, splits, typedSource(wideSource(shape.items, MERGE_FILES.vec4.wgsl), type), shape), { warpSize: 32, trace: 'summary' });
          expect(res.diagnostics).toEqual([]);
          const c = res.buffers[0]![2] as typeof d.a;
          expect(c.length % 4).toBe(0);
          const total = d.m + d.n;
          expect([...c.slice(0, total)], `${shape.workgroupSize} × ${shape.items} ${kind} ${type}`).toEqual([...mergeReference(d.a, d.m, d.b, d.n)]);
          expect([...c.slice(total)]).toEqual(new Array(c.length - total).fill(0));
        }
      }
    }
  });

  it.each([4, 16])('vec4: the %i-way partition pass (an experiment) finds every tile boundary the CPU co-rank does, at ranges from 0 to thousands', async (ways) => {
    for (const kind of MERGE_INPUTS) {
      for (const [m, n] of [[0, 5], [5000, 3], [3000, 4100], [1, 1], [17, 16], [255, 4000]] as const) {
        const d = mergeInputs(seededRandom(m + n), kind, m, n, 'i32');
        // Tiles of 32 × 7 = 224 outputs: many boundaries, each a search over up to 5000 candidates.
        const shape = { workgroupSize: 32, items: 7 };
        const got = (await simulator.run(partitionKaryRun(d, ways, 'wide', shape)))[0]![2] as Uint32Array;
        expect([...got], `${kind} ${m} + ${n}`).toEqual([...splitsOf(d, 'wide', shape)]);
      }
    }
  });

  it('wide: the 33-way partition pass (the experiments’ alternative) finds every tile boundary the CPU co-rank does, on every input kind', async () => {
    for (const kind of MERGE_INPUTS) {
      for (const [m, n] of [[0, 5], [5000, 3], [3000, 4100], [1, 1]] as const) {
        const d = mergeInputs(seededRandom(m + n), kind, m, n, 'i32');
        const shape = { workgroupSize: 32, items: 7 };
        const got = (await simulator.run(partitionWideRun(d, undefined, shape)))[0]![2] as Uint32Array;
        expect([...got], `${kind} ${m} + ${n}`).toEqual([...splitsOf(d, 'wide', shape)]);
      }
    }
  });

  it('wide ships what the H100 measured best: the binary-search partition pass, then tiles of 256 × 15', () => {
    const d = data([1, 3, 5, 7, 9], [2, 4, 6]);
    const [partition, merge, ...rest] = mergePasses('wide', d);
    expect(rest).toEqual([]);
    expect(partition).toMatchObject({ file: MERGE_FILES.partition.file, label: 'merge.partition', overrides: { TILE: 3840 } });
    expect(merge).toMatchObject({ file: MERGE_FILES.wide.file, overrides: { WORKGROUP_SIZE: 256, TILE: 3840 } });
    expect(MERGE_SHAPES.wide.workgroupSize * MERGE_SHAPES.wide.items * 4).toBeLessThanOrEqual(16384);
  });

  it('wide: the driver’s items per invocation is the shader’s ITEMS constant; even counts and tiles over 16 KiB are refused', () => {
    const items = Number(/^const ITEMS: u32 = (\d+)u;$/m.exec(MERGE_FILES.wide.wgsl)?.[1]);
    expect(items).toBe(MERGE_SHAPES.wide.items);
    expect(items % 2).toBe(1);
    expect(wideSource(23)).toMatch(/^const ITEMS: u32 = 23u;$/m);
    expect(() => wideSource(16)).toThrow(/odd number of outputs per invocation.*got 16/);
    expect(() => wideSource(15, 'alias T = i32;')).toThrow(/no line `const ITEMS/);
    const d = data([1, 2], [3]);
    expect(() => wideRun(d, new Uint32Array([0, 2]), undefined, { workgroupSize: 256, items: 17 })).toThrow(/17408 bytes of workgroup memory; WebGPU guarantees 16384/);
    expect(() => wideRun(d, new Uint32Array([0]))).toThrow(/needs 2 splits; got 1/);
    expect(() => wideRun(d, new Uint32Array([0, 2]), undefined, { workgroupSize: 512, items: 7 })).toThrow(/1 to 256 invocations per workgroup.*asked for 512/);
  });

  it('reads the tile of the wide merge and translates its probes', () => {
    const d = data([1, 3, 5, 7, 9], [2, 4, 6]);
    const res = simulate(mergeStepRun('wide', d), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const view = readMergeTrace(res.trace!, MERGE_FILES.wide.wgsl, { m: 5, n: 3 });
    expect(view.tile).toMatchObject({ a0: 0, a1: 5, k0: 0, k1: 8 });
    expect(view.aValues).toEqual([1, 3, 5, 7, 9]);
    expect(view.bValues).toEqual([2, 4, 6]);
    expect(pathPoints(view)).toHaveLength(9);
    expect(sourceOf(res.trace!)).toBe(MERGE_FILES.wide.wgsl);
  });

  it('its moments are -1 where the trace has no such step (an invocation that never probes), like every lab’s', () => {
    const d = data([1, 3, 5, 7], [2, 4, 6, 8]);
    const index = indexTrace(simulate(mergeStepRun('basic', d), { warpSize: 32, trace: 'full', traceWorkgroups: [0] }).trace!);
    expect(mergeMoments.probe(index, '1')).toBeGreaterThan(0);
    expect(mergeMoments.probe(index, '999:last')).toBe(-1);
    expect(mergeMoments['first-store'](index, '')).toBeGreaterThan(0);
  });

  it('reads the probes, slices and path from the trace of the basic merge', () => {
    const d = data([1, 3, 5, 7], [2, 4, 6, 8]);
    const res = simulate(mergeStepRun('basic', d), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    expect(res.diagnostics).toEqual([]);
    const view = readMergeTrace(res.trace!, MERGE_FILES.basic.wgsl, { m: 4, n: 4 });
    // Two invocations of four outputs: invocation 1 searches diagonals 4 and 8.
    expect(view.slices[0]).toMatchObject({ first: 0, end: 4 });
    expect(view.slices[1]).toMatchObject({ first: 4, end: 8 });
    const s1 = searchesOf(view, 1);
    expect(s1.map((s) => s.k)).toEqual([4]); // diagonal 8 is the corner: lo = hi = 4, no probe
    expect(s1[0]!.probes.map((p) => [p.i, p.j])).toEqual([[2, 1], [1, 2]]);
    expect(searchResult(s1[0]!)).toBe(2);
    expect(pathPoints(view).map((p) => `${p.i},${p.j}`).join(' ')).toBe('0,0 1,0 1,1 2,1 2,2 3,2 3,3 4,3 4,4');
    expect(view.probesPerInvocation.slice(0, 2)).toEqual([2, 2]);
  });

  it('reads the tile bounds and translates tile probes in the tiled merge', () => {
    const d = data([1, 3, 5, 7, 9], [2, 4, 6]);
    const res = simulate(mergeStepRun('tiled', d), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const view = readMergeTrace(res.trace!, MERGE_FILES.tiled.wgsl, { m: 5, n: 3 });
    expect(view.tile).toMatchObject({ a0: 0, a1: 5, k0: 0, k1: 8 });
    // Invocation 1 owns outputs 4…7 of the tile: its search on diagonal 4 lands on i = 2.
    const s = searchesOf(view, 1).find((x) => x.space === 'tile' && x.k === 4)!;
    expect(searchResult(s)).toBe(2);
    expect(pathPoints(view)).toHaveLength(9);
  });

  it('reads the tile of the streamed merge, whose outputs overwrite its staged inputs', () => {
    const d = data([1, 3, 5, 7, 9], [2, 4, 6]);
    const res = simulate(mergeStepRun('stream', d), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const view = readMergeTrace(res.trace!, MERGE_FILES.stream.wgsl, { m: 5, n: 3 });
    expect(view.tile).toMatchObject({ a0: 0, a1: 5, k0: 0, k1: 8 });
    expect(view.aValues).toEqual([1, 3, 5, 7, 9]);
    expect(view.bValues).toEqual([2, 4, 6]);
    expect(pathPoints(view)).toHaveLength(9);
    // Invocation 0 owns outputs 0…10 of the tile, all 8: its search is on diagonal 0, a single
    // point, so it probes nothing; the coalesced store has it write word 0 only.
    expect(searchesOf(view, 0).filter((x) => x.space === 'tile')).toHaveLength(0);
    expect(view.slices[0]).toMatchObject({ first: 0, end: 1 });
  });

  it('the lab checks a wrong output and names the element', () => {
    const p = mergeLab.defaults;
    const inputs = mergeLab.inputs(p, 1);
    const out = mergeReference(inputs.a!, 24, inputs.b!, 40);
    out[5] = 12345;
    expect(mergeLab.check('basic', p, inputs, out)).toMatchObject({ ok: false, message: expect.stringMatching(/element 5/) as unknown });
  });
});

describe('merge launches at benchmark sizes', () => {
  it('folds the tiles of 2^26 outputs into two dimensions and the surplus workgroups write nothing', async () => {
    const { mergeRun: run, fastRun: fast, tilesOf } = await import('./kernel.ts');
    const big = { a: new Int32Array(1), b: new Int32Array(1), m: 2 ** 25, n: 2 ** 25 };
    // Only the dispatch shape is built here; the data check needs real arrays, so use the sizes alone.
    expect(() => run('tiled', big)).toThrow(/at least max\(1, m\)/);
    expect(tilesOf('tiled', 2 ** 26)).toBe(2 ** 19);
    expect(tilesOf('fast', 2 ** 26)).toBe(2 ** 16);
    // A small merge forced through a folded grid still matches: 5 tiles spread as 3 × 2 (one surplus).
    const d = mergeInputs(seededRandom(5), 'random', 2000, 2500, 'i32');
    const splits = (await simulator.run((await import('./kernel.ts')).partitionRun(d)))[0]![2] as Uint32Array;
    const r = fast(d, splits);
    const folded = { ...r, workgroups: [3, 2] as const };
    const out = simulate(folded, { warpSize: 32, trace: 'summary' });
    expect(out.diagnostics).toEqual([]);
    expect([...(out.buffers[0]![2] as Int32Array)]).toEqual([...mergeReference(d.a, d.m, d.b, d.n)]);
  });
});

describe('co-rank iterations from the trace', () => {
  it.each(['basic', 'tiled', 'fast', 'stream', 'wide'] as const)('%s: no search probes more than ⌈log2 min(m, n)⌉ + 1 times, and each lands where the CPU co-rank does', (variant) => {
    for (const kind of ['random', 'duplicates', 'disjoint'] as const) {
      const d = mergeInputs(seededRandom(11), kind, 37, 90, 'i32');
      const res = simulate(mergeStepRun(variant, d), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
      const view = readMergeTrace(res.trace!, MERGE_FILES[variant].wgsl, { m: d.m, n: d.n });
      expect(view.searches.length, kind).toBeGreaterThan(0);
      for (const s of view.searches) {
        expect(s.probes.length).toBeLessThanOrEqual(coRankIterationBound(d.m, d.n));
        // A whole-array diagonal: the CPU's co-rank, probe for probe (tile searches are translated).
        if (s.space === 'global') expect(searchResult(s)).toBe(coRank(s.k, d.a, d.m, d.b, d.n).i);
      }
    }
  });
});
