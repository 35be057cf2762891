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
import SUMMED_AREA_WGSL from '../../../shaders/scan/summed-area.wgsl?raw';
import ADD_TILE_SUMS_WGSL from '../../../shaders/scan/add-tile-sums.wgsl?raw';
import { m } from './messages.ts';

export type ScanVariantId = 'hillis-steele' | 'blelloch' | 'blelloch-padded' | 'subgroup' | 'single-pass' | 'single-pass-vec4' | 'single-pass-late-scan' | 'summed-area';

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

export const SCAN_VARIANTS: readonly ScanVariant[] = [
  {
    id: 'hillis-steele',
    get title() {
      return m('hillis-steele.title');
    },
    get description() {
      return m('hillis-steele.description');
    },
    file: 'shaders/scan/hillis-steele.wgsl',
    code: HILLIS_STEELE_WGSL,
    entryPoints: ['main'],
    shape: 'tiles',
    elementsPerInvocation: 1,
    workgroupSizes: POW2_SIZES,
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: false,
    workgroupBytes: (w) => 2 * w * 4,
    cuda: HILLIS_STEELE_CUDA,
  },
  {
    id: 'blelloch',
    get title() {
      return m('blelloch.title');
    },
    get description() {
      return m('blelloch.description');
    },
    file: 'shaders/scan/blelloch.wgsl',
    code: BLELLOCH_WGSL,
    entryPoints: ['main'],
    shape: 'tiles',
    elementsPerInvocation: 2,
    workgroupSizes: POW2_SIZES,
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: false,
    workgroupBytes: (w) => 2 * w * 4,
    cuda: BLELLOCH_CUDA,
  },
  {
    id: 'blelloch-padded',
    get title() {
      return m('blelloch-padded.title');
    },
    get description() {
      return m('blelloch-padded.description');
    },
    file: 'shaders/scan/blelloch-padded.wgsl',
    code: BLELLOCH_PADDED_WGSL,
    entryPoints: ['main'],
    shape: 'tiles',
    elementsPerInvocation: 2,
    // At 1 024 invocations (tiles of 2 048) stride 32 still puts two lanes on one bank.
    workgroupSizes: [32, 64, 128, 256, 512],
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: false,
    workgroupBytes: (w) => (2 * w + Math.floor((2 * w) / 32)) * 4,
    cuda: BLELLOCH_PADDED_CUDA,
  },
  {
    id: 'subgroup',
    get title() {
      return m('subgroup.title');
    },
    get description() {
      return m('subgroup.description');
    },
    file: 'shaders/scan/subgroup.wgsl',
    code: SUBGROUP_WGSL,
    entryPoints: ['main'],
    shape: 'tiles',
    elementsPerInvocation: 1,
    workgroupSizes: POW2_SIZES,
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: true,
    workgroupBytes: (w) => w * 4 + 4,
    cuda: SUBGROUP_CUDA,
  },
  {
    id: 'single-pass',
    get title() {
      return m('single-pass.title');
    },
    get description() {
      return m('single-pass.description');
    },
    file: 'shaders/scan/single-pass.wgsl',
    code: SINGLE_PASS_WGSL,
    entryPoints: ['main'],
    shape: 'single-pass',
    elementsPerInvocation: SINGLE_PASS_ITEMS,
    workgroupSizes: [64, 128, 256, 512],
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: false,
    workgroupBytes: (w) => {
      const tile = w * SINGLE_PASS_ITEMS;
      return (tile + Math.floor(tile / 32) + 2 * w + 3) * 4;
    },
    cuda: SINGLE_PASS_CUDA,
  },
  {
    id: 'single-pass-vec4',
    get title() {
      return m('single-pass-vec4.title');
    },
    get description() {
      return m('single-pass-vec4.description');
    },
    file: 'shaders/scan/single-pass-vec4.wgsl',
    code: SINGLE_PASS_VEC4_WGSL,
    entryPoints: ['main'],
    shape: 'single-pass',
    elementsPerInvocation: SINGLE_PASS_VEC4_ITEMS,
    workgroupSizes: [64, 128, 256, 512, 768, 1024], // 1024 is the fastest on an H100 (docs/benchmarks.md)
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: true,
    // claim, ticket, tile_prefix, and two vec4s of totals per possible subgroup (at least 4 lanes).
    workgroupBytes: (w) => (w / 4) * 32 + 3 * 4,
    cuda: SINGLE_PASS_VEC4_CUDA,
  },
  {
    id: 'single-pass-late-scan',
    get title() {
      return m('single-pass-late-scan.title');
    },
    get description() {
      return m('single-pass-late-scan.description');
    },
    file: 'shaders/scan/single-pass-late-scan.wgsl',
    code: SINGLE_PASS_LATE_SCAN_WGSL,
    entryPoints: ['main'],
    shape: 'single-pass',
    elementsPerInvocation: SINGLE_PASS_VEC4_ITEMS,
    workgroupSizes: [64, 128, 256, 512, 768, 1024], // 1024 is the fastest on an H100 (docs/benchmarks.md)
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: true,
    // claim, ticket, tile_prefix, and two vec4s of totals per possible subgroup, as single-pass-vec4.
    workgroupBytes: (w) => (w / 4) * 32 + 3 * 4,
    cuda: SINGLE_PASS_LATE_SCAN_CUDA,
  },
  {
    id: 'summed-area',
    get title() {
      return m('summed-area.title');
    },
    get description() {
      return m('summed-area.description');
    },
    file: 'shaders/scan/summed-area.wgsl',
    code: SUMMED_AREA_WGSL,
    entryPoints: ['scan_rows', 'scan_columns'],
    shape: 'matrix',
    elementsPerInvocation: 1,
    workgroupSizes: POW2_SIZES,
    defaultWorkgroupSize: 256,
    elementTypes: ALL_TYPES,
    needsSubgroups: false,
    workgroupBytes: (w) => 2 * w * 4,
    cuda: SUMMED_AREA_CUDA,
  },
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
