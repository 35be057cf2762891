/**
 * Every scan variant on the GPU (Dawn; SwiftShader where there is no GPU) against the CPU
 * reference, for lengths that hit one element, a partial tile, several tiles, and enough tiles
 * that the tile sums themselves need a multi-block scan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../../gpu/node.ts';
import type { GpuExecutor } from '../../gpu/executor.ts';
import { dataMismatch } from '../../gpu/testkit.ts';
import type { BindingData } from '../../kernel/types.ts';
import { seededRandom } from '../../util/random.ts';
import type { ElementType } from '../../workbench/labTypes.ts';
import { scan, singlePassRun, singlePassVec4Run, type ScanOptions } from './driver.ts';
import { scanInput } from './inputs.ts';
import { scanReference, scanReferenceF64, summedAreaReference } from './reference.ts';
import { SCAN_VARIANTS, largestWorkgroupSize, scanSupport, type ScanVariant } from './variants.ts';

let gpu: GpuExecutor; // kept referenced for the whole file: Dawn crashes if it is collected
beforeAll(async () => {
  gpu = await sharedNodeGpu();
});

/**
 * 2^18 + 1 is the smallest length whose tile sums need a multi-block scan of their own at every
 * tile size the variants have at 256 lanes (tiles of 256: 1 025 tiles, 5 sums tiles; tiles of 512:
 * 513, then 2): the third scan level, the one path only a large length reaches, with one element
 * in the last tile at each level. (2^20 + 3 reached the same levels at four times the work.)
 * The summed-area table takes it as 481 × 545: rows and columns both span several workgroups'
 * worth of elements and end part-way into one.
 */
const LENGTHS = [1, 7, 1000, 2 ** 16, 2 ** 18 + 1];
const SHAPES: Record<number, [number, number]> = { 1: [1, 1], 7: [7, 1], 1000: [40, 25], [2 ** 16]: [256, 256], [2 ** 18 + 1]: [481, 545] };

function expectSame(actual: BindingData, expected: BindingData): void {
  expect(dataMismatch(actual, expected)).toBeNull();
}

function reference(v: ScanVariant, input: BindingData, exclusive: boolean): BindingData {
  if (v.shape !== 'matrix') return scanReference(input, exclusive);
  const [w, h] = SHAPES[input.length] ?? [input.length, 1];
  return summedAreaReference(input, w, h, exclusive);
}

async function run(v: ScanVariant, input: BindingData, opts: ScanOptions): Promise<BindingData> {
  const width = v.shape === 'matrix' ? (SHAPES[input.length]?.[0] ?? input.length) : undefined;
  return (await scan(gpu, v.id, input, { ...opts, ...(width ? { width } : {}) })).output;
}

const supported = (v: ScanVariant, type: ElementType = 'u32'): boolean =>
  scanSupport(v, v.defaultWorkgroupSize, type, gpu.adapter!).ok;

