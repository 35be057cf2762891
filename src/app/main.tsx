import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initGpu } from './gpu.ts';
import { startOffline } from './offline.ts';
import { failPanel, TEST_HOOKS } from './testHooks.ts';
import { useAppStore } from '../store/index.ts';
import './styles.css';

declare global {
  interface Window {
    /** A small window onto the app for end-to-end tests: test builds only (see testHooks.ts). */
    __warpscope?: { readonly store: typeof useAppStore; readonly failPanel: (id: string) => void };
  }
}

if (TEST_HOOKS) window.__warpscope = { store: useAppStore, failPanel };
useAppStore.getState().syncFromLocation();
window.addEventListener('popstate', () => useAppStore.getState().syncFromLocation());
void initGpu();
void startOffline();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
