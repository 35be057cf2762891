/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  'basic.title': 'Basic: co-rank per invocation in global memory',
  'basic.summary': 'Each invocation owns 4 outputs, binary-searches where they start and end in A and B straight from global memory, then merges them one by one. Every invocation repeats a search of about log₂ min(m, n) probes, and neighbours read the same words.',
  'tiled.title': 'Tiled: co-rank per workgroup, then inside the tile',
  'tiled.summary': 'Two invocations co-rank the tile’s ends over global memory; the workgroup loads exactly the A and B words the tile needs into workgroup memory, coalesced, and each invocation co-ranks its 4 outputs again inside the tile. Each input word is read from global memory once.',
  'fast.title': 'Fast: partition pass, coalesced tiles of 1024',
  'fast.summary': 'A first pass co-ranks every tile boundary; the merge pass then loads its tile coalesced (a fixed 8 loads per invocation, all in flight at once), co-ranks once per invocation (its share ends where the next one’s starts), merges 8 outputs in workgroup memory and stores the merged tile coalesced too. The step-through replays the merge pass, with the splits computed on the CPU.',
  'merge.title': 'Parallel merge (co-rank)',
  'merge.summary': 'Merge two sorted arrays with every invocation finding its own share by a binary search on the merge path’s cross-diagonal: per invocation in global memory, per tile in workgroup memory, and a bandwidth-bound version.',
  'notice.length': 'Stepping through a {label} of {n} would trace too much; simulating {cap}. The timings go to larger sizes.',
  'param.input': 'input',
  'parse.input': 'not an input kind',
  'notice.input': 'The merge lab has no input “{name}”; use {names}. Showing random sorted keys.',
  'input.random': 'random sorted keys',
  'input.duplicates': 'many equal keys',
  'input.disjoint': 'disjoint ranges (all of A below B)',
  'input.a-empty': 'A empty',
  'input.b-empty': 'B empty',
  'param.type': 'element type',
  'parse.type': 'not an element type',
  'notice.type': '{variant} runs on {types}, not {type}; using i32.',
  'param.m': 'length m of A',
  'param.n': 'length n of B',
  'note': 'The bytes count each input word read once and each output word written once, the least any merge moves: the copy baseline moves the same.',
  'metric.corank': 'Co-rank bound',
  'metric.corank.hint': '⌈log₂ min(m, n)⌉ + 1 probes per search at most',
  'metric.sectors': 'Global sectors per output',
  'metric.sectors.hint': '32-byte sectors of every storage request ÷ (m + n); per-invocation loads are in the merge-path panel',
  'metric.shared': 'Workgroup-memory requests',
  'metric.shared.hint': 'warp requests to the tile (0 for the basic merge)',
  'ui.panel': 'Merge path and co-rank probes',
} as const;

export const m = createCatalog('lab-merge', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
