import { useId, useMemo, useState, type CSSProperties, type RefObject } from 'react';
import { useStageRoom } from '../../../ui/widgets/useFrameWidth.ts';
import { fillSlots, SLOT } from '../../../i18n/slots.tsx';
import { useLocale } from '../../../i18n/useLocale.ts';
import type { PanelProps } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { isMatmulVariant, MATMUL_KERNELS, type MatmulShape } from '../kernel.ts';
import {
  globalLoadCounts,
  inRect,
  matmulMemories,
  nextTileRequest,
  stageAt,
  tileRequestAtOrBefore,
  windowAround,
  type MatrixWindow,
  type Rect,
} from '../queries.ts';
import './MatmulStage.css';

/** Elements per side the stage draws with their counts (a window that follows the tiles). */
const WINDOW = 16;

const rectText = (r: Rect | null) => (r ? m('stage.rect', { r0: r.r0, r1: r.r1 - 1, c0: r.c0, c1: r.c1 - 1 }) : m('stage.rect.none'));

/**
 * The matrix-multiply stage, all read from the trace through `../queries.ts`: A, B and C as grids
 * (a 16 × 16 window that follows the tiles), the traced workgroup's block of C, the A and B tiles
 * it loaded last, how many times each element has been loaded from global memory so far (a
 * heatmap that prints its counts), a question box for any element, and the banks of the latest
 * tile request.
 */
export function MatmulStage({ trace, index, step, variant, params, companions, seek }: PanelProps) {
  useLocale();
  const shape: MatmulShape = { m: Number(params.m), n: Number(params.n), k: Number(params.k) };
  const tile = Number(params.tile);
  const v = isMatmulVariant(variant.id) ? variant.id : 'naive';
  const mems = useMemo(() => matmulMemories(trace), [trace]);
  const stage = useMemo(() => stageAt(index, v, shape, tile, step), [index, v, shape.m, shape.n, shape.k, tile, step]); // eslint-disable-line react-hooks/exhaustive-deps
  const countsA = useMemo(() => globalLoadCounts(trace, mems.a, shape.m * shape.k, step), [trace, mems.a, shape.m, shape.k, step]);
  const countsB = useMemo(() => globalLoadCounts(trace, mems.b, shape.k * shape.n, step), [trace, mems.b, shape.k, shape.n, step]);
  const wholeTrace = companions[WHOLE_DISPATCH]?.result?.trace;
  const whole = useMemo(() => (wholeTrace ? wholeDispatchCounts(wholeTrace, shape) : undefined), [wholeTrace, shape.m, shape.n, shape.k]); // eslint-disable-line react-hooks/exhaustive-deps
  const tiled = MATMUL_KERNELS[v].depth(tile) > 0;
  const max = Math.max(1, ...countsA, ...countsB);

  const winA = windowAround(stage.aRect ?? { r0: stage.block.r0, r1: stage.block.r1, c0: 0, c1: 1 }, shape.m, shape.k, WINDOW);
  const winB = windowAround(stage.bRect ?? { r0: 0, r1: 1, c0: stage.block.c0, c1: stage.block.c1 }, shape.k, shape.n, WINDOW);
  const winC = windowAround(stage.block, shape.m, shape.n, WINDOW);
  const grids: GridProps[] = [
    { name: 'A', rows: shape.m, columns: shape.k, window: winA, counts: countsA, focus: stage.aRect, max },
    { name: 'B', rows: shape.k, columns: shape.n, window: winB, counts: countsB, focus: stage.bRect, max },
    { name: 'C', rows: shape.m, columns: shape.n, window: winC, counts: null, focus: stage.block, max },
  ];
  const [enlarged, setEnlarged] = useState<GridName>('A');
  const chosen = grids.find((g) => g.name === enlarged)!;
  // At a request to the tiles in workgroup memory, the step is about its banks: they are the subject.
  const request = useMemo(() => tileRequestAtOrBefore(index, step), [index, step]);
  const banksAreSubject = request?.step === step;
  const [gridsRef, fit] = useFitToStage<HTMLDivElement>(chosen.window.rows);

  return (
    <section className="panel matmul-stage" aria-labelledby="matmul-stage-title" data-testid="matmul-stage">
      <h2 id="matmul-stage-title">{m('ui.stage')}</h2>
      <p className="mm-sentence" data-testid="matmul-stage-sentence">
        {m(tiled ? 'stage.sentence.tiled' : 'stage.sentence.direct', {
          wg: stage.workgroup,
          block: rectText(stage.block),
          phase: stage.phase,
          a: rectText(stage.aRect),
          b: rectText(stage.bRect),
        })}
      </p>
      <p className="hint">
        {m('stage.hint.counts', { wg: stage.workgroup })} {m(tiled ? 'stage.hint.current.tiled' : 'stage.hint.current.direct')}
      </p>
      <div className={`mm-grids${fit ? ' fitted' : ''}`} ref={gridsRef} style={fit?.style}>
        {/* The camera: the three matrices as an overview (where the tiles lie), and the one chosen drawn large enough to read its counts. */}
        <div className="mm-overviews" role="group" aria-label={m('overview.label')}>
          {grids.map((g) => (
            <MatrixOverview key={g.name} {...g} subject={!banksAreSubject} chosen={enlarged === g.name} onChoose={() => setEnlarged(g.name)} side={fit?.overview ?? OVERVIEW} />
          ))}
        </div>
        <MatrixGrid {...chosen} subject={!banksAreSubject} />
      </div>
      <ElementQuestion shape={shape} countsA={countsA} countsB={countsB} workgroup={stage.workgroup} step={step} whole={whole} />
      <WholeDispatch shape={shape} whole={whole} state={companions[WHOLE_DISPATCH]?.state} />
      <BankView trace={trace} index={index} step={step} seek={seek} req={request} subject={banksAreSubject} />
    </section>
  );
}

