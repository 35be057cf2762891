/**
 * The merge lab's CUDA tab runs the basic and tiled `.cu` files in place of their WGSL variants,
 * as the editor does (`cudaPass` over the lab's own pass): the instance of the lab's element
 * type, A and B from the lab's buffers, m and n from its sizes; the merge is the CPU's.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { compileCudaDraft, cudaPass } from '../../workbench/cudaDraft.ts';
import { seededRandom } from '../../util/random.ts';
import { MERGE_TWINS } from './cudaTwins.ts';
import { mergeInputs } from './inputs.ts';
import { mergeRun } from './kernel.ts';
import { mergeReference } from './reference.ts';

describe('the merge lab’s CUDA tab runs each twin in place of its WGSL', () => {
  it.each(MERGE_TWINS.map((t) => [t.variant, t] as const))('%s', (variant, twin) => {
    const program = compileCudaDraft(twin.source).program!;
    for (const type of ['i32', 'f32', 'u32'] as const) {
      const data = mergeInputs(seededRandom(7), 'duplicates', 333, 250, type);
      const pass = cudaPass(program, mergeRun(variant as 'basic' | 'tiled', data));
      expect(program.kernels.find((k) => k.entryPoint === pass.run.entryPoint)?.name).toBe(`${variant === 'basic' ? 'mergeBasic' : 'mergeTiled'}<${{ i32: 'int', f32: 'float', u32: 'unsigned int' }[type]}>`);
      const result = simulate(pass.run, { trace: 'summary' });
      expect(result.diagnostics.filter((d) => d.kind === 'out-of-bounds' || d.kind === 'race')).toEqual([]);
      expect(Array.from(pass.outputs(result.buffers)[0]![2]!), type).toEqual(Array.from(mergeReference(data.a, data.m, data.b, data.n)));
    }
  });
});
