/**
 * The merge kernels as `KernelRun`s and the driver that chains them on any executor. Bindings:
 * 0 A, 1 B, 2 C (or the splits, for the partition pass), 3 the sizes, 4 the splits (fast pass).
 * A and B hold at least one element each (WebGPU binds no empty buffer); `m` and `n` say how
 * many count.
 */
import type { BindingData, KernelRun } from '../../kernel/types.ts';
import { foldWorkgroups } from '../../kernel/types.ts';
import { arrayFor, elementTypeOf, type ElementType, type KernelExecutor } from '../../workbench/labTypes.ts';
import BASIC_WGSL from '../../../shaders/merge/basic.wgsl?raw';
import TILED_WGSL from '../../../shaders/merge/tiled.wgsl?raw';
import PARTITION_WGSL from '../../../shaders/merge/partition.wgsl?raw';
import PARTITION_WIDE_WGSL from '../../../shaders/merge/partition-wide.wgsl?raw';
import FAST_WGSL from '../../../shaders/merge/fast.wgsl?raw';
import STREAM_WGSL from '../../../shaders/merge/stream.wgsl?raw';
import WIDE_WGSL from '../../../shaders/merge/wide.wgsl?raw';
import PARTITION_KARY_WGSL from '../../../shaders/merge/partition-kary.wgsl?raw';
import VEC4_WGSL from '../../../shaders/merge/vec4.wgsl?raw';
import { coRank } from './reference.ts';

export type MergeVariant = 'basic' | 'tiled' | 'fast' | 'stream' | 'wide';
export const MERGE_VARIANTS: readonly MergeVariant[] = ['basic', 'tiled', 'fast', 'stream', 'wide'];
/** The variants with a partition pass before the merge pass. */
export type PartitionedVariant = 'fast' | 'stream' | 'wide';
const partitioned = (v: MergeVariant): v is PartitionedVariant => v === 'fast' || v === 'stream' || v === 'wide';
export const isMergeVariant = (id: string): id is MergeVariant => (MERGE_VARIANTS as readonly string[]).includes(id);

export const MERGE_FILES = {
  basic: { file: 'shaders/merge/basic.wgsl', wgsl: BASIC_WGSL },
  tiled: { file: 'shaders/merge/tiled.wgsl', wgsl: TILED_WGSL },
  partition: { file: 'shaders/merge/partition.wgsl', wgsl: PARTITION_WGSL },
  'partition-wide': { file: 'shaders/merge/partition-wide.wgsl', wgsl: PARTITION_WIDE_WGSL },
  fast: { file: 'shaders/merge/fast.wgsl', wgsl: FAST_WGSL },
  stream: { file: 'shaders/merge/stream.wgsl', wgsl: STREAM_WGSL },
  wide: { file: 'shaders/merge/wide.wgsl', wgsl: WIDE_WGSL },
  // Experiments for issue 29 (scripts/experiments/merge-experiments.ts); no variant ships them.
  'partition-kary': { file: 'shaders/merge/partition-kary.wgsl', wgsl: PARTITION_KARY_WGSL },
  vec4: { file: 'shaders/merge/vec4.wgsl', wgsl: VEC4_WGSL },
} as const;

/** Invocations per workgroup and outputs per invocation of one merge launch. */
export interface MergeShape {
  readonly workgroupSize: number;
  readonly items: number;
}

/** The shape of each variant. */
export const MERGE_SHAPES: Readonly<Record<MergeVariant, MergeShape>> = {
  basic: { workgroupSize: 64, items: 4 },
  tiled: { workgroupSize: 32, items: 4 },
  // 128 × 8: two tiles of 1024 words and the starts fit in WebGPU's 16 KiB of workgroup memory.
  fast: { workgroupSize: 128, items: 8 },
  // ITEMS is a constant in stream.wgsl (its register arrays need a fixed size): keep the two equal.
  stream: { workgroupSize: 128, items: 11 },
  // ITEMS is a constant in wide.wgsl too; other shapes (for tuning) rewrite that line. 256 × 15:
  // 3840 words = 15 360 B of the 16 KiB. On the H100
  // (docs/runs/2026-11-22-h100-session5-call5-merge-experiments.txt) it ranked first of the shape sweep at 2^26: 57.2 % of copy against 50.9 % for
  // 128 × 15 (both with the 33-way partition; the CUDA twins 70.9 % against 59.9 %).
  wide: { workgroupSize: 256, items: 15 },
};