type GridName = 'A' | 'B' | 'C';

interface GridProps {
  readonly name: GridName;
  /** The matrix's size. */
  readonly rows: number;
  readonly columns: number;
  /** The part drawn with counts. */
  readonly window: MatrixWindow;
  readonly counts: Int32Array | null;
  /** The current tile or block. */
  readonly focus: Rect | null;
  readonly max: number;
}

/** Side of an overview, in CSS pixels, for the matrix's longer side. */
const OVERVIEW = 60;

/**
 * A matrix at a glance: its outline, the window the large grid draws (dashed) and the current tile
 * (filled, double outline), to scale. Pressing it draws that matrix large.
 */
function MatrixOverview({ name, rows, columns, window: w, focus, subject, chosen, onChoose, side }: GridProps & { subject: boolean; chosen: boolean; onChoose: () => void; side: number }) {
  const scale = side / Math.max(rows, columns, 1);
  const width = Math.max(8, Math.round(columns * scale));
  const height = Math.max(8, Math.round(rows * scale));
  return (
    <button type="button" className={`mm-overview${chosen ? ' chosen' : ''}`} aria-pressed={chosen} onClick={onChoose} data-testid={`matmul-overview-${name}`}>
      <span className="mm-overview-name">
        {chosen ? '▶ ' : ''}
        {m('overview.name', { name, rows, cols: columns })}
      </span>
      <svg width={width + 4} height={height + 4} viewBox={`-2 -2 ${width + 4} ${height + 4}`} aria-hidden="true">
        <rect className="mm-ov-matrix" x={0} y={0} width={width} height={height} />
        <rect className="mm-ov-window" x={w.c0 * scale} y={w.r0 * scale} width={w.cols * scale} height={w.rows * scale} />
        {focus && (
          <rect
            className="mm-ov-tile"
            x={focus.c0 * scale}
            y={focus.r0 * scale}
            width={Math.max(2, (focus.c1 - focus.c0) * scale)}
            height={Math.max(2, (focus.r1 - focus.r0) * scale)}
            data-subject={subject ? 'tile' : undefined}
          />
        )}
      </svg>
    </button>
  );
}

/** What the grids are fitted to when the stage is too short for them at their own size. */
interface GridFit {
  readonly style: CSSProperties;
  /** The overviews' side, in CSS pixels. */
  readonly overview: number;
}

/** Row height and type of the large grid at their own size (CSS px), and the least that stays legible over it. */
const ROW = 19.5;
const FONT = 12.5;

/**
 * The camera for the grids: measures the height of the stage frame they are seen through (its body,
 * or a half in compare mode) and, where the large grid's header and rows or the three overviews
 * would not fit it at their own size (a 1280×720 screen), shrinks the rows to fit, keeping the
 * counts at the stage's smallest text (`--stage-min-text`) or more, so the whole tile is in view at
 * once. Projector mode sets its own large type and hides the overviews' pictures: nothing to fit.
 */
