import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initGpu } from './gpu.ts';
import { useAppStore } from '../store/index.ts';
import './styles.css';

declare global {
  interface Window {
    /** A small read-only window onto the app for end-to-end tests. */
    __warpscope?: { readonly store: typeof useAppStore };
  }
}

window.__warpscope = { store: useAppStore };
useAppStore.getState().syncFromLocation();
window.addEventListener('popstate', () => useAppStore.getState().syncFromLocation());
void initGpu();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