/**
 * The shape of the vec4 experiment (vec4.wgsl, issue 29; no variant ships it): the wide tile with
 * vec4 loads and stores. Its tiles are the wide variant's for the same shape, so partitionRun(data,
 * source, 'wide', shape) and splitsOf(data, 'wide', shape) serve it.
 */
export const VEC4_SHAPE: MergeShape = { workgroupSize: 256, items: 15 };

/** WebGPU's default limit on workgroup memory, which every shipped shape fits in. */
const WORKGROUP_BYTES = 16384;

/** The most workgroups the streamed merge launches; each walks over tiles g, g + groups, … */
export const STREAM_GROUPS = 2048;

/** Workgroup size of the partition pass: one boundary per invocation. */
const PARTITION_WG = 64;
/** Workgroup size of the 33-way partition pass (an experiment): the probes of one round for one boundary. */
const PARTITION_WIDE_WG = 32;

/** The WGSL with its `alias T` line set to the element type (line numbers unchanged). */
export function typedSource(wgsl: string, type: ElementType): string {
  return wgsl.replace(/^alias T = i32;$/m, `alias T = ${type};`);
}

export interface MergeData {
  readonly a: BindingData;
  readonly b: BindingData;
  readonly m: number;
  readonly n: number;
}

function checkData({ a, b, m, n }: MergeData): ElementType {
  const type = elementTypeOf(a);
  if (elementTypeOf(b) !== type) throw new TypeError(`A holds ${type} but B holds ${elementTypeOf(b)}: merge two arrays of one type.`);
  if (a.length < Math.max(1, m) || b.length < Math.max(1, n)) {
    throw new RangeError(`A has ${a.length} elements for m = ${m} and B ${b.length} for n = ${n}: pass at least max(1, m) and max(1, n).`);
  }
  return type;
}

const sizes = (m: number, n: number, boundaries = 0) => new Uint32Array([m, n, boundaries, 0]);
const tileOf = (v: MergeVariant, shape: MergeShape = MERGE_SHAPES[v]) => shape.workgroupSize * shape.items;
/** Tiles of a tiled or fast merge of `total` outputs (at least one, so the dispatch is never empty). */
export const tilesOf = (v: MergeVariant, total: number, shape?: MergeShape) => Math.max(1, Math.ceil(total / tileOf(v, shape)));

/** The basic or tiled merge: one dispatch writing C. */
export function mergeRun(variant: 'basic' | 'tiled', data: MergeData, source?: string): KernelRun {
  const type = checkData(data);
  const { workgroupSize, items } = MERGE_SHAPES[variant];
  const total = data.m + data.n;
  const groups = Math.max(1, Math.ceil(total / (workgroupSize * items)));
  return {
    code: typedSource(source ?? MERGE_FILES[variant].wgsl, type),
    entryPoint: 'main',
    file: MERGE_FILES[variant].file,
    label: `merge.${variant}`,
    workgroups: foldWorkgroups(groups),
    bindings: { 0: { 0: data.a, 1: data.b, 2: arrayFor(type, Math.max(1, total)), 3: sizes(data.m, data.n) } },
    overrides: variant === 'basic' ? { WORKGROUP_SIZE: workgroupSize, ITEMS: items } : { WORKGROUP_SIZE: workgroupSize, ITEMS: items, TILE: workgroupSize * items },
  };
}

/**
 * The first pass of fast, stream or wide: the co-rank of every tile boundary, into `splits`, one
 * binary search per invocation. The wide variant shipped for a while with a 33-way search instead
 * (partitionWideRun); on the H100 at 2^26 that made the whole merge slower, 0.3689 ms (50.9 % of
 * copy) against 0.2806 ms (67.0 %) with this pass (docs/runs/2026-11-22-h100-session5-call5-merge-bench.txt
 * and …-session5-call4-merge-bench.txt; the CUDA twins agree, 59.9 % against 83.0 %), so every variant uses
 * this one. A k-way search per invocation (partitionKaryRun) was measured against it for issue 29.
 */
