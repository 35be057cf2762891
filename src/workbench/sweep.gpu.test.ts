import { beforeAll, describe, expect, it } from 'vitest';
import type { BandwidthBaselines, GpuExecutor } from '../gpu/executor.ts';
import { sharedNodeGpu } from '../gpu/node.ts';
import { findLab } from '../labs/all.ts';
import { timingSweep, type TimingRow } from './sweep.ts';

let gpu: GpuExecutor;
let baselines: BandwidthBaselines;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
  baselines = await gpu.baselines(1 << 16, { repeats: 2, warmupMs: 0 });
});

async function sweep(labId: string): Promise<TimingRow[]> {
  const lab = findLab(labId)!;
  const rows: TimingRow[] = [];
  const adapter = gpu.adapter!;
  for await (const row of timingSweep(lab, lab.defaults, {
    gpu,
    baselines,
    sizes: [1024],
    repeats: 3,
    hasSubgroups: adapter.hasSubgroups,
    maxInvocations: adapter.limits.maxComputeInvocationsPerWorkgroup,
  }))
    rows.push(row);
  return rows;
}

describe('the generic timing sweep on Dawn', () => {
  it('times every figure against the lab\'s own baseline in alternating rounds, with the rounds\' range', async () => {
    for (const [labId, kind] of [
      ['basics', 'copy'],
      ['rowsum', 'read'],
    ] as const) {
      const rows = await sweep(labId);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect(r.baselineKind, `${labId}/${r.variant}`).toBe(kind);
        expect(r.gpuAgrees).toBe(true);
        expect(r.percentOfBaseline).toBeGreaterThan(0);
        expect(r.percentMin).toBeLessThanOrEqual(r.percentOfBaseline);
        expect(r.percentOfBaseline).toBeLessThanOrEqual(r.percentMax);
        expect(r.dispatchesPerPass).toBeGreaterThanOrEqual(1);
        if (!r.steady) expect(r.unsteadyReason).toMatch(/max\/min|baseline ran/);
      }
    }
  });
});
