/**
 * Each lab's own panels (`src/labs/<lab>/ui/index.ts`, a `LabUi`), found by folder and loaded with
 * the lab's page, a chunk per lab; a lab without a `ui/` folder shows the shared views only.
 * Imported by the app only (it brings React along).
 */
import type { LabUi } from '../workbench/panel.ts';

const UI_MODULES = import.meta.glob<Record<string, unknown>>('./*/ui/index.ts');

const isLabUi = (x: unknown): x is LabUi => typeof x === 'object' && x !== null && Array.isArray((x as { panels?: unknown }).panels);

const loading = new Map<string, Promise<LabUi | undefined>>();

/** The `LabUi` a lab's `ui/index.ts` exports, or undefined when the lab has none; the same promise for the same lab. */
export function loadLabUi(id: string): Promise<LabUi | undefined> {
  let found = loading.get(id);
  if (!found) {
    const load = UI_MODULES[`./${id}/ui/index.ts`];
    found = load
      ? load().then((module) => {
          const ui = Object.values(module).find(isLabUi);
          if (!ui) throw new Error(`src/labs/${id}/ui/index.ts exports no LabUi (an object with panels)`);
          return ui;
        })
      : Promise.resolve(undefined);
    loading.set(id, found);
  }
  return found;
}
