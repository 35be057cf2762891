/**
 * The scan lab's catalogue: one entry per WGSL kernel under `shaders/scan/`, with what a view or a
 * driver needs to know about it (tile shape, workgroup sizes, element types, capabilities).
 */
import type { ElementType } from '../../workbench/labTypes.ts';
import {
  ADD_TILE_SUMS_CUDA,
  BLELLOCH_CUDA,
  BLELLOCH_PADDED_CUDA,
  HILLIS_STEELE_CUDA,
  SINGLE_PASS_CUDA,
  SINGLE_PASS_LATE_SCAN_CUDA,
  SINGLE_PASS_VEC4_CUDA,
  SINGLE_PASS_WARP_TOTALS_CUDA,
  SUBGROUP_CUDA,
  SUMMED_AREA_CUDA,
} from './cuda.ts';
import HILLIS_STEELE_WGSL from '../../../shaders/scan/hillis-steele.wgsl?raw';
import BLELLOCH_WGSL from '../../../shaders/scan/blelloch.wgsl?raw';
import BLELLOCH_PADDED_WGSL from '../../../shaders/scan/blelloch-padded.wgsl?raw';
import SUBGROUP_WGSL from '../../../shaders/scan/subgroup.wgsl?raw';
import SINGLE_PASS_WGSL from '../../../shaders/scan/single-pass.wgsl?raw';
import SINGLE_PASS_VEC4_WGSL from '../../../shaders/scan/single-pass-vec4.wgsl?raw';
import SINGLE_PASS_LATE_SCAN_WGSL from '../../../shaders/scan/single-pass-late-scan.wgsl?raw';
import SINGLE_PASS_WARP_TOTALS_WGSL from '../../../shaders/scan/single-pass-warp-totals.wgsl?raw';
import SUMMED_AREA_WGSL from '../../../shaders/scan/summed-area.wgsl?raw';
import ADD_TILE_SUMS_WGSL from '../../../shaders/scan/add-tile-sums.wgsl?raw';
import { m } from './messages.ts';
import { textGetters, withTexts } from '../../i18n/catalog.ts';

export type ScanVariantId = 'hillis-steele' | 'blelloch' | 'blelloch-padded' | 'subgroup' | 'single-pass' | 'single-pass-vec4' | 'single-pass-late-scan' | 'single-pass-warp-totals' | 'summed-area';

/**
 * How a variant covers an array:
 * - `tiles`: one tile per workgroup writing tile sums; the driver scans the sums and adds them back;
 * - `single-pass`: one dispatch for any length (look-back between tiles);
 * - `matrix`: a 2-D summed-area table in two passes (rows, then columns).
 */
export type ScanShape = 'tiles' | 'single-pass' | 'matrix';

export interface ScanVariant {
  readonly id: ScanVariantId;
  readonly title: string;
  /** One paragraph for the variant picker. */
  readonly description: string;
  /** Path under the repository root, as `KernelRun.file`. */
  readonly file: string;
  /** The WGSL text as written (element type `u32`); see {@link withElementType}. */
  readonly code: string;
  /** Entry points in the order they run (two for the summed-area table). */
  readonly entryPoints: readonly string[];
  readonly shape: ScanShape;
  /** Elements each invocation owns: the tile is `workgroupSize × elementsPerInvocation`. */
  readonly elementsPerInvocation: number;
  /** Workgroup sizes the lab offers (each still checked against the adapter). */
  readonly workgroupSizes: readonly number[];
  readonly defaultWorkgroupSize: number;
  readonly elementTypes: readonly ElementType[];
  /** Uses subgroup builtins (`enable subgroups;`): needs the `subgroups` feature. */
  readonly needsSubgroups: boolean;
  /** Workgroup memory the kernel declares, in bytes, for a workgroup size (elements are 4 bytes). */
  workgroupBytes(workgroupSize: number): number;
  /** The same algorithm in CUDA, for the code pane. */
  readonly cuda: string;
}

const ALL_TYPES: readonly ElementType[] = ['u32', 'i32', 'f32'];
const POW2_SIZES = [32, 64, 128, 256, 512, 1024] as const;

/** Elements per invocation of the single-pass kernel (its `ITEMS` override). */
export const SINGLE_PASS_ITEMS = 8;

