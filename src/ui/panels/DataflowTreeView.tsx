import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { motion } from 'motion/react';
import { t } from '../../i18n/messages.ts';
import type { Trace } from '../../sim/index.ts';
import { dataflowTree } from '../../trace/memory.ts';
import { ui } from '../../i18n/ui.ts';
import { fillSlots, SLOT } from '../../i18n/slots.tsx';
import { describeWrites, levelFacts, splitTree } from '../../trace/treeLayout.ts';
import { usePrefersReducedMotion } from '../widgets/motion.ts';
import { createZoomController, type ZoomController } from '../widgets/zoomController.ts';
import { useMeasured } from '../widgets/useMeasured.ts';
import { useStageRoom } from '../widgets/useFrameWidth.ts';

interface Props {
  readonly trace: Trace;
  readonly memory: number;
  readonly step: number;
  /** The panel's heading: what the lab calls its dataflow (a reduction tree, a scan's sweeps…). */
  readonly title: string;
  /** Words [from, to) a lesson step asks to see. */
  readonly words?: readonly [number, number] | undefined;
}

/** Words shown when nobody asked for a range: enough to read values, few enough to fit. */
const DEFAULT_SPAN = 32;

const formatValue = (v: number): string => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));

/** Trees with more writes than this draw only the words in view. */
const DRAW_WHOLE_UP_TO = 2000;

/**
 * The dataflow tree of workgroup memory, recovered from the trace's read→write provenance (not
 * drawn by hand): each node is a write with its value, placed at its word (x) and its level (y);
 * edges run from the writes it read, all of them, whatever part of the words is in view. Every
 * word of the memory is laid out; the view zooms and pans over them (wheel, drag, or the buttons).
 * A scan's up-sweep and down-sweep are drawn as two trees. The current level is emphasised and the
 * step's writes travel along their edges (at once under reduced motion).
 */
