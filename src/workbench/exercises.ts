/**
 * Exercises in the app: the progress kept in this browser and the links that open one. The check
 * is `exerciseCheck.ts` (loaded with the editor).
 */
import type { Exercise } from './exercise.ts';
import { formatParams, type AnyLab } from './lab.ts';

/** The exercises of some loaded lab modules (a lab page: its own; the lesson index: every lab's). */
export const exercisesOf = (labs: readonly Pick<AnyLab, 'exercises'>[]): readonly Exercise[] => labs.flatMap((lab) => lab.exercises ?? []);
export const findExercise = (labs: readonly Pick<AnyLab, 'exercises'>[], id: string): Exercise | undefined => exercisesOf(labs).find((e) => e.id === id);

const PROGRESS_KEY = 'warpscope.exercises.done';
const ACTIVE_KEY = (lab: string) => `warpscope.exercises.active.${lab}`;
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

let done: ReadonlySet<string> | undefined;

/** The exercises solved in this browser. */
export function solvedExercises(): ReadonlySet<string> {
  if (done) return done;
  try {
    const raw = JSON.parse(storage()?.getItem(PROGRESS_KEY) ?? '[]') as unknown;
    done = new Set(Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    done = new Set();
  }
  return done;
}

export function markSolved(id: string): void {
  const next = new Set(solvedExercises());
  next.add(id);
  done = next;
  try {
    storage()?.setItem(PROGRESS_KEY, JSON.stringify([...next]));
  } catch {
    // Private mode: progress lasts for this tab.
  }
  for (const l of listeners) l();
}

/** For `useSyncExternalStore`. */
export function subscribeProgress(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The exercise a lab's page is working on (it survives a reload), if any. */
export function activeExercise(lab: string): string | undefined {
  try {
    return storage()?.getItem(ACTIVE_KEY(lab)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function setActiveExercise(lab: string, id: string | undefined): void {
  try {
    if (id === undefined) storage()?.removeItem(ACTIVE_KEY(lab));
    else storage()?.setItem(ACTIVE_KEY(lab), id);
  } catch {
    // Private mode.
  }
}

/** The address that opens an exercise: its lab, variant and parameters, and the exercise in the fragment. */
export function exerciseHref(lab: AnyLab, exercise: Exercise, lang?: string): string {
  const query = new URLSearchParams([['v', exercise.variant], ...formatParams(lab, exercise.params), ...(lang ? [['lang', lang] as [string, string]] : [])]);
  return `/lab/${exercise.lab}?${query.toString()}#exercise=${encodeURIComponent(exercise.id)}`;
}

/** The exercise a fragment opens, if any. */
export function readExerciseFragment(hash: string): string | undefined {
  const m = /^#?exercise=([\w-]+)$/.exec(hash);
  return m?.[1];
}
