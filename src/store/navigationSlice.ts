import type { StateCreator } from 'zustand';
import { formatLocation, parseLocation, type Chrome, type Route } from '../workbench/url.ts';

/** Where the person is: the route, the presentation chrome, and notices about ignored URL parts. */
export interface NavigationSlice {
  route: Route;
  chrome: Chrome;
  notices: readonly string[];
  /** Goes to a route; `replace` rewrites the current history entry (stepping, scrubbing). */
  navigate: (route: Route, options?: { replace?: boolean }) => void;
  setChrome: (chrome: Partial<Chrome>) => void;
  dismissNotices: () => void;
  /** Re-reads the browser location (start-up and back/forward). */
  syncFromLocation: () => void;
}

function writeUrl(route: Route, chrome: Chrome, replace: boolean): void {
  if (typeof window === 'undefined') return;
  const url = formatLocation(route, chrome);
  if (url === `${window.location.pathname}${window.location.search}`) return;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
}

export const createNavigationSlice: StateCreator<NavigationSlice, [], [], NavigationSlice> = (set, get) => ({
  route: { kind: 'home' },
  chrome: { mode: 'normal', embed: false, presenter: false },
  notices: [],
  navigate: (route, options) => {
    set({ route });
    writeUrl(route, get().chrome, options?.replace ?? false);
  },
  setChrome: (patch) => {
    const chrome = { ...get().chrome, ...patch };
    set({ chrome });
    writeUrl(get().route, chrome, true);
  },
  dismissNotices: () => set({ notices: [] }),
  syncFromLocation: () => {
    if (typeof window === 'undefined') return;
    const parsed = parseLocation(window.location.pathname, window.location.search);
    set({ route: parsed.route, chrome: parsed.chrome, notices: parsed.notices });
  },
});
