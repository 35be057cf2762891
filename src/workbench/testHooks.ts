/**
 * Hooks for end-to-end tests, present only in test builds (`vite --mode test`, `vite build --mode
 * test`, which e2e/run.mjs uses): production builds compile `TEST_HOOKS` to false and drop them.
 */
export const TEST_HOOKS = import.meta.env.MODE === 'test';

/** Panels a test asked to fail: each throws on its next render, once. */
const failing = new Set<string>();
const listeners = new Set<() => void>();

export function failPanel(id: string): void {
  failing.add(id);
  for (const l of [...listeners]) l();
}

/** The panel failed as asked: it renders normally after a reload. */
export function clearPanelFailure(id: string): void {
  failing.delete(id);
}

export function isPanelFailing(id: string): boolean {
  return failing.has(id);
}

export function subscribePanelFailures(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
