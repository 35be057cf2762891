/**
 * The React side of the locale: `useLocale()` re-renders a view when the language changes (or a
 * catalog for it arrives late), and returns the locale for number formats and `lang` attributes.
 */
import { useSyncExternalStore } from 'react';
import { getLocale, localeSnapshot, subscribeLocale, type Locale } from './locale.ts';

export function useLocale(): Locale {
  useSyncExternalStore(subscribeLocale, localeSnapshot, localeSnapshot);
  return getLocale();
}
