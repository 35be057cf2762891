/**
 * Every lab module, loaded at once, for the code that needs them all before it starts: the tests
 * (kernel cases, completeness, lessons), `npm run bench` and the e2e tests that list the labs. The
 * app never imports this file: its pages load only the labs they show (`registry.ts`).
 */
import type { KernelCase } from '../kernel/cases.ts';
import type { AnyLab } from '../workbench/lab.ts';
import { loadLabs, type LabId } from './registry.ts';

export { isLabId, type LabId } from './registry.ts';

/** Every lab the app offers, in the order the course takes them. */
export const LABS: readonly (AnyLab & { readonly id: LabId })[] = await loadLabs();

export function findLab(id: LabId): AnyLab;
export function findLab(id: string): AnyLab | undefined;
export function findLab(id: string): AnyLab | undefined {
  return LABS.find((l) => l.id === id);
}

/** Every kernel case of every lab, for the GPU–simulator differential test. */
export const kernelCases: readonly KernelCase[] = LABS.flatMap((l) => l.cases);
