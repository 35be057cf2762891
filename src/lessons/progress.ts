/**
 * Lesson progress, kept in this browser's localStorage: which steps were seen and where to resume.
 * Bad or foreign data in storage is ignored rather than trusted.
 */
const KEY = 'warpscope.progress.v1';

export type Progress = Record<string, { seen: number[]; last: number }>;

export function readProgress(): Progress {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    if (!raw || typeof raw !== 'object') return {};
    const out: Progress = {};
    for (const [id, v] of Object.entries(raw as Record<string, unknown>)) {
      const entry = v as { seen?: unknown; last?: unknown };
      if (!Array.isArray(entry.seen) || typeof entry.last !== 'number') continue;
      out[id] = { seen: entry.seen.filter((n): n is number => Number.isInteger(n) && n > 0), last: entry.last };
    }
    return out;
  } catch {
    return {};
  }
}

/** Records that step `n` (1-based) of a lesson of `count` steps was seen. */
export function markSeen(lesson: string, n: number, count: number): void {
  const progress = readProgress();
  const entry = progress[lesson] ?? { seen: [], last: 1 };
  if (!entry.seen.includes(n)) entry.seen = [...entry.seen, n].filter((k) => k <= count).sort((a, b) => a - b);
  entry.last = n;
  progress[lesson] = entry;
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    // Private mode or full storage: progress lives for this page only.
  }
}
