/**
 * What a lab's UI module (`src/labs/<lab>/ui/index.ts`) declares: its own panels, each with when
 * it applies, the companion simulations it needs and its component. The shared views (code, warp
 * grid, workgroup memory, timeline, metrics, timings, provenance tree) are offered to every lab by
 * the lab page; a lab without a UI module gets only those.
 */
import type { ComponentType } from 'react';
import { withTexts } from '../i18n/catalog.ts';
import type { SimResult, Trace } from '../sim/index.ts';
import type { TraceIndex } from '../trace/index.ts';
import type { Subject } from '../trace/subject.ts';
import type { LabVariant, Params } from './lab.ts';
import type { Services } from './services.ts';

/** A companion simulation as a panel receives it. */
export interface CompanionView {
  readonly variant: string;
  /** `running` with `progress`, `done` with `result` and `index`, or why it stopped. */
  readonly state: 'idle' | 'running' | 'done' | 'error' | 'cancelled';
  readonly progress: number;
  readonly message?: string;
  readonly result?: SimResult;
  readonly index?: TraceIndex;
}

export interface PanelProps {
  readonly trace: Trace;
  readonly index: TraceIndex;
  readonly step: number;
  /** The main workgroup memory, -1 for none. */
  readonly memory: number;
  readonly variant: LabVariant;
  readonly variants: readonly LabVariant[];
  readonly params: Params;
  /** The companions this panel declared, by id. */
  readonly companions: Readonly<Record<string, CompanionView>>;
  /** Moves the timeline to a step. */
  readonly seek: (step: number) => void;
  /** The page's GPU executor and simulator workers: a panel creates none of its own. */
  readonly services: Services;
  /** The part of the picture a lesson step asks for: words [from, to) of the main memory. */
  readonly window?: { readonly words?: readonly [number, number] | undefined } | undefined;
  /**
   * What the step is about (`src/trace/subject.ts`): a panel frames it (fits, zooms or pans so it
   * is whole and legible) and marks each element that draws part of it with `data-subject`.
   */
  readonly subject?: Subject | undefined;
}

export interface LabPanel {
  readonly id: string;
  readonly title: string;
  /** Whether the panel has something to show for this variant (default: always). */
  applies?(variant: LabVariant, params: Params): boolean;
  /** Simulations the panel needs beside the primary one; the session runs them. */
  companions?(variant: LabVariant, params: Params): readonly { readonly id: string; readonly variant: string; readonly traceAll?: boolean }[];
  readonly component: ComponentType<PanelProps>;
}

/** A lab's panel whose title is one of its messages, read in the language of the moment. */
export function labPanel(title: () => string, panel: Omit<LabPanel, 'title'>): LabPanel {
  return withTexts(panel, { title });
}

export interface LabUi {
  readonly panels: readonly LabPanel[];
  /** The heading of the shared provenance tree for this lab (default: “Reduction tree”). */
  readonly treeTitle?: string;
  /**
   * The panel the stage shows when nobody has chosen one: a lab panel's id or a shared view
   * (`warp-grid`, `shared-memory`, `dataflow`). Default: the lab's first panel, else the tree when
   * the kernel uses workgroup memory, else the warp grid.
   */
  readonly stage?: string;
}
