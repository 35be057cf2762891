/**
 * Lessons as data: an ordered list of steps, each a moment in a lab's simulated kernel named by
 * meaning, with a short narrative and, optionally, a check question whose answer is computed from
 * the simulator's state at that moment — never typed in by hand.
 */
import { withTexts, type Catalog } from '../i18n/catalog.ts';
import type { MessageValues } from '../i18n/format.ts';
import type { LabId } from '../labs/registry.ts';
import type { AnyLab, ParamValue } from './lab.ts';
import type { Metrics, Trace } from '../sim/index.ts';
import { barrierPhase, endOfPhase, findForward, warpsAt, type TraceIndex } from '../trace/index.ts';
import { memoryNamed } from '../trace/names.ts';

/** A moment on the timeline, by meaning rather than by index. */
export type Moment =
  | { readonly kind: 'start' }
  | { readonly kind: 'end' }
  /** The workgroup just after its `n`-th barrier completes (n ≥ 1). */
  | { readonly kind: 'after-barrier'; readonly n: number }
  /** The first divergent branch, or the `n`-th (1-based). */
  | { readonly kind: 'divergence'; readonly n?: number }
  /** The first workgroup-memory request served in more than one wavefront. */
  | { readonly kind: 'bank-conflict' }
  /** A moment the lab defines (`LabModule.moments`), e.g. scan's `scan-phase` with arg `down-sweep`. */
  | { readonly kind: 'lab'; readonly name: string; readonly arg: string }
  /** The first request of `warp` to the binding named `memory` (e.g. warp 1 reading `a`). */
  | { readonly kind: 'first-access'; readonly memory: string; readonly warp: number }
  /** `barriers` completed barriers after another moment: a phase with its first level drawn. */
  | { readonly kind: 'after'; readonly moment: Moment; readonly barriers: number };

export interface LessonStep {
  readonly title: string;
  readonly lab: LabId;
  readonly variant: string;
  /** Parameters by the lab's spec (`n`, `workgroupSize`…); the rest take the lab's defaults. */
  readonly params: Readonly<Partial<Record<string, ParamValue>>>;
  readonly moment: Moment;
  /** A few sentences in our own words. */
  readonly narrative: string;
  /** What to look at on screen, named for the narration. */
  readonly lookAt?: string;
  /** What the views mark for this step: warps and lanes of the grid, words of workgroup memory, and code lines by a snippet they contain. */
  readonly highlight?: Highlight;
  readonly question?: Question;
  /** Offer the timings drawer, to set published figures beside the learner's own device (`stage.drawer: 'timings'` opens it). */
  readonly timings?: boolean;
  /** The picture this step needs on the stage, and the part of it to show. */
  readonly stage?: StageView;
}

/**
 * What a step puts on the stage: a panel by id (`warp-grid`, `shared-memory`, `dataflow` or a
 * lab panel's id such as `scan-insights`) and the window into it. The lab page resolves the
 * window against the trace (a range past the memory's end is clamped, a warp past the workgroup's
 * last is the last), so the named thing is on screen.
 */
export interface StageView {
  readonly panel: string;
  /** The workgroup to trace (for a picture of one workgroup's memory or warps). */
  readonly workgroup?: number;
  /** The warp and lane the grid focuses and the lane detail describes. */
  readonly warp?: number;
  readonly lane?: number;
  /** Words [from, to) of the main workgroup memory to show. */
  readonly words?: readonly [number, number];
  /**
   * A secondary panel the step needs: `timings` opens the timings drawer; `metrics` shows the
   * metrics beside the stage (every row, or the rows `figures` names), never in the drawer.
   */
  readonly drawer?: 'metrics' | 'timings';
  /**
   * Who gets the width: `code` (the default: the listing shows 60 columns and more at 1440×900)
   * or `picture` (the stage takes the listing's extra width; the current line still wraps whole).
   */
  readonly width?: 'code' | 'picture';
  /** The metric rows a question needs, shown with the stage: profiler names (`divergent_branch`) or a lab row's label. */
  readonly figures?: readonly string[];
}