/** Elements per invocation of the vec4 single-pass kernel: 8 vec4s (its `VECS` constant × 4). */
export const SINGLE_PASS_VEC4_ITEMS = 32;

/** The fields a scan variant must spell out; the rest default as most variants have them. */
type ScanVariantFields = Pick<ScanVariant, 'id' | 'code' | 'shape' | 'elementsPerInvocation' | 'workgroupBytes' | 'cuda'> &
  Partial<Pick<ScanVariant, 'entryPoints' | 'workgroupSizes' | 'needsSubgroups'>>;

/**
 * A variant of the kernel `shaders/scan/<id>.wgsl`, with its title and description the messages
 * `<id>.title` and `<id>.description`, read in the language of the moment (a missing one throws
 * when the lab loads). Unless `fields` says otherwise: entry point `main`, workgroups of 32 to
 * 1 024 (256 at first), every element type, no subgroups.
 */
function scanVariantOf(fields: ScanVariantFields): ScanVariant {
  return withTexts(
    {
      file: `shaders/scan/${fields.id}.wgsl`,
      entryPoints: ['main'],
      workgroupSizes: POW2_SIZES,
      defaultWorkgroupSize: 256,
      elementTypes: ALL_TYPES,
      needsSubgroups: false,
      ...fields,
    },
    textGetters(m, `${fields.id}.`, ['title', 'description']),
  );
}

/** Two buffers of one element per invocation, taking turns. */
const TWO_BUFFERS_BYTES = (w: number): number => 2 * w * 4;

/** The vec4 single passes: claim, ticket, tile_prefix, and two vec4s of totals per possible subgroup (at least 4 lanes). */
const VEC4_SINGLE_PASS = {
  shape: 'single-pass',
  elementsPerInvocation: SINGLE_PASS_VEC4_ITEMS,
  workgroupSizes: [64, 128, 256, 512, 768, 1024], // 1024 is the fastest on an H100 (docs/benchmarks.md)
  needsSubgroups: true,
  workgroupBytes: (w: number) => (w / 4) * 32 + 3 * 4,
} as const;

export const SCAN_VARIANTS: readonly ScanVariant[] = [
  scanVariantOf({
    id: 'hillis-steele',
    code: HILLIS_STEELE_WGSL,
    shape: 'tiles',
    elementsPerInvocation: 1,
    workgroupBytes: TWO_BUFFERS_BYTES,
    cuda: HILLIS_STEELE_CUDA,
  }),
  scanVariantOf({
    id: 'blelloch',
    code: BLELLOCH_WGSL,
    shape: 'tiles',
    elementsPerInvocation: 2,
    workgroupBytes: TWO_BUFFERS_BYTES,
    cuda: BLELLOCH_CUDA,
  }),
  scanVariantOf({
    id: 'blelloch-padded',
    code: BLELLOCH_PADDED_WGSL,
    shape: 'tiles',
    elementsPerInvocation: 2,
    // At 1 024 invocations (tiles of 2 048) stride 32 still puts two lanes on one bank.
    workgroupSizes: [32, 64, 128, 256, 512],
    workgroupBytes: (w) => (2 * w + Math.floor((2 * w) / 32)) * 4,
    cuda: BLELLOCH_PADDED_CUDA,
  }),
  scanVariantOf({
    id: 'subgroup',
    code: SUBGROUP_WGSL,
    shape: 'tiles',
    elementsPerInvocation: 1,
    needsSubgroups: true,
    workgroupBytes: (w) => w * 4 + 4,
    cuda: SUBGROUP_CUDA,
  }),
  scanVariantOf({
    id: 'single-pass',
    code: SINGLE_PASS_WGSL,
    shape: 'single-pass',
    elementsPerInvocation: SINGLE_PASS_ITEMS,
    workgroupSizes: [64, 128, 256, 512],
    workgroupBytes: (w) => {
      const tile = w * SINGLE_PASS_ITEMS;
      return (tile + Math.floor(tile / 32) + 2 * w + 3) * 4;
    },
    cuda: SINGLE_PASS_CUDA,
  }),
  scanVariantOf({ id: 'single-pass-vec4', code: SINGLE_PASS_VEC4_WGSL, ...VEC4_SINGLE_PASS, cuda: SINGLE_PASS_VEC4_CUDA }),
  scanVariantOf({ id: 'single-pass-late-scan', code: SINGLE_PASS_LATE_SCAN_WGSL, ...VEC4_SINGLE_PASS, cuda: SINGLE_PASS_LATE_SCAN_CUDA }),
  scanVariantOf({ id: 'single-pass-warp-totals', code: SINGLE_PASS_WARP_TOTALS_WGSL, ...VEC4_SINGLE_PASS, cuda: SINGLE_PASS_WARP_TOTALS_CUDA }),
  scanVariantOf({
    id: 'summed-area',
    code: SUMMED_AREA_WGSL,
    entryPoints: ['scan_rows', 'scan_columns'],
    shape: 'matrix',
    elementsPerInvocation: 1,
    workgroupBytes: TWO_BUFFERS_BYTES,
    cuda: SUMMED_AREA_CUDA,
  }),
];

