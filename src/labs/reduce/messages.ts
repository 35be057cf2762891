/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  'global-inplace.title': 'Tree in global memory',
  'global-inplace.description': 'Each workgroup halves its slice of the input in place, level by level, with every read and write going to global memory. Simple, and it destroys the input.',
  'neighbored.title': 'Shared memory, neighbored pairs',
  'neighbored.description': 'The slice is copied to workgroup memory first. At level s, invocations whose index is a multiple of 2s add their neighbour: the workers are scattered, so every warp diverges.',
  'neighbored-less-divergent.title': 'Neighbored, less divergence',
  'neighbored-less-divergent.description': 'Same pairs, but invocation k handles word 2·s·k, so the low invocations do the work and idle warps skip it entirely. The strided words now pile onto the same banks.',
  'interleaved.title': 'Interleaved pairs',
  'interleaved.description': 'The first s invocations add the word s places away, s halving each level: contiguous workers, consecutive words, no divergence until the last warp and no bank conflicts.',
  'first-add-during-load.title': 'First add during load',
  'first-add-during-load.description': 'Each invocation adds two elements while loading, so a workgroup covers twice as many elements and no invocation sits idle in the first level.',
  'last-warp-subgroup.title': 'Last warp with subgroupAdd',
  'last-warp-subgroup.description': 'The barrier tree stops at 64 values; one subgroupAdd replaces the last six levels and their barriers. Works for any subgroup size.',
  'last-warp-naive.title': 'Last warp, warp-synchronous (racy)',
  'last-warp-naive.description': 'The old CUDA trick copied literally: the last 32 invocations finish without barriers, trusting lockstep. In WGSL that is a data race; the simulator points at it.',
  'unrolled.title': 'Completely unrolled',
  'unrolled.description': 'The workgroup size is an override constant, so each level is a step the compiler keeps or drops when the pipeline is built: no loop left, only the levels this size needs.',
  'vec4-grid-stride.title': 'Many elements per invocation (vec4, grid-stride)',
  'vec4-grid-stride.description': 'A few thousand workgroups stream the whole input with 16-byte loads in a grid-stride loop, then reduce once each: the kernel does little but read memory.',
  'vec4-atomic.title': 'Many elements per invocation, one pass (atomicAdd)',
  'vec4-atomic.description': 'The same streaming kernel, finished in a single dispatch: each workgroup adds its total into the result with one atomic. Integer sums only, since WGSL has no floating-point atomics.',
  'racy': 'Its last warp reads and writes workgroup memory without a barrier: a data race in WGSL, so the GPU may return any sum. The simulator reports the race.',
  'reduce.title': 'Parallel reduction',
  'reduce.summary': 'Sum an array with thousands of threads: from a tree in global memory, through divergent and conflicting shared-memory trees, to a bandwidth-bound grid-stride kernel.',
  'reduce.note': 'Published ladders for comparison: the course posts measured 16M ints on a Tesla M2070 at 11.7 ms (neighbored), 9.3 ms (less divergent, 1.26×) and 7.0 ms (interleaved, 1.69×); Harris’s seven kernels reached 30× cumulative on a G80.',
  'reduce-tree-barrier.title': 'The tree without its barrier',
  'reduce-tree-barrier.goal': 'Make every level of the shared-memory tree read only sums the level before has finished writing, so the workgroup sum is right on any GPU.',
  'reduce-tree-barrier.hint': 'Step through the loop in the workgroup memory view: a lane reads sdata[lid + s] while the warp that writes it has not got there yet. The race annotation marks the line.',
  'reduce-tail-bounds.title': 'Reading past the end',
  'reduce-tail-bounds.goal': 'Make the kernel sum exactly the n elements of the input when n is not a multiple of the workgroup size, without reading past the end.',
  'reduce-tail-bounds.hint': 'Go to the last workgroup in the warp grid and look at the loads: its last 24 lanes read input[1000] onwards, and the out-of-bounds annotation marks the line.',
  'reduce-last-warp-race.title': 'The last warp without a barrier',
  'reduce-last-warp-race.goal': 'Make the last six levels of the tree wait for the level before, as the course post’s unrolled warpReduce relied on lockstep and volatile to do, so the sum holds on any GPU.',
  'reduce-last-warp-race.hint': 'Step through the block under lid < 32u in the workgroup memory view: lane 0 reads sdata[16] while lane 16 is writing it in the same barrier interval; WGSL promises no lockstep, and the race annotation marks the line.',
  'reduce-inplace-overwrite.title': 'The sum written over the input',
  'reduce-inplace-overwrite.goal': 'Make each workgroup store its sum in partials instead of over the input, where word group belongs to a block another workgroup may still be summing.',
  'reduce-inplace-overwrite.hint': 'On the timeline, go to the end of the first workgroup and look at the warp grid: lane 0 stores into data[group], inside workgroup 0’s block, and partials, which the next pass reads, is never written.',
} as const;

export const m = createCatalog('lab-reduce', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
