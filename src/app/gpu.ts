import { createBrowserGpu, isGpuError, type GpuExecutor } from '../gpu/index.ts';
import { useAppStore } from '../store/index.ts';

/** The page's one GPU executor; views reach it through here, never through navigator.gpu. */
export const pageGpu: GpuExecutor = createBrowserGpu();

/** Acquires the device once at start-up and records the outcome in the store. */
export async function initGpu(): Promise<void> {
  const { setGpuStatus } = useAppStore.getState();
  try {
    const ctx = await pageGpu.ready();
    setGpuStatus({ state: 'ready', adapter: ctx.summary });
  } catch (e) {
    if (isGpuError(e)) setGpuStatus({ state: 'unavailable', kind: e.kind, message: e.message, hint: e.hint });
    else setGpuStatus({ state: 'unavailable', kind: 'internal', message: String(e), hint: 'Reload the page.' });
  }
}
