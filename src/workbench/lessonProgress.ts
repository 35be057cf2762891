/**
 * Lesson progress, kept in this browser's localStorage: which steps were seen and where to resume.
 * Storage is read as untrusted input: every value is checked (a known lesson, whole step numbers
 * within the lesson), and a bad value is skipped on its own, never the rest of the record.
 */
import { LESSONS } from '../labs/lessons.ts';

const KEY = 'warpscope.progress.v1';

export type Progress = Record<string, { seen: number[]; last: number }>;

/** Lesson id → number of steps: what progress may name. */
export type KnownLessons = ReadonlyMap<string, number>;

const knownLessons = (): KnownLessons => new Map(LESSONS.map((l) => [l.id, l.steps.length]));

const isStep = (n: unknown, count: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= count;

/** What storage holds under the key, as a plain object (anything else reads as empty). */
function readRaw(): Record<string, unknown> {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One lesson's stored entry, with its bad parts dropped; undefined when nothing good is left. */
function cleanEntry(value: unknown, count: number): { seen: number[]; last: number } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const entry = value as { seen?: unknown; last?: unknown };
  const seen = Array.isArray(entry.seen) ? [...new Set(entry.seen.filter((n) => isStep(n, count)))].sort((a, b) => a - b) : [];
  const last = isStep(entry.last, count) ? entry.last : seen.at(-1);
  return last === undefined ? undefined : { seen, last };
}

export function readProgress(lessons: KnownLessons = knownLessons()): Progress {
  const out: Progress = {};
  for (const [id, value] of Object.entries(readRaw())) {
    const count = lessons.get(id);
    if (count === undefined) continue;
    const entry = cleanEntry(value, count);
    if (entry) out[id] = entry;
  }
  return out;
}

/**
 * Records that step `n` (1-based) of a lesson of `count` steps was seen. A step that is not a
 * whole number from 1 to `count` is not recorded. Only this lesson's entry is rewritten; the
 * others stay as they were stored.
 */
export function markSeen(lesson: string, n: number, count: number): void {
  if (!isStep(n, count)) return;
  const raw = readRaw();
  const entry = cleanEntry(raw[lesson], count) ?? { seen: [], last: n };
  if (!entry.seen.includes(n)) entry.seen = [...entry.seen, n].sort((a, b) => a - b);
  entry.last = n;
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...raw, [lesson]: entry }));
  } catch {
    // Private mode or full storage: progress lives for this page only.
  }
}
