/**
 * "Fix the kernel" exercises: a lab variant with a bug put in, modelled on the bugs in the course's
 * own kernels. Each names its goal in one sentence, the inputs it is checked on, and the view that
 * shows the problem. The check (src/workbench/exercises.ts) passes when the simulator finds no race,
 * barrier divergence, out-of-bounds access or endless loop and the output matches the CPU
 * reference on every seed.
 */
import { withTexts, type Catalog } from '../i18n/catalog.ts';
import type { ParamValue } from './lab.ts';

export interface Exercise {
  readonly id: string;
  readonly lab: string;
  readonly variant: string;
  /** Parameters the exercise runs at (the rest are the lab's defaults). */
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly title: string;
  /** What to achieve, in one sentence. */
  readonly goal: string;
  /** Where to look, naming the view that shows the problem. */
  readonly hint: string;
  /** The broken kernel the exercise starts from. */
  readonly broken: string;
  /** Seeds of the inputs the check runs. */
  readonly seeds: readonly number[];
}

/** The seeds every exercise is checked on unless it names its own. */
export const EXERCISE_SEEDS: readonly number[] = [1, 7, 42];

/** An exercise as its lab writes it: everything but its lab and the texts, which come from the lab's catalog. */
export type ExerciseSpec = Omit<Exercise, 'lab' | 'title' | 'goal' | 'hint' | 'seeds'> & { readonly seeds?: readonly number[] };

/**
 * A lab's exercises, whose texts are messages of its catalog, `<id>.title`, `<id>.goal` and
 * `<id>.hint`, read in the language of the moment; each checked on `EXERCISE_SEEDS` unless it
 * names its own. A catalog without them throws here, when the lab loads.
 */
export function exercisesFrom<T extends Record<string, string>>(m: Catalog<T>, lab: string, specs: readonly ExerciseSpec[]): readonly Exercise[] {
  return specs.map((spec) => {
    const text = (part: 'title' | 'goal' | 'hint') => {
      const key = `${spec.id}.${part}`;
      if (!m.has(key)) throw new Error(`The catalog “${m.id}” has no “${spec.id}.${part}” for the exercise ${spec.id}.`);
      return () => m(key);
    };
    return withTexts({ seeds: EXERCISE_SEEDS, ...spec, lab }, { title: text('title'), goal: text('goal'), hint: text('hint') });
  });
}

/** `source` with `from` replaced by `to`; throws unless `from` occurs exactly once (so a kernel edit cannot silently unbreak an exercise). */
export function breakKernel(source: string, from: string, to: string): string {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + 1) >= 0) throw new Error(`exercise: expected exactly one “${from}” in the kernel`);
  return source.slice(0, at) + to + source.slice(at + from.length);
}
