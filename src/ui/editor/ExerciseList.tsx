import { useSyncExternalStore } from 'react';
import { exerciseHref, solvedExercises, subscribeProgress } from '../../workbench/exercises.ts';
import { EXERCISES } from '../../labs/exercises.ts';
import { findLab, isLabId } from '../../labs/registry.ts';
import { useAppStore } from '../../store/index.ts';
import { EXERCISE_TEXT as T } from './strings.ts';

/** The fix-the-kernel exercises of one lab (or all), each a link that opens it, with progress kept in this browser. */
export function ExerciseList({ lab, headingLevel = 2 }: { lab?: string; headingLevel?: 2 | 3 }) {
  const solved = useSyncExternalStore(subscribeProgress, solvedExercises, solvedExercises);
  const lang = useAppStore((s) => s.chrome.lang);
  const list = EXERCISES.filter((e) => lab === undefined || e.lab === lab);
  if (list.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const done = list.filter((e) => solved.has(e.id)).length;
  return (
    <section className="panel exercise-list" aria-labelledby={`exercises-${lab ?? 'all'}`} data-testid="exercise-list">
      <Heading id={`exercises-${lab ?? 'all'}`}>{T.listTitle}</Heading>
      <p className="hint">{T.progress(done, list.length)}</p>
      <ul>
        {list.map((e) => {
          const labModule = isLabId(e.lab) ? findLab(e.lab) : undefined;
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
}
