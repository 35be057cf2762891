import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { seededRandom } from '../../util/random.ts';
import { makeMatrix, makeVector, MATRIX_KINDS, seedMatrix, spmvReference, uniformMatrix } from './formats.ts';
import { spmvRun } from './kernel.ts';
import { sellOptions, sellRun, toSell } from './sell.ts';
import { allFormats, cellOfWord } from './stage.ts';
import { loadSteps, touchesAt } from './trace.ts';

describe('sliced ELL with cut rows (the lab’s sell variant)', () => {
  it('picks pieces of 32 in windows of 4096, or pieces of 128 in windows of 16384 where a row is over 8 × the mean, 8 nonzeros a step (the H100’s best for each matrix)', () => {
    expect(sellOptions(uniformMatrix(2000, seededRandom(1)))).toEqual({ limit: 32, window: 4096, step: 8 });
    expect(sellOptions(makeMatrix('powerlaw', 2000, seededRandom(1)))).toEqual({ limit: 128, window: 16384, step: 8 });
  });

  it('on the seed: one slice of four pieces, longest first, 3 slots wide (its longest row); the stage maps each stored word to its matrix entry or to padding; every piece gathers x at once', () => {
    const a = seedMatrix();
    const f = allFormats(a);
    expect(f.sell.pieces).toBe(4);
    expect([...f.sell.start]).toEqual([0, 96]);
    const lengths = [...f.sell.length];
    expect(lengths).toEqual([...lengths].sort((p, q) => q - p));
    const cells = Array.from({ length: 96 }, (_, k) => cellOfWord(f, 'sell', 'val', k)!);
    expect(cells.filter((c) => c.col === -1).length).toBe(89);
    // Every nonzero of the matrix is stored exactly once, at its own row and column.
    const held = cells.filter((c) => c.col >= 0).map((c) => `${c.row}/${c.col}`).sort();
    const want: string[] = [];
    for (let r = 0; r < a.rows; r++) for (let j = a.rowPtr[r]!; j < a.rowPtr[r + 1]!; j++) want.push(`${r}/${a.colIndex[j]}`);
    expect(held).toEqual(want.sort());
    const x = new Float32Array(a.cols).fill(1);
    const trace = simulate(spmvRun('sell', a, x, 128), { trace: 'full' }).trace!;
    expect(touchesAt(trace, loadSteps(trace, 'x')[0]!).touches.length).toBe(4);
  });

  it.each(MATRIX_KINDS)('%s: the simulator equals the CPU at subgroups of 4, 8 and 32, rows kept whole bit for bit, cut rows within rounding', (kind) => {
    const rng = seededRandom(kind.length * 13);
    const a = makeMatrix(kind, 900, rng);
    const x = makeVector(a.cols, rng);
    const want = spmvReference(a, x);
    for (const [opts, warpSize] of [[{ limit: 8, window: 64, step: 4 }, 32], [{ limit: 1000, window: 1, step: 2 }, 32], [{ limit: 5, window: 256, step: 1 }, 4], [{ limit: 7, window: 32, step: 4 }, 8]] as const) {
      const sell = toSell(a, opts);
      // Subgroups of 4 and 8 as well as 32: the scan that sums a cut row's pieces must not depend on the width.
      const res = simulate(sellRun(sell, a.rows, x, opts.step, 64), { warpSize, trace: 'summary' });
      expect(res.diagnostics).toEqual([]);
      const got = new Float32Array((res.buffers[0]![5] as Uint32Array).buffer);
      for (let r = 0; r < a.rows; r++) {
        const cut = a.rowPtr[r + 1]! - a.rowPtr[r]! > opts.limit;
        if (cut) expect(Math.abs(got[r]! - want[r]!), `${kind} row ${r} ${JSON.stringify(opts)}`).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(want[r]!)));
        else expect(got[r], `${kind} row ${r} ${JSON.stringify(opts)}`).toBe(want[r]);
      }
    }
  });

  it('pads each slice of 32 pieces to its longest piece (not to whole steps), sorts pieces longest first inside each window, and cuts long rows into pieces of at most the limit', () => {
    const a = makeMatrix('powerlaw', 2000, seededRandom(5));
    const sell = toSell(a, { limit: 16, window: 128, step: 4 });
    const nnz = a.rowPtr[a.rows]!;
    let stored = 0;
    let odd = 0;
    for (let s = 0; s + 1 < sell.start.length; s++) {
      const width = (sell.start[s + 1]! - sell.start[s]!) / 32;
      const pieces = sell.length.subarray(32 * s, 32 * s + 32);
      expect(width).toBe(Math.max(...pieces));
      if (width % 4 !== 0) odd++;
      expect(width).toBeLessThanOrEqual(16);
      stored += width * 32;
    }
    expect(odd).toBeGreaterThan(0);
    for (let w0 = 0; w0 < sell.pieces; w0 += 128) {
      const part = [...sell.length.subarray(w0, Math.min(sell.pieces, w0 + 128))];
      expect(part).toEqual([...part].sort((p, q) => q - p));
    }
    expect(stored / nnz).toBeCloseTo(sell.fill, 10);
    expect([...sell.val].filter((v) => v !== 0).length).toBeLessThanOrEqual(nnz);
  });
});
