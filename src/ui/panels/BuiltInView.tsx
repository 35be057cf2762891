/**
 * The built-in views a stage shows beside a lab's own panels: the warps, the workgroup memory and
 * the dataflow tree of its writes. One component for every page that steps through a kernel: the
 * lab page's stage and its compare half, and a program's replay.
 */
import { useMemo } from 'react';
import { t, type MessageKey } from '../../i18n/messages.ts';
import { ui, type UiKey } from '../../i18n/ui.ts';
import { warpsAt } from '../../trace/index.ts';
import { lastAccessOfLane, type DataflowTree } from '../../trace/memory.ts';
import type { Subject } from '../../trace/subject.ts';
import type { Highlight } from '../../workbench/lesson.ts';
import type { SimSlot } from '../../workbench/session.ts';
import { Exportable } from '../export/ExportButton.tsx';
import { PanelBoundary } from '../shell/PanelBoundary.tsx';
import { DataflowTreeView } from './DataflowTreeView.tsx';
import { SharedMemoryStrip } from './SharedMemoryStrip.tsx';
import { WarpGrid } from './WarpGrid.tsx';

export const BUILT_IN_VIEWS = ['warp-grid', 'shared-memory', 'dataflow'] as const;
export type BuiltInViewId = (typeof BUILT_IN_VIEWS)[number];

export const isBuiltInView = (id: string): id is BuiltInViewId => (BUILT_IN_VIEWS as readonly string[]).includes(id);

/**
 * The views with something to show: the warps always; the memory where the kernel has a workgroup
 * memory (`memory` ≥ 0); the tree where that memory's writes form one.
 */
export function builtInViewsOf(memory: number, tree: DataflowTree | undefined): BuiltInViewId[] {
  return BUILT_IN_VIEWS.filter((id) => id === 'warp-grid' || (memory >= 0 && (id === 'shared-memory' || (tree?.nodes.length ?? 0) > 0)));
}

/** Each view's name for its error boundary, and its file name and title in the export dialog. */
const NAMES: Readonly<Record<BuiltInViewId, { readonly boundary: UiKey; readonly file: string; readonly exported: MessageKey }>> = {
  'warp-grid': { boundary: 'panel.warpGrid', file: 'warp-grid', exported: 'export.what.warp-grid' },
  'shared-memory': { boundary: 'panel.sharedMemory', file: 'memory', exported: 'export.what.memory' },
  dataflow: { boundary: 'panel.dataflow', file: 'tree', exported: 'export.what.tree' },
};

/** The warp and lane a grid focuses on, and how a click moves them. */
export interface LaneFocus {
  readonly warp: number;
  readonly lane: number;
  readonly set: (warp: number, lane: number) => void;
}

export interface BuiltInViewProps {
  /** The view; a memory view of a kernel without workgroup memory shows the warps. */
  readonly view: BuiltInViewId;
  /** `export`: in an error boundary of its own, with an export button (a page's stage); `boundary`: the boundary only; `none`: bare. */
  readonly frame: 'export' | 'boundary' | 'none';
  /** The simulation shown: its trace, index, workgroup memory and traced workgroup. */
  readonly slot: SimSlot;
  readonly step: number;
  readonly focus: LaneFocus;
  readonly onWorkgroup: (workgroup: number) => void;
  readonly treeTitle: string;
  /** What the step is about, a lesson step's marks on warps, lanes and words, and the words the tree frames. */
  readonly marks?: { readonly subject?: Subject | undefined; readonly highlight?: Highlight | undefined; readonly words?: readonly [number, number] | undefined };
  /** How many workgroups the grid offers (default: the slot's; 1 where one block is replayed alone). */
  readonly workgroupCount?: number | undefined;
}

/** One built-in view of one step (nothing before the slot has a trace). */
export function BuiltInView({ view: asked, frame, slot, step, focus, onWorkgroup, treeTitle, marks = {}, workgroupCount = slot.totalWorkgroups }: BuiltInViewProps) {
  const { index, memory } = slot;
  const trace = slot.result?.trace;
  const view: BuiltInViewId = memory < 0 ? 'warp-grid' : asked;
  const warps = useMemo(() => (index && view === 'warp-grid' ? warpsAt(index, step) : []), [view, index, step]);
  if (!trace || !index) return null;
  const { subject, highlight, words } = marks;
  const body =
    view === 'shared-memory' ? (
      <SharedMemoryStrip trace={trace} memory={memory} step={step} wavefronts={index.wavefronts[step]!} highlightWords={highlight?.words} subject={subject} />
    ) : view === 'dataflow' ? (
      <DataflowTreeView trace={trace} memory={memory} step={step} title={treeTitle} words={words} />
    ) : (
      <WarpGrid
        workgroup={slot.focus}
        workgroupCount={workgroupCount}
        warpSize={trace.warpSize}
        warps={warps}
        focusedWarp={Math.min(focus.warp, warps.length - 1)}
        focusedLane={Math.min(focus.lane, trace.warpSize - 1)}
        onFocus={focus.set}
        onWorkgroup={onWorkgroup}
        describeLane={(w, l) => lastAccessOfLane(index, w, l, step)}
        highlightWarps={highlight?.warps}
        highlightLanes={highlight?.lanes}
        subject={subject}
      />
    );
  if (frame === 'none') return body;
  const names = NAMES[view];
  return (
    <PanelBoundary id={view} title={ui(names.boundary)}>
      {frame === 'export' ? (
        <Exportable name={names.file} title={t(names.exported)}>
          {body}
        </Exportable>
      ) : (
        body
      )}
    </PanelBoundary>
  );
}
