/**
 * What the merge stage reads from a trace, as pure functions: every co-rank probe (which
 * invocation, which A and B words, what they held, which way the search went), each invocation's
 * output slice, the A and B values the trace saw, the merge path and the tiles. Views draw these;
 * they do not re-run the merge.
 */
import { OpKind, type Trace } from '../../sim/index.ts';
import { memoryNamed } from '../../trace/names.ts';
import { takesA } from './reference.ts';

/** The first and last source line of `fn name(…)` in WGSL (its body runs to the `}` in column 1). */
export function functionLines(wgsl: string, name: string): readonly [number, number] | undefined {
  const lines = wgsl.split('\n');
  const first = lines.findIndex((l) => l.startsWith(`fn ${name}(`));
  if (first < 0) return undefined;
  const last = lines.findIndex((l, k) => k > first && l.startsWith('}'));
  return [first + 1, (last < 0 ? lines.length - 1 : last) + 1];
}

/** One co-rank probe: invocation `invocation` compared A[i] with B[j] at `step`. */
export interface ProbeEvent {
  /** The step of the second load (when the comparison can be made). */
  readonly step: number;
  readonly invocation: number;
  readonly i: number;
  readonly j: number;
  readonly av: number;
  readonly bv: number;
  /** A[i] goes first (A[i] ≤ B[j]): the search moves above i. */
  readonly takesA: boolean;
  /** Probes in workgroup memory are translated to A and B indices with the tile's bounds. */
  readonly space: 'global' | 'tile';
}

/** One search: an invocation's probes on one cross-diagonal, and where it landed. */
export interface Search {
  readonly invocation: number;
  /** The cross-diagonal: how many outputs precede the point searched for. */
  readonly k: number;
  readonly probes: readonly ProbeEvent[];
  readonly space: 'global' | 'tile';
}

/** The A and B sizes of the traced merge (from its uniform record, or as given). */
export interface MergeSizes {
  readonly m: number;
  readonly n: number;
}

export interface MergeTraceView {
  readonly sizes: MergeSizes;
  readonly probes: readonly ProbeEvent[];
  readonly searches: readonly Search[];
  /** Per invocation of the traced workgroup: the outputs it stored, [first, last + 1), or undefined. */
  readonly slices: readonly ({ readonly first: number; readonly end: number; readonly step: number } | undefined)[];
  /** A and B words as the trace read them (undefined where no traced invocation read one). */
  readonly aValues: readonly (number | undefined)[];
  readonly bValues: readonly (number | undefined)[];
  /** The tile bounds the workgroup wrote: A's share [a0, a1) and B's [b0, b1), if it has tiles. */
  readonly tile: { readonly a0: number; readonly a1: number; readonly k0: number; readonly k1: number; readonly step: number } | undefined;
  /** Global loads per invocation, and co-rank probes per invocation. */
  readonly loadsPerInvocation: readonly number[];
  readonly probesPerInvocation: readonly number[];
  /** Per output of C: the step that stored it (-1 where the traced workgroup did not). */
  readonly storeStep: readonly number[];
}

/** A's and B's lengths for the lab's parameters: an empty-array input empties that side. */
export function sizesOfParams(params: Readonly<Record<string, number | string>>): MergeSizes {
  return { m: params.input === 'a-empty' ? 0 : Number(params.m), n: params.input === 'b-empty' ? 0 : Number(params.n) };
}


/**
 * Reads the merge out of a full trace of one workgroup. `source` is the WGSL that ran (to tell
 * the co-rank loads from the merge loads by line), `sizes` A's and B's lengths.
 */
