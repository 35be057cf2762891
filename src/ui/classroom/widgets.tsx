import type { ConnectionStatus } from '../../classroom/client.ts';
import { m } from './messages.ts';

/** The connection's state in words, announced when it changes. */
export function StatusLine({ status }: { status: ConnectionStatus }) {
  return (
    <p className={`live-status live-status-${status}`} role="status" data-testid="live-status" data-status={status}>
      <span aria-hidden="true">{status === 'open' ? '● ' : status === 'closed' ? '○ ' : '◌ '}</span>
      {m(`status.${status}`)}
    </p>
  );
}

const KNOWN = ['no-such-room', 'rate-limited', 'room-closed', 'question-locked', 'stale-question', 'server-full'] as const;

/** What the server refused, in the learner's words. */
export function refusalText(refused: { reason: string; detail: string }): string {
  const known = KNOWN.find((k) => k === refused.reason);
  return known ? m(`refused.${known}`) : m('refused.other', { detail: refused.detail });
}

export function RefusalNotice({ refused }: { refused: { reason: string; detail: string } | undefined }) {
  if (!refused) return null;
  return (
    <p className="verdict verdict-bad" role="alert" data-testid="live-refused" data-reason={refused.reason}>
      {refusalText(refused)}
    </p>
  );
}
