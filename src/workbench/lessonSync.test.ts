import { describe, expect, it } from 'vitest';
import { isNewer, newWindowId, nextVersion, NO_VERSION, parseSyncMessage, type Version } from './lessonSync.ts';

describe('lesson sync messages', () => {
  it('accepts well-formed hello and at messages for this lesson', () => {
    expect(parseSyncMessage({ kind: 'hello', lesson: 'scan', from: 'a1' }, 'scan', 7)).toEqual({ kind: 'hello', lesson: 'scan', from: 'a1' });
    expect(parseSyncMessage({ kind: 'at', lesson: 'scan', step: 7, clock: 3, from: 'a1', extra: 1 }, 'scan', 7)).toEqual({
      kind: 'at',
      lesson: 'scan',
      step: 7,
      clock: 3,
      from: 'a1',
    });
  });

  it.each([
    ['a fractional step', { kind: 'at', lesson: 'reduction', step: 2.5, clock: 1, from: 'x' }],
    ['NaN', { kind: 'at', lesson: 'reduction', step: NaN, clock: 1, from: 'x' }],
    ['step 0', { kind: 'at', lesson: 'reduction', step: 0, clock: 1, from: 'x' }],
    ['a step past the end', { kind: 'at', lesson: 'reduction', step: 8, clock: 1, from: 'x' }],
    ['a string step', { kind: 'at', lesson: 'reduction', step: '2', clock: 1, from: 'x' }],
    ['no clock (the old protocol)', { kind: 'at', lesson: 'reduction', step: 2 }],
    ['a negative clock', { kind: 'at', lesson: 'reduction', step: 2, clock: -1, from: 'x' }],
    ['an infinite clock', { kind: 'at', lesson: 'reduction', step: 2, clock: Infinity, from: 'x' }],
    ['another lesson', { kind: 'at', lesson: 'scan', step: 2, clock: 1, from: 'x' }],
    ['a hostile window id', { kind: 'at', lesson: 'reduction', step: 2, clock: 1, from: '<img src=x>' }],
    ['an unknown kind', { kind: 'goto', lesson: 'reduction', step: 2, clock: 1, from: 'x' }],
    ['null', null],
    ['a string', 'at reduction 2'],
  ])('drops %s', (_, data) => {
    expect(parseSyncMessage(data, 'reduction', 7)).toBeUndefined();
  });
});

describe('lesson sync versions', () => {
  it('orders moves by clock, then by window id, and every move beats no move', () => {
    const a1: Version = { clock: 1, from: 'a' };
    const b1: Version = { clock: 1, from: 'b' };
    const a2: Version = { clock: 2, from: 'a' };
    expect(isNewer(a1, NO_VERSION)).toBe(true);
    expect(isNewer(b1, a1)).toBe(true);
    expect(isNewer(a1, b1)).toBe(false);
    expect(isNewer(a2, b1)).toBe(true);
    // An echo of what a window shows is not newer: it is never re-applied.
    expect(isNewer(a1, a1)).toBe(false);
    expect(nextVersion(b1, 'a')).toEqual({ clock: 2, from: 'a' });
    expect(nextVersion(NO_VERSION, 'a')).toEqual({ clock: 1, from: 'a' });
  });

  it('makes two windows that move at once settle on the same step', () => {
    // Each window applies what is newer than what it shows; both end on the greater version.
    type W = { id: string; step: number; v: Version };
    const a: W = { id: 'a', step: 5, v: NO_VERSION };
    const b: W = { id: 'b', step: 5, v: NO_VERSION };
    const move = (w: W, step: number) => {
      w.v = nextVersion(w.v, w.id);
      w.step = step;
      return { step, ...w.v };
    };
    const receive = (w: W, m: { step: number } & Version) => {
      if (!isNewer(m, w.v)) return;
      w.v = { clock: m.clock, from: m.from };
      w.step = m.step;
    };
    const fromA = [move(a, 6), move(a, 7), move(a, 8)];
    const fromB = [move(b, 4)];
    for (const m of fromB) receive(a, m);
    for (const m of fromA) receive(b, m);
    expect(a.step).toBe(b.step);
    expect(a.step).toBe(8);
  });

  it('makes window ids the protocol accepts', () => {
    const id = newWindowId();
    expect(parseSyncMessage({ kind: 'hello', lesson: 'l', from: id }, 'l', 1)).toBeDefined();
    expect(newWindowId()).not.toBe(id);
  });
});
