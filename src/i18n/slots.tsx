/**
 * Messages with an element inside them (a buffer's name drawn as code). The message is formatted
 * with SLOT where the element goes, so each language places it where its grammar wants; the text
 * is then split at each SLOT and the parts are put in, in order.
 *
 *   fillSlots(m('ui.say.load', { n, memory: SLOT }), <code>{name}</code>)
 */
import { Fragment, type ReactNode } from 'react';

/** A private-use character no message contains: stands for the element in the formatted text. */
export const SLOT = '\uE000';

/** `text` with its first SLOT replaced by the first of `parts`, the second by the second, …; a text without SLOT comes back whole. */
export function fillSlots(text: string, ...parts: readonly ReactNode[]): ReactNode[] {
  return text.split(SLOT).flatMap((piece, i) => (i === 0 ? [piece] : [<Fragment key={i}>{parts[i - 1]}</Fragment>, piece]));
}
