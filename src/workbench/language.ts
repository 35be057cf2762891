/**
 * Which language the app speaks and how it changes. The choice comes from the address
 * (`?lang=zh-CN`), else the one remembered in this browser, else the browser's own languages,
 * else English. A switch loads the new catalogs first and only then flips the locale, so the page
 * never shows a half-translated frame; the page's `lang` attribute and title follow.
 */
import { switchWhenLoaded } from '../i18n/catalog.ts';
import { getLocale, parseLocale, subscribeLocale, type Locale } from '../i18n/locale.ts';

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

/** The language an address names (`?lang=zh-CN`), where the app speaks it. */
function addressLocale(search: string): Locale | undefined {
  return parseLocale(new URLSearchParams(search).get('lang'));
}

/**
 * Picks and loads the starting locale; resolves once its text is ready to render. A language the
 * address names is remembered as the learner's choice, as one picked with the header's switch is,
 * so the next visit without `?lang=` opens in the language read last.
 */
export async function startLocale(): Promise<Locale> {
  const locale = chooseLocale(window.location.search, remembered(), navigator.languages ?? [navigator.language]);
  followLocale();
  try {
    await switchWhenLoaded(locale);
    if (addressLocale(window.location.search) === locale) remember(locale);
  } catch (e) {
    // A catalog that cannot load (offline before any visit) leaves the page in English, not blank.
    console.error(`Warpscope: the ${locale} messages could not be loaded; showing English.`, e);
  }
  return getLocale();
}

/**
 * Switches to `locale` once its catalogs are loaded (those of every chunk on screen, and of any
 * that arrives meanwhile), and remembers the choice.
 */
export async function switchLocale(locale: Locale): Promise<void> {
  await switchWhenLoaded(locale);
  if (getLocale() === locale) remember(locale);
}

/**
 * An address reached inside the app (back, forward, a link that carries `?lang=`): where it names a
 * language other than the one shown, the app switches to it as the header's switch does (its
 * messages loaded first, the choice remembered), and only then calls `show` to show the address's
 * page, so that page never appears in the old language; otherwise `show` runs at once. An address
 * without `?lang=` keeps the language shown.
 */
export function followAddress(search: string, show: () => void): void {
  const asked = addressLocale(search);
  if (!asked || asked === getLocale()) {
    show();
    return;
  }
  void switchLocale(asked)
    .catch((e: unknown) => console.error(`Warpscope: the ${asked} messages could not be loaded; the page stays in the language it was in.`, e))
    .finally(show);
}
