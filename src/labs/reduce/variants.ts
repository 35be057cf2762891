/**
 * The reduction lab's variants: the ladder from a tree in global memory to a bandwidth-bound
 * grid-stride kernel, each one a WGSL file under `shaders/reduce/` with its CUDA twin under
 * `cuda/` (a real source: nvcc compiles it, src/cuda translates it, and cuda.test.ts and
 * cuda.gpu.test.ts require the same partial sums as the WGSL).
 */
import type { ElementType } from '../../workbench/labTypes.ts';
import GLOBAL_INPLACE_WGSL from '../../../shaders/reduce/global-inplace.wgsl?raw';
import NEIGHBORED_WGSL from '../../../shaders/reduce/neighbored.wgsl?raw';
import NEIGHBORED_LESS_DIVERGENT_WGSL from '../../../shaders/reduce/neighbored-less-divergent.wgsl?raw';
import INTERLEAVED_WGSL from '../../../shaders/reduce/interleaved.wgsl?raw';
import FIRST_ADD_WGSL from '../../../shaders/reduce/first-add-during-load.wgsl?raw';
import LAST_WARP_SUBGROUP_WGSL from '../../../shaders/reduce/last-warp-subgroup.wgsl?raw';
import LAST_WARP_NAIVE_WGSL from '../../../shaders/reduce/last-warp-naive.wgsl?raw';
import UNROLLED_WGSL from '../../../shaders/reduce/unrolled.wgsl?raw';
import VEC4_WGSL from '../../../shaders/reduce/vec4-grid-stride.wgsl?raw';
import VEC4_ATOMIC_WGSL from '../../../shaders/reduce/vec4-atomic.wgsl?raw';
import GLOBAL_INPLACE_CU from './cuda/global-inplace.cu?raw';
import NEIGHBORED_CU from './cuda/neighbored.cu?raw';
import NEIGHBORED_LESS_DIVERGENT_CU from './cuda/neighbored-less-divergent.cu?raw';
import INTERLEAVED_CU from './cuda/interleaved.cu?raw';
import FIRST_ADD_CU from './cuda/first-add-during-load.cu?raw';
import LAST_WARP_SUBGROUP_CU from './cuda/last-warp-subgroup.cu?raw';
import LAST_WARP_NAIVE_CU from './cuda/last-warp-naive.cu?raw';
import UNROLLED_CU from './cuda/unrolled.cu?raw';
import VEC4_CU from './cuda/vec4-grid-stride.cu?raw';
import VEC4_ATOMIC_CU from './cuda/vec4-atomic.cu?raw';
import { m } from './messages.ts';

export type ReduceVariantId =
  | 'global-inplace'
  | 'neighbored'
  | 'neighbored-less-divergent'
  | 'interleaved'
  | 'first-add-during-load'
  | 'last-warp-subgroup'
  | 'last-warp-naive'
  | 'unrolled'
  | 'vec4-grid-stride'
  | 'vec4-atomic';

/**
 * How a variant's workgroups split the input, which fixes the pass plan:
 * - `block`: workgroup g reduces elements [g·E, (g+1)·E) with E = WORKGROUP_SIZE ·
 *   `elementsPerInvocation`; a pass turns n values into ceil(n / E).
 * - `grid-stride`: a capped grid walks the whole input; a pass turns n values into one per
 *   workgroup launched.
 */
export type ReduceLayout = 'block' | 'grid-stride';

/**
 * The order in which a workgroup adds its values, for the CPU reference that repeats it:
 * `interleaved` pairs lid with lid + s for s = size/2 … 1; `neighbored` pairs 2·s·k with 2·s·k + s
 * for s = 1 … size/2. `window` variants stop the interleaved tree at 64 values and finish with
 * `subgroupAdd`, whose internal order the GPU chooses.
 */
export type TreeOrder = 'interleaved' | 'neighbored' | 'interleaved-then-window';