export function DataflowTreeView({ trace, memory, step, title, words: asked }: Props) {
  const titleId = useId();
  const svgRef = useRef<SVGSVGElement>(null);
  const zoomRef = useRef<ZoomController | undefined>(undefined);
  const reduced = usePrefersReducedMotion();
  const tree = useMemo(() => dataflowTree(trace, memory), [trace, memory]);
  const split = useMemo(() => splitTree(tree), [tree]);
  const wordCount = trace.memories[memory]?.words ?? 0;
  // The stage frame the tree is seen through, and the tree's own box under its caption: measured
  // by the shared hooks (on mount, on a resize of either, when web fonts load).
  const [sectionRef, room] = useStageRoom<HTMLElement>();
  const [wrapRef, box] = useMeasured<HTMLDivElement, { readonly width: number; readonly avail: number; readonly font: number }>(
    (wrap) => {
      // The height left on the stage under the caption: the rows share it.
      const body = wrap.closest<HTMLElement>('.stage-body, .stage-half');
      const svg = wrap.querySelector('svg');
      return {
        width: wrap.clientWidth,
        avail: body ? body.clientHeight - (wrap.getBoundingClientRect().top - body.getBoundingClientRect().top) - 4 : 0,
        font: parseFloat(getComputedStyle(svg ?? wrap).fontSize) || 14,
      };
    },
    { deps: [room?.height, room?.width] },
  );
  const width = box?.width ?? 0;
  const font = box?.font ?? 14;
  const avail = box?.avail ?? 0;
  // As many words as leave room for a value in each node (and at most DEFAULT_SPAN).
  const fitting = width > 0 ? Math.max(4, Math.floor((width - font * 6.5) / (font * 0.62 * 4 + 8))) : DEFAULT_SPAN;
  const initial = useMemo<[number, number]>(() => {
    if (asked) return [Math.max(0, asked[0]), Math.min(wordCount, Math.max(asked[1], asked[0] + 1))];
    return [0, Math.min(wordCount, DEFAULT_SPAN, fitting)];
  }, [asked, wordCount, fitting]);
  const [range, setRange] = useState<[number, number]>(initial);


  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || width === 0 || wordCount === 0) return;
    const controller = createZoomController(svg, { words: wordCount, minSpan: Math.min(4, wordCount), width, onChange: (lo, hi) => setRange([lo, hi]) });
    zoomRef.current = controller;
    controller.show(initial[0], initial[1]);
    return () => {
      controller.dispose();
      zoomRef.current = undefined;
    };
    // The controller lives as long as the words and the width; a new range request re-shows.
  }, [wordCount, width, initial]);

  const gutter = font * 5.5;
  const [lo, hi] = range;
  const span = Math.max(1e-9, hi - lo);
  const cell = (width - gutter - font) / span;
  const xOf = (addr: number) => gutter + (addr + 0.5 - lo) * cell;
  const partGap = font * 2.2;
  const totalRows = split.parts.reduce((sum, p) => sum + p.levels, 0);
  const chrome = font * 3.8 + (split.parts.length > 1 ? split.parts.length * partGap : 0);
  const rowH = Math.max(font * 1.3, Math.min(font * 3.4, avail > 0 && totalRows > 0 ? (avail - chrome) / totalRows : font * 3.4));

  // Rows: the first tree with its leaves at the bottom, a later tree (a down-sweep) root first.
  const layout = useMemo(() => {
    const tops: number[] = [];
    let y = font * 1.4;
    split.parts.forEach((p, i) => {
      if (split.parts.length > 1) y += partGap;
      tops[i] = y;
      y += p.levels * rowH;
    });
    return { tops, height: y + font * 2.4 };
  }, [split, rowH, font, partGap]);
  const yOf = (part: number, level: number) => {
    const p = split.parts[part]!;
    const row = part === 0 ? p.levels - 1 - level : level;
    return layout.tops[part]! + row * rowH + rowH / 2;
  };

  // Where the timeline is: the newest write so far names the current tree and level.
  let latest = -1;
  for (let i = 0; i < tree.nodes.length; i++) if (tree.nodes[i]!.step <= step) latest = i;
  const curPart = latest >= 0 ? split.part[latest]! : -1;
  const curLevel = latest >= 0 ? split.level[latest]! : -1;
  const levelNodes = useMemo(
    () => (latest < 0 ? [] : tree.nodes.map((_, i) => i).filter((i) => split.part[i] === curPart && split.level[i] === curLevel && tree.nodes[i]!.step <= step)),
    [tree, split, latest, curPart, curLevel, step],
  );
  const facts = useMemo(() => levelFacts(trace, tree, levelNodes), [trace, tree, levelNodes]);

  // The camera follows the subject, the level being written: when none of its nodes is in the
  // words shown, pan (at the same zoom) to its first node. The learner's own pans stand until then.
  const shownRange = useRef(range);
  useEffect(() => {
    shownRange.current = range;
  });
  useEffect(() => {
    if (levelNodes.length === 0) return;
    const [from, to] = shownRange.current;
    const addrs = levelNodes.map((i) => tree.nodes[i]!.addr);
    if (addrs.some((a) => a >= from && a + 1 <= to)) return;
    const first = Math.min(...addrs);
    zoomRef.current?.show(first, first + (to - from));
  }, [levelNodes, tree]);
  const partName = (p: number) => (split.parts.length === 2 ? (p === 0 ? ui('tree.upSweep') : ui('tree.downSweep')) : split.parts.length > 2 ? ui('tree.part', { n: p + 1, count: split.parts.length }) : '');
  const codeName = trace.memories[memory]?.name;
  const memoryName = codeName ?? ui('tree.memoryFallback');

  const written = tree.nodes.filter((n) => n.step <= step).length;
  // The buffer's name is the kernel's own identifier: the caption shows it as code.
  const captionWith = (name: string) =>
    tree.nodes.length === 0
      ? ui('tree.noTree')
      : latest < 0
        ? ui('tree.nothingYet', { name, n: wordCount })
        : curLevel === 0 && curPart === 0
          ? ui('tree.level0', { name, n: written })
          : partName(curPart)
            ? ui('tree.partLevel', { part: partName(curPart), level: curLevel, writes: describeWrites(facts, trace.warpSize) })
            : ui('tree.level', { level: curLevel, writes: describeWrites(facts, trace.warpSize) });
  const caption = captionWith(memoryName);
  const captionShown = codeName === undefined ? caption : fillSlots(captionWith(SLOT), <code>{codeName}</code>);

  // Text goes where it fits: a value needs its digits, a word index its own.
  const valueFits = cell >= font * 0.62 * 4 + 6;
  const indexFits = cell >= font * 0.62 * String(wordCount).length + 4;
  const inView = (addr: number) => addr >= Math.floor(lo) - 1 && addr <= Math.ceil(hi);
  // A word's column lies whole inside the drawing (the clip starts half a font left of the gutter):
  // only then are its index and values written, so no number is cut at the frame's edge (a
  // zoomed range ends mid-column).
  const whole = (addr: number) => xOf(addr) - cell / 2 >= gutter - font * 0.5 - 0.5 && xOf(addr) + cell / 2 <= width + 0.5;
  const r = Math.max(3, Math.min(cell * 0.3, font * 0.45));
  const clipId = `${titleId}-clip`.replace(/:/g, '');

  // A long trace's tree has tens of thousands of writes (top-k's has 34 061, and drawing them all
  // froze the page for half a minute): then only the words in view are drawn, and edges need one end
  // in view. A tree of a few thousand is drawn whole, so it reads (and exports) as one picture.
  const cull = tree.nodes.length > DRAW_WHOLE_UP_TO;
  const nodes = tree.nodes.map((n, i) => ({ n, i, part: split.part[i]!, level: split.level[i]! })).filter((d) => d.n.step <= step && (!cull || inView(d.n.addr)));
  const drawn = new Set(nodes.map((d) => d.i));
  const edges = tree.nodes.flatMap((n, i) =>
    n.step > step ? [] : n.sources.filter((s) => drawn.has(i) || drawn.has(s)).map((s) => ({ from: s, to: i, fresh: n.step === step, current: split.part[i] === curPart && split.level[i] === curLevel })),
  );
  const leafRow = split.parts.length > 0 ? yOf(0, 0) : font * 2;

  return (
    <section ref={sectionRef} className="panel tree-view" aria-labelledby={titleId} data-testid="dataflow-tree" data-level={curLevel} data-part={curPart} data-stride={facts.stride ?? ''}>
      <div className="panel-head">
        <h2 id={titleId}>{ui('tree.fromTrace', { title })}</h2>
        <div className="button-group" role="group" aria-label={t('tree.zoom')}>
          <button type="button" onClick={() => zoomRef.current?.zoomBy(0.5)} data-testid="tree-zoom-out">
            {t('tree.zoomOut')}
          </button>
          <button type="button" onClick={() => zoomRef.current?.zoomBy(2)} data-testid="tree-zoom-in">
            {t('tree.zoomIn')}
          </button>
          <button type="button" onClick={() => zoomRef.current?.fit()} data-testid="tree-fit">
            {t('tree.fit', { n: wordCount })}
          </button>
        </div>
      </div>
      <p className="summary-line" data-testid="tree-caption" aria-live="polite">
        {captionShown}
      </p>
      <p className="tree-range hint" data-testid="tree-range">
        {t('tree.range', { lo: Math.max(0, Math.ceil(lo - 0.5)), hi: Math.min(wordCount, Math.floor(hi + 0.5)) - 1, n: wordCount })}
      </p>
      <div ref={wrapRef} className="tree-wrap">
        <svg
          ref={svgRef}
          className="tree-svg"
          width={width}
          height={layout.height}
          role="img"
          aria-label={`${title}: ${caption}`}
          data-testid="tree-svg"
        >
          <defs>
            <clipPath id={clipId}>
              <rect x={gutter - font * 0.5} y={0} width={Math.max(0, width - gutter + font * 0.5)} height={layout.height} />
            </clipPath>
          </defs>
          {split.parts.map((p, pi) =>
            Array.from({ length: p.levels }, (_, l) => (
              <g key={`${pi}-${l}`} className={pi === curPart && l === curLevel ? 'level-row current' : 'level-row'}>
                <rect className="level-band" x={0} y={yOf(pi, l) - rowH / 2} width={width} height={rowH} />
                <text className={pi === curPart && l === curLevel ? 'level-label current' : 'level-label'} x={4} y={yOf(pi, l) + font * 0.35} data-subject={pi === curPart && l === curLevel ? 'level' : undefined}>
                  {pi === curPart && l === curLevel ? '▶ ' : ''}L{l}
                </text>
              </g>
            )),
          )}
          {split.parts.length > 1 &&
            split.parts.map((_, pi) => (
              <text key={`title-${pi}`} className="part-title" x={4} y={layout.tops[pi]! - font * 0.5}>
                {partName(pi)}
              </text>
            ))}
          <g clipPath={`url(#${clipId})`}>
            {/* Every word of the memory, as a slot under the first tree: present before any write. */}
            <g className="word-slots">
              {Array.from({ length: wordCount }, (_, a) => a)
                .filter(inView)
                .map((a) => (
                  <g key={a}>
                    <rect className="word-slot" x={xOf(a) - cell / 2 + 1} y={leafRow - rowH / 2 + 2} width={Math.max(1, cell - 2)} height={rowH - 4} />
                    {indexFits && whole(a) && (
                      <text className="word-index" x={xOf(a)} y={layout.height - font * 0.6} textAnchor="middle">
                        {a}
                      </text>
                    )}
                  </g>
                ))}
            </g>
            <g className="edges">
              {edges.map((e) => {
                const a = tree.nodes[e.from]!;
                const b = tree.nodes[e.to]!;
                return (
                  <line
                    key={`${e.from}-${e.to}`}
                    className={e.current ? 'edge current' : 'edge'}
                    x1={xOf(a.addr)}
                    y1={yOf(split.part[e.from]!, split.level[e.from]!)}
                    x2={xOf(b.addr)}
                    y2={yOf(split.part[e.to]!, split.level[e.to]!)}
                    data-to={e.to}
                  />
                );
              })}
            </g>
            <g className="travellers" aria-hidden="true">
              {edges
                .filter((e) => e.fresh)
                .map((e) => {
                  const a = tree.nodes[e.from]!;
                  const b = tree.nodes[e.to]!;
                  const x1 = xOf(a.addr);
                  const y1 = yOf(split.part[e.from]!, split.level[e.from]!);
                  const x2 = xOf(b.addr);
                  const y2 = yOf(split.part[e.to]!, split.level[e.to]!);
                  return (
                    <motion.circle
                      key={`${step}-${e.from}-${e.to}`}
                      className="traveller"
                      r={Math.max(3, r * 0.6)}
                      initial={reduced ? { cx: x2, cy: y2 } : { cx: x1, cy: y1 }}
                      animate={{ cx: x2, cy: y2 }}
                      transition={reduced ? { duration: 0 } : { duration: 0.45, ease: 'easeOut' }}
                    />
                  );
                })}
            </g>
            <g className="nodes">
              {nodes.map(({ n, i, part, level }) => {
                const cx = xOf(n.addr);
                const cy = yOf(part, level);
                const here = part === curPart && level === curLevel;
                // The level being written is the subject, where the frame shows the node whole.
                const framed = here && n.addr >= lo - 0.01 && n.addr + 1 <= hi + 0.01;
                return (
                  <g key={i} className={`tree-node${here ? ' current' : ''}${level === 0 ? ' leaf' : ''}${n.step === step ? ' fresh' : ''}`} data-level={level} data-part={part} data-inputs={n.sources.length} data-node={i} data-subject={framed ? 'node' : undefined}>
                    {valueFits && whole(n.addr) && formatValue(n.value).length * font * 0.62 + 6 <= cell ? (
                      <>
                        <rect className="node-chip" x={cx - cell / 2 + 2} y={cy - Math.min(font * 0.8, rowH * 0.42)} width={Math.max(1, cell - 4)} height={Math.min(font * 1.6, rowH * 0.84)} rx={4} />
                        <text className="node-value" x={cx} y={cy + font * 0.35} textAnchor="middle">
                          {formatValue(n.value)}
                        </text>
                      </>
                    ) : (
                      <circle className="node-dot" cx={cx} cy={cy} r={here ? r * 1.3 : r}>
                        <title>{formatValue(n.value)}</title>
                      </circle>
                    )}
                  </g>
                );
              })}
            </g>
          </g>
        </svg>
      </div>
    </section>
  );
}
