/**
 * The one registry of lab modules: the kernel test cases, the bench sections and the lab and
 * lesson pages read the modules listed in `all.ts`. The app loads this file with the lab and
 * lesson pages; the start page, the navigation and the address read `catalog.ts` (each lab's
 * `meta.ts`), which a test holds to these modules.
 */
import type { KernelCase } from '../kernel/cases.ts';
import * as all from './all.ts';
import type { AnyLab } from '../workbench/lab.ts';
import type { LabId } from './catalog.ts';

export { isLabId, type LabId } from './catalog.ts';

/** Every lab the app offers, in the order the course takes them. */
export const LABS: readonly (AnyLab & { readonly id: LabId })[] = Object.values(all).sort((a, b) => a.courseOrder - b.courseOrder);

export function findLab(id: LabId): AnyLab;
export function findLab(id: string): AnyLab | undefined;
export function findLab(id: string): AnyLab | undefined {
  return LABS.find((l) => l.id === id);
}

/** Every kernel case of every lab, for the GPU–simulator differential test. */
export const kernelCases: readonly KernelCase[] = LABS.flatMap((l) => l.cases);
