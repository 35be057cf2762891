import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { seededRandom } from '../../util/random.ts';
import { makeMatrix, makeVector, MATRIX_KINDS, spmvReference } from './formats.ts';
import { sellRun, toSell } from './sell.ts';

describe('sliced ELL with cut rows (the issue-29 experiment kernel)', () => {
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

  it('pads each slice of 32 pieces to its longest piece in whole steps, and cuts long rows into pieces of at most the limit', () => {
    const a = makeMatrix('powerlaw', 2000, seededRandom(5));
    const sell = toSell(a, { limit: 16, window: 128, step: 4 });
    const nnz = a.rowPtr[a.rows]!;
    let stored = 0;
    for (let s = 0; s + 1 < sell.start.length; s++) {
      const width = (sell.start[s + 1]! - sell.start[s]!) / 32;
      expect(width % 4).toBe(0);
      expect(width).toBeLessThanOrEqual(16);
      stored += width * 32;
    }
    expect(stored / nnz).toBeCloseTo(sell.fill, 10);
    expect([...sell.val].filter((v) => v !== 0).length).toBeLessThanOrEqual(nnz);
  });
});
