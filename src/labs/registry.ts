import type { LabId } from '../app/url.ts';
import type { LabDefinition } from './lab.ts';
import { reduceLab } from './reduce/lab.ts';
import { scanLab } from './scan/lab.ts';

/** Every lab the app offers, in the order the course takes them. */
export const LABS: readonly LabDefinition[] = [reduceLab, scanLab];

export function findLab(id: LabId): LabDefinition | undefined {
  return LABS.find((l) => l.id === id);
}
