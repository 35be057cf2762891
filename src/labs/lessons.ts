import type { Lesson } from '../workbench/lesson.ts';

/**
 * Every lesson is a folder `src/labs/<lab>/lessons/<lesson>/` with a `lesson.ts` that exports one `Lesson`; adding a folder adds the
 * lesson (no list to edit). Vite gathers them at build time.
 */
const modules = import.meta.glob<Record<string, unknown>>('./*/lessons/*/lesson.ts', { eager: true });

const isLesson = (x: unknown): x is Lesson => typeof x === 'object' && x !== null && 'id' in x && 'steps' in x && 'courseOrder' in x;

/** The lessons, in the order the course takes them. */
export const LESSONS: readonly Lesson[] = Object.values(modules)
  .flatMap((m) => Object.values(m).filter(isLesson))
  .sort((a, b) => a.courseOrder - b.courseOrder);

export function findLesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