export function partitionRun(data: MergeData, source?: string, variant: PartitionedVariant = 'fast', shape?: MergeShape): KernelRun {
  const type = checkData(data);
  const boundaries = tilesOf(variant, data.m + data.n, shape) + 1;
  return {
    code: typedSource(source ?? MERGE_FILES.partition.wgsl, type),
    entryPoint: 'main',
    file: MERGE_FILES.partition.file,
    label: 'merge.partition',
    workgroups: [Math.ceil(boundaries / PARTITION_WG)],
    bindings: { 0: { 0: data.a, 1: data.b, 2: new Uint32Array(boundaries), 3: sizes(data.m, data.n, boundaries) } },
    overrides: { WORKGROUP_SIZE: PARTITION_WG, TILE: tileOf(variant, shape) },
  };
}

/**
 * An alternative first pass, measured for issue 29 (scripts/experiments/merge-experiments.ts; no
 * variant ships it): one invocation per tile boundary, as partitionRun, testing `ways` − 1 points
 * a round, all loads in flight, instead of one (7 rounds for 2^25 at 16 ways instead of 25).
 */
export function partitionKaryRun(data: MergeData, ways: number, variant: PartitionedVariant, shape?: MergeShape): KernelRun {
  if (!Number.isInteger(ways) || ways < 2 || ways > 64) throw new RangeError(`The k-way partition takes 2 to 64 ways; asked for ${ways}.`);
  const { file, wgsl } = MERGE_FILES['partition-kary'];
  const run = partitionRun(data, wgsl.replace(/^const WAYS: u32 = \d+u;$/m, `const WAYS: u32 = ${ways}u;`), variant, shape);
  return { ...run, file, label: 'merge.partition-kary' };
}

/**
 * The measured alternative to the wide variant's partition pass (scripts/experiments/merge-experiments.ts
 * times it; no variant ships it): one workgroup of 32 per tile boundary, a 33-way search. It
 * writes the same splits as partitionRun(data, source, 'wide', shape).
 */
export function partitionWideRun(data: MergeData, source?: string, shape?: MergeShape): KernelRun {
  const type = checkData(data);
  const boundaries = tilesOf('wide', data.m + data.n, shape) + 1;
  return {
    code: typedSource(source ?? MERGE_FILES['partition-wide'].wgsl, type),
    entryPoint: 'main',
    file: MERGE_FILES['partition-wide'].file,
    label: 'merge.partition-wide',
    workgroups: foldWorkgroups(boundaries),
    bindings: { 0: { 0: data.a, 1: data.b, 2: new Uint32Array(boundaries), 3: sizes(data.m, data.n, boundaries) } },
    overrides: { WORKGROUP_SIZE: PARTITION_WIDE_WG, TILE: tileOf('wide', shape) },
  };
}

/**
 * The streamed merge pass over the splits the partition pass wrote: `groups` workgroups (at most
 * one per tile), each walking over every groups-th tile.
 */
export function streamRun(data: MergeData, splits: Uint32Array, source?: string, groups?: number): KernelRun {
  const type = checkData(data);
  const total = data.m + data.n;
  const tiles = tilesOf('stream', total);
  if (splits.length < tiles + 1) throw new RangeError(`The streamed merge of ${total} outputs needs ${tiles + 1} splits; got ${splits.length}.`);
  const launched = groups ?? Math.min(tiles, STREAM_GROUPS);
  if (!Number.isInteger(launched) || launched < 1 || launched > 65535) throw new RangeError(`The streamed merge launches 1 to 65,535 workgroups; asked for ${launched}.`);
  const { workgroupSize, items } = MERGE_SHAPES.stream;
  return {
    code: typedSource(source ?? MERGE_FILES.stream.wgsl, type),
    entryPoint: 'main',
    file: MERGE_FILES.stream.file,
    label: 'merge.stream',
    workgroups: [launched],
    bindings: { 0: { 0: data.a, 1: data.b, 2: arrayFor(type, Math.max(1, total)), 3: sizes(data.m, data.n, tiles + 1), 4: splits } },
    overrides: { WORKGROUP_SIZE: workgroupSize, TILE: workgroupSize * items, STARTS: workgroupSize + 1 },
  };
}

