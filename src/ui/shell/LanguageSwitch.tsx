import { useId, useState } from 'react';
import { switchLocale } from '../../workbench/language.ts';
import { getLocale, LOCALES, type Locale } from '../../i18n/locale.ts';
import { ui } from '../../i18n/ui.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import { parseLocation } from '../../workbench/url.ts';
import { useAppStore } from '../../store/index.ts';

/** Notices about the address are sentences made at start-up: say them again in the new language. */
function retranslateNotices(): void {
  if (useAppStore.getState().notices.length === 0) return;
  useAppStore.setState({ notices: parseLocation(window.location.pathname, window.location.search).notices });
}

/** Each language by its own name, marked with its own `lang` so screen readers say it right. */
const NAMES: Readonly<Record<Locale, string>> = { en: 'English', 'zh-CN': '简体中文' };

/**
 * The language switch in the header: a native select (arrow keys, type-ahead, screen readers).
 * The new language's messages load before the page changes; the address keeps `?lang=` so links
 * and permalinks open in it.
 */
export function LanguageSwitch() {
  const locale = useLocale();
  const setChrome = useAppStore((s) => s.setChrome);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <p className="language-switch">
      <label htmlFor={id}>{ui('app.language')}</label>{' '}
      <select
        id={id}
        value={locale}
        aria-busy={busy || undefined}
        data-testid="language-switch"
        onChange={(e) => {
          const next = e.target.value as Locale;
          setBusy(true);
          void switchLocale(next)
            .then(() => {
              // The language shown: a later pick made while this one loaded has the last word.
              setChrome({ lang: getLocale() });
              retranslateNotices();
            })
            .catch((err: unknown) => console.error('Warpscope: could not switch the language.', err))
            .finally(() => setBusy(false));
        }}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {NAMES[l]}
          </option>
        ))}
      </select>
    </p>
  );
}
