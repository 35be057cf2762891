/**
 * The scan lab's CUDA tab runs each twin's `.cu` file in place of its WGSL variant, as the editor
 * does (`cudaPass` over every dispatch of the variant's own code, `editorRun.ts`): the lab's whole
 * chain (tile scans, the scan of the tile sums, pass 3 in WGSL; the single pass's one launch; or the
 * summed-area table's rows and columns) then gives the CPU's answer, for each element type and a
 * partial last tile.
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../kernel/types.ts';
import { simulate } from '../../sim/index.ts';
import { compileCudaDraft, cudaPass } from '../../workbench/cudaDraft.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import { matrixShape, scan } from './driver.ts';
import { scanReference, summedAreaReference } from './reference.ts';
import { scanVariant, withElementType, type ScanVariantId } from './variants.ts';
import { SCAN_TWINS } from './cudaTwins.ts';

/** The vec4 single passes' kernels, and the 4-vector of each element type (their second template argument). */
const VEC4_KERNELS: Partial<Record<ScanVariantId, string>> = {
  'single-pass-vec4': 'scanSinglePassVec4',
  'single-pass-late-scan': 'scanSinglePassLateScan',
  'single-pass-warp-totals': 'scanSinglePassWarpTotals',
};
const VECTOR = { u32: 'uint4', i32: 'int4', f32: 'float4' } as const;

const simulator: KernelExecutor = { run: (run) => Promise.resolve(simulate(run, { trace: 'summary' }).buffers) };

/** The simulator with every dispatch of `variant`'s code replaced by the CUDA, as the CUDA tab runs it. */
function cudaTab(variant: ScanVariantId, source: string, launched: string[]): KernelExecutor {
  const program = compileCudaDraft(source).program!;
  const own = new Set(['u32', 'i32', 'f32'].map((t) => withElementType(scanVariant(variant).code, t as 'u32')));
  return {
    async run(run: KernelRun) {
      if (![...own].some((code) => run.code.startsWith(code))) return simulator.run(run);
      const pass = cudaPass(program, run);
      launched.push(program.kernels.find((k) => k.entryPoint === pass.run.entryPoint)!.name);
      const result = simulate(pass.run, { trace: 'summary' });
      expect(result.diagnostics.filter((d) => d.kind === 'out-of-bounds' || d.kind === 'race')).toEqual([]);
      return pass.outputs(result.buffers);
    },
  };
}

describe('the scan lab’s CUDA tab runs each twin in place of its WGSL', () => {
  it.each(SCAN_TWINS.map((t) => [t.variant, t] as const))('%s: the lab’s chain gives the CPU’s scan', async (variant, twin) => {
    const id = variant as ScanVariantId;
    const n = scanVariant(id).shape === 'matrix' ? 40 * 24 : 1000;
    for (const [type, exclusive] of [['u32', false], ['f32', true], ['i32', false]] as const) {
      const input = type === 'f32' ? Float32Array.from({ length: n }, (_, i) => (i % 13) - 6) : type === 'i32' ? Int32Array.from({ length: n }, (_, i) => (i * 7919) % 1000 - 500) : Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
      const launched: string[] = [];
      const { output } = await scan(cudaTab(id, twin.source, launched), id, input, { exclusive, workgroupSize: 64, type, width: 40 });
      const { width, height } = scanVariant(id).shape === 'matrix' ? { width: 40, height: 24 } : matrixShape(n);
      const want = scanVariant(id).shape === 'matrix' ? summedAreaReference(input, width, height, exclusive) : scanReference(input, exclusive);
      expect(Array.from(output), `${type}, ${exclusive ? 'exclusive' : 'inclusive'}`).toEqual(Array.from(want));
      // The instance the lab's pass asks for: its element type (int data runs the unsigned instance, same bits, where the
      // file has no int one) and kind of scan (the vec4 single passes with its 4-vector); the single passes spin 64 times
      // before falling back, as the WGSL's default.
      const single = scanVariant(id).shape === 'single-pass';
      const cType = type === 'f32' ? 'float' : type === 'i32' && single ? 'int' : 'unsigned int';
      expect(launched.length).toBeGreaterThan(0);
      if (scanVariant(id).shape === 'matrix') expect(launched).toEqual([`scanRows<${cType}, ${exclusive}>`, `scanColumns<${cType}, ${exclusive}>`]);
      else if (id === 'single-pass') expect(launched).toEqual([`scanSinglePass<${cType}, ${exclusive}, 64>`]);
      else if (single) expect(launched).toEqual([`${VEC4_KERNELS[id]}<${cType}, ${VECTOR[type]}, ${exclusive}, 64>`]);
      else expect(launched[0]).toMatch(new RegExp(`<${cType}, ${exclusive}>$`));
    }
  });
});