/** The fast variant's merge pass over the splits the partition pass wrote. */
export function fastRun(data: MergeData, splits: Uint32Array, source?: string): KernelRun {
  const type = checkData(data);
  const total = data.m + data.n;
  const tiles = tilesOf('fast', total);
  if (splits.length < tiles + 1) throw new RangeError(`The fast merge of ${total} outputs needs ${tiles + 1} splits; got ${splits.length}.`);
  const { workgroupSize, items } = MERGE_SHAPES.fast;
  return {
    code: typedSource(source ?? MERGE_FILES.fast.wgsl, type),
    entryPoint: 'main',
    file: MERGE_FILES.fast.file,
    label: 'merge.fast',
    workgroups: foldWorkgroups(tiles),
    bindings: { 0: { 0: data.a, 1: data.b, 2: arrayFor(type, Math.max(1, total)), 3: sizes(data.m, data.n, tiles + 1), 4: splits } },
    overrides: { WORKGROUP_SIZE: workgroupSize, ITEMS: items, TILE: workgroupSize * items, STARTS: workgroupSize + 1 },
  };
}

/**
 * wide.wgsl with its ITEMS constant set to `items` (line numbers unchanged). The shader's
 * register array needs a constant size, so other shapes are other sources.
 */
export function wideSource(items: number, wgsl: string = WIDE_WGSL): string {
  if (!Number.isInteger(items) || items < 1 || items % 2 === 0) throw new RangeError(`The wide merge takes an odd number of outputs per invocation (so a warp's words fall in different banks); got ${items}.`);
  const line = /^const ITEMS: u32 = \d+u;$/m;
  if (!line.test(wgsl)) throw new Error('wide.wgsl: no line `const ITEMS: u32 = <n>u;` to set the outputs per invocation on.');
  return wgsl.replace(line, `const ITEMS: u32 = ${items}u;`);
}

/**
 * The wide merge pass over the splits the partition pass wrote (computed for the same shape):
 * one tile of workgroupSize × items outputs per workgroup. A shape other than the shipped one
 * (MERGE_SHAPES.wide) is for tuning; its tile must fit WebGPU's 16 KiB of workgroup memory.
 */
export function wideRun(data: MergeData, splits: Uint32Array, source?: string, shape: MergeShape = MERGE_SHAPES.wide): KernelRun {
  const type = checkData(data);
  const total = data.m + data.n;
  const tile = tileOf('wide', shape);
  if (!Number.isInteger(shape.workgroupSize) || shape.workgroupSize < 1 || shape.workgroupSize > 256) throw new RangeError(`The wide merge runs 1 to 256 invocations per workgroup (WebGPU's default limit); asked for ${shape.workgroupSize}.`);
  if (tile * 4 > WORKGROUP_BYTES) throw new RangeError(`A wide tile of ${shape.workgroupSize} × ${shape.items} words takes ${tile * 4} bytes of workgroup memory; WebGPU guarantees ${WORKGROUP_BYTES}.`);
  const tiles = tilesOf('wide', total, shape);
  if (splits.length < tiles + 1) throw new RangeError(`The wide merge of ${total} outputs in tiles of ${tile} needs ${tiles + 1} splits; got ${splits.length}.`);
  const code = source ?? (shape.items === MERGE_SHAPES.wide.items ? WIDE_WGSL : wideSource(shape.items));
  return {
    code: typedSource(code, type),
    entryPoint: 'main',
    file: MERGE_FILES.wide.file,
    label: 'merge.wide',
    workgroups: foldWorkgroups(tiles),
    bindings: { 0: { 0: data.a, 1: data.b, 2: arrayFor(type, Math.max(1, total)), 3: sizes(data.m, data.n, tiles + 1), 4: splits } },
    overrides: { WORKGROUP_SIZE: shape.workgroupSize, TILE: tile },
  };
}

/** A copy of `data` with room for whole vec4s (zeros after the end), or `data` if it has it already. */
function padded(data: BindingData, words: number): BindingData {
  const length = Math.max(4, Math.ceil(words / 4) * 4);
  if (data.length % 4 === 0 && data.length >= length) return data;
  const out = arrayFor(elementTypeOf(data), Math.max(length, Math.ceil(data.length / 4) * 4));
  out.set(data);
  return out;
}

/**
 * The vec4 experiment's merge pass over the splits partitionRun(data, source, 'wide', shape) wrote:
 * the wide tile, with A, B and C read and written as vec4s (each padded to whole vectors; C's
 * words past m + n are zeros). Measured on the H100 for issue 29 and not shipped: its merge pass
 * runs at the wide one's speed (docs/benchmarks.md).
 */