describe.each(SCAN_VARIANTS.map((v) => [v.id, v] as const))('scan/%s on the GPU', (_id, v) => {
  it.for(LENGTHS.flatMap((n) => [[n, 'inclusive'], [n, 'exclusive']] as const))(
    'u32, %i elements, %s, equals the CPU reference (wrapping)',
    async ([n, mode], ctx) => {
      if (!supported(v)) ctx.skip();
      const input = scanInput(seededRandom(n), n, 'u32');
      const exclusive = mode === 'exclusive';
      expectSame(await run(v, input, { exclusive }), reference(v, input, exclusive));
    },
  );

  // Each new type or mode compiles another pipeline, which is what costs time on SwiftShader: one
  // length per type, f32 exclusive here and inclusive in the rounding test below. Small integers
  // make every summation order exact, so f32 must match bit for bit.
  const typed: readonly (readonly [ElementType, number])[] = [['f32', 2 ** 16], ...(v.id === 'blelloch' ? ([['i32', 1000]] as const) : [])];
  it.for(typed)(
    '%s, %i small integers, exclusive, bit for bit',
    async ([type, n], ctx) => {
      if (!supported(v, type)) ctx.skip();
      const input = scanInput(seededRandom(n + 1), n, type, 'small-integers');
      expectSame(await run(v, input, { exclusive: true }), reference(v, input, true));
    },
  );

  it('f32 over [−1, 1) stays within the rounding of its summation tree', async (ctx) => {
    if (!supported(v, 'f32') || v.shape === 'matrix') ctx.skip();
    const n = 2 ** 16;
    const input = scanInput(seededRandom(5), n, 'f32') as Float32Array;
    const out = await run(v, input, {});
    const exact = scanReferenceF64(input, false);
    const absSums = scanReferenceF64(input.map(Math.abs), false);
    // Any order of k additions errs by at most (depth)·u·Σ|x|, u = 2^−24. A tree is ~log2 n deep;
    // allow 4·(log2 n + 1). A missing or doubled element (~0.5) is far larger at this n.
    let worst = 0;
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(out[i]! - exact[i]!) / (4 * 17 * 2 ** -24 * absSums[i]! + 1e-30));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('runs at another workgroup size', async (ctx) => {
    if (v.shape === 'single-pass') ctx.skip(); // its pipeline takes seconds to build on SwiftShader
    const wg = v.workgroupSizes.find((w) => w !== v.defaultWorkgroupSize && scanSupport(v, w, 'u32', gpu.adapter!).ok);
    if (wg === undefined || !supported(v)) ctx.skip();
    const n = 5000;
    const input = scanInput(seededRandom(9), n, 'u32');
    expectSame(await run(v, input, { workgroupSize: wg! }), reference(v, input, false));
  });
});

describe('scan drivers on the GPU', () => {
  it('fold more than 65 535 tiles into a 2-D grid (Hillis–Steele, 32-element tiles)', async () => {
    const n = 32 * 65_535 + 33; // 65 537 tiles
    const input = scanInput(seededRandom(3), n, 'u32');
    const { output, passes } = await scan(gpu, 'hillis-steele', input, { workgroupSize: 32 });
    expect(passes[0]!.workgroups[1]).toBeGreaterThan(1);
    expectSame(output, scanReference(input, false));
  });

  it('single pass: correct when every look-back falls back (SPIN_LIMIT = 0)', async () => {
    const n = 2 ** 16 + 5;
    const input = scanInput(seededRandom(11), n, 'u32');
    const out = await gpu.run(singlePassRun(input, { spinLimit: 0 }));
    expectSame(out[0]![1]!, scanReference(input, false));
  });

  it('single pass: reuses its status buffer across dispatches without a reset', async () => {
    const n = 100_000;
    let status: Uint32Array | undefined;
    for (let d = 0; d < 3; d++) {
      const input = scanInput(seededRandom(20 + d), n, 'u32');
      const out = await gpu.run(singlePassRun(input, { exclusive: d === 1, ...(status ? { status } : {}) }));
      expectSame(out[0]![1]!, scanReference(input, d === 1));
      status = out[0]![2] as Uint32Array;
      expect(status[0]).toBe((d + 1) * Math.ceil(n / 2048)); // one ticket per tile per dispatch
    }
  });

  const vec4Supported = (): boolean => gpu.adapter!.hasSubgroups;

  // The shipped vec4 single pass, its reordering (in-tile scans after the look-back) and the one
  // whose subgroup 0 scans the subgroups' totals.
  const vec4Ids = ['single-pass-vec4', 'single-pass-late-scan', 'single-pass-warp-totals'] as const;

  it.for(vec4Ids)('%s: correct when every look-back falls back (SPIN_LIMIT = 0), both modes', async (id, ctx) => {
    if (!vec4Supported()) ctx.skip();
    const n = 2 ** 16 + 5; // 9 tiles of 8 192: every tile reduces all its predecessors itself
    const input = scanInput(seededRandom(12), n, 'u32');
    for (const exclusive of [false, true]) {
      const out = await gpu.run(singlePassVec4Run(input, { spinLimit: 0, exclusive }, id));
      expectSame(out[0]![1]!.slice(0, n), scanReference(input, exclusive));
    }
  });

  it.for(vec4Ids)('%s: reuses its status buffer across dispatches without a reset', async (id, ctx) => {
    if (!vec4Supported()) ctx.skip();
    const n = 100_003;
    let status: Uint32Array | undefined;
    for (let d = 0; d < 3; d++) {
      const input = scanInput(seededRandom(30 + d), n, 'u32');
      const out = await gpu.run(singlePassVec4Run(input, { exclusive: d === 1, ...(status ? { status } : {}) }, id));
      expectSame(out[0]![1]!.slice(0, n), scanReference(input, d === 1));
      status = out[0]![2] as Uint32Array;
      expect(status[0]).toBe((d + 1) * Math.ceil(n / 8192)); // one ticket per tile per dispatch
    }
  });

  it.for(vec4Ids)('%s: i32 wraps like the reference', async (id, ctx) => {
    if (!vec4Supported()) ctx.skip();
    const n = 5001;
    const input = scanInput(seededRandom(13), n, 'i32');
    expectSame(await run(SCAN_VARIANTS.find((v) => v.id === id)!, input, {}), scanReference(input, false));
  });

  it('knows the largest workgroup each variant can use here', () => {
    for (const v of SCAN_VARIANTS) {
      const wg = largestWorkgroupSize(v, 'u32', gpu.adapter!);
      if (v.needsSubgroups && !gpu.adapter!.hasSubgroups) expect(wg).toBeUndefined();
      else expect(wg).toBeLessThanOrEqual(gpu.adapter!.limits.maxComputeInvocationsPerWorkgroup);
    }
  });
});
