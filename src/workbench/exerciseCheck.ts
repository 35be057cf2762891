/**
 * The check of a fix-the-kernel exercise: the learner's kernel runs on the simulator at every seed
 * of the exercise, and passes when no run has a race, barrier divergence, out-of-bounds access or
 * step limit and every output matches the lab's CPU reference.
 */
import type { Exercise } from './exercise.ts';
import { resolveParams, type AnyLab } from './lab.ts';
import { checkDraft, type SimulateOnce } from './editorRun.ts';
import { diagnosticKind, ui } from '../i18n/ui.ts';

/** The simulator findings that fail an exercise. */
export const FAILING_KINDS: readonly string[] = ['race', 'barrier-divergence', 'out-of-bounds', 'step-limit'];

export type ExerciseVerdict = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly line?: number };

/** Runs `source` as the exercise's kernel at each of its seeds on the simulator. */
export async function checkExercise(lab: AnyLab, exercise: Exercise, source: string, simulate: SimulateOnce, signal?: AbortSignal): Promise<ExerciseVerdict> {
  const { params } = resolveParams(lab, exercise.variant, exercise.params);
  for (const seed of exercise.seeds) {
    const r = await checkDraft({ lab, variant: exercise.variant, params, draft: source, gpu: undefined, simulate, seed, ...(signal ? { signal } : {}) });
    const bad = r.diagnostics.find((d) => FAILING_KINDS.includes(d.kind));
    if (bad) return { ok: false, message: ui('exercise.stillFinds', { kind: diagnosticKind(bad.kind), line: bad.line, seed }), line: bad.line };
    if (r.sim.state !== 'done') return { ok: false, message: ui('exercise.notYet', { message: r.sim.message }) };
    if (!r.sim.check.ok) return { ok: false, message: ui('exercise.wrongOutput', { seed, message: r.sim.check.message }) };
  }
  return { ok: true };
}
