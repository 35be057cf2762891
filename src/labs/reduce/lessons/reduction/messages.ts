/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Parallel reduction, step by step',
  'summary': 'Summing an array with thousands of threads, and the seven ideas that make it about thirty times faster.',
  's1.title': 'A tree in global memory',
  's1.narrative': 'Each workgroup sums its slice of 256 elements in log2(256) = 8 levels. At each level half of the invocations add their partner’s value in place, then all wait at a barrier. Every read and write goes to global memory.',
  's1.prompt': 'How many barriers has the workgroup completed at this moment?',
  's2.title': 'Shared memory, neighbored pairs',
  's2.narrative': 'Copy the slice into workgroup memory (CUDA’s shared memory) once, then build the tree there. The tree below is drawn from what the kernel really did: at level s, words 0, 2s, 4s… take their neighbour s words away.',
  's2.lookAt': 'the reduction tree',
  's3.title': 'Less divergence, but bank conflicts',
  's3.narrative': 'Computing index = 2·s·lid puts the working invocations next to each other, so whole warps rest. But now lane k reads word 2·s·k: with s = 1, lanes 0 and 16 both want bank 0. Workgroup memory has 32 banks; two different words in one bank are served one after the other.',
  's3.lookAt': 'the workgroup-memory strip and its conflict line',
  's3.prompt': 'How many wavefronts does this request need?',
  's4.title': 'Sequential addressing: no conflicts',
  's4.narrative': 'With lid < s, invocation k adds word k + s into word k: consecutive lanes touch consecutive words, one per bank. No divergence until the last warp, no conflicts. The course posts measured 16M ints on a Tesla M2070: 11.7 ms neighbored, 9.3 ms less divergent (1.26×), 7.0 ms interleaved (1.69×).',
  's4.lookAt': 'the contiguous level in the tree',
  's4.prompt': 'How many shared bank conflicts does the interleaved kernel have in total?',
  's5.title': 'Add during the load',
  's5.narrative': 'Half of the invocations idled from the very first level. Let each one load two elements and add them on the way in: the same workgroup now covers 512 elements, and the first level of the tree is free.',
  's6.title': 'The last warp and unrolling',
  's6.narrative': 'When 32 or fewer values remain, one warp holds them all. CUDA code used to drop the barriers there (the “volatile” trick); in WGSL that is a data race, so our kernels finish with subgroupAdd. With the workgroup size an override constant, the compiler can also unroll every level.',
  's7.title': 'Bandwidth-bound, on your GPU',
  's7.narrative': 'The last kernel streams the input in 16-byte loads; each workgroup reduces once and adds its total in one atomic, as fast as a plain copy on an H100.',
  's1.explain': 'The timeline jumped to just after barrier {answer}; the step description names each barrier as it is reached.',
  's3.explain': 'The strip says {answer}-way: lanes whose words share a bank column are served in turn.',
  's4.explain': 'The Metrics panel reads {answer}: each request has one word per bank.',
} as const;

export const m = createCatalog('lesson-reduction', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
