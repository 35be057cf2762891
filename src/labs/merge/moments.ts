/** The merge lab's lesson moments, read from the trace. */
import type { LabMoment } from '../../workbench/lab.ts';
import { OpKind, type Trace } from '../../sim/index.ts';
import { memoryNamed } from '../../trace/names.ts';
import { MERGE_FILES } from './kernel.ts';
import { readMergeTrace, searchResult, type MergeTraceView } from './trace.ts';

/** The variant's WGSL that made a trace, told by its workgroup memories. */
export function sourceOf(trace: Trace): string {
  const has = (name: string) => trace.memories.some((mm) => mm.name === name);
  // fast: tile, merged and starts; stream: tile and starts; tiled: tile and bounds; wide: the tile alone.
  if (has('merged')) return MERGE_FILES.fast.wgsl;
  if (has('starts')) return MERGE_FILES.stream.wgsl;
  if (has('bounds')) return MERGE_FILES.tiled.wgsl;
  return has('tile') ? MERGE_FILES.wide.wgsl : MERGE_FILES.basic.wgsl;
}

/**
 * `probe` with arg "3": the first co-rank probe of invocation 3; "3:last": its last probe (-1 when it
 * never probes). Sizes are not needed to find probes, so the view is read with A and B as long as
 * the trace's bindings.
 */
const probe: LabMoment = (index, arg) => {
  const [who, which] = arg.split(':');
  const trace = index.trace;
  const words = (name: string) => trace.memories[memoryNamed(trace, name)]?.words ?? 0;
  const source = sourceOf(trace);
  const view = readMergeTrace(trace, source, { m: words('a'), n: words('b') });
  const mine = view.probes.filter((p) => p.invocation === Number(who));
  const p = which === 'last' ? mine[mine.length - 1] : mine[0];
  return p ? p.step : -1;
};

/** `first-store`: the first output written to C (arg ignored), or -1. */
const firstStore: LabMoment = (index) => {
  const trace = index.trace;
  const c = memoryNamed(trace, 'c');
  for (let s = 0; s < trace.stepCount; s++) if (trace.stepMemory[s] === c && trace.opKind[trace.stepOp[s]!] === OpKind.storeGlobal) return s;
  return -1;
};

export const mergeMoments = { probe, 'first-store': firstStore } as const;

/**
 * The merge view of a trace for lesson questions, with A's and B's lengths taken from their
 * bindings (exact when both are non-empty, as in the lesson's steps).
 */
export function mergeViewOf(trace: Trace): MergeTraceView {
  const words = (name: string) => trace.memories[memoryNamed(trace, name)]?.words ?? 0;
  return readMergeTrace(trace, sourceOf(trace), { m: words('a'), n: words('b') });
}

/** How many of the first k outputs come from A, as invocation `invocation`'s search found it. */
export function coRankFromTrace(view: MergeTraceView, invocation: number, k: number): number {
  const search = view.searches.find((s) => s.invocation === invocation && s.k === k && s.space === 'global');
  // No probe: the search range was one point, its lowest end.
  return search ? searchResult(search) : Math.max(0, k - view.sizes.n);
}

/** How many elements of A invocation `invocation` merges in the basic merge (i1 − i0). */
export function elementsOfATaken(view: MergeTraceView, invocation: number): number {
  const slice = view.slices[invocation];
  if (!slice) return 0;
  return coRankFromTrace(view, invocation, slice.end) - coRankFromTrace(view, invocation, slice.first);
}
