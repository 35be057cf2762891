import { useId } from 'react';
import { SPEEDS } from '../app/session.ts';

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

interface Props {
  readonly step: number;
  readonly stepCount: number;
  readonly playing: boolean;
  readonly speedIndex: number;
  /** A phrase for the current step, e.g. "warp 3 · line 42 · store.shared". */
  readonly describe: string;
  readonly actions: TimelineActions;
}

/** Play, step (by instruction, statement or barrier), scrub and jump; every control has a key. */
export function TimelineBar({ step, stepCount, playing, speedIndex, describe, actions }: Props) {
  const scrubId = useId();
  const empty = stepCount === 0;
  return (
    <section className="panel timeline" aria-label="Timeline" data-testid="timeline">
      <div className="timeline-row">
        <button type="button" onClick={actions.togglePlay} disabled={empty} aria-keyshortcuts="Space" data-testid="play">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <div className="button-group" role="group" aria-label="Step by warp instruction">
          <button type="button" onClick={actions.first} disabled={empty} aria-keyshortcuts="Home" title="First step (Home)">
            |◀<span className="sr-only">First step</span>
          </button>
          <button type="button" onClick={actions.stepBack} disabled={empty} aria-keyshortcuts="," title="Previous instruction (,)" data-testid="step-back">
            ◀ Instr
          </button>
          <button type="button" onClick={actions.stepForward} disabled={empty} aria-keyshortcuts="." title="Next instruction (.)" data-testid="step-forward">
            Instr ▶
          </button>
          <button type="button" onClick={actions.last} disabled={empty} aria-keyshortcuts="End" title="Last step (End)">
            ▶|<span className="sr-only">Last step</span>
          </button>
        </div>
        <div className="button-group" role="group" aria-label="Step by statement">
          <button type="button" onClick={actions.statementBack} disabled={empty} aria-keyshortcuts="Shift+S" title="Previous statement (Shift+S)">
            ◀ Stmt
          </button>
          <button type="button" onClick={actions.statementForward} disabled={empty} aria-keyshortcuts="S" title="Next statement (S)" data-testid="statement-forward">
            Stmt ▶
          </button>
        </div>
        <div className="button-group" role="group" aria-label="Step from barrier to barrier">
          <button type="button" onClick={actions.barrierBack} disabled={empty} aria-keyshortcuts="[" title="Previous barrier ([)">
            ◀ Barrier
          </button>
          <button type="button" onClick={actions.barrierForward} disabled={empty} aria-keyshortcuts="]" title="Next barrier (])" data-testid="barrier-forward">
            Barrier ▶
          </button>
        </div>
        <div className="button-group" role="group" aria-label="Jump">
          <button type="button" onClick={actions.nextDivergence} disabled={empty} aria-keyshortcuts="D" title="Next divergent branch (D)" data-testid="next-divergence">
            <ForkIcon /> Next divergence
          </button>
          <button type="button" onClick={actions.nextConflict} disabled={empty} aria-keyshortcuts="C" title="Next bank conflict (C)" data-testid="next-conflict">
            ⚠ Next conflict
          </button>
        </div>
        <div className="button-group" role="group" aria-label="Speed">
          <button type="button" onClick={actions.slower} disabled={speedIndex === 0} aria-keyshortcuts="-" title="Slower (−)">
            −<span className="sr-only">Slower</span>
          </button>
          <span className="speed" aria-live="off">
            {SPEEDS[speedIndex]} steps/s
          </span>
          <button type="button" onClick={actions.faster} disabled={speedIndex === SPEEDS.length - 1} aria-keyshortcuts="+" title="Faster (+)">
            +<span className="sr-only">Faster</span>
          </button>
        </div>
      </div>
      <div className="timeline-row">
        <label htmlFor={scrubId} className="step-counter" data-testid="step-counter">
          Step {empty ? 0 : step + 1} / {stepCount}
        </label>
        <input
          id={scrubId}
          type="range"
          className="scrubber"
          min={0}
          max={Math.max(0, stepCount - 1)}
          value={step}
          disabled={empty}
          onChange={(e) => actions.seek(Number(e.target.value))}
          aria-valuetext={`Step ${step + 1} of ${stepCount}: ${describe}`}
          data-testid="scrubber"
        />
      </div>
      <p className="step-description" data-testid="step-description">
        {describe}
      </p>
    </section>
  );
}
