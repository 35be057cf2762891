/**
 * The histogram kernels as `KernelRun`s, their inputs and their CPU reference. The input is a byte
 * string packed four bytes to a u32 word (little-endian); a byte b counts in bin
 * ⌊(b − lo) · bins / span⌋ when lo ≤ b < lo + span, and nowhere otherwise. The seed's letter bins
 * are lo = 'a', span = 28, bins = 7: a–d, e–h, …, y–z.
 */
import type { KernelRun } from '../../kernel/types.ts';
import { foldWorkgroups } from '../../kernel/types.ts';
import PER_ELEMENT_WGSL from '../../../shaders/histogram/per-element.wgsl?raw';
import GRID_STRIDE_WGSL from '../../../shaders/histogram/grid-stride.wgsl?raw';
import PRIVATIZED_WGSL from '../../../shaders/histogram/privatized.wgsl?raw';
import AGGREGATED_WGSL from '../../../shaders/histogram/aggregated.wgsl?raw';
import PER_WARP_WGSL from '../../../shaders/histogram/per-warp.wgsl?raw';
import PACKED_WGSL from '../../../shaders/histogram/packed.wgsl?raw';
import PACKED_ATOMIC_WGSL from '../../../shaders/histogram/packed-atomic.wgsl?raw';
import BATCHED_WGSL from '../../../shaders/histogram/batched.wgsl?raw';
import LANES16_WGSL from '../../../shaders/histogram/lanes16.wgsl?raw';

export const HISTOGRAM_VARIANTS = ['per-element', 'grid-stride', 'privatized', 'aggregated', 'per-warp', 'packed', 'packed-atomic', 'batched'] as const;
export type HistogramVariant = (typeof HISTOGRAM_VARIANTS)[number];

export const HISTOGRAM_KERNELS: Readonly<Record<HistogramVariant, { readonly file: string; readonly wgsl: string }>> = {
  'per-element': { file: 'shaders/histogram/per-element.wgsl', wgsl: PER_ELEMENT_WGSL },
  'grid-stride': { file: 'shaders/histogram/grid-stride.wgsl', wgsl: GRID_STRIDE_WGSL },
  privatized: { file: 'shaders/histogram/privatized.wgsl', wgsl: PRIVATIZED_WGSL },
  aggregated: { file: 'shaders/histogram/aggregated.wgsl', wgsl: AGGREGATED_WGSL },
  'per-warp': { file: 'shaders/histogram/per-warp.wgsl', wgsl: PER_WARP_WGSL },
  packed: { file: 'shaders/histogram/packed.wgsl', wgsl: PACKED_WGSL },
  'packed-atomic': { file: 'shaders/histogram/packed-atomic.wgsl', wgsl: PACKED_ATOMIC_WGSL },
  batched: { file: 'shaders/histogram/batched.wgsl', wgsl: BATCHED_WGSL },
};

/**
 * An experiment, not (yet) a lab variant: 16-bit counters per invocation in a workgroup of one warp
 * (bank = lane whatever the data), timed by scripts/experiments/histogram-experiments.ts and checked by the
 * differential suite; the stage cannot draw it yet (it decodes 8-bit packed counters only).
 */
export const LANES16_KERNEL = { file: 'shaders/histogram/lanes16.wgsl', wgsl: LANES16_WGSL } as const;
/** Invocations per workgroup of lanes16.wgsl: one warp, so invocation t owns bank t. */
const LANES16_WORKGROUP = 32;
/** vec4s lanes16.wgsl loads before counting (BATCH in the WGSL). */
const LANES16_BATCH = 8;
/** Its most workgroups: 132 SMs × 13 workgroups of 16 KiB, as for the packed variants. */
const LANES16_MAX_GRID = 1716;

/** The variants that keep 8-bit counters per invocation, four bins to a word (no bin per word). */
export const isPackedVariant = (v: string): boolean => v === 'packed' || v === 'packed-atomic';

export const isHistogramVariant = (id: string): id is HistogramVariant => (HISTOGRAM_VARIANTS as readonly string[]).includes(id);

/** Invocations per workgroup, for every variant but the packed ones. */
export const HISTOGRAM_WORKGROUP = 256;
/**
 * Invocations per workgroup of the packed variants: 64 invocations × 256 bins × 8 bits fill the
 * 16 KiB of workgroup memory that WebGPU guarantees.
 */
