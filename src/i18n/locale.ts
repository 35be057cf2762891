/**
 * The language the app speaks. One value for the whole app, outside React, so plain modules (a
 * lab's narration, a lesson's steps) read it the same way views do. `useLocale` subscribes a view.
 * Pure TypeScript: no DOM here; the page's `lang` attribute and `?lang=` are handled by the app.
 */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

let current: Locale = 'en';
const listeners = new Set<(locale: Locale) => void>();

/** A supported locale for `text` (`zh`, `zh-cn`, `zh-Hans` → `zh-CN`), or undefined. */
export function parseLocale(text: string | null | undefined): Locale | undefined {
  if (!text) return undefined;
  const lower = text.trim().toLowerCase();
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  if (lower === 'zh' || lower === 'zh-cn' || lower === 'zh-hans' || lower.startsWith('zh-hans-') || lower === 'zh-sg') return 'zh-CN';
  return undefined;
}

export function getLocale(): Locale {
  return current;
}

/** Switches the locale now (catalogs not loaded yet fall back to English until `loadLocale`). */
export function setCurrentLocale(next: Locale): void {
  if (next === current) return;
  current = next;
  for (const listener of [...listeners]) listener(next);
}

export function subscribeLocale(listener: (locale: Locale) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
