import { createBrowserGpu, isGpuError, type GpuExecutor } from '../gpu/index.ts';
// eslint-disable-next-line boundaries/rooms -- until the composition root builds the services and hands the GPU status to the store (issue #25, services)
import { useAppStore } from '../store/index.ts';
import { ui } from '../i18n/ui.ts';

/** What the views show of a GPU failure: the executor's error type and its excerpt of a shader message. */
export { excerptAround, isGpuError, SHOWN_MESSAGES, type ShaderMessage } from '../gpu/index.ts';

/**
 * The page's one GPU executor; views reach it through here, never through navigator.gpu. It lives
 * for the whole page, outside React (StrictMode's double mount cannot create a second one), and
 * owns its device: views never hold a device or buffer across renders, only await its calls.
 */
export const pageGpu: GpuExecutor = createBrowserGpu();

/** How long re-acquiring a device after an abandoned one may take before the page says so. */
const RECOVERY_TIMEOUT_MS = 20_000;

async function acquire(timeoutMs?: number): Promise<void> {
  const { setGpuStatus } = useAppStore.getState();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const ready = pageGpu.ready();
    const ctx =
      timeoutMs === undefined
        ? await ready
        : await Promise.race([
            ready,
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`no new GPU device within ${timeoutMs / 1000} s; the driver may still be busy with the abandoned work`)),
                timeoutMs,
              );
            }),
          ]);
    setGpuStatus({ state: 'ready', adapter: ctx.summary });
  } catch (e) {
    if (isGpuError(e)) setGpuStatus({ state: 'unavailable', kind: e.kind, message: e.message, hint: e.hint });
    else setGpuStatus({ state: 'unavailable', kind: 'internal', message: e instanceof Error ? e.message : String(e), hint: ui('gpu.reload') });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Acquires the device once at start-up and records the outcome in the store. */
export function initGpu(): Promise<void> {
  return acquire();
}

/**
 * After GPU work was abandoned (cancel or timeout; the executor destroyed its device): requests a
 * new device and records the outcome, 'pending' meanwhile so nothing runs on the old one.
 */
export function recoverGpu(): Promise<void> {
  useAppStore.getState().setGpuStatus({ state: 'pending' });
  return acquire(RECOVERY_TIMEOUT_MS);
}