function useFitToStage<E extends HTMLElement>(rows: number): [RefObject<E | null>, GridFit | undefined] {
  const [ref, room] = useStageRoom<E>();
  if (!room || room.minText > FONT) return [ref, undefined];
  // The frame less the panel's padding; the header row and every row of the window.
  const usable = room.height - 5;
  const row = Math.floor(usable / (rows + 1));
  // Three overviews, 6 px apart, each its picture beside its name in a button (10 px of frame).
  const overview = Math.max(24, Math.min(OVERVIEW, Math.floor((usable - 12) / 3) - 14));
  if (row >= ROW && overview >= OVERVIEW) return [ref, undefined];
  // A row is its text and a 1 px rule at least.
  const fitRow = Math.max(Math.ceil(room.minText) + 1, Math.min(ROW, row));
  const font = Math.max(room.minText, Math.min(FONT, fitRow - 2));
  return [ref, { style: { '--mm-row': `${fitRow}px`, '--mm-font': `${font}px` } as CSSProperties, overview }];
}

function MatrixGrid({ name, rows: allRows, columns: allColumns, window: w, counts, focus, max, subject }: GridProps & { subject: boolean }) {
  const rows = Array.from({ length: w.rows }, (_, i) => w.r0 + i);
  const columns = Array.from({ length: w.cols }, (_, j) => w.c0 + j);
  return (
    <table className="mm-grid" data-testid={`matmul-grid-${name}`}>
      <caption>
        {m('grid.caption', { name, rows: allRows, cols: allColumns, r0: w.r0, r1: w.r0 + w.rows - 1, c0: w.c0, c1: w.c0 + w.cols - 1 })}
      </caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="sr-only">{m('grid.row')}</span>
          </th>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r}>
            <th scope="row">{r}</th>
            {columns.map((c) => {
              const here = inRect(focus, r, c);
              const count = counts ? counts[r * allColumns + c]! : undefined;
              const level = count === undefined ? 0 : Math.ceil((4 * count) / max);
              const edges = here && focus ? `${r === focus.r0 ? ' edge-t' : ''}${r === focus.r1 - 1 ? ' edge-b' : ''}${c === focus.c0 ? ' edge-l' : ''}${c === focus.c1 - 1 ? ' edge-r' : ''}` : '';
              return (
                <td
                  key={c}
                  className={`mm-cell heat-${level}${here ? ' current' : ''}${edges}`}
                  data-count={count}
                  data-current={here ? 'true' : undefined}
                  data-subject={here && subject ? 'tile' : undefined}
                  aria-label={here && count !== undefined ? `${count}, ${m('grid.current')}` : undefined}
                >
                  {count !== undefined ? count : here ? '▣' : ''}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The companion that traces every workgroup, for whole-dispatch counts (declared in `index.ts` for small multiplies). */
export const WHOLE_DISPATCH = 'whole-dispatch';
/** Multiplies up to this many multiply-adds get the whole-dispatch companion (its trace grows with every workgroup). */
export const WHOLE_DISPATCH_FMAS = 64 ** 3;

interface WholeCounts {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly workgroups: number;
}

function wholeDispatchCounts(trace: PanelProps['trace'], shape: MatmulShape): WholeCounts {
  const mems = matmulMemories(trace);
  const end = trace.stepCount - 1;
  return { a: globalLoadCounts(trace, mems.a, shape.m * shape.k, end), b: globalLoadCounts(trace, mems.b, shape.k * shape.n, end), workgroups: trace.workgroups.length };
}

const range = (x: Int32Array) => {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of x) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return lo === hi ? m('whole.each', { n: lo }) : m('whole.range', { lo, hi });
};

function WholeDispatch({ shape, whole, state }: { shape: MatmulShape; whole: WholeCounts | undefined; state: string | undefined }) {
  if (!whole) {
    return (
      <p className="hint" data-testid="matmul-whole">
        {state === 'running' ? m('whole.running') : m('whole.tooBig', { n: shape.m * shape.n * shape.k })}
      </p>
    );
  }
  return (
    <p data-testid="matmul-whole">
      {m('whole.counts', { workgroups: whole.workgroups, a: range(whole.a), b: range(whole.b) })}
    </p>
  );
}

function ElementQuestion(props: { shape: MatmulShape; countsA: Int32Array; countsB: Int32Array; workgroup: number; step: number; whole: WholeCounts | undefined }) {
  const { shape, countsA, countsB, workgroup, step, whole } = props;
  const id = useId();
  const [which, setWhich] = useState<'A' | 'B'>('A');
  // It opens on an element outside workgroup 0's block (row 20): the lesson asks about A[3][5], and
  // the box must not answer that before the learner has read the grid.
  const [row, setRow] = useState(() => Math.min(20, shape.m - 1));
  const [col, setCol] = useState(5);
  const rows = which === 'A' ? shape.m : shape.k;
  const cols = which === 'A' ? shape.k : shape.n;
  const ok = Number.isInteger(row) && Number.isInteger(col) && row >= 0 && row < rows && col >= 0 && col < cols;
  const count = ok ? (which === 'A' ? countsA : countsB)[row * cols + col]! : 0;
  return (
    <fieldset className="mm-question">
      <legend>{m('question.legend')}</legend>
      <label htmlFor={`${id}-m`}>{m('question.matrix')}</label>
      <select id={`${id}-m`} value={which} onChange={(e) => setWhich(e.target.value === 'B' ? 'B' : 'A')} data-testid="matmul-question-matrix">
        <option value="A">A</option>
        <option value="B">B</option>
      </select>
      <label htmlFor={`${id}-r`}>{m('question.row')}</label>
      <input id={`${id}-r`} type="number" min={0} max={rows - 1} value={row} onChange={(e) => setRow(Number(e.target.value))} data-testid="matmul-question-row" />
      <label htmlFor={`${id}-c`}>{m('question.column')}</label>
      <input id={`${id}-c`} type="number" min={0} max={cols - 1} value={col} onChange={(e) => setCol(Number(e.target.value))} data-testid="matmul-question-col" />
      <output aria-live="polite" data-testid="matmul-question-answer">
        {ok
          ? m('question.answer', { name: which, row, col, count, wg: workgroup, step }) +
            (whole ? ` ${m('question.whole', { count: (which === 'A' ? whole.a : whole.b)[row * cols + col]! })}` : '')
          : m('question.outside', { name: which, rows: rows - 1, cols: cols - 1 })}
      </output>
    </fieldset>
  );
}

function BankView({ trace, index, step, seek, req, subject }: Pick<PanelProps, 'trace' | 'index' | 'step' | 'seek'> & { req: ReturnType<typeof tileRequestAtOrBefore>; subject: boolean }) {
  const next = useMemo(() => nextTileRequest(index, req ? req.step : step), [index, req, step]);
  const nextButton = (
    <button type="button" onClick={() => next >= 0 && seek(next)} disabled={next < 0}>
      {m('banks.next')}
    </button>
  );
  if (!req) {
    return (
      <section className="mm-banks" data-testid="matmul-banks">
        <h3>{m('banks.title')}</h3>
        <p className="hint">{m(trace.memories.some((mem) => mem.space === 'workgroup') ? 'banks.none' : 'banks.none.direct')}</p>
        {next >= 0 && <div className="controls">{nextButton}</div>}
      </section>
    );
  }
  const banks = req.wordsPerBank;
  const worst = Math.max(...banks);
  return (
    <section className="mm-banks" data-testid="matmul-banks">
      <h3>{m('banks.title')}</h3>
      <p data-testid="matmul-banks-sentence">
        {fillSlots(
          m(req.wavefronts > 1 ? 'banks.sentence.conflict' : 'banks.sentence.clean', {
            step: req.step,
            kind: m(req.kind === 'load' ? 'banks.kind.load' : 'banks.kind.store'),
            tile: SLOT,
            lanes: req.lanes.length,
            wavefronts: req.wavefronts,
            worst,
          }),
          <code>{req.tile}</code>,
        )}
      </p>
      <ol className="mm-bank-row" aria-label={m('banks.label', { n: banks.length })}>
        {banks.map((w, b) => (
          <li key={b} className={`mm-bank${w > 1 ? ' conflict' : ''}${w === 0 ? ' idle' : ''}`} data-subject={subject && (w > 1 || (worst <= 1 && w > 0)) ? 'bank' : undefined}>
            <span className="mm-bank-id">{b}</span>
            <span className="mm-bank-words">{w > 1 ? `${w}×` : w === 1 ? '1' : '·'}</span>
          </li>
        ))}
      </ol>
      <div className="controls">
        <button type="button" onClick={() => seek(req.step)} disabled={req.step === step}>
          {m('banks.go')}
        </button>
        {nextButton}
      </div>
    </section>
  );
}
