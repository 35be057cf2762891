import { useId } from 'react';
import { m } from '../messages.ts';
import { usePrefersReducedMotion } from '../../../ui/widgets/motion.ts';

/** How a node is drawn; the shape, not only the colour, says what the write did. */
export type GraphShape = 'load' | 'add' | 'copy' | 'clear';

export interface GraphNode {
  readonly key: number;
  readonly column: number;
  readonly row: number;
  readonly value: number;
  readonly shape: GraphShape;
}

/**
 * `solid`: an operand of an addition; `dashed`: a copy (the left child takes the parent's value);
 * `dotted`: the left child's old value carried to the right child (drawn as an arc with an arrow).
 */
export type EdgeStyle = 'solid' | 'dashed' | 'dotted';

export interface GraphEdge {
  readonly key: string;
  readonly from: { readonly column: number; readonly row: number; readonly value: number };
  readonly to: { readonly column: number; readonly row: number };
  readonly style: EdgeStyle;
}

interface Props {
  readonly label: string;
  readonly rows: number;
  /** Name of each row (left) and what it did (right, e.g. "256 adds"). */
  readonly rowNames: readonly string[];
  readonly rowNotes: readonly string[];
  readonly currentRow: number;
  /** Whether the current row is the step's subject (`data-subject`); not when a step names another part of the stage. */
  readonly subject?: boolean;
  /** 'up': row 0 at the bottom (a tree growing to its root); 'down': row 0 on top. */
  readonly direction: 'up' | 'down';
  /** Columns shown, [first, last). */
  readonly window: readonly [number, number];
  /** The frame's width in CSS pixels: a picture without values (more than 32 columns) spreads over it. */
  readonly frameWidth?: number | undefined;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** The row names' and the ghost column's widths for the text size drawn (`graphMargins`). */
  readonly margins?: GraphMargins | undefined;
}

const NODE_W = 50;
const NODE_H = 30;
const COL_W = 56;
const ROW_H = 66;
const LEFT = 92; // row names
const RIGHT = 96; // row notes
const GHOST = 64; // the column for sources outside the window
const TOP = 30;
/** Narrowest column of a picture without values (more than 32 columns). */
const SMALL_COL_W = 2;

/** The widths of the row names' column and of the ghost column, in drawing units. */
export interface GraphMargins {
  readonly left: number;
  readonly ghost: number;
}

/**
 * The row names' column wide enough for the longest name (with the current row's "▶ ", bold) and
 * the ghost column for a "#504", at the text size the graph is drawn with (`font`: 16, the
 * projector's 28), so a name never runs into the ghost column. A CJK character is one em wide,
 * others 0.62 (the monospace face).
 */
export function graphMargins(font: number, rowNames: readonly string[]): GraphMargins {
  const ems = (text: string) => [...text].reduce((w, ch) => w + (ch.codePointAt(0)! >= 0x2e80 ? 1 : 0.62), 0);
  const longest = Math.max(0, ...rowNames.map(ems)) + 1.7;
  return { left: Math.max(LEFT, Math.ceil(longest * font * 1.06) + 14), ghost: Math.max(GHOST, Math.ceil(font * 0.62 * 4) + 22) };
}

/**
 * The stage camera's arithmetic for the graph: how many of `count` columns fit a frame `width`
 * CSS pixels wide at the graph's natural size (values drawn at 16 px), the names, ghost column and
 * notes included. At least 2.
 */
export function columnsThatFit(count: number, width: number, margins: GraphMargins = { left: LEFT, ghost: GHOST }): number {
  const plot = width - margins.left - margins.ghost - RIGHT - 4;
  const per = count > 32 ? SMALL_COL_W : COL_W;
  return Math.max(2, Math.min(count, Math.floor(plot / per)));
}

function fmt(v: number): string {
  if (Number.isInteger(v)) return Math.abs(v) >= 1e5 ? v.toExponential(1) : String(v);
  return Math.abs(v) >= 1000 || Math.abs(v) < 0.01 ? v.toExponential(1) : v.toFixed(1);
}

function Shape({ shape, x, y, small }: { shape: GraphShape; x: number; y: number; small: boolean }) {
  const w = small ? 8 : NODE_W;
  const h = small ? 8 : NODE_H;
  switch (shape) {
    case 'add':
      return <ellipse cx={x} cy={y} rx={w / 2} ry={h / 2} />;
    case 'clear':
      return <polygon points={`${x - w / 2 - 4},${y} ${x},${y - h / 2 - 4} ${x + w / 2 + 4},${y} ${x},${y + h / 2 + 4}`} />;
    case 'copy':
    case 'load':
      return <rect x={x - w / 2} y={y - h / 2} width={w} height={h} rx={shape === 'load' ? 0 : 3} />;
  }
}

/**
 * A layered picture of writes to workgroup memory: one row per tree level or network step, one
 * column per element. Drawn at its natural size (text stays 16 px) inside a horizontal scroller.
 * Sources outside the shown columns appear in a ghost column on the left, named by their column.
 */
