/**
 * The subject of a moment: what a step is about (lanes, words, banks, warps), so that every stage
 * panel can frame it and mark it with `data-subject`. Derived from the trace wherever it can be
 * (the conflicting lanes of a shared-memory request, the words a request touches, the active lanes
 * of the warp that executes the step); a lesson step may name it outright, and then its naming wins,
 * and may name the part of the picture its narration points at.
 * Pure TypeScript: the views only read the result.
 */
import { bankOf } from '../sim/hardware.ts';
import type { Trace } from '../sim/index.ts';
import { accessesOf } from './memory.ts';
import type { TraceIndex } from './index.ts';

/** Why these things are the subject (for a caption, and for tests). */
export type SubjectReason = 'named' | 'conflict' | 'access' | 'active' | 'none';

export interface Subject {
  readonly reason: SubjectReason;
  /** Warps of the traced workgroup. */
  readonly warps: readonly number[];
  /** [warp, lane] pairs. */
  readonly lanes: readonly (readonly [number, number])[];
  /** Word addresses in the main workgroup memory. */
  readonly words: readonly number[];
  /** Banks of those words. */
  readonly banks: readonly number[];
  /**
   * The part of the picture the step's narration names, by the `data-subject` name the panel gives
   * it (`loads`: the merge table's global loads): the panel marks that part and nothing else.
   */
  readonly part?: string | undefined;
}

/** What a lesson step names outright (a `Highlight`'s warps, lanes and words). */
export interface NamedSubject {
  readonly warps?: readonly number[] | undefined;
  readonly lanes?: readonly (readonly [number, number])[] | undefined;
  readonly words?: readonly number[] | undefined;
  /** The part of the picture the narration names (see `Subject.part`). */
  readonly part?: string | undefined;
}

export const NO_SUBJECT: Subject = { reason: 'none', warps: [], lanes: [], words: [], banks: [] };

const sortedUnique = (xs: Iterable<number>): number[] => [...new Set(xs)].sort((a, b) => a - b);

function banksOf(trace: Trace, words: readonly number[]): number[] {
  return sortedUnique(words.map((w) => bankOf(trace.hardware, w)));
}

/** Lanes active in the mask of `step`. */
function activeLanes(trace: Trace, step: number): number[] {
  const mw = trace.maskWords;
  const out: number[] = [];
  for (let k = 0; k < mw; k++) {
    const x = trace.stepMask[step * mw + k]!;
    for (let b = 0; b < 32; b++) if (x & (1 << b)) out.push(k * 32 + b);
  }
  return out;
}

/**
 * The subject at `step`: what `named` names (completed with the banks of its words), else, when
 * the step is a request to the main workgroup memory `memory`, the lanes, words and banks that
 * conflict (a request served in more than one wavefront: lanes whose bank is asked for two or more
 * different words) or, without a conflict, every lane of the request; else the active lanes of
 * the warp that executes the step, with the words of the last request to that memory.
 */
export function subjectAt(index: TraceIndex, step: number, memory: number, named?: NamedSubject): Subject {
  const found = subjectOfStep(index, step, memory, named);
  return named?.part ? { ...found, part: named.part } : found;
}

function subjectOfStep(index: TraceIndex, step: number, memory: number, named?: NamedSubject): Subject {
  const { trace } = index;
  if (named && ((named.lanes?.length ?? 0) > 0 || (named.words?.length ?? 0) > 0 || (named.warps?.length ?? 0) > 0)) {
    const lanes = named.lanes ?? [];
    const words = sortedUnique(named.words ?? []);
    return { reason: 'named', warps: sortedUnique([...(named.warps ?? []), ...lanes.map(([w]) => w)]), lanes, words, banks: banksOf(trace, words) };
  }
  if (step < 0 || step >= trace.stepCount) return NO_SUBJECT;
  const warp = trace.stepWarp[step]!;
  const access = memory >= 0 ? accessesOf(trace, step, memory) : undefined;
  if (access && access.list.length > 0) {
    let list = access.list;
    const conflict = (index.wavefronts[step] ?? 0) > 1;
    if (conflict) {
      // Distinct words asked of each bank: a bank with two or more is where the request serialises.
      const wordsOfBank = new Map<number, Set<number>>();
      for (const a of list) wordsOfBank.set(a.bank, (wordsOfBank.get(a.bank) ?? new Set()).add(a.addr));
      list = list.filter((a) => wordsOfBank.get(a.bank)!.size > 1);
    }
    const words = sortedUnique(list.map((a) => a.addr));
    return {
      reason: conflict ? 'conflict' : 'access',
      warps: [warp],
      lanes: sortedUnique(list.map((a) => a.lane)).map((l) => [warp, l] as const),
      words,
      banks: banksOf(trace, words),
    };
  }
  // No request here: the words of the last request to that memory (what the strip still shows).
  const lanes = activeLanes(trace, step).map((l) => [warp, l] as const);
  const before = memory >= 0 ? lastRequestBefore(trace, step, memory) : -1;
  const words = before >= 0 ? sortedUnique(accessesOf(trace, before, memory)!.list.map((a) => a.addr)) : [];
  return { reason: 'active', warps: [warp], lanes, words, banks: banksOf(trace, words) };
}

function lastRequestBefore(trace: Trace, step: number, memory: number): number {
  for (let s = step; s >= 0; s--) if (trace.stepMemory[s] === memory) return s;
  return -1;
}

/** Whether the subject names anything at all. */
export function hasSubject(s: Subject): boolean {
  return s.part !== undefined || s.warps.length + s.lanes.length + s.words.length > 0;
}

/** Contiguous runs of sorted integers, as [first, last] pairs (`[0,1,2,5]` → `[[0,2],[5,5]]`). */
export function runsOf(sorted: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const x of sorted) {
    const last = out[out.length - 1];
    if (last && x === last[1] + 1) last[1] = x;
    else out.push([x, x]);
  }
  return out;
}

/** The subject's lanes as invocation indices of the workgroup (warp · warpSize + lane). */
export function subjectInvocations(s: Subject | undefined, warpSize: number): ReadonlySet<number> {
  return new Set(s?.lanes.map(([w, l]) => w * warpSize + l));
}
