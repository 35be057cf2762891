import { breakKernel, exercisesFrom } from '../../workbench/exercise.ts';
import { reduceVariant } from './variants.ts';
import { m } from './messages.ts';

const neighbored = reduceVariant('neighbored').wgsl;
const firstAdd = reduceVariant('first-add-during-load').wgsl;
const inPlace = reduceVariant('global-inplace').wgsl;

/** The tree loop of first-add-during-load, and the seed's warpReduce in its place below 64 values: no barrier, no volatile. */
const TREE_LOOP = '  for (var s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {\n    if (lid < s) {\n      sdata[lid] += sdata[lid + s];\n    }\n    workgroupBarrier();\n  }';
const UNROLLED_LAST_WARP = [
  '  for (var s = WORKGROUP_SIZE / 2u; s > 32u; s >>= 1u) {',
  '    if (lid < s) {',
  '      sdata[lid] += sdata[lid + s];',
  '    }',
  '    workgroupBarrier();',
  '  }',
  '  // The last warp runs in lockstep, so it needs no barrier (or does it?).',
  '  if (lid < 32u) {',
  '    sdata[lid] += sdata[lid + 32u];',
  '    sdata[lid] += sdata[lid + 16u];',
  '    sdata[lid] += sdata[lid + 8u];',
  '    sdata[lid] += sdata[lid + 4u];',
  '    sdata[lid] += sdata[lid + 2u];',
  '    sdata[lid] += sdata[lid + 1u];',
  '  }',
].join('\n');

/** Fix-the-kernel exercises on the reduction, from the bugs of the course's kernels. */
export const REDUCE_EXERCISES = exercisesFrom(m, 'reduce', [
  {
    id: 'reduce-tree-barrier',
    variant: 'neighbored',
    params: { n: 1024, workgroupSize: 256 },
    broken: breakKernel(neighbored, '    }\n    workgroupBarrier();\n  }', '    }\n  }'),
  },
  {
    id: 'reduce-tail-bounds',
    variant: 'neighbored',
    params: { n: 1000, workgroupSize: 256 },
    broken: breakKernel(neighbored, '  if (i < params.n) {\n    v = input[i];\n  }', '  v = input[i];'),
  },
  {
    id: 'reduce-last-warp-race',
    variant: 'first-add-during-load',
    params: { n: 4096, workgroupSize: 256 },
    broken: breakKernel(firstAdd, TREE_LOOP, UNROLLED_LAST_WARP),
  },
  {
    id: 'reduce-inplace-overwrite',
    variant: 'global-inplace',
    params: { n: 1024, workgroupSize: 256 },
    broken: breakKernel(inPlace, '    partials[group] = data[base];', '    data[group] = data[base]; // in place, as the seed kept everything in g_idata'),
  },
]);
