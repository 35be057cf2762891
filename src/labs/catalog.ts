/**
 * The labs as the start page, the navigation and the address know them before any lab module
 * loads: id, title, summary, place in the course, number of variants and the URL parameters (each
 * lab's `meta.ts`). The modules themselves (kernels, drivers, references, moments, exercises)
 * come with the lab and lesson pages, in a chunk of their own (`registry.ts`); a test holds each
 * entry to its module.
 */
import type { ParamSpec, Params } from '../workbench/lab.ts';
import { basicsMeta } from './basics/meta.ts';
import { reduceMeta } from './reduce/meta.ts';
import { scanMeta } from './scan/meta.ts';
import { rowsumMeta } from './rowsum/meta.ts';
import { histogramMeta } from './histogram/meta.ts';
import { convolutionMeta } from './convolution/meta.ts';
import { mergeMeta } from './merge/meta.ts';
import { topkMeta } from './topk/meta.ts';
import { matmulMeta } from './matmul/meta.ts';
import { spmvMeta } from './spmv/meta.ts';

const METAS = [basicsMeta, reduceMeta, scanMeta, rowsumMeta, histogramMeta, convolutionMeta, mergeMeta, topkMeta, matmulMeta, spmvMeta] as const;

/** The id of a lab, e.g. `'reduce'`. */
export type LabId = (typeof METAS)[number]['id'];

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

/** Every lab, in the order the course takes them. */
export const LAB_CATALOG: readonly LabInfo[] = ([...METAS] as readonly LabInfo[]).slice().sort((a, b) => a.courseOrder - b.courseOrder);

export const LAB_IDS: readonly LabId[] = LAB_CATALOG.map((l) => l.id);

export function isLabId(id: string): id is LabId {
  return (LAB_IDS as readonly string[]).includes(id);
}

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