export function vec4Run(data: MergeData, splits: Uint32Array, source?: string, shape: MergeShape = VEC4_SHAPE): KernelRun {
  const type = checkData(data);
  const total = data.m + data.n;
  const tile = tileOf('wide', shape);
  if (!Number.isInteger(shape.workgroupSize) || shape.workgroupSize < 16 || shape.workgroupSize > 256 || tile % 4 !== 0) {
    throw new RangeError(`The vec4 merge runs 16 to 256 invocations per workgroup with tiles of whole vec4s; asked for ${shape.workgroupSize} × ${shape.items}.`);
  }
  const slots = tile / 4 + 4;
  if (slots * 16 > WORKGROUP_BYTES) throw new RangeError(`A vec4 tile of ${shape.workgroupSize} × ${shape.items} words takes ${slots * 16} bytes of workgroup memory; WebGPU guarantees ${WORKGROUP_BYTES}.`);
  const tiles = tilesOf('wide', total, shape);
  if (splits.length < tiles + 1) throw new RangeError(`The vec4 merge of ${total} outputs in tiles of ${tile} needs ${tiles + 1} splits; got ${splits.length}.`);
  const code = source ?? (shape.items === VEC4_SHAPE.items ? VEC4_WGSL : wideSource(shape.items, VEC4_WGSL));
  return {
    code: typedSource(code, type),
    entryPoint: 'main',
    file: MERGE_FILES.vec4.file,
    label: 'merge.vec4',
    workgroups: foldWorkgroups(tiles),
    bindings: { 0: { 0: padded(data.a, data.m), 1: padded(data.b, data.n), 2: arrayFor(type, Math.max(4, Math.ceil(total / 4) * 4)), 3: sizes(data.m, data.n, tiles + 1), 4: splits } },
    overrides: { WORKGROUP_SIZE: shape.workgroupSize, TILE: tile, SLOTS: slots },
  };
}

/** The splits the partition pass computes, on the CPU (for stepping the merge pass alone). */
export function splitsOf(data: MergeData, variant: PartitionedVariant = 'fast', shape?: MergeShape): Uint32Array {
  const total = data.m + data.n;
  const tiles = tilesOf(variant, total, shape);
  const tile = tileOf(variant, shape);
  const out = new Uint32Array(tiles + 1);
  for (let g = 0; g <= tiles; g++) out[g] = coRank(Math.min(g * tile, total), data.a, data.m, data.b, data.n).i;
  return out;
}

/** The merge pass of a partitioned variant over its splits. */
const mergePassOf = (variant: PartitionedVariant, data: MergeData, splits: Uint32Array, source?: string) =>
  variant === 'fast' ? fastRun(data, splits, source) : variant === 'wide' ? wideRun(data, splits, source) : streamRun(data, splits, source);

/** The dispatch the step-through replays: the merge itself (the fast one with its splits from the CPU). */
export function mergeStepRun(variant: MergeVariant, data: MergeData, source?: string): KernelRun {
  return partitioned(variant) ? mergePassOf(variant, data, splitsOf(data, variant), source) : mergeRun(variant, data, source);
}

/**
 * The dispatches of a whole merge, for timing. Each pass gets its own buffers, so the fast merge
 * pass is handed the splits computed on the CPU (the ones pass 1 writes) to do the real work.
 */
export function mergePasses(variant: MergeVariant, data: MergeData): KernelRun[] {
  if (!partitioned(variant)) return [mergeRun(variant, data)];
  return [partitionRun(data, undefined, variant), mergePassOf(variant, data, splitsOf(data, variant))];
}

/** Runs a whole merge on an executor and returns C (m + n elements). */
export async function runMerge(executor: KernelExecutor, variant: MergeVariant, data: MergeData): Promise<BindingData> {
  let run: KernelRun;
  if (partitioned(variant)) {
    const splits = (await executor.run(partitionRun(data, undefined, variant)))[0]?.[2];
    if (!(splits instanceof Uint32Array)) throw new Error('merge.partition: the executor returned no splits (binding 2)');
    run = mergePassOf(variant, data, splits);
  } else {
    run = mergeRun(variant, data);
  }
  const c = (await executor.run(run))[0]?.[2];
  if (!c) throw new Error(`merge.${variant}: the executor returned no output (binding 2)`);
  return c.slice(0, data.m + data.n);
}
