import { useEffect, useId, useMemo, useRef, useState } from 'react';
import * as d3 from 'd3';
import type { Trace } from '../sim/index.ts';
import { dataflowTree, levelAt, levelShape } from '../trace/memory.ts';

interface Props {
  readonly trace: Trace;
  readonly memory: number;
  readonly step: number;
  /** The panel's heading: what the lab calls its dataflow (a reduction tree, a scan's sweeps…). */
  readonly title: string;
  /** Words [from, to) a lesson step asks to see. */
  readonly words?: readonly [number, number] | undefined;
}

const WINDOWS = [32, 64, 128, 256, 1024] as const;

/** A sentence describing which words a level writes: the tree's shape in words. */
export function describeLevel(addrs: readonly number[], stride: number | undefined): string {
  if (addrs.length === 0) return '';
  const head = addrs.slice(0, 4).join(', ');
  const list = addrs.length > 4 ? `${head}, … ${addrs[addrs.length - 1]}` : head;
  if (stride === 1) return `words ${list}: contiguous, so whole warps work or rest together.`;
  if (stride !== undefined) return `words ${list}: every ${stride}th word, so the working lanes are scattered across warps.`;
  return `words ${list}.`;
}

/**
 * The dataflow tree of workgroup memory, recovered from the trace's read→write provenance (not
 * drawn by hand): each node is a write, placed at its word (x) and its depth (y); edges run from
 * the writes it read. Nodes appear as the timeline reaches them; the current level is ringed.
 */
export function DataflowTreeView({ trace, memory, step, title }: Props) {
  const titleId = useId();
  const selectId = useId();
  const svgRef = useRef<SVGSVGElement>(null);
  const tree = useMemo(() => dataflowTree(trace, memory), [trace, memory]);
  const words = trace.memories[memory]?.words ?? 0;
  const [window, setWindow] = useState<number>(() => WINDOWS.find((w) => w >= Math.min(words, 64)) ?? 64);
  const current = levelAt(tree, step);
  const shape = current >= 1 ? levelShape(tree, current) : undefined;
  const width = 1000;
  const height = Math.max(120, 40 + tree.levels * 56);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const shown = Math.min(window, words);
    const x = d3.scaleLinear().domain([-0.5, shown - 0.5]).range([40, width - 20]);
    const y = d3.scaleLinear().domain([0, Math.max(1, tree.levels - 1)]).range([height - 24, 24]);
    const visible = tree.nodes.filter((n) => n.step <= step && n.addr < shown);
    const root = d3.select(svg);
    const edges = visible.flatMap((n) =>
      n.sources
        .map((s) => tree.nodes[s]!)
        .filter((s) => s.addr < shown)
        .map((s) => ({ id: `${s.record}-${n.record}`, x1: x(s.addr), y1: y(s.level), x2: x(n.addr), y2: y(n.level), current: n.level === current })),
    );
    root
      .select<SVGGElement>('g.edges')
      .selectAll<SVGLineElement, (typeof edges)[number]>('line')
      .data(edges, (d) => d.id)
      .join('line')
      .attr('x1', (d) => d.x1)
      .attr('y1', (d) => d.y1)
      .attr('x2', (d) => d.x2)
      .attr('y2', (d) => d.y2)
      .attr('class', (d) => (d.current ? 'edge current' : 'edge'));
    root
      .select<SVGGElement>('g.nodes')
      .selectAll<SVGCircleElement, (typeof visible)[number]>('circle')
      .data(visible, (d) => d.record)
      .join('circle')
      .attr('cx', (d) => x(d.addr))
      .attr('cy', (d) => y(d.level))
      .attr('r', (d) => (d.level === current ? 6 : 4))
      .attr('class', (d) => (d.level === current ? 'node current' : d.level === 0 ? 'node leaf' : 'node'));
    root
      .select<SVGGElement>('g.levels')
      .selectAll<SVGTextElement, number>('text')
      .data(d3.range(tree.levels))
      .join('text')
      .attr('x', 0)
      .attr('y', (l) => y(l) + 4)
      .attr('class', (l) => (l === current ? 'level-label current' : 'level-label'))
      .text((l) => (l === current ? `▶${l}` : String(l)));
  }, [tree, step, window, words, current, height]);

  const nodeCount = tree.nodes.filter((n) => n.step <= step).length;
  return (
    <section className="panel tree-view" aria-labelledby={titleId} data-testid="dataflow-tree" data-level={current} data-stride={shape?.stride ?? ''}>
      <div className="panel-head">
        <h2 id={titleId}>{title} (from the trace)</h2>
        {words > 0 && (
          <>
            <label htmlFor={selectId}>Words shown</label>
            <select id={selectId} value={window} onChange={(e) => setWindow(Number(e.target.value))}>
              {WINDOWS.filter((w) => w < words * 2).map((w) => (
                <option key={w} value={w}>
                  first {Math.min(w, words)}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
      <p className="summary-line" data-testid="tree-caption" aria-live="polite">
        {tree.nodes.length === 0
          ? 'This variant does not combine values in workgroup memory, so there is no tree to recover here.'
          : current < 1
            ? `Level 0: the values loaded into ${trace.memories[memory]?.name ?? 'workgroup memory'}. ${nodeCount} writes so far.`
            : `Level ${current} writes ${describeLevel(shape?.addrs ?? [], shape?.stride)}`}
      </p>
      <svg ref={svgRef} className="tree-svg" style={tree.nodes.length === 0 ? { display: 'none' } : undefined} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
        <g className="edges" />
        <g className="nodes" />
        <g className="levels" />
      </svg>
    </section>
  );
}
