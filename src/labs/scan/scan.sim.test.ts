/**
 * The scan kernels on the simulator: outputs against the CPU reference for every variant and
 * length, the work counter's formulas against the additions the simulator saw, and the bank
 * conflicts that padding removes. (Simulator vs GPU, bit for bit, is src/sim/differential.gpu.test.ts
 * over `scanCases`.)
 */
import { describe, expect, it } from 'vitest';
import type { BindingData, KernelRun } from '../../kernel/types.ts';
import { OpKind, simulate, traceStep, type Trace } from '../../sim/index.ts';
import { firstMismatch } from '../../util/arrays.ts';
import { seededRandom } from '../../util/random.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import { scan, singlePassVec4Run, singlePassVec4StatusWords, tileScanRun, type ScanOptions } from './driver.ts';
import { scanInput } from './inputs.ts';
import { blellochAdditions, hillisSteeleAdditions, scanReference, summedAreaReference } from './reference.ts';
import { SCAN_VARIANTS, type ScanVariant } from './variants.ts';

/** The simulator as an executor; any diagnostic (race, out of bounds, divergent barrier) fails. */
function simExecutor(warpSize = 32): KernelExecutor {
  return {
    run(run: KernelRun) {
      const r = simulate(run, { warpSize, trace: 'summary' });
      if (r.incomplete || r.diagnostics.length > 0) {
        const d = r.diagnostics[0];
        return Promise.reject(new Error(`${run.label ?? run.file}: ${d ? `${d.kind} at ${d.line}:${d.column}: ${d.message}` : 'incomplete run'}`));
      }
      return Promise.resolve(r.buffers);
    },
  };
}

/**
 * 2^18 + 1 is the smallest length whose tile sums need a multi-block scan of their own at every
 * tile size the variants have at 256 lanes (tiles of 256: 1 025 tiles, 5 sums tiles; tiles of 512:
 * 513, then 2): the third scan level, the one path only a large length reaches, with one element
 * in the last tile at each level. (2^20 + 3 reached the same levels at four times the work.)
 * The summed-area table takes it as 481 × 545: rows and columns both span several workgroups'
 * worth of elements and end part-way into one.
 */
const LENGTHS = [1, 7, 1000, 2 ** 16, 2 ** 18 + 1];
const SHAPES: Record<number, [number, number]> = { 1: [1, 1], 7: [7, 1], 1000: [40, 25], [2 ** 16]: [256, 256], [2 ** 18 + 1]: [481, 545] };

/** 'equal', or where and how `actual` first differs from `expected`. */
function mismatchText(actual: ArrayLike<number>, expected: ArrayLike<number>): string {
  if (actual.length !== expected.length) return `length ${actual.length}, want ${expected.length}`;
  const i = firstMismatch(actual, expected);
  return i === -1 ? 'equal' : `index ${i}: got ${actual[i]}, want ${expected[i]}`;
}

async function simScan(v: ScanVariant, input: BindingData, opts: ScanOptions, warpSize = 32): Promise<string> {
  const shape = SHAPES[input.length] ?? [input.length, 1];
  const { output } = await scan(simExecutor(warpSize), v.id, input, { ...opts, ...(v.shape === 'matrix' ? { width: shape[0] } : {}) });
  const exclusive = opts.exclusive ?? false;
  const want = v.shape === 'matrix' ? summedAreaReference(input, shape[0], shape[1], exclusive) : scanReference(input, exclusive);
  return mismatchText(output, want);
}

describe.each(SCAN_VARIANTS.map((v) => [v.id, v] as const))('scan/%s on the simulator', (_id, v) => {
  it.each(LENGTHS.flatMap((n) => [[n, 'inclusive'], [n, 'exclusive']] as const))(
    'u32, %i elements, %s, equals the CPU reference',
    async (n, mode) => {
      const input = scanInput(seededRandom(n), n, 'u32');
      expect(await simScan(v, input, { exclusive: mode === 'exclusive' })).toBe('equal');
    },
  );

  it('f32 small integers, both modes, bit for bit', async () => {
    const input = scanInput(seededRandom(2), 5000, 'f32', 'small-integers');
    for (const exclusive of [false, true]) expect(await simScan(v, input, { exclusive })).toBe('equal');
  });
});

describe('subgroup scan on any warp size', () => {
  const v = SCAN_VARIANTS.find((x) => x.id === 'subgroup')!;
  it.each([4, 8, 16, 32, 64])('warp size %i', async (warpSize) => {
    const input = scanInput(seededRandom(warpSize), 3000, 'u32');
    for (const exclusive of [false, true]) {
      for (const workgroupSize of [64, 256]) {
        expect(await simScan(v, input, { exclusive, workgroupSize }, warpSize)).toBe('equal');
      }
    }
  });
});

