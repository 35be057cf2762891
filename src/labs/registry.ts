/**
 * The one registry of labs. `LabId`, the kernel test cases, the bench sections and the lab names
 * lessons may use all derive from the modules listed in `all.ts`.
 */
import type { KernelCase } from '../kernel/cases.ts';
import * as all from './all.ts';
import type { AnyLab } from './lab.ts';

/** The id of a registered lab, e.g. `'reduce'`. */
export type LabId = (typeof all)[keyof typeof all]['id'];

/** Every lab the app offers, in the order the course takes them. */
export const LABS: readonly (AnyLab & { readonly id: LabId })[] = Object.values(all).sort((a, b) => a.courseOrder - b.courseOrder);

export const LAB_IDS: readonly LabId[] = LABS.map((l) => l.id);

export function isLabId(id: string): id is LabId {
  return (LAB_IDS as readonly string[]).includes(id);
}

export function findLab(id: LabId): AnyLab;
export function findLab(id: string): AnyLab | undefined;
export function findLab(id: string): AnyLab | undefined {
  return LABS.find((l) => l.id === id);
}

/** Every kernel case of every lab, for the GPU–simulator differential test. */
export const kernelCases: readonly KernelCase[] = LABS.flatMap((l) => l.cases);

/** The home page's editable demo: the basics lab's vector add (run, reference, bytes, file). */
export * as homeDemo from './basics/vectorAdd.ts';
/** The start page's moving picture (loaded after the page itself, as its own chunk). */
export const loadHomeHero = () => import('./reduce/hero.ts');
