/** Every lab's exercises, for the lab pages and the lesson index. */
import type { Exercise } from './exercise.ts';
import { REDUCE_EXERCISES } from './reduce/exercises.ts';
import { SCAN_EXERCISES } from './scan/exercises.ts';

export const EXERCISES: readonly Exercise[] = [...REDUCE_EXERCISES, ...SCAN_EXERCISES];

export const exercisesOf = (lab: string): readonly Exercise[] => EXERCISES.filter((e) => e.lab === lab);
export const findExercise = (id: string): Exercise | undefined => EXERCISES.find((e) => e.id === id);
