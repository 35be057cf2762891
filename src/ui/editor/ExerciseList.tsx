import { memo, useSyncExternalStore } from 'react';
import { exerciseHref, exercisesOf, solvedExercises, subscribeProgress } from '../../workbench/exercises.ts';
import type { AnyLab } from '../../workbench/lab.ts';
import { useAppStore } from '../../store/index.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import { EXERCISE_TEXT as T } from './strings.ts';

/**
 * The fix-the-kernel exercises of the given labs (a lab page: its own; the lesson index: every
 * lab's), each a link that opens it, with progress kept in this browser.
 */
export const ExerciseList = memo(function ExerciseList({ labs, headingLevel = 2 }: { labs: readonly AnyLab[]; headingLevel?: 2 | 3 }) {
  useLocale(); // its texts follow a language switch (and a catalog that arrives late) despite the memo
  const solved = useSyncExternalStore(subscribeProgress, solvedExercises, solvedExercises);
  const lang = useAppStore((s) => s.chrome.lang);
  const list = exercisesOf(labs);
  const lab = labs.length === 1 ? labs[0]!.id : undefined;
  if (list.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const done = list.filter((e) => solved.has(e.id)).length;
  return (
    <section className="panel exercise-list" aria-labelledby={`exercises-${lab ?? 'all'}`} data-testid="exercise-list">
      <Heading id={`exercises-${lab ?? 'all'}`}>{T.listTitle}</Heading>
      <p className="hint">{T.progress(done, list.length)}</p>
      <ul>
        {list.map((e) => {
          const labModule = labs.find((l) => l.id === e.lab);
          if (!labModule) return null;
          const ok = solved.has(e.id);
          return (
            <li key={e.id} data-testid={`exercise-${e.id}`} data-done={ok ? 'yes' : 'no'}>
              <a href={exerciseHref(labModule, e, lang)}>{e.title}</a> <span className="hint">({labModule.title})</span> — {e.goal}{' '}
              <strong>{ok ? T.done : T.notDone}</strong>
            </li>
          );
        })}
      </ul>
    </section>
  );
});
