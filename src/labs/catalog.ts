/**
 * The labs as the start page, the navigation and the address know them before any lab module
 * loads: id, title, summary, place in the course, number of variants and the URL parameters (each
 * lab's `meta.ts`). The modules themselves (kernels, drivers, references, moments, exercises)
 * come with the lab and lesson pages, in a chunk of their own (`registry.ts`); a test holds each
 * entry to its module.
 */
import type { ParamSpec, Params } from '../workbench/lab.ts';
import { REGISTRY, type LabId } from './registry.ts';

export { isLabId, type LabId } from './registry.ts';

/** Each lab folder's `meta.ts`, gathered at build time: it exports its lab's `LabInfo`. */
const META_MODULES = import.meta.glob<Record<string, unknown>>('./*/meta.ts', { eager: true });

/** What is known of a lab before its module loads. */
export interface LabInfo {
  readonly id: LabId;
  readonly courseOrder: number;
  readonly title: string;
  readonly summary: string;
  readonly variantCount: number;
  /** The lab's parameter spec: the address is parsed and written with it. */
  readonly params: ParamSpec<Params>;
}

const isInfo = (x: unknown, id: string): x is LabInfo =>
  typeof x === 'object' && x !== null && (x as { id?: unknown }).id === id && 'params' in x && 'courseOrder' in x;

/** The `LabInfo` that `src/labs/<id>/meta.ts` exports; a registered lab without one stops the app at start with this message. */
function metaOf(id: LabId): LabInfo {
  const info = Object.values(META_MODULES[`./${id}/meta.ts`] ?? {}).find((x) => isInfo(x, id));
  if (!info) throw new Error(`src/labs/${id}/meta.ts must export the lab's meta (an object with id “${id}”, courseOrder, title, summary, variantCount and params)`);
  return info;
}

/** Every lab, in the order the course takes them. */
export const LAB_CATALOG: readonly LabInfo[] = REGISTRY.map((e) => metaOf(e.id)).sort((a, b) => a.courseOrder - b.courseOrder);

export const LAB_IDS: readonly LabId[] = LAB_CATALOG.map((l) => l.id);

export function labInfo(id: LabId): LabInfo;
export function labInfo(id: string): LabInfo | undefined;
export function labInfo(id: string): LabInfo | undefined {
  return LAB_CATALOG.find((l) => l.id === id);
}

/**
 * The start page's editable demo: the basics lab's vector add (run, reference, bytes, file). It is
 * small and the start page shows it at once, so it comes with this catalog, not with the modules.
 */
export * as homeDemo from './basics/vectorAdd.ts';
/** The start page's moving picture: the reduce lab's hero run, a chunk of its own loaded after the page. */
export const loadHomeHero = () => import('./reduce/hero.ts');
