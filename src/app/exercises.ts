/**
 * Exercises in the app: the check, the progress kept in this browser, and the links that open one.
 * The check runs the learner's kernel on the simulator at every seed of the exercise: it passes
 * when no run has a race, barrier divergence, out-of-bounds access or step limit and every output
 * matches the lab's CPU reference.
 */
import type { Exercise } from '../labs/exercise.ts';
import { formatParams, resolveParams, type AnyLab } from '../labs/lab.ts';
import { checkDraft, type SimulateOnce } from './editorRun.ts';

/** The simulator findings that fail an exercise. */
export const FAILING_KINDS: readonly string[] = ['race', 'barrier-divergence', 'out-of-bounds', 'step-limit'];

export type ExerciseVerdict = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly line?: number };

/** Runs `source` as the exercise's kernel at each of its seeds on the simulator. */
export async function checkExercise(lab: AnyLab, exercise: Exercise, source: string, simulate: SimulateOnce, signal?: AbortSignal): Promise<ExerciseVerdict> {
  const { params } = resolveParams(lab, exercise.variant, exercise.params);
  for (const seed of exercise.seeds) {
    const r = await checkDraft({ lab, variant: exercise.variant, params, draft: source, gpu: undefined, simulate, seed, ...(signal ? { signal } : {}) });
    const bad = r.diagnostics.find((d) => FAILING_KINDS.includes(d.kind));
    if (bad) return { ok: false, message: `Not yet: the simulator still finds a ${bad.kind.replace('-', ' ')} at line ${bad.line} (inputs of seed ${seed}).`, line: bad.line };
    if (r.sim.state !== 'done') return { ok: false, message: `Not yet: ${r.sim.message}` };
    if (!r.sim.check.ok) return { ok: false, message: `Not yet: with the inputs of seed ${seed}, ${r.sim.check.message}.` };
  }
  return { ok: true };
}

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
export function exerciseHref(lab: AnyLab, exercise: Exercise): string {
  const query = new URLSearchParams([['v', exercise.variant], ...formatParams(lab, exercise.params)]);
  return `/lab/${exercise.lab}?${query.toString()}#exercise=${encodeURIComponent(exercise.id)}`;
}

/** The exercise a fragment opens, if any. */
export function readExerciseFragment(hash: string): string | undefined {
  const m = /^#?exercise=([\w-]+)$/.exec(hash);
  return m?.[1];
}