export function ScanGraph({ label, rows, rowNames, rowNotes, currentRow, subject = true, direction, window, frameWidth, nodes, edges, margins = { left: LEFT, ghost: GHOST } }: Props) {
  const { left: namesW, ghost: ghostW } = margins;
  const reduced = usePrefersReducedMotion();
  const arrowId = `arrow-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [lo, hi] = window;
  const count = Math.max(1, hi - lo);
  const small = count > 32;
  const colW = small ? Math.max(SMALL_COL_W, Math.floor((frameWidth !== undefined ? frameWidth - namesW - ghostW - RIGHT - 4 : 900) / count)) : COL_W;
  const plotLeft = namesW + ghostW;
  const width = plotLeft + count * colW + RIGHT;
  const height = TOP + rows * ROW_H;
  const inWindow = (c: number) => c >= lo && c < hi;
  const x = (c: number) => (inWindow(c) ? plotLeft + (c - lo + 0.5) * colW : namesW + ghostW / 2);
  const y = (r: number) => TOP + (direction === 'up' ? rows - 1 - r : r) * ROW_H + ROW_H / 2 - 6;
  const appear = reduced ? '' : ' sg-appear';

  // Ghost nodes: sources outside the window, one per (column, row).
  const ghosts = new Map<string, { column: number; row: number }>();
  for (const e of edges) if (!inWindow(e.from.column)) ghosts.set(`${e.from.column}:${e.from.row}`, e.from);
  const ghostRows = new Map<number, number[]>();
  for (const g of ghosts.values()) ghostRows.set(g.row, [...(ghostRows.get(g.row) ?? []), g.column]);

  return (
    <div className="svg-scroll" tabIndex={0} role="region" aria-label={m('ui.scrolls', { label })}>
      <svg className="scan-graph" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <defs>
          <marker id={arrowId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className="sg-arrow" />
          </marker>
        </defs>
        {currentRow >= 0 && currentRow < rows && <rect className="sg-band" x={4} y={y(currentRow) - ROW_H / 2 + 4} width={width - 8} height={ROW_H - 8} rx={8} />}
        <g className="sg-rows">
          {Array.from({ length: rows }, (_, r) => (
            <g key={r} className={r === currentRow ? 'sg-row current' : 'sg-row'}>
              <text x={8} y={y(r) + 6} data-subject={subject && r === currentRow ? 'level' : undefined}>
                {r === currentRow ? '▶ ' : ''}
                {rowNames[r]}
              </text>
              <text x={width - RIGHT + 10} y={y(r) + 6}>
                {rowNotes[r]}
              </text>
            </g>
          ))}
        </g>
        <line className="sg-divider" x1={plotLeft - 4} x2={plotLeft - 4} y1={TOP / 2} y2={height - 8} />
        <g className="sg-edges">
          {edges.map((e) => {
            const x1 = x(e.from.column);
            const y1 = y(e.from.row);
            const x2 = x(e.to.column);
            const y2 = y(e.to.row);
            const cls = `sg-edge ${e.style}${e.to.row === currentRow ? ' current' : ''}${appear}`;
            if (e.style === 'dotted') {
              // The old value travels along the row, under the nodes, to the right child.
              const dip = NODE_H / 2 + 14;
              const mid = (x1 + x2) / 2;
              return (
                <g key={e.key}>
                  <path className={cls} d={`M ${x1} ${y1 + NODE_H / 2} Q ${mid} ${y1 + dip + 10} ${x2 - 4} ${y2 + NODE_H / 2 + 2}`} markerEnd={`url(#${arrowId})`} />
                  {!small && (
                    <text className="sg-old" x={mid} y={y1 + dip + 14} textAnchor="middle">
                      +{fmt(e.from.value)}
                    </text>
                  )}
                </g>
              );
            }
            const from = direction === 'up' ? 1 : -1; // leave the source on the side facing the target
            return (
              <line
                key={e.key}
                className={cls}
                x1={x1}
                y1={y1 - (from * NODE_H) / 2}
                x2={x2}
                y2={y2 + (from * (small ? 4 : NODE_H)) / 2}
                markerEnd={`url(#${arrowId})`}
              />
            );
          })}
        </g>
        <g className="sg-ghosts">
          {[...ghostRows].map(([row, cols]) => (
            <g key={row} className="sg-node ghost">
              <rect x={namesW + 4} y={y(row) - NODE_H / 2} width={ghostW - 12} height={NODE_H} rx={3} />
              <text x={namesW + ghostW / 2 - 2} y={y(row) + 6} textAnchor="middle">
                {cols.length === 1 ? `#${cols[0]}` : `${cols.length}×`}
              </text>
              <title>{m('ui.ghost', { n: cols.length, cols: `${cols.slice(0, 8).join(', ')}${cols.length > 8 ? ', …' : ''}` })}</title>
            </g>
          ))}
        </g>
        <g className="sg-nodes">
          {nodes.map((n) => (
            <g key={n.key} className={`sg-node ${n.shape}${n.row === currentRow ? ' current' : ''}${appear}`} data-subject={subject && n.row === currentRow ? 'node' : undefined}>
              <Shape shape={n.shape} x={x(n.column)} y={y(n.row)} small={small} />
              {!small && (
                <text x={x(n.column)} y={y(n.row) + 6} textAnchor="middle">
                  {fmt(n.value)}
                </text>
              )}
              <title>{`column ${n.column}, ${n.shape}: ${fmt(n.value)}`}</title>
            </g>
          ))}
        </g>
        {!small && (
          <g className="sg-columns">
            {Array.from({ length: count }, (_, k) => (
              <text key={k} x={plotLeft + (k + 0.5) * colW} y={20} textAnchor="middle" className="sg-column">
                {lo + k}
              </text>
            ))}
          </g>
        )}
      </svg>
    </div>
  );
}