export const PACKED_WORKGROUP = 64;
/** vec4s each invocation of a packed variant reads between two flushes (ROUND in the WGSL). */
const PACKED_ROUND = 15;
/**
 * The most workgroups a packed variant launches. WebGPU does not say how many multiprocessors
 * there are; this is about what an H100 keeps resident at once (132 SMs × 13 workgroups of 16 KiB),
 * so on a large GPU every workgroup runs from the start and none waits for a second wave.
 */
export const PACKED_MAX_GRID = 1716;
/**
 * Private copies of the bins in the batched variant, interleaved bin by bin: invocation t counts
 * into copy t % 16, bin b of copy c at word b × 16 + c, so the lanes of a warp on one value hit 16
 * words, two lanes a word, instead of queueing on one. 16 × 256 bins × 4 bytes = 16 KiB, WebGPU's
 * guaranteed workgroup memory (maxComputeWorkgroupStorageSize); fewer bins take less.
 */
export const BATCHED_COPIES = 16;
/** vec4s each invocation of the batched variant loads before counting them (BATCH in the WGSL). */
const BATCHED_BATCH = 4;
/**
 * The most workgroups the batched variant launches: about what an H100 keeps resident at once
 * (132 SMs × 8 workgroups of 256 invocations), so every workgroup starts at once and counts a long
 * share; its merge (one global atomic per bin and workgroup) is then paid 1056 times, not per byte.
 */
const BATCHED_MAX_GRID = 1056;
/** Bytes each invocation handles per round trip of the grid in the grid-stride variants (about). */
const BYTES_PER_INVOCATION = 8;
/** The most workgroups a grid-stride variant launches: enough to fill a large GPU several times. */
export const MAX_GRID = 1024;
/** Bytes the fast variant reads per invocation and iteration: one vec4<u32>. */
const VEC4_BYTES = 16;

/** Which byte values count, and how they spread over the bins. */
export interface BinRange {
  readonly lo: number;
  readonly span: number;
}
/** The seed's letters: 'a' … 'z' in bins of four letters (the last bin also takes '{' and '|', never present). */
export const LETTER_RANGE: BinRange = { lo: 97, span: 28 };
export const BYTE_RANGE: BinRange = { lo: 0, span: 256 };

/** Bin of one byte, or -1 when it does not count: the kernels' `bin_of`. */
export function binOf(byte: number, bins: number, range: BinRange): number {
  const offset = byte - range.lo;
  return offset >= 0 && offset < range.span ? Math.floor((offset * bins) / range.span) : -1;
}

/** The CPU reference: counts per bin. */
export function histogramReference(bytes: Uint8Array, bins: number, range: BinRange): Uint32Array {
  const out = new Uint32Array(bins);
  for (const b of bytes) {
    const bin = binOf(b, bins, range);
    if (bin >= 0) out[bin]!++;
  }
  return out;
}

/** Bytes packed four to a word, little-endian, padded with zero words to whole vec4s. */
export function packBytes(bytes: Uint8Array): Uint32Array {
  const words = new Uint32Array(Math.max(4, Math.ceil(bytes.length / 16) * 4));
  new Uint8Array(words.buffer).set(bytes);
  // The machines this runs on are little-endian; a big-endian host would have to swap here.
  return words;
}

/** The bytes of a packed input. */
export function unpackBytes(words: Uint32Array, n: number): Uint8Array {
  return new Uint8Array(words.buffer, words.byteOffset, n).slice();
}

/**
 * Workgroups of a kernel that reads whole vec4s: one per `vec4sPerWorkgroup` of the `n` bytes'
 * whole vec4s, at least one, at most `maxGrid` (the grid-stride loop covers the rest).
 */
const vec4Grid = (n: number, vec4sPerWorkgroup: number, maxGrid: number): number => Math.min(maxGrid, Math.max(1, Math.ceil(Math.floor(n / 16) / vec4sPerWorkgroup)));

/** Workgroups a variant launches for `n` bytes: [x] or a folded [x, y] for one element per invocation. */
export function gridOf(variant: HistogramVariant, n: number, maxGrid?: number): [number, number] {
  const wg = HISTOGRAM_WORKGROUP;
  if (variant === 'batched') return [vec4Grid(n, wg * BATCHED_BATCH, maxGrid ?? BATCHED_MAX_GRID), 1];
  if (isPackedVariant(variant)) return [vec4Grid(n, PACKED_WORKGROUP * PACKED_ROUND, maxGrid ?? PACKED_MAX_GRID), 1];
  if (variant === 'per-element') return foldWorkgroups(Math.max(1, Math.ceil(n / wg)));
  const per = variant === 'per-warp' ? VEC4_BYTES * 4 : BYTES_PER_INVOCATION;
  return [Math.min(MAX_GRID, Math.max(1, Math.ceil(n / (wg * per)))), 1];
}

