import { useCallback, useSyncExternalStore } from 'react';

// One MediaQueryList per query for the page's life: `matches` stays current by itself, and every
// component that asks (most re-render on each step) reads it instead of parsing the query anew.
const lists = new Map<string, MediaQueryList>();
function mediaList(query: string): MediaQueryList | undefined {
  if (typeof window === 'undefined' || !window.matchMedia) return undefined;
  let mq = lists.get(query);
  if (!mq) lists.set(query, (mq = window.matchMedia(query)));
  return mq;
}

/** Whether a CSS media query matches, kept current as the window or the system setting changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const mq = mediaList(query);
      if (!mq) return () => {};
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => mediaList(query)?.matches ?? false, () => false);
}

/** True when the person asked the system for less motion; animations then jump to their end. */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}

/**
 * A short, wide screen (a 1280×720 laptop or beamer): the lab's settings and the timeline each
 * take one row, what does not fit waiting behind a disclosure, so the stage gets the height.
 */
export const SHORT_SCREEN = '(min-width: 1100px) and (max-height: 760px)';
