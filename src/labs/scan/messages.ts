/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  'hillis-steele.title': 'Hillis–Steele',
  'hillis-steele.description': 'Every element adds the one 1, 2, 4, … places to its left, log2 n steps in all. Few steps, but each step touches almost every element: n·log2 n − (n − 1) additions where a loop needs n − 1. Two buffers in workgroup memory take turns so nobody overwrites a value still being read.',
  'blelloch.title': 'Blelloch (work-efficient)',
  'blelloch.description': 'A reduction tree built upwards in place (up-sweep), the root replaced by zero, then the tree walked back down: each node passes its value to its left child and gives its right child its value plus the left child’s old one. 2(n − 1) additions, two elements per invocation — and, at stride s, lanes 2s words apart, which collide in shared-memory banks.',
  'blelloch-padded.title': 'Blelloch, conflict-free padding',
  'blelloch-padded.description': 'The same up-sweep and down-sweep, with one unused word after every 32 in workgroup memory (index + index / 32). The strided lanes that shared a bank now land on 32 different banks: the same additions, no bank conflicts, for 1/32 more memory.',
  'subgroup.title': 'Subgroup (warp) scan',
  'subgroup.description': 'Each warp scans its own elements in registers with subgroupInclusiveAdd, no shared memory and no barrier; then one barrier, and each warp adds the totals of the warps before it. Works for any subgroup size the device picks (4 on SwiftShader, 32 on NVIDIA).',
  'single-pass.title': 'Single pass (decoupled look-back with fallback)',
  'single-pass.description': 'One dispatch for any length. Each workgroup scans its tile, publishes the tile’s sum, and reads its predecessors’ published sums to learn its prefix. If a predecessor has not published yet, it does not wait for it (WebGPU does not promise that it ever will run): it sums that tile itself. Reads and writes each element once, like a copy.',
  'single-pass-vec4.title': 'Single pass, vec4 and subgroups (look-back by a whole subgroup)',
  'single-pass-vec4.description': 'The single pass built for bandwidth: each invocation loads 8 vec4s (32 elements, every warp load 512 consecutive bytes), the tile is scanned with subgroup scans and one barrier, and one subgroup looks back at up to a subgroup’s worth of predecessors per memory round trip. A predecessor that stays silent is still reduced from the input, so no workgroup ever waits unboundedly.',
  'summed-area.title': '2-D prefix sum (summed-area table)',
  'summed-area.description': 'Scan every row, then every column of the result: each cell then holds the sum of the rectangle from the top-left corner to itself. Rows are scanned by a workgroup each, columns by one invocation each, walking down while its warp neighbours walk the next columns (coalesced).',
  'scan.title': 'Prefix sum (scan)',
  'scan.summary': 'Every element becomes the sum of those before it: Hillis–Steele’s log-step network against Blelloch’s work-efficient up-sweep and down-sweep, conflict-free padding, warp scans and a single-pass scan.',
  'scan-sizeof-bound.title': 'A loop bounded by sizeof',
  'scan-sizeof-bound.goal': 'Make every element of each tile hold the sum of all elements before it in the tile, not only of the last eight.',
  'scan-sizeof-bound.hint': 'Count the barrier phases on the timeline: the loop stops after offsets 1, 2 and 4, as the seed’s kernel did when its bound was sizeof of a pointer (8 bytes) instead of the element count.',
  'scan-step-barrier.title': 'Reading the neighbour too early',
  'scan-step-barrier.goal': 'Make each step of the scan read only values the previous step has finished writing, so the result holds on any GPU.',
  'scan-step-barrier.hint': 'In the workgroup memory view, step into the second offset: a warp reads buf[cur + lid - offset] that another warp writes later in the same phase; the race annotation marks the line.',
  'check.length': 'the output has {got} elements where {want} were expected',
  'check.f32': 'element {i} is {got}, more than {bound} from the double-precision {want}',
  'ui.treeTitle': 'Scan dataflow',
  'ui.panel': 'Scan sweeps, work and banks',
} as const;

export const m = createCatalog('lab-scan', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
