import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markSeen, readProgress } from './lessonProgress.ts';

const KEY = 'warpscope.progress.v1';
const lessons = new Map([
  ['reduction', 7],
  ['scan', 6],
]);

/** A localStorage for Node: the same get/set a browser offers. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(k: string): string | null {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.items.set(k, String(v));
  }
}

describe('lesson progress', () => {
  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });
  afterEach(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });
  const store = (v: unknown) => localStorage.setItem(KEY, JSON.stringify(v));
  const stored = () => JSON.parse(localStorage.getItem(KEY)!) as Record<string, unknown>;

  it('records steps seen and where to resume', () => {
    markSeen('reduction', 3, 7);
    markSeen('reduction', 1, 7);
    markSeen('reduction', 3, 7);
    expect(readProgress(lessons)).toEqual({ reduction: { seen: [1, 3], last: 3 } });
  });

  it('ignores a step that is not a whole number in range (NaN, 2.5, 0, past the end)', () => {
    for (const n of [1, 2, 3, 4, 5]) markSeen('reduction', n, 7);
    for (const n of [NaN, 2.5, 0, -1, 8, Infinity]) markSeen('reduction', n, 7);
    expect(readProgress(lessons)).toEqual({ reduction: { seen: [1, 2, 3, 4, 5], last: 5 } });
  });

  it('skips a bad stored value, not the lesson nor the record', () => {
    // What the old code wrote after `step: NaN`: last became null, which dropped seen [1–5].
    store({ reduction: { seen: [1, 2, 3, 4, 5], last: null }, scan: { seen: [1, 2.5, 'x', 9, 2, 2], last: 2 } });
    expect(readProgress(lessons)).toEqual({ reduction: { seen: [1, 2, 3, 4, 5], last: 5 }, scan: { seen: [1, 2], last: 2 } });
    markSeen('reduction', 6, 7);
    expect(readProgress(lessons).reduction).toEqual({ seen: [1, 2, 3, 4, 5, 6], last: 6 });
  });

  it('skips unknown lessons and junk entries, and keeps them stored when another lesson is marked', () => {
    store({ gone: { seen: [1], last: 1 }, scan: 'junk', reduction: { seen: 'no', last: 4 } });
    expect(readProgress(lessons)).toEqual({ reduction: { seen: [], last: 4 } });
    markSeen('reduction', 2, 7);
    expect(stored().gone).toEqual({ seen: [1], last: 1 });
    expect(stored().scan).toBe('junk');
  });

  it('reads unparsable or non-object storage as no progress, and marking still works', () => {
    localStorage.setItem(KEY, '{not json');
    expect(readProgress(lessons)).toEqual({});
    store([1, 2]);
    expect(readProgress(lessons)).toEqual({});
    markSeen('scan', 2, 6);
    expect(readProgress(lessons)).toEqual({ scan: { seen: [2], last: 2 } });
  });
});
