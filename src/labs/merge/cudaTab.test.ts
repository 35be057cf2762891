/**
 * The merge lab's CUDA tab runs each twin's `.cu` file in place of its WGSL variant, as the editor
 * does (`cudaPass` over every dispatch of the variant's own code, `editorRun.ts`): the instance of
 * the lab's element type, A and B from the lab's buffers, m and n from its sizes; for the fast
 * merge the lab's WGSL partition pass runs first and the CUDA's merge kernel (not its partition
 * kernel) takes the merge pass. The lab's result is the CPU's merge.
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../kernel/types.ts';
import { simulate } from '../../sim/index.ts';
import { compileCudaDraft, cudaPass } from '../../workbench/cudaDraft.ts';
import { seededRandom } from '../../util/random.ts';
import { MERGE_TWINS } from './cudaTwins.ts';
import { mergeInputs } from './inputs.ts';
import { MERGE_FILES, runMerge, typedSource, type MergeVariant } from './kernel.ts';
import { mergeReference } from './reference.ts';

const KERNELS: Record<MergeVariant, string> = { basic: 'mergeBasic', tiled: 'mergeTiled', fast: 'mergeFast', stream: 'mergeStream', wide: 'mergeWide' };
const C_TYPES = { i32: 'int', f32: 'float', u32: 'unsigned int' } as const;

describe('the merge lab’s CUDA tab runs each twin in place of its WGSL', () => {
  it.each(MERGE_TWINS.map((t) => [t.variant, t] as const))('%s', async (id, twin) => {
    const variant = id as MergeVariant;
    const program = compileCudaDraft(twin.source).program!;
    for (const type of ['i32', 'f32', 'u32'] as const) {
      const data = mergeInputs(seededRandom(7), 'duplicates', 1333, 1250, type);
      const launched: string[] = [];
      const executor = {
        run(run: KernelRun) {
          if (run.code !== typedSource(MERGE_FILES[variant].wgsl, type)) return Promise.resolve(simulate(run, { trace: 'summary' }).buffers);
          const pass = cudaPass(program, run);
          launched.push(program.kernels.find((k) => k.entryPoint === pass.run.entryPoint)!.name);
          const result = simulate(pass.run, { trace: 'summary' });
          expect(result.diagnostics.filter((d) => d.kind === 'out-of-bounds' || d.kind === 'race')).toEqual([]);
          return Promise.resolve(pass.outputs(result.buffers));
        },
      };
      const merged = await runMerge(executor, variant, data);
      expect(launched).toEqual([`${KERNELS[variant]}<${C_TYPES[type]}>`]);
      expect(Array.from(merged).slice(0, data.m + data.n), type).toEqual(Array.from(mergeReference(data.a, data.m, data.b, data.n)));
    }
  });
});
