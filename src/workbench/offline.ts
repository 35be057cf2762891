import { createStore } from 'zustand/vanilla';
import { workerScriptUrl } from './trustedTypes.ts';

/**
 * Offline support: registers the service worker that vite-plugin-pwa generates (see
 * vite.config.ts) and tells the page when a new version is waiting. Nothing reloads by itself: a
 * lesson or a lab in progress stays as it is until the person presses Reload.
 */
export interface UpdateState {
  /** A new version is installed and waits for the person's go-ahead. */
  readonly waiting: boolean;
  /** Activates the waiting version and reloads once it controls the page. */
  readonly apply: () => void;
  /** Hides the notice for this page; the new version takes over on the next visit. */
  readonly later: () => void;
}

/** Whether a new version waits; the shell's notice subscribes (`useStore(updateState)`). */
export const updateState = createStore<UpdateState>()(() => ({ waiting: false, apply: () => undefined, later: () => undefined }));

/** Where the generated service worker lives (vite-plugin-pwa's default name, at the site's base). */
export const SERVICE_WORKER_URL = `${import.meta.env.BASE_URL}sw.js`;

/**
 * Registers the service worker in production builds (the dev server has none). workbox-window is
 * loaded lazily, so it costs the first page nothing; the script URL goes through the Trusted Types
 * policy, because `register` is a script-URL sink where the CSP requires trusted types.
 */
export async function startOffline(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox(workerScriptUrl(SERVICE_WORKER_URL), { scope: import.meta.env.BASE_URL });
  wb.addEventListener('waiting', () => {
    updateState.setState({
      waiting: true,
      apply: () => {
        // Reload once the new version controls this page, and only then.
        wb.addEventListener('controlling', () => location.reload());
        wb.messageSkipWaiting();
      },
      later: () => updateState.setState({ waiting: false }),
    });
  });
  try {
    await wb.register();
  } catch (e) {
    // Without a service worker the app still works online; say why offline use is not available.
    console.warn(`Warpscope could not install its offline copy (${e instanceof Error ? e.message : String(e)}); it keeps working online.`);
  }
}
