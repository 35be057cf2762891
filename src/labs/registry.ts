/**
 * The list of labs: one line per lab folder, its id (the folder's name) and its module, loaded on
 * demand as a chunk of its own. Adding a lab is adding its folder and its line here; everything
 * else derives from this list: `LabId`, the catalog the start page and the address read (each
 * folder's `meta.ts`, `catalog.ts`), the lab's panels (its `ui/index.ts`, `uis.ts`), its lessons
 * (its `lessons/*`, `lessons.ts`), the kernel cases and the bench (`all.ts`).
 */
import type { AnyLab } from '../workbench/lab.ts';

export const REGISTRY = [
  { id: 'basics', load: () => import('./basics/index.ts') },
  { id: 'reduce', load: () => import('./reduce/index.ts') },
  { id: 'scan', load: () => import('./scan/index.ts') },
  { id: 'rowsum', load: () => import('./rowsum/index.ts') },
  { id: 'histogram', load: () => import('./histogram/index.ts') },
  { id: 'convolution', load: () => import('./convolution/index.ts') },
  { id: 'merge', load: () => import('./merge/index.ts') },
  { id: 'topk', load: () => import('./topk/index.ts') },
  { id: 'matmul', load: () => import('./matmul/index.ts') },
  { id: 'spmv', load: () => import('./spmv/index.ts') },
] as const;

/** The id of a lab, e.g. `'reduce'`. */
export type LabId = (typeof REGISTRY)[number]['id'];

/** Every registered id, in the registry's order (the catalog sorts them by course order). */
export const REGISTERED_IDS: readonly LabId[] = REGISTRY.map((e) => e.id);

export function isLabId(id: string): id is LabId {
  return (REGISTERED_IDS as readonly string[]).includes(id);
}

const isLabModule = (x: unknown, id: string): x is AnyLab =>
  typeof x === 'object' && x !== null && (x as { id?: unknown }).id === id && Array.isArray((x as { variants?: unknown }).variants);

const loading = new Map<LabId, Promise<AnyLab & { readonly id: LabId }>>();

/**
 * The module of a lab: the export of its `index.ts` that is a lab with this id. The promise is
 * kept, so every caller (and React's `use`) gets the same one.
 */
export function loadLab(id: LabId): Promise<AnyLab & { readonly id: LabId }> {
  let found = loading.get(id);
  if (!found) {
    const entry = REGISTRY.find((e) => e.id === id);
    if (!entry) return Promise.reject(new Error(`no lab “${id}” in src/labs/registry.ts`));
    found = entry.load().then((module: Record<string, unknown>) => {
      const lab = Object.values(module).find((x) => isLabModule(x, id));
      if (!lab) throw new Error(`src/labs/${id}/index.ts exports no lab with the id “${id}”`);
      return lab as AnyLab & { readonly id: LabId };
    });
    loading.set(id, found);
  }
  return found;
}

const all = new Map<string, Promise<readonly (AnyLab & { readonly id: LabId })[]>>();

/** The modules of several labs (default: every lab), in course order; the same promise for the same list. */
export function loadLabs(ids: readonly LabId[] = REGISTERED_IDS): Promise<readonly (AnyLab & { readonly id: LabId })[]> {
  const key = [...new Set(ids)].join(',');
  let found = all.get(key);
  if (!found) {
    found = Promise.all(key.split(',').filter(isLabId).map(loadLab)).then((labs) => labs.sort((a, b) => a.courseOrder - b.courseOrder));
    all.set(key, found);
  }
  return found;
}
