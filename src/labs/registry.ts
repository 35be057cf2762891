import type { LabId } from '../app/url.ts';
import type { LabDefinition } from './lab.ts';
import { basicsLab } from './basics/lab.ts';
import { reduceLab } from './reduce/lab.ts';
import { scanLab } from './scan/lab.ts';

/** Every lab the app offers, in the order the course takes them. */
export const LABS: readonly LabDefinition[] = [basicsLab, reduceLab, scanLab];

export function findLab(id: LabId): LabDefinition | undefined {
  return LABS.find((l) => l.id === id);
}