function checkInput(words: Uint32Array, n: number, bins: number): void {
  if (!Number.isInteger(bins) || bins < 1 || bins > 256) throw new RangeError(`${bins} bins: a histogram of bytes takes 1 to 256 bins.`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${n} bytes: the input needs at least one byte.`);
  if (words.length * 4 < n || words.length % 4 !== 0) {
    throw new RangeError(`The packed input has ${words.length} words; ${n} bytes need ${Math.ceil(n / 16) * 4} (whole vec4s, use packBytes).`);
  }
}

/**
 * lanes16.wgsl over `n` bytes: `maxGrid` caps its workgroups, `round` (vec4s an invocation counts
 * between flushes, at most 4095) is lowered by tests so that small inputs flush several times.
 */
export function lanes16Run(words: Uint32Array, n: number, bins: number, range: BinRange, opts: { maxGrid?: number; round?: number; source?: string } = {}): KernelRun {
  checkInput(words, n, bins);
  const round = opts.round ?? 4095;
  if (!Number.isInteger(round) || round < 1 || round > 4095) throw new RangeError(`round ${round}: 16-bit counters take 1 to 4095 vec4s between flushes.`);
  const words2 = Math.ceil(bins / 2);
  const grid = vec4Grid(n, LANES16_WORKGROUP * LANES16_BATCH, opts.maxGrid ?? LANES16_MAX_GRID);
  return {
    code: opts.source ?? LANES16_KERNEL.wgsl,
    entryPoint: 'main',
    file: LANES16_KERNEL.file,
    label: 'histogram.lanes16',
    workgroups: [grid, 1],
    bindings: { 0: { 0: words, 1: new Uint32Array(Math.ceil(bins / 4) * 4), 2: new Uint32Array([n, bins, range.lo, range.span]) } },
    overrides: { WORKGROUP_SIZE: LANES16_WORKGROUP, BINS: bins, LO: range.lo, SPAN: range.span, WORDS: words2, PRIVATE_WORDS: words2 * LANES16_WORKGROUP, ROUND: round },
  };
}

/**
 * One dispatch over `n` bytes packed in `words`, counting into `bins` bins over `range`.
 * `maxGrid` caps the workgroups of the packed and batched variants (the bench tries several).
 */
export function histogramRun(variant: HistogramVariant, words: Uint32Array, n: number, bins: number, range: BinRange, source?: string, maxGrid?: number): KernelRun {
  checkInput(words, n, bins);
  const { file, wgsl } = HISTOGRAM_KERNELS[variant];
  const copies = HISTOGRAM_WORKGROUP / 32;
  const packed = isPackedVariant(variant);
  const words4 = Math.ceil(bins / 4);
  return {
    code: source ?? wgsl,
    entryPoint: 'main',
    file,
    label: `histogram.${variant}`,
    workgroups: gridOf(variant, n, maxGrid),
    bindings: {
      0: {
        0: words,
        // Padded to whole vec4s of words; only the first `bins` are counted into.
        1: new Uint32Array(Math.ceil(bins / 4) * 4),
        2: new Uint32Array([n, bins, range.lo, range.span]),
      },
    },
    overrides: {
      WORKGROUP_SIZE: packed ? PACKED_WORKGROUP : HISTOGRAM_WORKGROUP,
      ...(variant === 'per-element' || variant === 'grid-stride' ? {} : { BINS: bins }),
      ...(variant === 'per-warp' ? { COPIES: copies, PRIVATE_WORDS: copies * bins } : {}),
      ...(variant === 'batched' ? { LO: range.lo, SPAN: range.span, COPIES: BATCHED_COPIES, PRIVATE_WORDS: BATCHED_COPIES * bins } : {}),
      ...(packed ? { LO: range.lo, SPAN: range.span, WORDS: words4, PRIVATE_WORDS: words4 * PACKED_WORKGROUP } : {}),
    },
  };
}

/** Private copies of the bins a variant keeps in workgroup memory (one per 32 invocations in per-warp). */
export function privateCopiesOf(variant: string, invocations: number): number {
  if (variant === 'batched') return BATCHED_COPIES;
  return variant === 'per-warp' ? Math.max(1, Math.floor(invocations / 32)) : 1;
}

/**
 * Whether a variant lays its private copies out bin by bin (bin b of copy c at b × copies + c, the
 * batched variant) rather than copy after copy (c × bins + b, per-warp).
 */
export function copiesInterleaved(variant: string): boolean {
  return variant === 'batched';
}
