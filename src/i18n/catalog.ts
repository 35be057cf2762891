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
import { getLocale, notifyCatalogLoaded, setCurrentLocale, type Locale } from './locale.ts';

export type Translation<T extends Record<string, string>> = { readonly [K in keyof T]: string };
type Loader<T extends Record<string, string>> = () => Promise<{ default: Translation<T> }>;

interface Registered {
  readonly name: string;
  readonly load: (locale: Locale) => Promise<void>;
  /** Whether `locale`'s messages are here (loaded, or English, or a locale this catalog lacks). */
  readonly ready: (locale: Locale) => boolean;
  /** The English messages and, once loaded, `locale`'s (for the completeness test). */
  readonly messages: (locale: Locale) => Readonly<Record<string, string>> | undefined;
  readonly translates: (locale: Locale) => boolean;
}
const registry: Registered[] = [];

export interface Catalog<T extends Record<string, string>> {
  (key: keyof T & string, values?: MessageValues): string;
  /** Whether `key` names a message (for keys built at run time). */
  has(key: string): key is keyof T & string;
  /** The message `key` in the current locale, or undefined where the catalog has none (a key built at run time). */
  find(key: string, values?: MessageValues): string | undefined;
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
  const ready = (locale: Locale) => loaded.has(locale) || locale === 'en' || others[locale] === undefined;
  registry.push({ name, load, ready, messages: (locale) => loaded.get(locale), translates: (locale) => locale === 'en' || others[locale] !== undefined });
  // A catalog created after the switch (a lab module loaded on demand) fetches the current
  // locale at once, and views re-render when it arrives.
  const now = getLocale();
  if (now !== 'en' && others[now]) void load(now).then(() => notifyCatalogLoaded(), () => undefined);
  const lookup = (key: keyof T & string, values?: MessageValues): string => {
    const locale = getLocale();
    const text = loaded.get(locale)?.[key] ?? en[key] ?? key;
    return format(text, values, locale);
  };
  const has = (key: string): key is keyof T & string => key in en;
  return Object.assign(lookup, { has, find: (key: string, values?: MessageValues) => (has(key) ? lookup(key, values) : undefined), id: name });
}

/** Every catalog registered so far, for tests that check translations are complete. */
export function registeredCatalogs(): readonly Registered[] {
  return registry;
}

/**
 * Loads `locale` for every catalog registered so far, and for those registered while it loads (a
 * chunk that arrives meanwhile, such as the lessons the start page fetches in the background).
 */
export async function loadLocale(locale: Locale): Promise<void> {
  for (let missing = registry.filter((c) => !c.ready(locale)); missing.length > 0; missing = registry.filter((c) => !c.ready(locale))) {
    await Promise.all(missing.map((c) => c.load(locale)));
  }
}

/** How many switches have started (the latest one applies). */
let switches = 0;

/**
 * Makes `locale` the current one once every catalog has its messages: the last check and the switch
 * happen in one turn, so no catalog registered in between is left in the old language and nothing
 * on screen shows the new language half-loaded. Rejects (leaving the locale as it was) where a
 * catalog cannot load; of two switches under way, the later one wins.
 */
export async function switchWhenLoaded(locale: Locale): Promise<void> {
  const mine = ++switches;
  do await loadLocale(locale);
  // Checked again in the turn that switches: a catalog may have registered after loadLocale's last look.
  while (registry.some((c) => !c.ready(locale)));
  // A later switch (the learner changed their mind while this one loaded) has the last word.
  if (mine === switches) setCurrentLocale(locale);
}

/**
 * `fields` with a getter for each of `texts`, so each text is looked up when it is read, in the
 * language of the moment: a plain value (or a spread of a getter) would keep one language's words.
 */
export function withTexts<const O extends object, K extends string>(fields: O, texts: Readonly<Record<K, () => string>>): NoInfer<O> & { readonly [F in K]: string } {
  const getters: PropertyDescriptorMap = {};
  for (const [field, get] of Object.entries<() => string>(texts)) getters[field] = { get, enumerable: true, configurable: true };
  return Object.defineProperties({ ...fields }, getters) as O & { readonly [F in K]: string };
}

/**
 * Getters for `withTexts`: field `f` reads the message `prefix + f` of `m` when it is read, for a
 * table of plain sentences (`DEBUG_TEXT.title` is `m('d.title')`). A field with no message throws
 * here, when the module loads, rather than showing a key to the learner.
 */
export function textGetters<T extends Record<string, string>, const F extends string>(m: Catalog<T>, prefix: string, fields: readonly F[]): Readonly<Record<F, () => string>> {
  const getters = {} as Record<F, () => string>;
  for (const field of fields) {
    const key = prefix + field;
    if (!m.has(key)) throw new Error(`The catalog “${m.id}” has no “${prefix}${field}”.`);
    getters[field] = () => m(key);
  }
  return getters;
}
