import type { QuestionView } from '../../classroom/protocol.ts';
import './classroom.css';
import { m } from './messages.ts';

/** A choice as the class reads it: its letter and its text (`B. 0 and 16`). */
export function optionLabel(index: number, text: string): string {
  return `${String.fromCharCode(65 + index)}. ${text}`;
}

/** A bin's value as the class sees it: the option's text for a choice, the number otherwise. */
export function valueLabel(q: QuestionView, value: number): string {
  return q.kind === 'choice' ? optionLabel(value, q.options?.[value] ?? '') : String(value);
}

/** The question's head: its prompt, its vote and phase, and how many answered (words, not colour). */
export function QuestionHead({ q, total, level = 2 }: { q: QuestionView; total?: number; level?: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <div className="live-question-head">
      <H className="live-prompt" data-testid="live-prompt">
        {q.prompt}
      </H>
      <p className="live-meta">
        <span>{m('question.vote', { round: q.round })}</span> · <span data-testid="live-phase" data-phase={q.phase}>{m(`question.phase.${q.phase}`)}</span> ·{' '}
        <strong data-testid="live-count" data-count={q.answered}>
          {total !== undefined ? m('question.answeredOf', { count: q.answered, total }) : m('question.answered', { count: q.answered })}
        </strong>
      </p>
    </div>
  );
}

/**
 * The distribution of answers as bars: each with its value and its count written out, the
 * correct one marked with a check and the word (never by colour alone). Choices list every option,
 * answered or not; numbers list the values given, most given first.
 */
export function Histogram({ q }: { q: QuestionView }) {
  const bins = q.bins ?? [];
  const rows =
    q.kind === 'choice'
      ? (q.options ?? []).map((_, i) => ({ value: i, count: bins.find((b) => b.value === i)?.count ?? 0 }))
      : bins.slice(0, 8);
  const max = Math.max(1, ...rows.map((r) => r.count));
  if (rows.length === 0) return <p className="live-empty">{m('question.noAnswers')}</p>;
  return (
    <figure className="live-histogram" data-testid="live-histogram" aria-label={m('question.bars')}>
      <ul>
        {rows.map((r) => {
          const correct = q.answer !== undefined && r.value === q.answer;
          return (
            <li key={r.value} className={correct ? 'live-bar live-bar-correct' : 'live-bar'} data-value={r.value} data-count={r.count} aria-label={m('question.bar', { value: valueLabel(q, r.value), count: r.count })}>
              <span className="live-bar-label">
                {correct && (
                  <span className="live-correct-mark">
                    <span aria-hidden="true">✓ </span>
                    {m('question.correctMark')}:{' '}
                  </span>
                )}
                {valueLabel(q, r.value)}
              </span>
              <span className="live-bar-track" aria-hidden="true">
                <span className="live-bar-fill" style={{ width: `${(100 * r.count) / max}%` }} />
              </span>
              <span className="live-bar-count">{r.count}</span>
            </li>
          );
        })}
      </ul>
      {q.phase === 'revealed' && (
        <figcaption data-testid="live-answer">{q.graded && q.answer !== undefined ? m('question.correct', { answer: valueLabel(q, q.answer) }) : m('question.poll')}</figcaption>
      )}
    </figure>
  );
}
