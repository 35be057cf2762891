/** Small helpers shared by the benchmark scripts: they print figures, they never fail on time. */

export const gbps = (bytes: number, ms: number): number => bytes / (ms * 1e6);

export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return '—';
  if (Math.abs(value) >= 1000) return value.toFixed(0);
  return value.toFixed(digits);
}

/** Prints rows as an aligned plain-text table (also valid Markdown). */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export const log2Label = (n: number): string => {
  const l = Math.log2(n);
  return Number.isInteger(l) ? `2^${l}` : String(n);
};

/** A share as a percentage: `pct(0.984)` is "98.4 %". */
export const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${(100 * x).toFixed(digits)} %` : '—');

/**
 * The spread of a measured ratio, for a table cell: "97.9–99.1 %", with "unsteady" appended when
 * the figure never settled under the executor's max ÷ min limit (it is then not to be published).
 */
export function ratioCell(t: { readonly steady: boolean; readonly unsteadyReason?: string; readonly relative?: { readonly ratioMin: number; readonly ratioMax: number } }): string {
  const range = t.relative ? `${(100 * t.relative.ratioMin).toFixed(1)}–${(100 * t.relative.ratioMax).toFixed(1)} %` : '—';
  return t.steady ? range : `${range} UNSTEADY (${t.unsteadyReason ?? 'did not settle'})`;
}

/** One of our best figures, handed to the peer script (scripts/peers.py) through BENCH_JSON. */
export interface BestFigure {
  readonly op: 'reduce' | 'scan';
  readonly n: number;
  readonly type: 'u32' | 'f32';
  readonly variant: string;
  readonly medianMs: number;
  /** Share of the baseline timed beside it (median of rounds). */
  readonly ratio: number | undefined;
}
