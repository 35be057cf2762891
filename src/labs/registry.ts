import type { LabId } from '../app/url.ts';
import type { LabDefinition } from './lab.ts';
import { reduceLab } from './reduce/lab.ts';

/** Every lab the app offers, in the order the course takes them. */
export const LABS: readonly LabDefinition[] = [reduceLab];

export function findLab(id: LabId): LabDefinition | undefined {
  return LABS.find((l) => l.id === id);
}
