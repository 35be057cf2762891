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