export function readMergeTrace(trace: Trace, source: string, sizes: MergeSizes): MergeTraceView {
  const A = memoryNamed(trace, 'a');
  const B = memoryNamed(trace, 'b');
  const C = memoryNamed(trace, 'c');
  const TILE = memoryNamed(trace, 'tile');
  const BOUNDS = memoryNamed(trace, 'bounds');
  const SPLITS = memoryNamed(trace, 'splits');
  const globalLines = functionLines(source, 'co_rank');
  const tileLines = functionLines(source, 'co_rank_tile');
  const within = (line: number, r: readonly [number, number] | undefined) => r !== undefined && line >= r[0] && line <= r[1];
  const W = trace.warpSize;
  const invocations = trace.invocations;
  const pending = new Map<number, { addr: number; value: number }>();
  const probes: ProbeEvent[] = [];
  const slices: ({ first: number; end: number; step: number } | undefined)[] = Array.from({ length: invocations }, () => undefined);
  const aValues: (number | undefined)[] = Array.from({ length: sizes.m }, () => undefined);
  const bValues: (number | undefined)[] = Array.from({ length: sizes.n }, () => undefined);
  const loads = new Array<number>(invocations).fill(0);
  const perInvocation = new Array<number>(invocations).fill(0);
  const storeStep = new Array<number>(sizes.m + sizes.n).fill(-1);
  const bounds: number[] = [];
  let boundsStep = -1;
  const splits: number[] = [];
  const tileWords: number[] = [];
  const workgroup = trace.workgroups[0] ?? 0;

  for (let s = 0; s < trace.stepCount; s++) {
    const mem = trace.stepMemory[s]!;
    if (mem < 0) continue;
    const kind = trace.opKind[trace.stepOp[s]!]!;
    const line = trace.opLine[trace.stepOp[s]!]!;
    const warp = trace.stepWarp[s]!;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const inv = warp * W + trace.recLane[r]!;
      const addr = trace.recAddr[r]!;
      const value = trace.recValue[r]!;
      if (kind === OpKind.loadGlobal && (mem === A || mem === B)) {
        loads[inv]!++;
        if (mem === A && addr < sizes.m) aValues[addr] = value;
        if (mem === B && addr < sizes.n) bValues[addr] = value;
        if (within(line, globalLines)) {
          if (mem === A) pending.set(inv, { addr, value });
          else {
            const p = pending.get(inv);
            pending.delete(inv);
            if (p) probes.push({ step: s, invocation: inv, i: p.addr, j: addr, av: p.value, bv: value, takesA: takesA(p.value, value), space: 'global' });
          }
        }
      } else if (kind === OpKind.loadGlobal && mem === SPLITS) {
        splits[addr] = value;
      } else if (kind === OpKind.storeShared && mem === BOUNDS) {
        bounds[addr] = value;
        boundsStep = s;
      } else if (kind === OpKind.storeShared && mem === TILE) {
        // The first store of a word is the input staged from A or B (the streamed merge later
        // writes its outputs over the tile).
        if (tileWords[addr] === undefined) tileWords[addr] = value;
      } else if (kind === OpKind.loadShared && mem === TILE && within(line, tileLines)) {
        // Tile probes: the first load is A's share, the second B's; translated below.
        const p = pending.get(inv);
        if (!p) pending.set(inv, { addr, value });
        else {
          pending.delete(inv);
          probes.push({ step: s, invocation: inv, i: p.addr, j: addr, av: p.value, bv: value, takesA: takesA(p.value, value), space: 'tile' });
        }
      } else if (kind === OpKind.storeGlobal && mem === C) {
        if (addr < storeStep.length) storeStep[addr] = s;
        const sl = slices[inv];
        if (!sl) slices[inv] = { first: addr, end: addr + 1, step: s };
        else slices[inv] = { first: Math.min(sl.first, addr), end: Math.max(sl.end, addr + 1), step: sl.step };
      }
    }
  }

  // The tile: from the bounds the workgroup stored (tiled) or the splits it read (fast).
  const tilesFrom = bounds.length === 2 ? bounds : splits.length >= workgroup + 2 ? [splits[workgroup]!, splits[workgroup + 1]!] : undefined;
  let tile: MergeTraceView['tile'];
  if (tilesFrom && TILE >= 0) {
    const tileSize = trace.memories[TILE]!.words;
    const k0 = Math.min(workgroup * tileSize, sizes.m + sizes.n);
    const k1 = Math.min(k0 + tileSize, sizes.m + sizes.n);
    tile = { a0: tilesFrom[0]!, a1: tilesFrom[1]!, k0, k1, step: boundsStep >= 0 ? boundsStep : 0 };
    // A tile probe reads A's share at i and B's share at la + j: translate both to whole-array indices.
    const la = tile.a1 - tile.a0;
    const b0 = k0 - tile.a0;
    for (let x = 0; x < probes.length; x++) {
      const p = probes[x]!;
      if (p.space === 'tile') probes[x] = { ...p, i: tile.a0 + p.i, j: b0 + (p.j - la) };
    }
    // The tile holds A's and B's words of this range: the stage can show their values too.
    for (let x = 0; x < tileWords.length; x++) {
      const v = tileWords[x];
      if (v === undefined) continue;
      if (x < la) aValues[tile.a0 + x] = v;
      else if (b0 + x - la < sizes.n) bValues[b0 + x - la] = v;
    }
  }

  const searches: Search[] = [];
  for (const p of probes) {
    perInvocation[p.invocation]!++;
    const k = p.i + p.j + 1;
    const last = searches.findLast((s) => s.invocation === p.invocation);
    if (last && last.k === k && last.space === p.space) (last.probes as ProbeEvent[]).push(p);
    else searches.push({ invocation: p.invocation, k, probes: [p], space: p.space });
  }
  return { sizes, probes, searches, slices, aValues, bValues, tile, loadsPerInvocation: loads, probesPerInvocation: perInvocation, storeStep };
}

/** Where a search landed: how many of the first k outputs come from A. */
export function searchResult(search: Search): number {
  const last = search.probes[search.probes.length - 1]!;
  return last.takesA ? last.i + 1 : last.i;
}

/** Probes made at or before `step`. */
export function probesBy(view: MergeTraceView, step: number): ProbeEvent[] {
  return view.probes.filter((p) => p.step <= step);
}

/** The co-rank searches of one invocation, in the order it ran them. */
export function searchesOf(view: MergeTraceView, invocation: number): Search[] {
  return view.searches.filter((s) => s.invocation === invocation);
}

/**
 * The merge path through the grid, as the points (i, j) it visits from (0, 0), over the A and B
 * words the trace read; it stops where a word it needs was not read by the traced workgroup.
 */
export function pathPoints(view: MergeTraceView): { i: number; j: number }[] {
  const { m, n } = view.sizes;
  const points = [{ i: 0, j: 0 }];
  let i = 0;
  let j = 0;
  while (i + j < m + n) {
    const av = i < m ? view.aValues[i] : undefined;
    const bv = j < n ? view.bValues[j] : undefined;
    // A step needs the next word of each array that still has one.
    if ((i < m && av === undefined) || (j < n && bv === undefined)) break;
    if (j >= n || (i < m && takesA(av!, bv!))) i++;
    else j++;
    points.push({ i, j });
  }
  return points;
}
