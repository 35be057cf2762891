/**
 * The top-k lab's CUDA tab runs the course's kernel (`cuda/seed.cu`), its fast form
 * (`cuda/fast.cu`) and the radix select (`cuda/radix.cu`) in place of the variants' WGSL, as the editor does (`cudaPass` over the lab's own passes): k and distinct come
 * from the pass's K and DISTINCT, the lists' shared memory from what the pass declares; both
 * passes give the CPU's top k.
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../kernel/types.ts';
import { simulate } from '../../sim/index.ts';
import { CudaLaunchMismatch, compileCudaDraft, cudaPass } from '../../workbench/cudaDraft.ts';
import { seededRandom } from '../../util/random.ts';
import { TOPK_TWINS } from './cudaTwins.ts';
import { topkInput } from './inputs.ts';
import { runTopk, topkRun, TOPK_FILES } from './kernel.ts';
import { topkReference } from './reference.ts';

describe('the top-k lab’s CUDA tab runs each twin in place of its WGSL', () => {
  const cases = [
    ...(['seed', 'fast'] as const).flatMap((variant) => ([[20, true], [5, false], [64, true]] as const).map(([k, distinct]) => [variant, k, distinct] as const)),
    // The radix select keeps duplicates: its instance is topkRadix<K>.
    ...([20, 5, 64] as const).map((k) => ['radix', k, false] as const),
  ];
  it.each(cases)('%s, k = %i, distinct %s', async (variant, k, distinct) => {
    const twin = TOPK_TWINS.find((t) => t.variant === variant)!;
    const program = compileCudaDraft(twin.source).program!;
    const kernel = { seed: 'topkSeed', fast: 'topkFast', radix: 'topkRadix' }[variant];
    const instance = variant === 'radix' ? `${kernel}_20` : `${kernel}_20_${distinct}`;
    const values = topkInput(seededRandom(k), 4000, 'duplicates');
    let launched = 0;
    const executor = {
      run(run: KernelRun) {
        expect(run.code).toBe(TOPK_FILES[variant].wgsl);
        const pass = cudaPass(program, run);
        // k = 20 runs the instance compiled for it; any other k the kernel that takes k as an argument.
        expect(pass.run.entryPoint).toBe(k === 20 ? instance : `${kernel}AnyK`);
        launched++;
        const result = simulate(pass.run, { trace: 'summary' });
        expect(result.diagnostics.filter((d) => d.kind === 'out-of-bounds' || d.kind === 'race')).toEqual([]);
        return Promise.resolve(pass.outputs(result.buffers));
      },
    };
    expect(Array.from(await runTopk(executor, variant, values, { k, distinct }))).toEqual(Array.from(topkReference(values, k, distinct)));
    expect(launched).toBe(2);
  });

  it('without the kernel that takes k as an argument, a k no instance was compiled for is refused, naming the values', () => {
    const source = TOPK_TWINS[0]!.source;
    const onlyInstances = source.slice(0, source.indexOf('__global__ void topkSeedAnyK')) + '\nvoid host(const int *in, int *out) { topkSeed<20, true><<<1, 128, 20 * 128 * 4>>>(in, 10, out); }\n';
    const program = compileCudaDraft(onlyInstances).program!;
    const values = topkInput(seededRandom(1), 100, 'random');
    expect(() => cudaPass(program, topkRun('seed', values, 1, { k: 20, distinct: true }))).not.toThrow();
    expect(() => cudaPass(program, topkRun('seed', values, 1, { k: 5, distinct: true }))).toThrow(CudaLaunchMismatch);
    expect(() => cudaPass(program, topkRun('seed', values, 1, { k: 5, distinct: true }))).toThrow(/K = 5/);
  });
});
