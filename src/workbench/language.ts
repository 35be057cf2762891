/**
 * Which language the app speaks and how it changes. The choice comes from the address
 * (`?lang=zh-CN`), else the one remembered in this browser, else the browser's own languages,
 * else English. A switch loads the new catalogs first and only then flips the locale, so the page
 * never shows a half-translated frame; the page's `lang` attribute and title follow.
 */
import { loadLocale } from '../i18n/catalog.ts';
import { getLocale, parseLocale, setCurrentLocale, subscribeLocale, type Locale } from '../i18n/locale.ts';

const STORAGE_KEY = 'warpscope.lang';

/** The starting locale: the address's, the remembered one, the browser's, or English. */
export function chooseLocale(search: string, remembered: string | null | undefined, browser: readonly string[]): Locale {
  const fromAddress = parseLocale(new URLSearchParams(search).get('lang'));
  if (fromAddress) return fromAddress;
  const fromStorage = parseLocale(remembered);
  if (fromStorage) return fromStorage;
  for (const language of browser) {
    const found = parseLocale(language);
    if (found) return found;
  }
  return 'en';
}

function remembered(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage blocked (private mode, a policy): the address and the browser decide
  }
}

function remember(locale: Locale): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Nothing to do: the choice still holds for this tab and stays in the address.
  }
}

/** Keeps `<html lang>` on the current locale. */
function followLocale(): void {
  document.documentElement.lang = getLocale();
  subscribeLocale((locale) => {
    document.documentElement.lang = locale;
  });
}

/** Picks and loads the starting locale; resolves once its text is ready to render. */
export async function startLocale(): Promise<Locale> {
  const locale = chooseLocale(window.location.search, remembered(), navigator.languages ?? [navigator.language]);
  followLocale();
  try {
    await loadLocale(locale);
    setCurrentLocale(locale);
  } catch (e) {
    // A catalog that cannot load (offline before any visit) leaves the page in English, not blank.
    console.error(`Warpscope: the ${locale} messages could not be loaded; showing English.`, e);
  }
  return getLocale();
}

/** Switches to `locale` once its catalogs are loaded, and remembers the choice. */
export async function switchLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  setCurrentLocale(locale);
  remember(locale);
}
