import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../kernel/types.ts';
import { tileScanRun } from './driver.ts';
import { scanInput } from './inputs.ts';
import { blellochAdditions, hillisSteeleAdditions } from './reference.ts';
import type { ScanVariantId } from './variants.ts';
import { simulate, type SimResult } from '../../sim/index.ts';
import { seededRandom } from '../../util/random.ts';
import { barrierPhase, indexTrace } from '../../trace/index.ts';
import { mainSharedMemory } from '../../trace/memory.ts';
import {
  additionsAt,
  bankSummary,
  findRequest,
  networkOffsets,
  phaseStart,
  requestAtOrBefore,
  requestByOrdinal,
  requestPlace,
  scanDataflow,
  scanPhaseAt,
  sharedRequestSteps,
  type ScanPhase,
} from './trace.ts';

interface Case {
  readonly variant: ScanVariantId;
  readonly n: number;
  readonly workgroupSize: number;
  readonly exclusive: boolean;
}
const makeCase = (overrides: Partial<Case> = {}): Case => ({ variant: 'blelloch', n: 512, workgroupSize: 256, exclusive: false, ...overrides });

const cache = new Map<string, { run: KernelRun; result: SimResult }>();
function traced(c: Case) {
  const key = JSON.stringify(c);
  let hit = cache.get(key);
  if (!hit) {
    const run = tileScanRun(c.variant, scanInput(seededRandom(1), c.n, 'u32'), { workgroupSize: c.workgroupSize, exclusive: c.exclusive });
    const result = simulate(run, { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    expect(result.diagnostics).toEqual([]);
    cache.set(key, (hit = { run, result }));
  }
  const trace = hit.result.trace!;
  const memory = mainSharedMemory(trace);
  return { ...hit, trace, memory, flow: scanDataflow(trace, memory) };
}

describe('work counter: additions read from provenance (writes with two sources) match the formulas for one tile', () => {
  it.each([false, true])('Hillis–Steele, n = 1024, exclusive=%s: n·log2 n − (n − 1) = 9 217', (exclusive) => {
    const { flow, trace } = traced(makeCase({ variant: 'hillis-steele', n: 1024, workgroupSize: 1024, exclusive }));
    expect(flow.leaves).toBe(1024);
    expect(additionsAt(flow, trace.stepCount - 1)).toBe(hillisSteeleAdditions(1024));
    expect(flow.clear).toBe(-1);
  });

  it.each([
    ['blelloch', false],
    ['blelloch', true],
    ['blelloch-padded', false],
    ['blelloch-padded', true],
  ] as const)('%s, n = 1024, exclusive=%s: 2(n − 1) = 2 046, n − 1 per sweep', (variant, exclusive) => {
    const { flow, trace } = traced(makeCase({ variant, n: 1024, workgroupSize: 512, exclusive }));
    expect(flow.leaves).toBe(1024);
    expect(additionsAt(flow, trace.stepCount - 1)).toBe(blellochAdditions(1024));
    const sum = (a: readonly number[]) => a.reduce((x, y) => x + y, 0);
    expect(sum(flow.additionsPerUpRow)).toBe(1023);
    expect(sum(flow.additionsPerDownRow)).toBe(1023);
  });

  it('counts none before the first addition and grows monotonically', () => {
    const { flow, trace } = traced(makeCase());
    expect(additionsAt(flow, flow.firstAddStep - 1)).toBe(0);
    let last = 0;
    for (let s = 0; s < trace.stepCount; s += 37) {
      const a = additionsAt(flow, s);
      expect(a).toBeGreaterThanOrEqual(last);
      last = a;
    }
  });
});

describe('Blelloch trees from provenance', () => {
  it.each(['blelloch', 'blelloch-padded'] as const)('%s (n = 512, 256 invocations): 9 up levels, a cleared root, 9 down levels', (variant) => {
    const { flow } = traced(makeCase({ variant }));
    expect(flow.upRows).toBe(10); // leaves + log2 512 levels
    expect(flow.downRows).toBe(10); // the root + 9 levels
    const root = flow.nodes[flow.clear]!;
    expect(root.value).toBe(0);
    expect(root.column).toBe(511); // the padded root lives at word pad(511) = 526 but stands for element 511
    // Up-sweep level l writes n / 2^l nodes, each an addition, at columns 2^l·(k + 1) − 1.
    for (let l = 1; l <= 9; l++) {
      const cols = flow.nodes.filter((x) => x.sweep === 'up' && x.row === l).map((x) => x.column).sort((a, b) => a - b);
      expect(cols).toEqual(Array.from({ length: 512 >> l }, (_, k) => (1 << l) * (k + 1) - 1));
      expect(flow.additionsPerUpRow[l]).toBe(512 >> l);
    }
    // Down-sweep depth d: 2^(d−1) left children take the parent's value (copies), as many right children add.
    for (let d = 1; d <= 9; d++) {
      const level = flow.nodes.filter((x) => x.sweep === 'down' && x.row === d);
      expect(level.filter((x) => x.kind === 'copy')).toHaveLength(1 << (d - 1));
      expect(level.filter((x) => x.kind === 'add')).toHaveLength(1 << (d - 1));
      for (const right of level.filter((x) => x.kind === 'add')) {
        const parents = right.sources.filter((s) => flow.nodes[s]!.sweep === 'down' || flow.nodes[s]!.sweep === 'clear');
        const oldLeft = right.sources.filter((s) => flow.nodes[s]!.sweep !== 'down' && flow.nodes[s]!.sweep !== 'clear');
        expect(parents).toHaveLength(1);
        expect(oldLeft).toHaveLength(1);
        const stride = 512 >> d;
        expect(flow.nodes[oldLeft[0]!]!.column).toBe(right.column - stride);
        expect(flow.nodes[parents[0]!]!.column).toBe(right.column);
      }
    }
  });

  it('phases run load → up-sweep (levels rising) → root clear → down-sweep (depth rising) → write-out', () => {
    const { flow, trace, result } = traced(makeCase());
    const index = indexTrace(trace, 256);
    const seen: ScanPhase[] = [];
    let up = -1;
    let down = -1;
    for (let s = 0; s < trace.stepCount; s++) {
      const p = scanPhaseAt(flow, s);
      if (seen[seen.length - 1] !== p.phase) seen.push(p.phase);
      expect(p.upLevel).toBeGreaterThanOrEqual(up);
      expect(p.downLevel).toBeGreaterThanOrEqual(down);
      up = p.upLevel;
      down = p.downLevel;
    }
    expect(seen).toEqual(['load', 'up-sweep', 'root-clear', 'down-sweep', 'write-out']);
    expect(up).toBe(9);
    expect(down).toBe(9);
    expect(phaseStart(flow, 'root-clear')).toBe(flow.nodes[flow.clear]!.step);
    expect(scanPhaseAt(flow, phaseStart(flow, 'down-sweep')).phase).toBe('down-sweep');
    expect(result.metrics.sharedBankConflicts).toBeGreaterThan(0);
    expect(index.barrierSteps.length).toBeGreaterThan(0);
  });
});

describe('Hillis–Steele network from provenance', () => {
  it('n = 256, one tile: 8 rows with offsets 1, 2, 4, … and W − 2^k additions each', () => {
    const { flow } = traced(makeCase({ variant: 'hillis-steele', n: 256, workgroupSize: 256 }));
    expect(flow.clear).toBe(-1);
    expect(flow.upRows).toBe(9);
    expect(networkOffsets(flow).slice(1)).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
    expect(flow.additionsPerUpRow).toEqual([0, ...Array.from({ length: 8 }, (_, k) => 256 - (1 << k))]);
    // Every row covers every column once, although the rows alternate between the two buffers.
    for (let r = 1; r <= 8; r++) {
      const cols = flow.nodes.filter((x) => x.row === r).map((x) => x.column).sort((a, b) => a - b);
      expect(cols).toEqual(Array.from({ length: 256 }, (_, k) => k));
    }
    expect(scanPhaseAt(flow, flow.firstAddStep).phase).toBe('network');
  });
});

describe('bank conflicts per request', () => {
  it('the summary over the traced tile equals the simulator metric (one tile)', () => {
    for (const variant of ['blelloch', 'blelloch-padded', 'hillis-steele'] as const) {
      const { trace, result } = traced(makeCase({ variant }));
      expect(bankSummary(trace).conflicts).toBe(result.metrics.sharedBankConflicts);
    }
  });

  it('padding takes Blelloch from conflicts (worst 16-way) to none; each request is found again in the padded trace', () => {
    const plain = traced(makeCase());
    const padded = traced(makeCase({ variant: 'blelloch-padded' }));
    const a = bankSummary(plain.trace);
    const b = bankSummary(padded.trace);
    expect(a.conflicts).toBeGreaterThan(0);
    expect(a.worst!.wavefronts).toBe(16);
    expect(b.conflicts).toBe(0);
    expect(b.worst!.wavefronts).toBe(1);
    const ia = indexTrace(plain.trace, 256);
    const ib = indexTrace(padded.trace, 256);
    const sa = sharedRequestSteps(plain.trace);
    const sb = sharedRequestSteps(padded.trace);
    const clearPhase = barrierPhase(ia, plain.flow.nodes[plain.flow.clear]!.step);
    const lanes = (t: typeof plain.trace, s: number) => t.stepRecStart[s + 1]! - t.stepRecStart[s]!;
    for (let k = 0; k < sa.length; k++) {
      const x = requestByOrdinal(plain.trace, sa, k)!;
      const y = findRequest(ib, sb, requestPlace(ia, sa, x))!;
      expect(y.warp).toBe(x.warp);
      expect(barrierPhase(ib, y.step)).toBe(barrierPhase(ia, x.step));
      expect(y.wavefronts).toBe(1);
      // The unpadded kernel reads the root twice (for `total` and for `tile_sums`): one extra request there.
      if (barrierPhase(ia, x.step) !== clearPhase) {
        expect(lanes(padded.trace, y.step)).toBe(lanes(plain.trace, x.step));
      }
    }
    const worst = a.worst!;
    expect(requestAtOrBefore(plain.trace, sa, worst.step)).toEqual(worst);
    expect(requestAtOrBefore(plain.trace, sa, -1)).toBeUndefined();
  });
});
