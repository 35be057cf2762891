/**
 * The step-sync protocol between windows showing the same lesson (presenter, audience, projector)
 * over a BroadcastChannel. Pure: no DOM, so it is unit-tested in Node.
 *
 * Every move carries a version: a Lamport clock and the id of the window that made it. A window
 * applies a move only if its version is greater than the one it shows (clock first, then window
 * id), so an echo of a move it already applied is never re-applied, two windows moving at once
 * settle on the same step (the greater version wins everywhere), and nothing is announced back.
 * Anything else on the channel (other shapes, other lessons, steps out of range) is dropped.
 */

export const SYNC_CHANNEL = 'warpscope.lesson-sync';

/** The version of a move: a Lamport clock, ties broken by the id of the window that made it. */
export interface Version {
  readonly clock: number;
  readonly from: string;
}

export type SyncMessage =
  | { readonly kind: 'hello'; readonly lesson: string; readonly from: string }
  | { readonly kind: 'at'; readonly lesson: string; readonly step: number; readonly clock: number; readonly from: string };

/** A window that has not moved nor heard of a move yet: every announced move wins over it. */
export const NO_VERSION: Version = { clock: -1, from: '' };

const ID = /^[A-Za-z0-9-]{1,64}$/;

/** A random id for this window, unique enough to break ties between windows. */
export function newWindowId(random: () => number = Math.random): string {
  let id = '';
  for (let i = 0; i < 4; i++) id += Math.floor(random() * 2 ** 32).toString(36).padStart(7, '0');
  return id;
}

/** True when `a` comes after `b`: the greater clock, or at equal clocks the greater window id. */
export function isNewer(a: Version, b: Version): boolean {
  return a.clock !== b.clock ? a.clock > b.clock : a.from > b.from;
}

/** The version of a move this window makes now, after having seen `seen`. */
export function nextVersion(seen: Version, self: string): Version {
  return { clock: Math.max(seen.clock, 0) + 1, from: self };
}

/**
 * Reads a message from the channel for the lesson `lesson` of `count` steps, or undefined if it is
 * not one (wrong shape, another lesson, a step that is not a whole number from 1 to `count`, a
 * clock that is not a safe whole number, a malformed window id).
 */
export function parseSyncMessage(data: unknown, lesson: string, count: number): SyncMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.lesson !== lesson || typeof m.from !== 'string' || !ID.test(m.from)) return undefined;
  if (m.kind === 'hello') return { kind: 'hello', lesson, from: m.from };
  if (m.kind !== 'at') return undefined;
  const { step, clock } = m;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 1 || step > count) return undefined;
  if (typeof clock !== 'number' || !Number.isSafeInteger(clock) || clock < 0) return undefined;
  return { kind: 'at', lesson, step, clock, from: m.from };
}
