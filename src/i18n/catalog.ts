/**
 * Message catalogs. Each part of the app that shows text (the workbench, each lab folder, each
 * lesson folder) owns one catalog: its English messages inline, and every other locale as a module
 * loaded on demand, so a visitor reading English never downloads Chinese.
 *
 *   const en = { title: 'Reduction', ... } as const;
 *   export const m = createCatalog('reduce', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
 *   m('title')  // in the current locale, with `{name}` / plural placeholders filled (format.ts)
 *
 * A translation module default-exports `Translation<typeof en>`: every key, so a missing
 * translation is a type error, not English left on a Chinese page.
 */
import { format, type MessageValues } from './format.ts';
import { getLocale, type Locale } from './locale.ts';

export type Translation<T extends Record<string, string>> = { readonly [K in keyof T]: string };
type Loader<T extends Record<string, string>> = () => Promise<{ default: Translation<T> }>;

interface Registered {
  readonly name: string;
  readonly load: (locale: Locale) => Promise<void>;
}
const registry: Registered[] = [];

export interface Catalog<T extends Record<string, string>> {
  (key: keyof T & string, values?: MessageValues): string;
  /** Whether `key` names a message (for keys built at run time). */
  has(key: string): key is keyof T & string;
  readonly id: string;
}

export function createCatalog<T extends Record<string, string>>(
  name: string,
  en: T,
  others: Partial<Record<Exclude<Locale, 'en'>, Loader<T>>> = {},
): Catalog<T> {
  const loaded = new Map<Locale, Translation<T>>([['en', en]]);
  const pending = new Map<Locale, Promise<void>>();
  const load = (locale: Locale): Promise<void> => {
    if (loaded.has(locale)) return Promise.resolve();
    const loader = locale === 'en' ? undefined : others[locale];
    if (!loader) return Promise.resolve();
    let p = pending.get(locale);
    if (!p) {
      p = loader().then((mod) => void loaded.set(locale, mod.default));
      pending.set(locale, p);
    }
    return p;
  };
  registry.push({ name, load });
  const lookup = (key: keyof T & string, values?: MessageValues): string => {
    const locale = getLocale();
    const text = loaded.get(locale)?.[key] ?? en[key] ?? key;
    return format(text, values, locale);
  };
  return Object.assign(lookup, { has: (key: string): key is keyof T & string => key in en, id: name });
}

/** Loads `locale` for every catalog registered so far (call before `setCurrentLocale`). */
export async function loadLocale(locale: Locale): Promise<void> {
  await Promise.all(registry.map((c) => c.load(locale)));
}
