/** Every lab's exercises, for the lab pages and the lesson index, gathered from the registry. */
import type { Exercise } from '../workbench/exercise.ts';
import { LABS } from './registry.ts';

export const EXERCISES: readonly Exercise[] = LABS.flatMap((lab) => lab.exercises ?? []);

export const exercisesOf = (lab: string): readonly Exercise[] => EXERCISES.filter((e) => e.lab === lab);
export const findExercise = (id: string): Exercise | undefined => EXERCISES.find((e) => e.id === id);
