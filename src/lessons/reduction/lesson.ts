import { barriersCompleted, type Lesson } from '../types.ts';

const base = { lab: 'reduce', params: { n: 1024, workgroupSize: 256 } } as const;

/** The reduction ladder, from a tree in global memory to a bandwidth-bound kernel. */
export const reductionLesson: Lesson = {
  id: 'reduction',
  courseOrder: 3,
  title: 'Parallel reduction, step by step',
  summary: 'Summing an array with thousands of threads, and the seven ideas that make it about thirty times faster.',
  steps: [
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'A tree in global memory',
      variant: 'global-inplace',
      moment: { kind: 'after-barrier', n: 1 },
      narrative:
        'Each workgroup sums its slice of 256 elements in log2(256) = 8 levels. At each level half of the invocations add their partner’s value in place, then all wait at a barrier. Every read and write goes to global memory.',
      question: {
        prompt: 'How many barriers has the workgroup completed at this moment?',
        answer: barriersCompleted,
        explain: (s) => `The timeline jumped to just after barrier ${barriersCompleted(s)}; the step description names each barrier as it is reached.`,
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      title: 'Shared memory, neighbored pairs',
      variant: 'neighbored',
      moment: { kind: 'after-barrier', n: 3 },
      narrative:
        'Copy the slice into workgroup memory (CUDA’s shared memory) once, then build the tree there. The tree below is drawn from what the kernel really did: at level s, words 0, 2s, 4s… take their neighbour s words away.',
      lookAt: 'the reduction tree',
    },
    {
      ...base,
      stage: { panel: 'shared-memory', words: [0, 64] },
      title: 'Less divergence, but bank conflicts',
      variant: 'neighbored-less-divergent',
      moment: { kind: 'bank-conflict' },
      narrative:
        'Computing index = 2·s·lid puts the working invocations next to each other, so whole warps rest. But now lane k reads word 2·s·k: with s = 1, lanes 0 and 16 both want bank 0. Workgroup memory has 32 banks; two different words in one bank are served one after the other.',
      lookAt: 'the workgroup-memory strip and its conflict line',
      // Lanes 0 and 16 of warp 0 read words 0 and 32: both in bank 0.
      highlight: { code: ['let index = 2u * s * lid;'], lanes: [[0, 0], [0, 16]], words: [0, 32] },
      question: {
        prompt: 'How many wavefronts does this request need?',
        answer: (s) => s.index.wavefronts[s.step]!,
        explain: (s) =>
          `The strip says ${s.index.wavefronts[s.step]}-way: lanes whose words share a bank column are served in turn.`,
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      title: 'Sequential addressing: no conflicts',
      variant: 'interleaved',
      moment: { kind: 'after-barrier', n: 3 },
      narrative:
        'With lid < s, invocation k adds word k + s into word k: consecutive lanes touch consecutive words, one per bank. No divergence until the last warp, no conflicts. The seeds measured 16M ints on a Tesla M2070: 11.7 ms neighbored, 9.3 ms less divergent (1.26×), 7.0 ms interleaved (1.69×).',
      lookAt: 'the contiguous level in the tree',
      question: {
        prompt: 'How many shared bank conflicts does the interleaved kernel have in total?',
        answer: (s) => s.metrics.sharedBankConflicts,
        explain: (s) => `The Metrics panel reads ${s.metrics.sharedBankConflicts}: each request has one word per bank.`,
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      title: 'Add during the load',
      variant: 'first-add-during-load',
      moment: { kind: 'after-barrier', n: 1 },
      narrative:
        'Half of the invocations idled from the very first level. Let each one load two elements and add them on the way in: the same workgroup now covers 512 elements, and the first level of the tree is free.',
    },
    {
      ...base,
      stage: { panel: 'warp-grid', drawer: 'metrics' },
      title: 'The last warp and unrolling',
      variant: 'unrolled',
      moment: { kind: 'end' },
      narrative:
        'When 32 or fewer values remain, one warp holds them all. CUDA code used to drop the barriers there (the “volatile” trick); in WGSL that is a data race, so our kernels finish with subgroupAdd. With the workgroup size an override constant, the compiler can also unroll every level.',
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'Bandwidth-bound, on your GPU',
      variant: 'vec4-atomic',
      moment: { kind: 'end' },
      narrative:
        'The last kernel barely computes: a few thousand workgroups stream the input with 16-byte loads in a grid-stride loop, reduce once each, and add their totals with one atomic. On an H100 it reads as fast as a plain copy kernel. Measure the ladder on your own device below and set it beside the seeds’ M2070 figures.',
      timings: true,
    },
  ],
};
