import { useId, useMemo } from 'react';
import type { PanelProps } from '../../../workbench/panel.ts';
import { isSpmvVariant, type SpmvVariant } from '../kernel.ts';
import { INPUT_SEED } from '../../../workbench/lab.ts';
import { matrixOf, spmvInputs, type SpmvParams } from '../index.ts';
import { toDense, type Ell } from '../formats.ts';
import { allFormats, cellOfWord, DRAWN_LIMIT, FORMAT_OF, type AllFormats } from '../stage.ts';
import { atomicLaneOps, iterationStrip, nextGather, previousGather, sectorsPerRequest, touchesAt, type LaneTouch } from '../trace.ts';
import './SpmvStage.css';
import { m } from '../messages.ts';

const key = (row: number, col: number) => `${row}/${col}`;

/** Lanes by word address of one array of the current step. */
type Lanes = ReadonlyMap<number, readonly number[]>;

const laneText = (lanes: readonly number[] | undefined) => (lanes && lanes.length ? m('ui.lanes', { n: lanes.length, lanes: lanes.join(', ') }) : '');

/** One storage array as a row of cells; `lanes` marks the words the current step touches. */
function ArrayRow({ name, data, lanes, padded, split }: { name: string; data: ArrayLike<number>; lanes?: Lanes | undefined; padded?: (i: number) => boolean; split?: number }) {
  return (
    <tr>
      <th scope="row" className="spmv-array-name">
        {/* The kernel's buffer name (values, col_index, perm): code, the same in every language. */}
        <code>{name}</code>
      </th>
      {Array.from({ length: data.length }, (_, i) => {
        const l = lanes?.get(i);
        const pad = padded?.(i) ?? false;
        const cls = ['spmv-cell', pad ? 'pad' : '', l ? 'touched' : '', split !== undefined && i === split ? 'split' : ''].filter(Boolean).join(' ');
        return (
          <td key={i} className={cls} data-subject={l ? 'word' : undefined} title={m('ui.cellTitle', { name, i, pad: pad ? m('ui.padding') : '', lanes: l ? `: ${laneText(l)}` : '' })}>
            <span className="spmv-word">{pad ? '·' : data[i]}</span>
            {l && <span className="spmv-lanes">L{l.join(',')}</span>}
          </td>
        );
      })}
    </tr>
  );
}

function Format({ title, active, children, testId }: { title: string; active: boolean; children: React.ReactNode; testId: string }) {
  return (
    // It scrolls sideways when the matrix is wide: focusable, so the keyboard can scroll it too.
    <figure className={active ? 'spmv-format active' : 'spmv-format'} data-testid={testId} data-active={active} tabIndex={0}>
      <figcaption>
        {title}
        {active ? m('ui.readByVariant') : ''}
      </figcaption>
      <table className="spmv-arrays">
        <tbody>{children}</tbody>
      </table>
    </figure>
  );
}

function EllRows({ ell, prefix, lanesOf }: { ell: Ell; prefix: [string, string]; lanesOf: (name: string) => Lanes | undefined }) {
  const pad = (i: number) => !ell.filled[i];
  return (
    <>
      <ArrayRow name={prefix[0]} data={ell.values} lanes={lanesOf(prefix[0])} padded={pad} />
      <ArrayRow name={prefix[1]} data={ell.colIndex} lanes={lanesOf(prefix[1])} padded={pad} />
    </>
  );
}

/**
 * The SpMV stage: the matrix drawn dense and in every format's arrays, the words the current
 * step's lanes touch in the variant's own arrays and in x, the warp's per-iteration strip of
 * active and idle lanes, and the format's request counts, all read from the trace.
 */