// The shipped vec4 single pass, its reordering (in-tile scans after the look-back) and the one whose
// subgroup 0 scans the subgroups' totals share the look-back, the status words and the tile shape:
// every check below runs on all three.
describe.each(['single-pass-vec4', 'single-pass-late-scan', 'single-pass-warp-totals'] as const)('%s on any warp size, and its look-back paths', (id) => {
  const v = SCAN_VARIANTS.find((x) => x.id === id)!;
  it.each([4, 8, 16, 32, 64])('warp size %i', async (warpSize) => {
    const input = scanInput(seededRandom(40 + warpSize), 9000, 'u32');
    for (const exclusive of [false, true]) {
      for (const workgroupSize of [64, 256]) {
        expect(await simScan(v, input, { exclusive, workgroupSize }, warpSize)).toBe('equal');
      }
    }
  });

  it('a workgroup of 768 (not a power of two; the fastest size on an H100), both modes', async () => {
    const input = scanInput(seededRandom(77), 3 * 768 * 32 + 999, 'u32');
    for (const exclusive of [false, true]) {
      expect(await simScan(v, input, { exclusive, workgroupSize: 768 }, 32)).toBe('equal');
    }
  });

  // The simulator runs workgroups one after another, so every predecessor has published by the
  // time a tile looks back. Starting the ticket counter 10 tiles before the end of dispatch 0
  // makes the first 10 workgroups take the last 10 tiles of dispatch 0, whose windows find their
  // nearest predecessors ready and the rest silent: partial windows, then fallbacks. The other
  // workgroups then take tiles 0 … 29 of dispatch 1 (the other mark).
  it.each([4, 32])('partly ready windows and fallbacks, warp size %i', (warpSize) => {
    const workgroupSize = 64;
    const tiles = 40;
    const n = tiles * workgroupSize * 32 - 3;
    const status = new Uint32Array(singlePassVec4StatusWords(n, workgroupSize, id));
    status[0] = tiles - 10;
    const input = scanInput(seededRandom(7), n, 'u32');
    // Tiles 25 … 29 already show dispatch 0's aggregates (flag = mark 1 · 2 + kind 0): tile 30's
    // window counts those 5, then falls back on tile 24, and so on.
    const tile = workgroupSize * 32;
    for (let t = 25; t < 30; t++) {
      let sum = 0;
      for (let i = t * tile; i < (t + 1) * tile; i++) sum = (sum + input[i]!) >>> 0;
      status[1 + 2 * t] = (2 << 16) | (sum & 0xffff);
      status[2 + 2 * t] = (2 << 16) | (sum >>> 16);
    }
    for (const exclusive of [false, true]) {
      const run = singlePassVec4Run(input, { workgroupSize, exclusive, spinLimit: 2, status }, id);
      const r = simulate(run, { warpSize, trace: 'summary' });
      expect(r.diagnostics).toEqual([]);
      expect(mismatchText(r.buffers[0]![1]!.slice(0, n), scanReference(input, exclusive))).toBe('equal');
      expect(r.buffers[0]![2]![0]).toBe(2 * tiles - 10);
    }
  });
});

/**
 * Additions on tree values, read from the trace: lane-stores to workgroup memory at statements
 * whose right-hand side adds (a `+` outside the index brackets: `buf[…] = buf[…] + buf[…]`,
 * `temp[…] = left + temp[…]`). Copies, loads from storage and the cleared root do not count.
 * (The provenance of store records would say this without reading source; see the report.)
 */
function nodeAdditions(trace: Trace, code: string): number {
  const lines = code.split('\n');
  const adds = (line: number): boolean => {
    const text = (lines[line - 1] ?? '').replace(/\/\/.*$/, '').replace(/\[[^\]]*\]/g, '[]');
    const eq = text.indexOf('] =');
    return eq >= 0 && text.slice(eq + 3).includes('+');
  };
  let total = 0;
  for (let s = 0; s < trace.stepCount; s++) {
    const step = traceStep(trace, s);
    if (step.kind === OpKind.storeShared && adds(step.line)) total += step.activeCount;
  }
  return total;
}

function traced(run: KernelRun): Trace {
  const r = simulate(run, { warpSize: 32, trace: 'full' });
  expect(r.diagnostics).toEqual([]);
  return r.trace!;
}

describe('work counter: the simulator counts the additions the formulas predict (n = 1024, one tile)', () => {
  const n = 1024;
  it.each([false, true])('Hillis–Steele, exclusive=%s: n·log2 n − (n − 1) = 9 217', (exclusive) => {
    const run = tileScanRun('hillis-steele', scanInput(seededRandom(1), n, 'u32'), { workgroupSize: 1024, exclusive });
    expect(nodeAdditions(traced(run), run.code)).toBe(hillisSteeleAdditions(n));
    expect(hillisSteeleAdditions(n)).toBe(9217);
  });

  it.each(['blelloch', 'blelloch-padded'] as const)('%s: 2(n − 1) = 2 046 in both modes', (id) => {
    for (const exclusive of [false, true]) {
      const run = tileScanRun(id, scanInput(seededRandom(1), n, 'u32'), { workgroupSize: 512, exclusive });
      expect(nodeAdditions(traced(run), run.code)).toBe(blellochAdditions(n));
    }
    expect(blellochAdditions(n)).toBe(2046);
  });
});

describe('bank conflicts', () => {
  const conflicts = (id: 'blelloch' | 'blelloch-padded' | 'hillis-steele', n: number, workgroupSize: number, exclusive: boolean): number => {
    const run = tileScanRun(id, scanInput(seededRandom(4), n, 'u32'), { workgroupSize, exclusive });
    const r = simulate(run, { warpSize: 32, trace: 'summary' });
    expect(r.diagnostics).toEqual([]);
    return r.metrics.sharedBankConflicts;
  };

  it.each([
    [1024, 512],
    [512, 256],
    [3000, 64],
  ])('n = %i, %i invocations: the padded Blelloch has none, the unpadded some', (n, wg) => {
    for (const exclusive of [false, true]) {
      expect(conflicts('blelloch', n, wg, exclusive)).toBeGreaterThan(0);
      expect(conflicts('blelloch-padded', n, wg, exclusive)).toBe(0);
    }
  });

  it('Hillis–Steele (neighbouring lanes, neighbouring words) has none', () => {
    expect(conflicts('hillis-steele', 1024, 256, false)).toBe(0);
  });
});