export interface ReduceVariant {
  readonly id: ReduceVariantId;
  /** Position on the ladder (1 = slowest idea, 8 = bandwidth-bound); the naive twin shares 6. */
  readonly step: number;
  readonly title: string;
  /** One or two sentences in our own words for the variant picker. */
  readonly description: string;
  /** Path under the repository root, e.g. `shaders/reduce/interleaved.wgsl`. */
  readonly file: string;
  /** The WGSL text as written (element type u32, no snippets appended). */
  readonly wgsl: string;
  /** The same kernel in CUDA (`cuda/<id>.cu`), translated by src/cuda and checked against the WGSL. */
  readonly cuda: string;
  /** Workgroup sizes the kernel is written for; the device may allow fewer (see `supportedWorkgroupSizes`). */
  readonly workgroupSizes: readonly number[];
  readonly elementTypes: readonly ElementType[];
  /** Uses subgroup builtins (`enable subgroups;`): needs the `subgroups` feature. */
  readonly needsSubgroups: boolean;
  readonly layout: ReduceLayout;
  /** Elements each invocation loads in a `block` layout (1, or 2 with the first add during load). */
  readonly elementsPerInvocation: number;
  /** Contains a deliberate data race: its GPU result is not guaranteed. */
  readonly racy: boolean;
  /** Calls `linear_workgroup_index`, so `shaders/common/linear-workgroup.wgsl` is appended. */
  readonly foldsWorkgroups: boolean;
  readonly treeOrder: TreeOrder;
  /** Workgroups add their totals into one word with atomicAdd: one pass, integers only. */
  readonly atomicTotal: boolean;
}

const ALL_SIZES = [64, 128, 256, 512, 1024] as const;
const ALL_TYPES: readonly ElementType[] = ['u32', 'i32', 'f32'];

const base = {
  workgroupSizes: ALL_SIZES,
  elementTypes: ALL_TYPES,
  needsSubgroups: false,
  layout: 'block',
  elementsPerInvocation: 1,
  racy: false,
  foldsWorkgroups: true,
  treeOrder: 'interleaved',
  atomicTotal: false,
} as const;

