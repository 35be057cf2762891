/**
 * How a lesson's check question answers a guess. A first wrong number does not give the right one
 * away: it sends the learner back to the picture and lets them try again. The answer and its
 * explanation come on the second miss, or when the learner asks for them.
 */
export type AnswerVerdict =
  | { readonly kind: 'not-a-number' }
  | { readonly kind: 'right' }
  /** Wrong, and this many misses so far: look at the picture again and retry. */
  | { readonly kind: 'retry'; readonly misses: number }
  /** Wrong again (or asked): show the answer and why. */
  | { readonly kind: 'reveal'; readonly misses: number };

/** Wrong answers after which the answer is shown without being asked for. */
export const MISSES_BEFORE_REVEAL = 2;

export function judgeAnswer(typed: string, right: number, missesSoFar: number): AnswerVerdict {
  const text = typed.trim();
  const given = Number(text);
  if (text === '' || !Number.isFinite(given)) return { kind: 'not-a-number' };
  if (given === right) return { kind: 'right' };
  const misses = missesSoFar + 1;
  return misses >= MISSES_BEFORE_REVEAL ? { kind: 'reveal', misses } : { kind: 'retry', misses };
}
