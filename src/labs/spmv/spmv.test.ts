import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { indexTrace } from '../../trace/index.ts';
import { OpKind } from '../../sim/trace.ts';
import { seededRandom } from '../../util/random.ts';
import {
  bandedMatrix,
  csrFromRows,
  denseRowMatrix,
  emptyRowsMatrix,
  hybridWidth,
  laplacianMatrix,
  makeVector,
  matrixStats,
  nonzeros,
  powerLawMatrix,
  rowLengths,
  seedMatrix,
  spmvReference,
  toCoo,
  toDense,
  toEll,
  toHybrid,
  toJds,
  uniformMatrix,
  adaptiveGroup,
  rowBins,
  type Csr,
} from './formats.ts';
import { matrixOf, spmvLab, spmvSpec } from './index.ts';
import { INPUT_SEED } from '../../workbench/session.ts';
import { adaptiveRun, MERGE_ITEMS_PER_INVOCATION, mergeTiles, SPMV_VARIANTS, spmvRun, vectorWidth, Y_BINDING, yOf, type SpmvVariant } from './kernel.ts';
import { spmvMoments } from './moments.ts';
import { atomicLaneOps, iterationStrip, loadSteps, sectorsPerRequest, touchesAt } from './trace.ts';
import { allFormats, cellOfWord } from './stage.ts';