export function SpmvStage({ trace, step, params, variant, seek }: PanelProps) {
  const titleId = useId();
  const v: SpmvVariant = isSpmvVariant(variant.id) ? variant.id : 'csr-scalar';
  const p = params as unknown as SpmvParams;
  const { a, x } = useMemo(() => matrixOf(spmvInputs(p, INPUT_SEED)), [p.kind, p.rows]); // eslint-disable-line react-hooks/exhaustive-deps
  const drawn = a.rows <= DRAWN_LIMIT && a.cols <= DRAWN_LIMIT;
  const formats: AllFormats | undefined = useMemo(() => (drawn ? allFormats(a) : undefined), [a, drawn]);
  const dense = useMemo(() => (drawn ? toDense(a) : undefined), [a, drawn]);

  const now = touchesAt(trace, step);
  const lanesByWord = new Map<number, number[]>();
  for (const t of now.touches) lanesByWord.set(t.addr, [...(lanesByWord.get(t.addr) ?? []), t.lane]);
  const lanesOf = (name: string): Lanes | undefined => (name === now.name ? lanesByWord : undefined);
  // Matrix cells the current lanes read, through the variant's storage.
  const cellLanes = new Map<string, number[]>();
  if (formats) {
    for (const t of now.touches) {
      const c = cellOfWord(formats, v, now.name, t.addr);
      if (c && c.col >= 0) cellLanes.set(key(c.row, c.col), [...(cellLanes.get(key(c.row, c.col)) ?? []), t.lane]);
    }
  }
  const padLanes = formats ? now.touches.filter((t) => cellOfWord(formats, v, now.name, t.addr)?.col === -1).map((t) => t.lane) : [];
  const warp = now.warp >= 0 ? now.warp : 0;
  const strip = useMemo(() => iterationStrip(trace, warp), [trace, warp]);
  const counts = useMemo(
    () => ({ values: sectorsPerRequest(trace, 'values'), indices: sectorsPerRequest(trace, 'indices'), x: sectorsPerRequest(trace, 'x'), atomics: atomicLaneOps(trace) }),
    [trace],
  );
  const prev = previousGather(trace, step);
  const next = nextGather(trace, step + 1);
  const firstIdle = strip.find((i) => i.idle > 0);
  const fmt = FORMAT_OF[v];

  const describe = (touches: readonly LaneTouch[]) => {
    if (!now.name) return m('ui.noAccess', { step, warp });
    const words = [...new Set(touches.map((t) => t.addr))];
    const shown = words.slice(0, 8).join(', ') + (words.length > 8 ? ', …' : '');
    return m('ui.access', { step, warp, n: touches.length, op: now.role === 'y' ? m('ui.write') : m('ui.read'), name: now.own, words: shown, pad: padLanes.length ? m('ui.padLanes', { n: padLanes.length }) : '' });
  };

  return (
    <section className="panel spmv-stage" aria-labelledby={titleId} data-testid="spmv-stage">
      <div className="panel-head">
        <h2 id={titleId}>{m('ui.heading', { wg: trace.workgroups[0] ?? 0 })}</h2>
      </div>
      <p className="spmv-now" aria-live="polite" data-testid="spmv-now" data-array={now.name} data-lanes={now.touches.length}>
        {describe(now.touches)}
      </p>
      <div className="spmv-jumps" role="group" aria-label={m('ui.jump')}>
        <button type="button" disabled={prev < 0} onClick={() => seek(prev)}>
          {m('ui.prev')}
        </button>
        <button type="button" disabled={next < 0} onClick={() => seek(next)} data-testid="spmv-next-gather">
          {m('ui.next')}
        </button>
        <button type="button" disabled={!firstIdle} onClick={() => firstIdle && seek(firstIdle.step)}>
          {m('ui.firstIdle')}
        </button>
      </div>

      <h3>{m('ui.stripHeading', { warp })}</h3>
      {strip.length === 0 ? (
        <p className="hint">{m('ui.noGather', { warp })}</p>
      ) : (
        <ol className="spmv-strip" data-testid="spmv-strip" aria-label={m('ui.strip', { warp })}>
          {strip.map((it, i) => (
            <li key={it.step}>
              <button type="button" className={it.step === step ? 'current' : undefined} aria-current={it.step === step ? 'step' : undefined} data-subject={it.step === step ? 'lanes' : undefined} onClick={() => seek(it.step)} data-active={it.active} data-idle={it.idle}>
                <span className="spmv-strip-label">{m('ui.iteration', { n: i + 1 })}</span>
                <span className="spmv-bar" aria-hidden="true">
                  {'■'.repeat(Math.min(it.active, 32))}
                  {'□'.repeat(Math.min(it.idle, 32))}
                </span>
                <span className="spmv-strip-count">
                  {m('ui.activeIdle', { active: it.active, idle: it.idle })}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}

      {drawn && formats && dense ? (
        <>
          <h3>{m('ui.matrixAndX')}</h3>
          <div className="spmv-side">
            <table className="spmv-dense" data-testid="spmv-dense">
              <caption className="sr-only">{m('ui.denseCaption')}</caption>
              <tbody>
                {Array.from({ length: a.rows }, (_, r) => (
                  <tr key={r}>
                    <th scope="row">{r}</th>
                    {Array.from({ length: a.cols }, (_, c) => {
                      const value = dense[r * a.cols + c]!;
                      const l = cellLanes.get(key(r, c));
                      return (
                        <td key={c} className={['spmv-cell', value === 0 ? 'zero' : '', l ? 'touched' : ''].filter(Boolean).join(' ')} title={m('ui.denseTitle', { r, c, value, lanes: l ? `, ${laneText(l)}` : '' })}>
                          <span className="spmv-word">{value === 0 ? '' : value}</span>
                          {l && <span className="spmv-lanes">L{l.join(',')}</span>}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="spmv-arrays" data-testid="spmv-x">
              <caption className="sr-only">{m('ui.xCaption')}</caption>
              <tbody>
                <ArrayRow name="x" data={x} lanes={lanesOf('x')} />
              </tbody>
            </table>
          </div>

          <h3>{m('ui.formats')}</h3>
          <ul className="spmv-key" aria-label={m('ui.key')}>
            <li>
              <span className="spmv-cell touched spmv-sample">L3</span> {m('ui.key.touched')}
            </li>
            <li>
              <span className="spmv-cell pad spmv-sample">·</span> {m('ui.key.pad')}
            </li>
            <li>
              <span className="spmv-cell split spmv-sample"> </span> {m('ui.key.split')}
            </li>
          </ul>
          <div className="spmv-formats">
            <Format title="CSR" active={fmt === 'csr'} testId="spmv-csr">
              <ArrayRow name="row_ptr" data={a.rowPtr} lanes={fmt === 'csr' ? lanesOf('row_ptr') : undefined} />
              <ArrayRow name="col_index" data={a.colIndex} lanes={fmt === 'csr' ? lanesOf('col_index') : undefined} />
              <ArrayRow name="values" data={a.values} lanes={fmt === 'csr' ? lanesOf('values') : undefined} />
            </Format>
            <Format title={m('ui.ell', { width: formats.ell.width })} active={fmt === 'ell'} testId="spmv-ell">
              <EllRows ell={formats.ell} prefix={['values', 'col_index']} lanesOf={(n) => (fmt === 'ell' ? lanesOf(n) : undefined)} />
            </Format>
            <Format title={m('ui.coo')} active={fmt === 'coo'} testId="spmv-coo">
              <ArrayRow name="row_index" data={formats.coo.rowIndex} lanes={fmt === 'coo' ? lanesOf('row_index') : undefined} />
              <ArrayRow name="col_index" data={formats.coo.colIndex} lanes={fmt === 'coo' ? lanesOf('col_index') : undefined} />
              <ArrayRow name="values" data={formats.coo.values} lanes={fmt === 'coo' ? lanesOf('values') : undefined} />
            </Format>
            <Format title={m('ui.hybrid', { width: formats.hybrid.ell.width, coo: formats.hybrid.coo.values.length })} active={fmt === 'hybrid'} testId="spmv-hybrid">
              <EllRows ell={formats.hybrid.ell} prefix={['ell_val', 'ell_col']} lanesOf={(n) => (fmt === 'hybrid' ? lanesOf(n) : undefined)} />
              <ArrayRow name="coo_row" data={formats.hybrid.coo.rowIndex} lanes={fmt === 'hybrid' ? lanesOf('coo_row') : undefined} split={0} />
              <ArrayRow name="coo_col" data={formats.hybrid.coo.colIndex} lanes={fmt === 'hybrid' ? lanesOf('coo_col') : undefined} split={0} />
              <ArrayRow name="coo_val" data={formats.hybrid.coo.values} lanes={fmt === 'hybrid' ? lanesOf('coo_val') : undefined} split={0} />
            </Format>
            <Format title={m('ui.jds')} active={fmt === 'jds'} testId="spmv-jds">
              <ArrayRow name="perm" data={formats.jds.perm} lanes={fmt === 'jds' ? lanesOf('perm') : undefined} />
              <ArrayRow name="row_ptr" data={formats.jds.rowPtr} lanes={fmt === 'jds' ? lanesOf('row_ptr') : undefined} />
              <ArrayRow name="col_index" data={formats.jds.colIndex} lanes={fmt === 'jds' ? lanesOf('col_index') : undefined} />
              <ArrayRow name="values" data={formats.jds.values} lanes={fmt === 'jds' ? lanesOf('values') : undefined} />
            </Format>
            <Format title={m('ui.sell', { pieces: formats.sell.pieces, slices: formats.sell.start.length - 1 })} active={fmt === 'sell'} testId="spmv-sell">
              <ArrayRow name="start" data={formats.sell.start} lanes={fmt === 'sell' ? lanesOf('start') : undefined} />
              <ArrayRow name="val" data={formats.sell.val.subarray(0, formats.sell.start.at(-1))} lanes={fmt === 'sell' ? lanesOf('val') : undefined} padded={(i) => cellOfWord(formats, 'sell', 'val', i)?.col === -1} />
              <ArrayRow name="col" data={formats.sell.col.subarray(0, formats.sell.start.at(-1))} lanes={fmt === 'sell' ? lanesOf('col') : undefined} padded={(i) => cellOfWord(formats, 'sell', 'col', i)?.col === -1} />
              <ArrayRow name="owner" data={Array.from(formats.sell.target.subarray(0, formats.sell.pieces), (t) => t & 0x7fffffff)} lanes={fmt === 'sell' ? lanesOf('owner') : undefined} />
            </Format>
          </div>
        </>
      ) : (
        <p className="hint">
          {m('ui.tooBig', { max: DRAWN_LIMIT, rows: a.rows.toLocaleString('en') })}
        </p>
      )}

      <h3>{m('ui.requests', { wg: trace.workgroups[0] ?? 0 })}</h3>
      <dl className="spmv-summary" data-testid="spmv-summary">
        <dt>{m('ui.sum.values')}</dt>
        <dd data-testid="spmv-sectors-values">
          {m('ui.sum.requests', { per: counts.values.perRequest.toFixed(2), n: counts.values.requests })}
        </dd>
        <dt>{m('ui.sum.indices')}</dt>
        <dd>
          {m('ui.sum.requests', { per: counts.indices.perRequest.toFixed(2), n: counts.indices.requests })}
        </dd>
        <dt>{m('ui.sum.x')}</dt>
        <dd>
          {m('ui.sum.requests', { per: counts.x.perRequest.toFixed(2), n: counts.x.requests })}
        </dd>
        <dt>{m('ui.sum.atomics')}</dt>
        {/* At an atomic add to y, the count of tries is what the step is about. */}
        <dd data-testid="spmv-atomics" data-subject={now.role === 'y' && counts.atomics > 0 ? 'atomics' : undefined}>
          {counts.atomics}
        </dd>
      </dl>
    </section>
  );
}