export interface Highlight {
  readonly warps?: readonly number[];
  /** [warp, lane] pairs. */
  readonly lanes?: readonly (readonly [number, number])[];
  /** Word addresses in the main workgroup memory. */
  readonly words?: readonly number[];
  readonly code?: readonly string[];
  /**
   * The part of the picture the narration's "Look at" names, by the `data-subject` name its panel
   * gives it (`loads`: the merge table's global loads). The panel marks that part alone, so the
   * stage camera frames what the learner is told to look at.
   */
  readonly part?: string;
}

export interface Question {
  readonly prompt: string;
  /** The right answer, computed from the simulator's state at the step's moment. */
  readonly answer: (state: MomentState) => number;
  /** Why a wrong answer is wrong, pointing at what the view shows. */
  readonly explain: (state: MomentState, given: number) => string;
}

/** What a question can ask about: the trace at the step's moment. */
export interface MomentState {
  readonly trace: Trace;
  readonly index: TraceIndex;
  readonly step: number;
  /** Totals of the whole simulated dispatch. */
  readonly metrics: Metrics;
}

export interface Lesson {
  readonly id: string;
  /** Where the course takes it in the lesson index; any number, fractions welcome. */
  readonly courseOrder: number;
  readonly title: string;
  readonly summary: string;
  readonly steps: readonly LessonStep[];
}

/** A step as a lesson folder writes it: everything but the texts, which come from its catalog. */
export type StepSpec = Omit<LessonStep, 'title' | 'narrative' | 'lookAt' | 'question'> & {
  /** Without `explain`, a wrong answer is explained by the text `sk.explain`, which gets `{answer}` and `{given}`. */
  readonly question?: Pick<Question, 'answer'> & Partial<Pick<Question, 'explain'>>;
  /** What the step's texts fill in for their `{name}` placeholders. */
  readonly values?: MessageValues;
};

/**
 * A lesson whose texts live in its folder's message catalog under fixed keys: `title` and
 * `summary`, and for step k (from 1) `sk.title`, `sk.narrative`, `sk.lookAt` where the step has
 * a subject to point at, and `sk.prompt` where it asks a question (with `sk.explain` where the step
 * gives no explanation of its own: the text reads the right answer as `{answer}`, the learner's as
 * `{given}`, so the explanation cannot name another number than the check). Each text is read when a view
 * asks for it, so a change of language shows at once. A missing or left-over text throws here,
 * when the lesson loads, rather than showing a key to the learner.
 */
export function lessonFrom<T extends Record<string, string>>(
  m: Catalog<T>,
  spec: { readonly id: string; readonly courseOrder: number; readonly steps: readonly StepSpec[] },
): Lesson {
  /** The getter of message `key`, which must exist. */
  const text = (key: string, values?: MessageValues) => {
    if (!m.has(key)) throw new Error(`Lesson ${spec.id} has no text “${String(key)}”.`);
    return () => m(key, values);
  };
  /** The explanation of step `k`'s check from its text, filled with the right answer and the learner's. */
  const explainByText = (k: string, answer: Question['answer'], values?: MessageValues): Question['explain'] => {
    const key = `${k}.explain`;
    if (!m.has(key)) throw new Error(`Lesson ${spec.id}, step ${k.slice(1)}: the question has no text “${k}.explain” to explain a wrong answer.`);
    return (state, given) => m(key, { ...values, answer: answer(state), given });
  };
  const steps = spec.steps.map((step, i): LessonStep => {
    const k = `s${i + 1}`;
    const { question, values, ...rest } = step;
    const asks = m.has(`${k}.prompt`);
    if (asks !== (question !== undefined)) throw new Error(`Lesson ${spec.id}, step ${i + 1}: ${asks ? `“${k}.prompt” has no question` : `the question has no text “${k}.prompt”`}.`);
    const asked = question && withTexts(
      { answer: question.answer, explain: question.explain ?? explainByText(k, question.answer, values) },
      { prompt: text(`${k}.prompt`, values) },
    );
    const fields = { ...rest, ...(asked && { question: asked }) };
    const texts = { title: text(`${k}.title`, values), narrative: text(`${k}.narrative`, values) };
    return m.has(`${k}.lookAt`) ? withTexts(fields, { ...texts, lookAt: text(`${k}.lookAt`, values) }) : withTexts(fields, texts);
  });
  if (m.has(`s${steps.length + 1}.title`)) throw new Error(`Lesson ${spec.id} has texts for a step ${steps.length + 1} it does not have.`);
  return withTexts({ id: spec.id, courseOrder: spec.courseOrder, steps }, { title: text('title'), summary: text('summary') });
}

