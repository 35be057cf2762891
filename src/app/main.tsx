import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '../ui/shell/App.tsx';
import { ServicesContext } from '../ui/shell/services.tsx';
import { initGpu, pageGpu } from '../workbench/gpu.ts';
import { createServices } from '../workbench/services.ts';
import { client } from '../workbench/simulation.ts';
import { followAddress, startLocale } from '../workbench/language.ts';
import { startOffline } from '../workbench/offline.ts';
import { failPanel, TEST_HOOKS } from '../workbench/testHooks.ts';
import { useAppStore } from '../store/index.ts';
import '../ui/styles.css';

declare global {
  interface Window {
    /** A small window onto the app for end-to-end tests: test builds only (see testHooks.ts). */
    __warpscope?: { readonly store: typeof useAppStore; readonly failPanel: (id: string) => void };
  }
}

// The services every page and panel receives: the page's one GPU executor and the simulator's workers.
const services = createServices(pageGpu, client);

if (TEST_HOOKS) window.__warpscope = { store: useAppStore, failPanel };
void initGpu((status) => useAppStore.getState().setGpuStatus(status));
void startOffline();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
// The first frame is drawn in the chosen language: its messages load before anything renders
// (English is built in; another language is one small chunk), and the address's notices are
// written in it.
void startLocale().then(() => {
  useAppStore.getState().syncFromLocation();
  // Back, forward, or an address pushed in the app: its `?lang=` applies as on a fresh load.
  window.addEventListener('popstate', () => followAddress(window.location.search, () => useAppStore.getState().syncFromLocation()));
  createRoot(root).render(
    <StrictMode>
      <ServicesContext value={services}>
        <App />
      </ServicesContext>
    </StrictMode>,
  );
});
