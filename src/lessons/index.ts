import { divergenceLesson } from './divergence/lesson.ts';
import { indexingLesson } from './indexing/lesson.ts';
import { reductionLesson } from './reduction/lesson.ts';
import { scanLesson } from './scan/lesson.ts';
import type { Lesson } from './types.ts';

/** The lessons, in the order the course takes them. */
export const LESSONS: readonly Lesson[] = [indexingLesson, divergenceLesson, reductionLesson, scanLesson];

export function findLesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
