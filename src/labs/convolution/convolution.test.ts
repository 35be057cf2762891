import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { convolutionLab, convolutionSpec } from './index.ts';
import { CONVOLUTION_VARIANTS, convolutionInputs, convolutionReference, convolutionRun, convolve1dReference, outputTileWidths, unpitch, type ConvolutionShape, type ConvolutionVariant } from './kernel.ts';
import { cellKey, convolutionPicture } from './trace.ts';

const shape = (width: number, height: number, maskWidth = 5, outTile = 12): ConvolutionShape => ({ width, height, maskWidth, outTile });

function sim(variant: ConvolutionVariant, s: ConvolutionShape, workgroup = 0) {
  const { image, mask } = convolutionInputs(s.width, s.height, s.maskWidth, 2);
  const result = simulate(convolutionRun(variant, image, mask, s), { warpSize: 32, trace: 'full', traceWorkgroups: [workgroup] });
  return { image, mask, result, out: unpitch(result.buffers[0]![2]! as Float32Array, variant, s.width, s.height) };
}

describe('convolution references', () => {
  it('1-D: the seed’s example, with ghost cells at both ends', () => {
    const out = convolve1dReference(Float32Array.of(1, 2, 3, 4, 5, 6, 7), Float32Array.of(3, 4, 5, 4, 3), 5);
    expect(out[2]).toBe(57); // 1·3 + 2·4 + 3·5 + 4·4 + 5·3
    expect(out[0]).toBe(1 * 5 + 2 * 4 + 3 * 3); // two ghost cells on the left
  });

  it('2-D: a corner pixel only sums the part of the mask over the image', () => {
    const image = new Float32Array(9).fill(1);
    const mask = new Float32Array(9).fill(2);
    expect([...convolutionReference('basic2d', image, 3, 3, mask, 3)]).toEqual([8, 12, 8, 12, 18, 12, 8, 12, 8]);
  });

  it('tile widths keep the input tile within 256 invocations', () => {
    expect(outputTileWidths(5)).toContain(12);
    expect(outputTileWidths(5).at(-1)).toBe(12);
    expect(outputTileWidths(7).at(-1)).toBe(10);
    expect(() => convolutionRun('tiled', new Float32Array(4), new Float32Array(25), shape(2, 2, 5, 13))).toThrow(/use 4, 5, .*12/);
  });
});

describe('convolution kernels on the simulator', () => {
  const shapes: ConvolutionShape[] = [shape(37, 29, 5, 12), shape(100, 13, 3, 14), shape(20, 21, 7, 10), shape(48, 48, 5, 12)];
  for (const v of CONVOLUTION_VARIANTS) {
    it.each(shapes)(`${v}: %o matches the CPU reference bit for bit, no race`, (s) => {
      const { image, mask, result, out } = sim(v, s);
      expect(result.diagnostics).toEqual([]);
      expect([...out]).toEqual([...convolutionReference(v, image, s.width, s.height, mask, s.maskWidth)]);
    });
  }
});

describe('convolution pictures from the trace', () => {
  it('hand-checked: 112 of 256 invocations idle in the compute phase of the 16 × 16 / 12 × 12 tiled kernel', () => {
    const p = convolutionPicture(sim('tiled', shape(48, 48)).result.trace!, 'tiled', shape(48, 48));
    expect(p.invocations).toBe(256);
    expect(p.idle).toHaveLength(112);
    expect(p.outputs.size).toBe(144);
    // Every invocation loaded one cell of the 16 × 16 input tile; 7 × 16 … of them are ghosts for workgroup 0.
    expect(p.loadedBy.size).toBe(256);
    expect(p.ghosts.size).toBe(16 * 16 - 14 * 14);
    expect(p.halo.size).toBe(256 - 144);
    // Invocation 17 = (1, 1) loaded input cell (−1, −1), a ghost; invocation 34 = (2, 2) loaded (0, 0).
    expect(p.loadedBy.get(cellKey({ row: -1, col: -1 }))).toBe(17);
    expect(p.loadedBy.get(cellKey({ row: 0, col: 0 }))).toBe(34);
    // An interior input cell is read by all 25 outputs around it; the corner by 1.
    expect(p.reads.get(cellKey({ row: 5, col: 5 }))).toBe(25);
    expect(p.reads.get(cellKey({ row: -2, col: -2 }))).toBe(1);
  });

  it('global loads per output: m² inside the image for the basic kernel, fewer with tiles', () => {
    // Workgroup 5 of a 64 × 64 image (4 × 4 workgroups of 16 × 16) lies away from every border.
    const basic = convolutionPicture(sim('basic2d', shape(64, 64), 5).result.trace!, 'basic2d', shape(64, 64));
    expect(basic.globalLoads / basic.outputs.size).toBe(25);
    expect(basic.idle).toHaveLength(0);
    expect(basic.ghosts.size).toBe(0);
    const corner = convolutionPicture(sim('basic2d', shape(64, 64)).result.trace!, 'basic2d', shape(64, 64));
    // The 20 × 20 box of cells within 2 of its 16 × 16 outputs, less the 18 × 18 inside the image.
    expect(corner.ghosts.size).toBe(20 * 20 - 18 * 18);
    const tiled = convolutionPicture(sim('tiled', shape(48, 48), 5).result.trace!, 'tiled', shape(48, 48));
    expect(tiled.globalLoads / tiled.outputs.size).toBeCloseTo(256 / 144, 10);
  });

  it('the vec4 tile: no invocation idles, each stores a 4 × 2 block of outputs', () => {
    const p = convolutionPicture(sim('tiled-vec4', shape(70, 40)).result.trace!, 'tiled-vec4', shape(70, 40));
    expect(p.idle).toHaveLength(0);
    expect(p.outputs.size).toBe(64 * 32);
    // The 72 × 36 tile: 64 + 2·4 columns, 32 + 2·2 rows.
    expect(p.loadedBy.size).toBe(72 * 36);
  });

  it('fits parameters and names a wrong pixel', () => {
    const tiled = convolutionLab.variants.find((v) => v.id === 'tiled')!;
    expect(convolutionSpec.maskWidth.resolve(4, tiled, {})).toMatchObject({ value: 5, notice: expect.stringMatching(/3, 5 or 7/) as unknown });
    expect(convolutionSpec.outTile.resolve(14, tiled, { maskWidth: 7 })).toMatchObject({ value: 10, notice: expect.stringMatching(/at most 256/) as unknown });
    const p = { width: 12, height: 12, maskWidth: 3, outTile: 14 };
    const inputs = convolutionLab.inputs(p, 1);
    expect(convolutionLab.check('basic2d', p, inputs, new Float32Array(144))).toMatchObject({ ok: false, message: expect.stringMatching(/pixel \(row \d+, column \d+\)/) as unknown });
  });
});
