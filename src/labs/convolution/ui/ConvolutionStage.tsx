import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { PanelProps } from '../../../workbench/panel.ts';
import { isConvolutionVariant } from '../kernel.ts';
import { cellKey, convolutionPicture, type Cell } from '../trace.ts';
import './ConvolutionStage.css';
import { m } from '../messages.ts';

const CELL = 14;
const INV = 14;

/** Grey shades for read counts, darkest for the most reads (the readout gives the number). */
const shade = (reads: number, most: number) => (reads === 0 ? 'transparent' : `hsl(220 15% ${Math.round(85 - (60 * reads) / Math.max(1, most))}%)`);

/**
 * The convolution lab's stage, read from the trace of one workgroup: its part of the input plane
 * with the output tile (thick border), the halo ring (dashes), ghost cells (crosses), a shade for
 * how many outputs read each cell, and cells not loaded yet at this step drawn faint; below, the
 * workgroup's invocations with those idle in the compute phase hatched. Arrow keys move a cursor
 * over the plane; the readout says what the trace knows about that cell, and its loader is ringed.
 */
export function ConvolutionStage({ trace, step, params, variant }: PanelProps) {
  const titleId = useId();
  const hatchId = 'conv-idle-hatch';
  const [width, height, maskWidth, outTile] = [Number(params.width), Number(params.height), Number(params.maskWidth), Number(params.outTile)];
  const v = isConvolutionVariant(variant.id) ? variant.id : 'basic2d';
  const pic = useMemo(() => convolutionPicture(trace, v, { width, height, maskWidth, outTile }), [trace, v, width, height, maskWidth, outTile]);
  const [r0, r1] = pic.rows;
  const [c0, c1] = pic.cols;
  const rows = r1 - r0 + 1;
  const cols = c1 - c0 + 1;
  const [cursor, setCursor] = useState<Cell>({ row: Math.max(r0, 0), col: Math.max(c0, 0) });
  const at: Cell = { row: Math.min(r1, Math.max(r0, cursor.row)), col: Math.min(c1, Math.max(c0, cursor.col)) };
  const most = Math.max(1, ...pic.reads.values());
  const key = cellKey(at);
  const loader = pic.loadedBy.get(key);
  const loadedStep = pic.loadedAt.get(key);
  const wgX = trace.workgroupSize[0] > 1 && trace.workgroupSize[1] > 1 ? trace.workgroupSize[0] : 32;
  const idle = new Set(pic.idle);

  const roleOf = (k: string) => (pic.outputs.has(k) ? m('ui.role.output') : pic.ghosts.has(k) ? m('ui.role.ghost') : pic.halo.has(k) ? m('ui.role.halo') : m('ui.role.unused'));
  const invocationText = (i: number) => m('ui.invocation', { i, x: i % wgX, y: Math.floor(i / wgX), warp: Math.floor(i / trace.warpSize), lane: i % trace.warpSize });
  const readout = [
    m('ui.cell', { row: at.row, col: at.col, role: roleOf(key) }),
    loader === undefined ? m('ui.notLoaded') : m('ui.loadedBy', { when: loadedStep !== undefined && loadedStep > step ? m('ui.willBeLoaded') : m('ui.loaded'), who: invocationText(loader), at: loadedStep !== undefined ? m('ui.atStep', { step: loadedStep }) : '' }),
    m('ui.reads', { n: pic.reads.get(key) ?? 0 }),
  ].join(' ');

  const onKey = (e: KeyboardEvent) => {
    const d: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const delta = d[e.key];
    if (!delta) return;
    e.preventDefault();
    e.stopPropagation(); // the arrows move the cursor here, not the timeline
    setCursor({ row: Math.min(r1, Math.max(r0, at.row + delta[0])), col: Math.min(c1, Math.max(c0, at.col + delta[1])) });
  };

  const cells = [];
  for (let row = r0; row <= r1; row++) {
    for (let col = c0; col <= c1; col++) {
      const k = cellKey({ row, col });
      const x = (col - c0) * CELL;
      const y = (row - r0) * CELL;
      const pending = (pic.loadedAt.get(k) ?? -1) > step;
      cells.push(<rect key={`c${k}`} className={pending ? 'conv-cell pending' : 'conv-cell'} x={x} y={y} width={CELL} height={CELL} fill={shade(pic.reads.get(k) ?? 0, most)} />);
      if (pic.ghosts.has(k)) cells.push(<path key={`g${k}`} className="conv-role-ghost" d={`M${x + 3} ${y + 3}L${x + CELL - 3} ${y + CELL - 3}M${x + CELL - 3} ${y + 3}L${x + 3} ${y + CELL - 3}`} />);
      else if (pic.halo.has(k)) cells.push(<rect key={`h${k}`} className="conv-role-halo" x={x + 2} y={y + 2} width={CELL - 4} height={CELL - 4} />);
      if (pic.outputs.has(k)) cells.push(<rect key={`o${k}`} className="conv-role-output" x={x + 1.5} y={y + 1.5} width={CELL - 3} height={CELL - 3} />);
    }
  }
  const invRows = Math.ceil(pic.invocations / wgX);

  return (
    <section className="panel conv-stage" aria-labelledby={titleId} data-testid="convolution-stage" data-idle={pic.idle.length} data-outputs={pic.outputs.size} data-ghosts={pic.ghosts.size} data-halo={pic.halo.size}>
      <div className="panel-head">
        <h2 id={titleId}>{m('ui.heading', { wg: trace.workgroups[0] ?? 0 })}</h2>
      </div>
      <ul className="conv-key" aria-label={m('ui.key')}>
        <li><svg viewBox="0 0 14 14" aria-hidden="true"><rect className="conv-role-output" x="1.5" y="1.5" width="11" height="11" /></svg> {m('ui.key.output')}</li>
        <li><svg viewBox="0 0 14 14" aria-hidden="true"><rect className="conv-role-halo" x="2" y="2" width="10" height="10" /></svg> {m('ui.key.halo')}</li>
        <li><svg viewBox="0 0 14 14" aria-hidden="true"><path className="conv-role-ghost" d="M3 3L11 11M11 3L3 11" /></svg> {m('ui.key.ghost')}</li>
        <li>{m('ui.key.shade', { most })}</li>
      </ul>
      <div className="conv-plane-wrap" tabIndex={0} role="group" aria-label={m('ui.plane', { r0, r1, c0, c1 })} onKeyDown={onKey} data-testid="convolution-plane">
        <svg className="conv-plane" viewBox={`0 0 ${cols * CELL} ${rows * CELL}`} width={cols * CELL} height={rows * CELL} aria-hidden="true">
          {cells}
          <rect className="conv-cursor" x={(at.col - c0) * CELL} y={(at.row - r0) * CELL} width={CELL} height={CELL} />
        </svg>
      </div>
      <p className="conv-readout" aria-live="polite" data-testid="convolution-readout">
        {readout}
      </p>
      <p className="hint">
        {m('ui.topLeft', { r0, c0 })} {v === 'conv1d' ? m('ui.wrapped') : ''}
      </p>
      <h3>{m('ui.invocations', { idle: pic.idle.length, all: pic.invocations })}</h3>
      <svg className="conv-invocations" viewBox={`0 0 ${wgX * INV} ${invRows * INV}`} width={wgX * INV} height={invRows * INV} role="img" aria-label={m('ui.invocationsLabel', { all: pic.invocations, wgX, idle: pic.idle.length })} data-testid="convolution-invocations">
        <defs>
          <pattern id={hatchId} width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="4" stroke="var(--muted)" strokeWidth="2" />
          </pattern>
        </defs>
        {Array.from({ length: pic.invocations }, (_, i) => (
          <rect key={i} className={idle.has(i) ? 'conv-inv idle' : 'conv-inv busy'} x={(i % wgX) * INV} y={Math.floor(i / wgX) * INV} width={INV} height={INV} />
        ))}
        {loader !== undefined && <rect className="conv-loader" x={(loader % wgX) * INV} y={Math.floor(loader / wgX) * INV} width={INV} height={INV} />}
      </svg>
      <p className="hint">{m('ui.invocationsHint')}</p>
      <dl className="conv-summary">
        <dt>{m('ui.sum.outputs')}</dt>
        <dd>{pic.outputs.size}</dd>
        <dt>{m('ui.sum.halo')}</dt>
        <dd>{pic.halo.size}</dd>
        <dt>{m('ui.sum.ghosts')}</dt>
        <dd>{pic.ghosts.size}</dd>
        <dt>{m('ui.sum.loads')}</dt>
        <dd data-testid="convolution-loads">{pic.globalLoads}</dd>
      </dl>
    </section>
  );
}
