import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { findLab } from '../../labs/all.ts';
import type { TimingRow } from '../../workbench/sweep.ts';
import { TimingsTable } from './TimingsPanel.tsx';

const lab = findLab('reduce');
const row = (variant: string, n: number): TimingRow => ({
  variant, n, gpuMs: 3.2, gbps: 0.0042, baselineKind: 'read', percentOfBaseline: 40, percentMin: 20, percentMax: 90,
  steady: false, unsteadyReason: undefined, cpuMs: 0.5, gpuAgrees: true, simAgrees: true, dispatchesPerPass: 1, quantized: false, wallClock: false,
});
const rows = lab.variants.slice(0, 4).flatMap((v) => [row(v.id, 1024), row(v.id, 4096)]);

describe('TimingsTable on a software adapter (a CPU emulation)', () => {
  const html = renderToStaticMarkup(<TimingsTable rows={rows} lab={lab} software />);

  it('shows small GB/s figures as they are, not as 0.00', () => {
    expect(html).not.toMatch(/>0\.00</);
    expect(html).toMatch(/>0\.0042/);
  });

  it('says once that the figures wobble, instead of a bold “unsteady” on every row', () => {
    expect(html).not.toMatch(/<strong>[^<]*unsteady/);
    expect(html.match(/did not settle/g)?.length).toBe(1);
    // Each row still says it in words (read by a screen reader), not by colour alone.
    expect(html.match(/data-steady="no"/g)?.length).toBe(rows.length);
  });

  it('on a real GPU an unsteady row still says so in bold', () => {
    const gpu = renderToStaticMarkup(<TimingsTable rows={rows.slice(0, 1)} lab={lab} software={false} />);
    expect(gpu).toMatch(/<strong> unsteady/);
  });
});