const sim = (variant: SpmvVariant, a: Csr, x: Float32Array, wg = 128) => {
  const result = simulate(spmvRun(variant, a, x, wg), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
  return { result, y: yOf(variant, result.buffers[0]![Y_BINDING[variant]]!, a.rows) };
};

const seedX = new Float32Array([1, 2, 3, 4]);

describe('formats on the seed’s example', () => {
  const a = seedMatrix();

  it('is the seed’s CSR: data, col_index and row_ptr', () => {
    expect([...a.values]).toEqual([3, 1, 2, 4, 1, 1, 1]);
    expect([...a.colIndex]).toEqual([0, 2, 1, 2, 3, 0, 3]);
    expect([...a.rowPtr]).toEqual([0, 2, 2, 5, 7]);
    // Row 0: 3·x0 + 1·x2; row 1 empty; row 2: 2·x1 + 4·x2 + 1·x3; row 3: x0 + x3.
    expect([...spmvReference(a, seedX)]).toEqual([3 + 3, 0, 4 + 12 + 4, 1 + 4]);
    expect([...toDense(a)]).toEqual([3, 0, 1, 0, 0, 0, 0, 0, 0, 2, 4, 1, 1, 0, 0, 1]);
  });

  it('ELL pads every row to 3 slots, column-major: 12 stored for 7 nonzeros', () => {
    const e = toEll(a);
    expect(e.width).toBe(3);
    // Slot 0 of rows 0–3, then slot 1, then slot 2; padding is column 0, value 0.
    expect([...e.values]).toEqual([3, 0, 2, 1, 1, 0, 4, 1, 0, 0, 1, 0]);
    expect([...e.colIndex]).toEqual([0, 0, 1, 0, 2, 0, 2, 3, 0, 0, 3, 0]);
    expect([...e.filled]).toEqual([1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0]);
    expect(matrixStats(a).ellFill).toBeCloseTo(12 / 7, 12);
  });

  it('COO lists the seven triples in row order', () => {
    const c = toCoo(a);
    expect([...c.rowIndex]).toEqual([0, 0, 2, 2, 2, 3, 3]);
    expect([...c.colIndex]).toEqual([0, 2, 1, 2, 3, 0, 3]);
  });

  it('the hybrid keeps width 2 (three of four rows reach it) and sends row 2’s last nonzero to COO, as the seed does', () => {
    expect(hybridWidth(rowLengths(a))).toBe(2);
    const h = toHybrid(a);
    expect(h.ell.width).toBe(2);
    expect([...h.coo.rowIndex]).toEqual([2]);
    expect([...h.coo.colIndex]).toEqual([3]);
    expect([...h.coo.values]).toEqual([1]);
  });

  it('JDS sorts the rows 2, 0, 3, 1 (the seed’s row_index) and keeps them as CSR', () => {
    const j = toJds(a);
    expect([...j.perm]).toEqual([2, 0, 3, 1]);
    expect([...j.rowPtr]).toEqual([0, 3, 5, 7, 7]);
    expect([...j.values]).toEqual([2, 4, 1, 3, 1, 1, 1]);
  });
});

describe('CSR vector’s width', () => {
  it('is the smallest of 2…32 lanes at least the mean row length', () => {
    expect(vectorWidth(seedMatrix())).toBe(2); // 7 / 4
    expect(vectorWidth(uniformMatrix(4096, seededRandom(1)))).toBe(16);
    expect(vectorWidth(csrFromRows(64, [Array.from({ length: 64 }, (_, c) => [c, 1] as const)]))).toBe(32);
  });

  it('runs 16-lane vectors, two rows per 32-lane warp, each row summed exactly', () => {
    const a = uniformMatrix(300, seededRandom(5));
    const x = makeVector(a.cols, seededRandom(6));
    expect(vectorWidth(a)).toBe(16);
    expect([...sim('csr-vector', a, x, 256).y]).toEqual([...spmvReference(a, x)]);
  });
});

describe('the split-width rule', () => {
  it('is the largest K that at least a third of the rows reach', () => {
    expect(hybridWidth([10, 1, 1, 1, 1, 1])).toBe(1); // only one row in six has 2 or more
    expect(hybridWidth([5, 5, 1, 1, 1, 1])).toBe(5); // two of six is a third
    expect(hybridWidth([0, 0, 0, 7])).toBe(0);
    expect(hybridWidth([])).toBe(0);
  });
});

describe('matrix kinds', () => {
  it('the Laplacian has 4 on the diagonal and −1 to each grid neighbour', () => {
    const a = laplacianMatrix(3);
    expect([...rowLengths(a)]).toEqual([3, 4, 3, 4, 5, 4, 3, 4, 3]);
    // Every row sums to 0 on the inside and to the number of missing neighbours on the border.
    expect([...spmvReference(a, new Float32Array(9).fill(1))]).toEqual([2, 1, 2, 1, 0, 1, 2, 1, 2]);
  });

  it('the power law has a few very long rows; uniform rows stay near the mean', () => {
    const p = matrixStats(powerLawMatrix(4096, seededRandom(3)));
    const u = matrixStats(uniformMatrix(4096, seededRandom(3)));
    expect(p.longest / p.mean).toBeGreaterThan(10);
    expect(u.longest).toBeLessThanOrEqual(32);
    expect(u.mean).toBeGreaterThan(14);
    expect(u.mean).toBeLessThan(18);
  });

  it('refuses a column outside the matrix', () => {
    expect(() => csrFromRows(2, [[[2, 1]]])).toThrow(/Column 2 lies outside the matrix's 2 columns/);
  });
});

describe('every variant on the simulator equals the CPU reference, bit for bit', () => {
  const kinds: [string, (rng: () => number) => Csr][] = [
    ['seed', () => seedMatrix()],
    ['banded', (rng) => bandedMatrix(70, rng)],
    ['uniform', (rng) => uniformMatrix(90, rng)],
    ['power-law', (rng) => powerLawMatrix(120, rng)],
    ['Laplacian', () => laplacianMatrix(8)],
    ['empty rows', (rng) => emptyRowsMatrix(50, rng)],
    ['one dense row', (rng) => denseRowMatrix(40, rng)],
    ['all rows empty', () => csrFromRows(5, [[], [], [], [], []])],
  ];
  for (const [name, make] of kinds) {
    it.each(SPMV_VARIANTS)(`${name}: %s`, (variant) => {
      const rng = seededRandom(11);
      const a = make(rng);
      const x = makeVector(a.cols, rng);
      const { result, y } = sim(variant, a, x, 64);
      expect(result.diagnostics).toEqual([]);
      expect([...y]).toEqual([...spmvReference(a, x)]);
    });
  }
});

describe('trace queries on the seed’s example', () => {
  const a = seedMatrix();

  // [active, idle] lanes in each iteration of the gather loop.
  it.each([
    ['CSR scalar: of the four lanes with rows, 3, 3 and 1 gather x in iterations 1–3 (row 1 is empty, rows 0 and 3 end after two)', 'csr-scalar', [[3, 1], [3, 1], [1, 3]]],
    ['ELL: all four lanes in each of the 3 iterations, padding included', 'ell', [[4, 0], [4, 0], [4, 0]]],
  ] as const)('%s', (_title, variant, lanes) => {
    const strip = iterationStrip(sim(variant, a, seedX).result.trace!, 0);
    expect(strip.map((i) => [i.active, i.idle])).toEqual(lanes);
  });

  it('JDS: the lanes take rows 2, 0, 3, 1 and the longest comes first', () => {
    const trace = sim('jds', a, seedX).result.trace!;
    // The store to y goes through perm: lane i writes row perm[i].
    let store = trace.stepCount - 1;
    while (store >= 0 && touchesAt(trace, store).name !== 'y') store--;
    const writes = touchesAt(trace, store).touches.map((t) => [t.lane, t.addr]);
    expect(writes).toEqual([
      [0, 2],
      [1, 0],
      [2, 3],
      [3, 1],
    ]);
  });

  it('ELL reads each slot column in one sector; CSR scalar spreads the value loads over more', () => {
    const ell = sectorsPerRequest(sim('ell', a, seedX).result.trace!, 'values');
    expect(ell.perRequest).toBe(1);
    const big = uniformMatrix(256, seededRandom(2));
    const x = makeVector(big.cols, seededRandom(4));
    const scalar = sectorsPerRequest(sim('csr-scalar', big, x).result.trace!, 'values').perRequest;
    const ellBig = sectorsPerRequest(sim('ell', big, x).result.trace!, 'values').perRequest;
    expect(ellBig).toBe(4); // 32 consecutive words = 128 bytes = 4 sectors
    expect(scalar).toBeGreaterThan(ellBig * 4);
  });

  it('COO: lanes of one row retry in turn (12 compare-exchange tries on the seed); moments find the first gather and atomic', () => {
    const trace = sim('coo', a, seedX).result.trace!;
    // Rows 0 and 3 have two lanes each, row 2 three; lanes of one row are served in turn and the
    // losers retry: (1 + 2) + (1 + 2 + 3) + (1 + 2) = 12 compare-exchange tries.
    expect(atomicLaneOps(trace)).toBe(12);
    const index = indexTrace(trace);
    expect(spmvMoments.atomic(index, 'first')).toBeGreaterThan(spmvMoments.gather(index, 'first'));
    expect(() => spmvMoments.gather(index, 'never')).toThrow(/use one of first, idle, last/);
  });
});

describe('the hybrid’s segmented tails', () => {
  it('adds a run of one row’s tail in the subgroup first: far fewer atomic tries than COO on a power-law matrix', () => {
    const a = powerLawMatrix(256, seededRandom(9));
    const x = makeVector(a.cols, seededRandom(10));
    const coo = atomicLaneOps(sim('coo', a, x, 256).result.trace!);
    const hybrid = atomicLaneOps(sim('hybrid', a, x, 256).result.trace!);
    expect(hybrid * 3).toBeLessThan(coo);
  });

  it('on the seed: one add per ELL row and one for row 2’s tail; lanes 2 and 4 meet on y[2], so one retries (6 tries)', () => {
    expect(atomicLaneOps(sim('hybrid', seedMatrix(), seedX).result.trace!)).toBe(6);
  });
});

describe('the lab module', () => {
  it('describes, in its metric rows, the matrix the session simulates (one seed for both)', () => {
    const p = { kind: 'powerlaw', rows: 256, workgroupSize: 64 };
    const { a } = matrixOf(spmvLab.inputs(p, INPUT_SEED));
    const rows = spmvLab.metrics!({ atomics: 0 } as Parameters<NonNullable<typeof spmvLab.metrics>>[0], p);
    expect(rows[0]!.value).toBe(nonzeros(a).toLocaleString('en'));
  });

  it('fits the rows to the matrix kind and says so', () => {
    const v = spmvLab.variants[0]!;
    expect(spmvSpec.rows.resolve(90, v, { kind: 'laplacian' })).toEqual({ value: 81, notice: expect.stringMatching(/square grid; using 81 rows/) as unknown });
    expect(spmvSpec.rows.resolve(16, v, { kind: 'seed' }).value).toBe(4);
    expect(spmvSpec.rows.resolve(100_000, v, { kind: 'uniform' }).notice).toMatch(/using 4,096 rows/);
    expect(spmvSpec.kind.parse('dense')).toEqual({ error: expect.stringMatching(/use one of seed, banded/) as unknown });
  });

  it('names the first wrong element', () => {
    const p = { kind: 'seed', rows: 4, workgroupSize: 128 };
    const inputs = spmvLab.inputs(p, 1);
    const r = spmvLab.check('ell', p, inputs, new Float32Array(4));
    expect(r.ok).toBe(false);
  });

  it('refuses a workgroup it was not written for', () => {
    expect(() => spmvRun('ell', seedMatrix(), seedX, 48)).toThrow(/whole warps of 32/);
    expect(() => spmvRun('ell', seedMatrix(), new Float32Array(3), 64)).toThrow(/x has 3 entries; the matrix has 4 columns/);
  });
});

describe('the stage’s storage map', () => {
  const f = allFormats(seedMatrix());
  it('maps each format’s words back to the seed matrix’s entries, padding to col −1', () => {
    expect(cellOfWord(f, 'csr-scalar', 'values', 4)).toEqual({ row: 2, col: 3 });
    expect(cellOfWord(f, 'ell', 'values', 1)).toEqual({ row: 1, col: -1 }); // row 1 is empty: slot 0 is padding
    expect(cellOfWord(f, 'ell', 'col_index', 10)).toEqual({ row: 2, col: 3 }); // slot 2 of row 2
    expect(cellOfWord(f, 'coo', 'row_index', 5)).toEqual({ row: 3, col: 0 });
    expect(cellOfWord(f, 'hybrid', 'coo_val', 0)).toEqual({ row: 2, col: 3 });
    expect(cellOfWord(f, 'jds', 'values', 3)).toEqual({ row: 0, col: 0 }); // stored row 1 is row 0
    expect(cellOfWord(f, 'jds', 'x', 0)).toBeUndefined();
    expect(cellOfWord(f, 'csr-vector', 'values', 7)).toBeUndefined();
  });

  it('every lane of every load of the traced run lands on a nonzero or a padding slot of its row', () => {
    for (const variant of SPMV_VARIANTS) {
      const trace = sim(variant, seedMatrix(), seedX).result.trace!;
      for (const s of loadSteps(trace, 'values')) {
        for (const t of touchesAt(trace, s).touches) {
          const cell = cellOfWord(f, variant, touchesAt(trace, s).name, t.addr);
          expect(cell, `${variant} step ${s} lane ${t.lane}`).toBeDefined();
          if (cell!.col >= 0) expect(t.value).toBe(toDense(seedMatrix())[cell!.row * 4 + cell!.col]);
          else expect(t.value).toBe(0);
        }
      }
    }
  });
});

describe('bench', () => {
  it('times the matrix the sweep checks: the same seed (the size), the seed’s example as the uniform kind, least traffic 12 B per nonzero + 4 per row', () => {
    const p = spmvLab.bench.at({ kind: 'seed', rows: 4, workgroupSize: 128 }, 1024);
    expect(p).toEqual({ kind: 'uniform', rows: 1024, workgroupSize: 128 });
    const inputs = spmvLab.inputs(p, 1024);
    const [run] = spmvLab.bench.passes('csr-scalar', p);
    expect([...(run!.bindings[0]![0] as Uint32Array)]).toEqual([...(inputs.rowPtr as Uint32Array)]);
    const nnz = (inputs.rowPtr as Uint32Array)[1024]!;
    expect(spmvLab.bench.bytes(p)).toBe(12 * nnz + 4 * 1024);
  });

  it('refuses ELL where padding to the longest row would not fit, naming the hybrid', () => {
    const a = csrFromRows(1 << 14, [Array.from({ length: 1 << 14 }, (_, c) => [c, 1] as const), ...Array.from({ length: (1 << 14) - 1 }, () => [])]);
    expect(() => spmvRun('ell', a, new Float32Array(1 << 14), 256)).toThrow(/use the hybrid or CSR/);
  });
});

describe('CSR merge path', () => {
  const full = (variant: SpmvVariant, a: Csr, x: Float32Array, wg: number, code?: string) => {
    const run = spmvRun(variant, a, x, wg);
    const tiles = run.workgroups[0];
    const result = simulate(code ? { ...run, code } : run, { warpSize: 32, trace: 'full', traceWorkgroups: Array.from({ length: tiles }, (_, i) => i) });
    return { result, tiles, y: yOf(variant, result.buffers[0]![Y_BINDING[variant]]!, a.rows) };
  };
  /** Lanes' compare-exchange tries: the atomic steps on the line of `atomicCompareExchangeWeak` (its row stores are atomic stores too). */
  const casTries = (trace: NonNullable<ReturnType<typeof simulate>['trace']>, code: string) => {
    const line = code.split('\n').findIndex((l) => l.includes('atomicCompareExchangeWeak(')) + 1;
    let n = 0;
    for (let s = 0; s < trace.stepCount; s++) if (trace.opLine[trace.stepOp[s]!] === line) n += trace.stepRecStart[s + 1]! - trace.stepRecStart[s]!;
    return n;
  };
  // Rows that cross invocations and tiles: a 700-nonzero row (over three tiles of 32 × 7 = 224
  // items), 300 empty rows in a run (more than a tile of row ends), a row that starts exactly at a
  // tile's first item, and short rows around them.
  const lengths = [3, 0, 700, 5, ...Array<number>(300).fill(0), 9, 1, 0, 14, 2, 40, 6, 0, 0, 215, 8];
  const crossing = csrFromRows(
    1024,
    lengths.map((len, r) => Array.from({ length: len }, (_, k) => [(r * 37 + k * 3) % 1024, 1 + ((r + k) % 4)] as const)),
  );
  const xc = makeVector(1024, seededRandom(21));

  it.each([32, 64, 256])('rows split between invocations and tiles sum exactly at workgroup %i', (wg) => {
    const { result, y } = full('csr-merge', crossing, xc, wg);
    expect(result.diagnostics).toEqual([]);
    expect([...y]).toEqual([...spmvReference(crossing, xc)]);
  });

  it('the plain binary search of the tile ends (SUBGROUP_SEARCH off, kept for timing) finds the same tiles', () => {
    const run = spmvRun('csr-merge', crossing, xc, 32);
    const result = simulate({ ...run, overrides: { ...run.overrides, SUBGROUP_SEARCH: 0 } }, { warpSize: 32 });
    expect(result.diagnostics).toEqual([]);
    expect([...yOf('csr-merge', result.buffers[0]![4]!, crossing.rows)]).toEqual([...spmvReference(crossing, xc)]);
  });

  it('a tile boundary falls exactly on a row start: that row is stored whole, with no atomic add', () => {
    // 32 × 7 = 224 items per tile: rows of 55 nonzeros take 56 items, so row 4 starts on item 224.
    const a = csrFromRows(64, Array.from({ length: 8 }, (_, r) => Array.from({ length: 55 }, (_, k) => [k, 1 + ((r + k) % 3)] as const)));
    const x = makeVector(64, seededRandom(3));
    const { y, result } = full('csr-merge', a, x, 32);
    expect([...y]).toEqual([...spmvReference(a, x)]);
    expect(casTries(result.trace!, spmvRun('csr-merge', a, x, 32).code)).toBe(0);
  });

  it('every tile but the last gets exactly workgroup × 7 items, and adds into y at most twice', () => {
    const a = powerLawMatrix(600, seededRandom(8));
    const x = makeVector(a.cols, seededRandom(9));
    const wg = 64;
    const { y, result, tiles } = full('csr-merge', a, x, wg);
    expect([...y]).toEqual([...spmvReference(a, x)]);
    const items = a.rows + a.rowPtr[a.rows]!;
    expect(tiles).toBe(mergeTiles(a, wg * MERGE_ITEMS_PER_INVOCATION));
    expect(tiles).toBe(Math.ceil(items / (wg * 7)));
    expect(tiles).toBeGreaterThan(3);
    // Each workgroup writes one word of `tile` per item it holds (a row end or a product).
    const trace = result.trace!;
    const tileMemory = trace.memories.find((m) => m.name === 'tile')!.id;
    const perTile = new Array<number>(tiles).fill(0);
    for (let s = 0; s < trace.stepCount; s++) {
      if (trace.opKind[trace.stepOp[s]!] === OpKind.storeShared && trace.stepMemory[s] === tileMemory) perTile[trace.stepWorkgroup[s]!]! += trace.stepRecStart[s + 1]! - trace.stepRecStart[s]!;
    }
    expect(perTile).toEqual(Array.from({ length: tiles }, (_, t) => (t + 1 < tiles ? wg * 7 : items - (tiles - 1) * wg * 7)));
    // One add per tile boundary a row crosses, each a first try that succeeds (the simulator
    // runs the workgroups in turn): never more than two per tile.
    const tries = casTries(result.trace!, spmvRun('csr-merge', a, x, wg).code);
    expect(tries).toBeGreaterThan(0);
    expect(tries).toBeLessThanOrEqual(2 * tiles);
  });

  it('the fix-ups are needed: without the cross-tile add, or without the tails of earlier invocations, rows come out wrong', () => {
    const code = spmvRun('csr-merge', crossing, xc, 32).code;
    const noTileCarry = code.replace('add_to_y(i1, row_sum);', '');
    const noTails = code.replace('row_sum += tail[s];\n      }\n      row_sum += head_sum;', '}\n      row_sum += head_sum;');
    expect(noTileCarry).not.toBe(code);
    expect(noTails).not.toBe(code);
    const want = [...spmvReference(crossing, xc)];
    expect([...full('csr-merge', crossing, xc, 32, noTileCarry).y]).not.toEqual(want);
    expect([...full('csr-merge', crossing, xc, 32, noTails).y]).not.toEqual(want);
  });

  it('on the seed’s example one tile holds all 11 items; invocation 0 closes rows 0 and 1, invocation 1 finishes row 2 from its tail', () => {
    // Path: nz0 nz1 end0 end1 nz2 nz3 nz4 | end2 nz5 nz6 end3 (7 items per invocation).
    const code = spmvRun('csr-merge', seedMatrix(), seedX, 32).code;
    const { y, result, tiles } = full('csr-merge', seedMatrix(), seedX, 32);
    expect(tiles).toBe(1);
    expect([...y]).toEqual([6, 0, 20, 5]);
    expect(casTries(result.trace!, code)).toBe(0);
    // Row 2 is summed from invocation 0's tail (three products) and stored by invocation 1.
    const trace = result.trace!;
    const stores: [number, number][] = [];
    for (let s = 0; s < trace.stepCount; s++) {
      if (trace.opKind[trace.stepOp[s]!] !== OpKind.atomicGlobal) continue;
      for (const t of touchesAt(trace, s).touches) stores.push([t.lane, t.addr]);
    }
    expect(stores.sort((p, q) => p[1] - q[1])).toEqual([
      [0, 0],
      [0, 1],
      [1, 2],
      [1, 3],
    ]);
  });
});

describe('CSR adaptive', () => {
  /** Rows of the given lengths over `cols` columns, values 1…4. */
  const ofLengths = (lengths: readonly number[], cols = 1024) =>
    csrFromRows(
      cols,
      lengths.map((len, r) => Array.from({ length: len }, (_, k) => [(r * 37 + k * 5) % cols, 1 + ((r + k) % 4)] as const)),
    );
  const simAdaptive = (a: Csr, x: Float32Array, wg: number, opts: Parameters<typeof adaptiveRun>[3], code?: string) => {
    const run = adaptiveRun(a, x, wg, opts);
    const result = simulate(code ? { ...run, code } : run, { warpSize: 32 });
    return yOf('csr-adaptive', result.buffers[0]![Y_BINDING['csr-adaptive']]!, a.rows);
  };
  /**
   * The adaptive kernel (with vec4 loads or not) equals the CPU bit for bit on `a` over groups,
   * passes, chunk sizes (down to `smallestChunk`) and workgroups, and on every generated matrix.
   */
  const expectAdaptiveEqualsCpu = (a: Csr, { vec4, smallestChunk }: { vec4: boolean; smallestChunk: number }) => {
    const x = makeVector(a.cols, seededRandom(5));
    const want = [...spmvReference(a, x)];
    for (const [wg, group, passes, longAfter, chunk] of [
      [32, 1, 1, 8, 32],
      [64, 2, 3, 16, 64],
      [256, 4, 2, 32, 1024],
      [128, 8, 1, 0, 100],
      [64, 32, 2, 64, smallestChunk],
    ] as const) {
      expect([...simAdaptive(a, x, wg, { group, passes, bins: rowBins(a, longAfter, chunk), vec4 })], `wg ${wg}, group ${group}, ${passes} passes, long after ${longAfter}, chunks of ${chunk}`).toEqual(want);
    }
    for (const make of [emptyRowsMatrix, denseRowMatrix, powerLawMatrix, uniformMatrix, bandedMatrix]) {
      const b = make(300, seededRandom(9));
      const xb = makeVector(b.cols, seededRandom(10));
      expect([...simAdaptive(b, xb, 64, { bins: rowBins(b, 8 * adaptiveGroup(b), 40), vec4 })], make.name).toEqual([...spmvReference(b, xb)]);
    }
  };

  it('groups about four nonzeros per lane: 4 lanes for a mean of 16, 1 for 1.75, 2 for 5, 32 at most', () => {
    expect(adaptiveGroup(ofLengths(Array<number>(8).fill(16)))).toBe(4);
    expect(adaptiveGroup(seedMatrix())).toBe(1);
    expect(adaptiveGroup(ofLengths([5, 5, 5, 5]))).toBe(2);
    expect(adaptiveGroup(ofLengths([200, 200]))).toBe(32);
    expect(adaptiveGroup(ofLengths([0, 0]))).toBe(1);
  });

  it('bins rows longer than longAfter into chunks: a row of exactly longAfter stays short', () => {
    // Rows start at 0, 3, 3, 73, 81, 101.
    const bins = rowBins(ofLengths([3, 0, 70, 8, 20, 9]), 8, 32);
    expect(bins.longRows).toBe(3);
    expect(bins.longNonzeros).toBe(99);
    expect([...bins.chunks]).toEqual([2, 3, 35, 0, 2, 35, 67, 0, 2, 67, 73, 0, 4, 81, 101, 1, 5, 101, 110, 1]);
    expect(() => rowBins(seedMatrix(), 4, 0)).toThrow(/Chunks of 0 nonzeros/);
    expect(() => rowBins(seedMatrix(), -1)).toThrow(/long row begins after -1/);
  });

  it('has no long rows on the uniform matrix (lengths 0…32 with groups of 4) and bins the power law’s long tail', () => {
    const u = uniformMatrix(4096, seededRandom(3));
    expect(adaptiveGroup(u)).toBe(4);
    expect(rowBins(u).longRows).toBe(0);
    const p = powerLawMatrix(4096, seededRandom(3));
    const bins = rowBins(p);
    expect(bins.longRows).toBeGreaterThan(0);
    expect(bins.longNonzeros).toBeGreaterThan(nonzerosOf(p) / 5);
  });

  it('equals the CPU bit for bit over groups, passes, chunk sizes and workgroups, with empty rows, a dense row and rows of many chunks', () => {
    const a = ofLengths([3, 0, 700, 5, ...Array<number>(70).fill(0), 9, 1, 0, 14, 2, 40, 6, 0, 0, 215, 8, 33, 32, 31, 1024]);
    expectAdaptiveEqualsCpu(a, { vec4: false, smallestChunk: 1 });
  });

  it('the vec4-load experiment equals the CPU bit for bit too, over groups, passes, chunks and workgroups, nonzero counts not a multiple of four included', () => {
    const a = ofLengths([3, 0, 700, 5, ...Array<number>(70).fill(0), 9, 1, 0, 14, 2, 40, 6, 0, 0, 215, 8, 33, 32, 31, 1023]);
    expect(nonzerosOf(a) % 4).not.toBe(0);
    expectAdaptiveEqualsCpu(a, { vec4: true, smallestChunk: 7 });
    const seed = simulate(adaptiveRun(seedMatrix(), seedX, 32, { vec4: true }), { warpSize: 32 });
    expect([...yOf('csr-adaptive', seed.buffers[0]![4]!, 4)]).toEqual([...spmvReference(seedMatrix(), seedX)]);
  });

  it('a row of several chunks needs the atomic add: storing each chunk instead loses all but one', () => {
    const a = ofLengths([3, 300, 4]);
    const x = makeVector(a.cols, seededRandom(6));
    const opts = { group: 2, bins: rowBins(a, 8, 64) };
    const code = adaptiveRun(a, x, 64, opts).code;
    const storeAll = code.replace('if (chunk.w == 1u) {', 'if (true) {');
    expect(storeAll).not.toBe(code);
    expect([...simAdaptive(a, x, 64, opts)]).toEqual([...spmvReference(a, x)]);
    expect(simAdaptive(a, x, 64, opts, storeAll)[1]).not.toBe(spmvReference(a, x)[1]);
  });

  it('refuses a group that is not a power of two from 1 to 32, naming it', () => {
    const a = seedMatrix();
    expect(() => adaptiveRun(a, seedX, 64, { group: 3 })).toThrow(/group of 3 lanes/);
    expect(() => adaptiveRun(a, seedX, 64, { group: 64 })).toThrow(/group of 64 lanes/);
    expect(() => adaptiveRun(a, seedX, 64, { passes: 0 })).toThrow(/0 passes/);
  });
});

const nonzerosOf = (a: Csr) => a.rowPtr[a.rows]!;
