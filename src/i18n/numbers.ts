/**
 * Numbers as the current locale writes them (digit grouping, decimal sign), for metrics, timings
 * and counts. Formatters are cached per locale and options: the metrics panel formats dozens of
 * numbers on every step.
 */
import { getLocale } from './locale.ts';

const cache = new Map<string, Intl.NumberFormat>();

function formatter(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const locale = getLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

/** `n` with the locale's grouping: 65536 → “65,536”. */
export function formatInteger(n: number): string {
  return formatter({ maximumFractionDigits: 0 }).format(n);
}

/** `n` with exactly `digits` decimals, in the locale's notation (as `toFixed`, but localised). */
export function formatFixed(n: number, digits: number): string {
  return formatter({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/** `n` to `digits` significant digits (as `toPrecision`, but localised and never exponential). */
export function formatPrecision(n: number, digits: number): string {
  return formatter({ maximumSignificantDigits: digits, minimumSignificantDigits: digits }).format(n);
}
