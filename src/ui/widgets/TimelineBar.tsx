import { useId, useMemo } from 'react';
import { SPEEDS } from '../../workbench/session.ts';
import { t } from '../../i18n/messages.ts';
import { MoreMenu } from './MoreMenu.tsx';
import type { TraceIndex } from '../../trace/index.ts';

/** A branch splitting in two: the divergence symbol used across the app. */
export function ForkIcon() {
  return (
    <svg className="icon" viewBox="0 0 16 16" aria-hidden="true">
      <path d="M8 15V8M8 8L3 2M8 8l5-6" />
    </svg>
  );
}

export interface TimelineActions {
  readonly togglePlay: () => void;
  readonly first: () => void;
  readonly last: () => void;
  readonly stepBack: () => void;
  readonly stepForward: () => void;
  readonly statementBack: () => void;
  readonly statementForward: () => void;
  readonly barrierBack: () => void;
  readonly barrierForward: () => void;
  readonly nextDivergence: () => void;
  readonly nextConflict: () => void;
  readonly seek: (step: number) => void;
  readonly slower: () => void;
  readonly faster: () => void;
}

/** Stepping by tree level, offered when the stage shows a dataflow tree. */
export interface LevelActions {
  readonly back: (() => void) | undefined;
  readonly forward: (() => void) | undefined;
}

interface Props {
  readonly step: number;
  readonly stepCount: number;
  readonly playing: boolean;
  readonly speedIndex: number;
  /** A phrase for the current step, e.g. "warp 3 · line 42 · store.shared". */
  readonly describe: string;
  readonly actions: TimelineActions;
  /** The trace's index, for the phase marks on the scrubber. */
  readonly index?: TraceIndex | undefined;
  readonly levels?: LevelActions | undefined;
  /** A short screen: one row, the barrier, level and jump buttons behind a disclosure ("Jump to"). */
  readonly folded?: boolean;
}

/** Marks along the scrubber, bucketed to at most `BUCKETS` positions so a long trace stays cheap. */
const BUCKETS = 400;

export interface PhaseMarks {
  readonly barriers: number[];
  readonly divergences: number[];
  readonly conflicts: number[];
}

/** Where barriers, divergent branches and bank conflicts happen, as positions 0…1 along the trace. */
export function phaseMarks(index: TraceIndex): PhaseMarks {
  const n = index.trace.stepCount;
  if (n === 0) return { barriers: [], divergences: [], conflicts: [] };
  const at = (s: number) => Math.round((s / Math.max(1, n - 1)) * BUCKETS);
  const collect = (test: (s: number) => boolean) => {
    const seen = new Set<number>();
    for (let s = 0; s < n; s++) if (test(s)) seen.add(at(s));
    return [...seen].sort((a, b) => a - b).map((b) => b / BUCKETS);
  };
  // A barrier is one step per warp; the workgroup's barrier is where the last warp arrives, but
  // at this resolution the first arrival marks the same place.
  const barriers = new Set<number>();
  for (const s of index.barrierSteps) barriers.add(at(s));
  return {
    barriers: [...barriers].sort((a, b) => a - b).map((b) => b / BUCKETS),
    divergences: collect((s) => index.divergent[s] === 1),
    conflicts: collect((s) => index.wavefronts[s]! > 1),
  };
}

function Marks({ index }: { index: TraceIndex }) {
  const marks = useMemo(() => phaseMarks(index), [index]);
  return (
    <svg className="phase-marks" viewBox="0 0 1000 30" preserveAspectRatio="none" aria-hidden="true" data-testid="phase-marks">
      {marks.barriers.map((p) => (
        <rect key={`b${p}`} className="mark-barrier" x={p * 1000 - 1.5} y={0} width={3} height={30} />
      ))}
      {marks.divergences.map((p) => (
        <rect key={`d${p}`} className="mark-divergence" x={p * 1000 - 2.5} y={0} width={5} height={12} />
      ))}
      {marks.conflicts.map((p) => (
        <rect key={`c${p}`} className="mark-conflict" x={p * 1000 - 2.5} y={18} width={5} height={12} />
      ))}
    </svg>
  );
}