/** The helper pass of the multi-block driver (not a variant of its own). */
export const ADD_TILE_SUMS = {
  file: 'shaders/scan/add-tile-sums.wgsl',
  code: ADD_TILE_SUMS_WGSL,
  entryPoint: 'main',
  cuda: ADD_TILE_SUMS_CUDA,
} as const;

export function scanVariant(id: ScanVariantId): ScanVariant {
  const v = SCAN_VARIANTS.find((x) => x.id === id);
  if (!v) throw new RangeError(`unknown scan variant ${String(id)}`);
  return v;
}

const TYPE_LINE = /^alias T = u32;$/m;

/**
 * Sets a scan kernel's element type. Every file under `shaders/scan/` declares `alias T = u32;`
 * on a line of its own near the top (line 1, or line 2 after the `enable` line); this swaps
 * that one word, so line and column numbers of every other line are unchanged.
 */
export function withElementType(code: string, type: ElementType): string {
  if (!TYPE_LINE.test(code)) throw new Error('scan kernel lacks its `alias T = u32;` line');
  return type === 'u32' ? code : code.replace(TYPE_LINE, `alias T = ${type};`);
}

/** What the adapter must offer; a subset of `AdapterSummary` so the lab stays free of src/gpu. */
export interface ScanDeviceLimits {
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupSizeX: number;
  readonly maxComputeWorkgroupStorageSize: number;
}

export type ScanSupport =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'subgroups' | 'workgroup-size' | 'workgroup-storage' | 'element-type'; readonly message: string };

/** Whether `variant` can run with this workgroup size and type on a device, and why not. */
export function scanSupport(
  variant: ScanVariant,
  workgroupSize: number,
  type: ElementType,
  device: { readonly limits: ScanDeviceLimits; readonly hasSubgroups: boolean },
): ScanSupport {
  if (variant.needsSubgroups && !device.hasSubgroups) {
    return { ok: false, reason: 'subgroups', message: `${variant.title} needs the WebGPU "subgroups" feature, which this adapter lacks.` };
  }
  if (!variant.elementTypes.includes(type)) {
    return { ok: false, reason: 'element-type', message: `${variant.title} does not run on ${type}.` };
  }
  const maxSize = Math.min(device.limits.maxComputeInvocationsPerWorkgroup, device.limits.maxComputeWorkgroupSizeX);
  if (!variant.workgroupSizes.includes(workgroupSize) || workgroupSize > maxSize) {
    return {
      ok: false,
      reason: 'workgroup-size',
      message: `${variant.title} runs with workgroups of ${variant.workgroupSizes.filter((w) => w <= maxSize).join(', ')} invocations here, not ${workgroupSize}.`,
    };
  }
  const bytes = variant.workgroupBytes(workgroupSize);
  if (bytes > device.limits.maxComputeWorkgroupStorageSize) {
    return {
      ok: false,
      reason: 'workgroup-storage',
      message: `${variant.title} needs ${bytes} bytes of workgroup memory at ${workgroupSize} invocations; this adapter allows ${device.limits.maxComputeWorkgroupStorageSize}.`,
    };
  }
  return { ok: true };
}

/** The largest offered workgroup size that this device supports, or undefined. */
export function largestWorkgroupSize(
  variant: ScanVariant,
  type: ElementType,
  device: { readonly limits: ScanDeviceLimits; readonly hasSubgroups: boolean },
): number | undefined {
  return [...variant.workgroupSizes].reverse().find((w) => scanSupport(variant, w, type, device).ok);
}