export const REDUCE_VARIANTS: readonly ReduceVariant[] = [
  {
    ...base,
    id: 'global-inplace',
    step: 1,
    get title() {
      return m('global-inplace.title');
    },
    get description() {
      return m('global-inplace.description');
    },
    file: 'shaders/reduce/global-inplace.wgsl',
    wgsl: GLOBAL_INPLACE_WGSL,
    cuda: GLOBAL_INPLACE_CU,
  },
  {
    ...base,
    id: 'neighbored',
    step: 2,
    get title() {
      return m('neighbored.title');
    },
    get description() {
      return m('neighbored.description');
    },
    file: 'shaders/reduce/neighbored.wgsl',
    wgsl: NEIGHBORED_WGSL,
    cuda: NEIGHBORED_CU,
    treeOrder: 'neighbored',
  },
  {
    ...base,
    id: 'neighbored-less-divergent',
    step: 3,
    get title() {
      return m('neighbored-less-divergent.title');
    },
    get description() {
      return m('neighbored-less-divergent.description');
    },
    file: 'shaders/reduce/neighbored-less-divergent.wgsl',
    wgsl: NEIGHBORED_LESS_DIVERGENT_WGSL,
    cuda: NEIGHBORED_LESS_DIVERGENT_CU,
    treeOrder: 'neighbored',
  },
  {
    ...base,
    id: 'interleaved',
    step: 4,
    get title() {
      return m('interleaved.title');
    },
    get description() {
      return m('interleaved.description');
    },
    file: 'shaders/reduce/interleaved.wgsl',
    wgsl: INTERLEAVED_WGSL,
    cuda: INTERLEAVED_CU,
  },
  {
    ...base,
    id: 'first-add-during-load',
    step: 5,
    get title() {
      return m('first-add-during-load.title');
    },
    get description() {
      return m('first-add-during-load.description');
    },
    file: 'shaders/reduce/first-add-during-load.wgsl',
    wgsl: FIRST_ADD_WGSL,
    cuda: FIRST_ADD_CU,
    elementsPerInvocation: 2,
  },
  {
    ...base,
    id: 'last-warp-subgroup',
    step: 6,
    get title() {
      return m('last-warp-subgroup.title');
    },
    get description() {
      return m('last-warp-subgroup.description');
    },
    file: 'shaders/reduce/last-warp-subgroup.wgsl',
    wgsl: LAST_WARP_SUBGROUP_WGSL,
    cuda: LAST_WARP_SUBGROUP_CU,
    workgroupSizes: ALL_SIZES,
    needsSubgroups: true,
    elementsPerInvocation: 2,
    treeOrder: 'interleaved-then-window',
  },
  {
    ...base,
    id: 'last-warp-naive',
    step: 6,
    get title() {
      return m('last-warp-naive.title');
    },
    get description() {
      return m('last-warp-naive.description');
    },
    file: 'shaders/reduce/last-warp-naive.wgsl',
    wgsl: LAST_WARP_NAIVE_WGSL,
    cuda: LAST_WARP_NAIVE_CU,
    elementsPerInvocation: 2,
    racy: true,
  },
  {
    ...base,
    id: 'unrolled',
    step: 7,
    get title() {
      return m('unrolled.title');
    },
    get description() {
      return m('unrolled.description');
    },
    file: 'shaders/reduce/unrolled.wgsl',
    wgsl: UNROLLED_WGSL,
    cuda: UNROLLED_CU,
    needsSubgroups: true,
    elementsPerInvocation: 2,
    treeOrder: 'interleaved-then-window',
  },
  {
    ...base,
    id: 'vec4-grid-stride',
    step: 8,
    get title() {
      return m('vec4-grid-stride.title');
    },
    get description() {
      return m('vec4-grid-stride.description');
    },
    file: 'shaders/reduce/vec4-grid-stride.wgsl',
    wgsl: VEC4_WGSL,
    cuda: VEC4_CU,
    needsSubgroups: true,
    layout: 'grid-stride',
    foldsWorkgroups: false,
    treeOrder: 'interleaved-then-window',
  },
  {
    ...base,
    id: 'vec4-atomic',
    step: 8,
    get title() {
      return m('vec4-atomic.title');
    },
    get description() {
      return m('vec4-atomic.description');
    },
    file: 'shaders/reduce/vec4-atomic.wgsl',
    wgsl: VEC4_ATOMIC_WGSL,
    cuda: VEC4_ATOMIC_CU,
    elementTypes: ['u32', 'i32'],
    needsSubgroups: true,
    layout: 'grid-stride',
    foldsWorkgroups: false,
    treeOrder: 'interleaved-then-window',
    atomicTotal: true,
  },
];

const BY_ID = new Map(REDUCE_VARIANTS.map((v) => [v.id, v]));

/** The variant with this id; throws a RangeError naming the known ids otherwise. */
export function reduceVariant(id: string): ReduceVariant {
  const v = BY_ID.get(id as ReduceVariantId);
  if (!v) throw new RangeError(`unknown reduce variant '${id}' (known: ${[...BY_ID.keys()].join(', ')})`);
  return v;
}

/** Workgroup sizes of `variant` that fit `maxInvocations` (the adapter's `maxComputeInvocationsPerWorkgroup`). */
export function supportedWorkgroupSizes(variant: ReduceVariant, maxInvocations: number): number[] {
  return variant.workgroupSizes.filter((s) => s <= maxInvocations);
}

/** Default workgroup size: 256, or the largest the variant and device allow below it. */
export function defaultWorkgroupSize(variant: ReduceVariant, maxInvocations = 256): number {
  const fits = supportedWorkgroupSizes(variant, Math.min(256, maxInvocations));
  return fits[fits.length - 1] ?? variant.workgroupSizes[0]!;
}