/** Play, step (by instruction, statement, barrier or tree level), scrub and jump; every control has a key. */
export function TimelineBar({ step, stepCount, playing, speedIndex, describe, actions, index, levels, folded = false }: Props) {
  const scrubId = useId();
  const empty = stepCount === 0;
  return (
    <section className={folded ? 'panel timeline folded' : 'panel timeline'} aria-label={t('timeline.label')} data-testid="timeline">
      <div className="timeline-row">
        <button type="button" onClick={actions.togglePlay} disabled={empty} aria-keyshortcuts="Space" data-testid="play">
          {playing ? t('timeline.pause') : t('timeline.play')}
        </button>
        <div className="scrub-track">
          <label htmlFor={scrubId} className="step-counter" data-testid="step-counter">
            {t('timeline.counter', { step: empty ? 0 : step + 1, count: stepCount })}
          </label>
          <div className="scrub-rail">
            {index && <Marks index={index} />}
            <input
              id={scrubId}
              type="range"
              className="scrubber"
              min={0}
              max={Math.max(0, stepCount - 1)}
              value={step}
              disabled={empty}
              onChange={(e) => actions.seek(Number(e.target.value))}
              aria-valuetext={t('timeline.valuetext', { step: step + 1, count: stepCount, describe })}
              data-testid="scrubber"
            />
          </div>
        </div>
        <div className="button-group" role="group" aria-label={t('timeline.group.speed')}>
          <button type="button" onClick={actions.slower} disabled={speedIndex === 0} aria-keyshortcuts="-" title={`${t('timeline.slower')} (−)`}>
            −<span className="sr-only">{t('timeline.slower')}</span>
          </button>
          <span className="speed" aria-live="off">
            {t('timeline.speed', { speed: SPEEDS[speedIndex]! })}
          </span>
          <button type="button" onClick={actions.faster} disabled={speedIndex === SPEEDS.length - 1} aria-keyshortcuts="+" title={`${t('timeline.faster')} (+)`}>
            +<span className="sr-only">{t('timeline.faster')}</span>
          </button>
        </div>
      </div>
      <div className="timeline-row">
        <div className="button-group" role="group" aria-label={t('timeline.group.instr')}>
          <button type="button" onClick={actions.first} disabled={empty} aria-keyshortcuts="Home" title={`${t('timeline.first')} (Home)`}>
            |◀<span className="sr-only">{t('timeline.first')}</span>
          </button>
          <button type="button" onClick={actions.stepBack} disabled={empty} aria-keyshortcuts="," title="(,)" data-testid="step-back">
            {t('timeline.instrBack')}
          </button>
          <button type="button" onClick={actions.stepForward} disabled={empty} aria-keyshortcuts="." title="(.)" data-testid="step-forward">
            {t('timeline.instrForward')}
          </button>
          <button type="button" onClick={actions.last} disabled={empty} aria-keyshortcuts="End" title={`${t('timeline.last')} (End)`}>
            ▶|<span className="sr-only">{t('timeline.last')}</span>
          </button>
        </div>
        <div className="button-group" role="group" aria-label={t('timeline.group.stmt')}>
          <button type="button" onClick={actions.statementBack} disabled={empty} aria-keyshortcuts="Shift+S" title="(Shift+S)">
            {t('timeline.stmtBack')}
          </button>
          <button type="button" onClick={actions.statementForward} disabled={empty} aria-keyshortcuts="S" title="(S)" data-testid="statement-forward">
            {t('timeline.stmtForward')}
          </button>
        </div>
        <MoreMenu folded={folded} className="timeline-more" testId="timeline-more" label={t('timeline.more')}>
          <div className="button-group" role="group" aria-label={t('timeline.group.barrier')}>
            <button type="button" onClick={actions.barrierBack} disabled={empty} aria-keyshortcuts="[" title="([)">
              <span className="mark-key mark-key-barrier" aria-hidden="true" />
              {t('timeline.barrierBack')}
            </button>
            <button type="button" onClick={actions.barrierForward} disabled={empty} aria-keyshortcuts="]" title="(])" data-testid="barrier-forward">
              {t('timeline.barrierForward')}
            </button>
          </div>
          {levels && (
            <div className="button-group" role="group" aria-label={t('timeline.group.level')}>
              <button type="button" onClick={levels.back} disabled={!levels.back} data-testid="level-back">
                {t('timeline.levelBack')}
              </button>
              <button type="button" onClick={levels.forward} disabled={!levels.forward} data-testid="level-forward">
                {t('timeline.levelForward')}
              </button>
            </div>
          )}
          <div className="button-group" role="group" aria-label={t('timeline.group.jump')}>
            <button type="button" onClick={actions.nextDivergence} disabled={empty} aria-keyshortcuts="D" title="(D)" data-testid="next-divergence">
              <span className="mark-key mark-key-divergence" aria-hidden="true" />
              <ForkIcon /> {t('timeline.nextDivergence')} ▶
            </button>
            <button type="button" onClick={actions.nextConflict} disabled={empty} aria-keyshortcuts="C" title="(C)" data-testid="next-conflict">
              <span className="mark-key mark-key-conflict" aria-hidden="true" />⚠ {t('timeline.nextConflict')} ▶
            </button>
          </div>
        </MoreMenu>
      </div>
      <p className="step-description" data-testid="step-description">
        {describe}
      </p>
    </section>
  );
}