/**
 * The trace step a moment names; falls back to the nearest sensible step when it does not occur.
 * A lab moment needs the lab; an unknown one throws, naming it.
 */
export function resolveMoment(index: TraceIndex, moment: Moment, lab?: AnyLab): number {
  const last = Math.max(0, index.trace.stepCount - 1);
  switch (moment.kind) {
    case 'start':
      return 0;
    case 'end':
      return last;
    case 'after-barrier':
      return Math.min(last, endOfPhase(index, moment.n - 1));
    case 'divergence': {
      let s = -1;
      for (let k = 0; k < (moment.n ?? 1); k++) {
        const next = findForward(index, s, (t) => index.divergent[t] === 1);
        if (next < 0) break;
        s = next;
      }
      // One instruction on, so the split is visible in the warp grid.
      return s < 0 ? 0 : Math.min(last, nextOfSameWarp(index, s));
    }
    case 'bank-conflict': {
      const s = findForward(index, -1, (t) => index.wavefronts[t]! > 1);
      return s < 0 ? 0 : s;
    }
    case 'first-access': {
      const { trace } = index;
      const memory = memoryNamed(trace, moment.memory);
      const s = memory < 0 ? -1 : findForward(index, -1, (t) => trace.stepWarp[t] === moment.warp && trace.stepMemory[t] === memory);
      return s < 0 ? 0 : s;
    }
    case 'after': {
      const from = resolveMoment(index, moment.moment, lab);
      return Math.min(last, endOfPhase(index, barrierPhase(index, from) + moment.barriers - 1));
    }
    case 'lab': {
      const find = lab?.moments?.[moment.name];
      if (!find) throw new RangeError(`The ${lab?.id ?? 'unnamed'} lab defines no moment “${moment.name}”.`);
      return Math.min(last, Math.max(0, find(index, moment.arg)));
    }
  }
}

function nextOfSameWarp(index: TraceIndex, step: number): number {
  const warp = index.trace.stepWarp[step]!;
  const n = findForward(index, step, (t) => index.trace.stepWarp[t] === warp);
  return n < 0 ? step : n;
}

/** Warps whose lanes are split by a branch at `step`. */
export function divergentWarps(state: MomentState): number {
  return warpsAt(state.index, state.step).filter((w) => w.divergent).length;
}

/** Active lanes of the warp executing `step`. */
export function activeLanesNow(state: MomentState): number {
  const mw = state.trace.maskWords;
  let n = 0;
  for (let k = 0; k < mw; k++) {
    let x = state.trace.stepMask[state.step * mw + k]!;
    while (x) {
      x &= x - 1;
      n++;
    }
  }
  return n;
}

/** Barriers the workgroup has completed by `step`. */
export function barriersCompleted(state: MomentState): number {
  return barrierPhase(state.index, state.step);
}


/** The word `lane` of the current step's warp accesses (-1 when it makes no access at this step). */
export function addressOfLane(state: MomentState, lane: number): number {
  const { trace, step } = state;
  for (let r = trace.stepRecStart[step]!; r < trace.stepRecStart[step + 1]!; r++) if (trace.recLane[r] === lane) return trace.recAddr[r]!;
  return -1;
}
