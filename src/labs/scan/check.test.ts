/**
 * The scan lab's check on f32: exact where every summation order is exact (whole numbers whose
 * sums stay within 2^24), the rounding bound only where it is not.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams } from '../../workbench/lab.ts';
import { scanLab } from './index.ts';
import { scanReferenceF64 } from './reference.ts';

describe('scan check on f32', () => {
  const { params } = resolveParams(scanLab, 'blelloch', { n: 4096, type: 'f32' });
  const inputs = scanLab.inputs(params, 1);
  const right = Float32Array.from(scanReferenceF64(inputs.input!, false));

  it('accepts the exact prefix sums', () => {
    expect(scanLab.check('blelloch', params, inputs, right)).toEqual({ ok: true });
  });

  it('refuses a last element off by one when the seeded whole numbers make every order exact', () => {
    const wrong = right.slice();
    wrong[wrong.length - 1]! += 1;
    const check = scanLab.check('blelloch', params, inputs, wrong);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain('element 4095');
  });

  it('refuses an inclusive scan shifted by one element (an exclusive result)', () => {
    const shifted = new Float32Array(right.length);
    shifted.set(right.subarray(0, right.length - 1), 1);
    expect(scanLab.check('blelloch', params, inputs, shifted).ok).toBe(false);
  });

  it('still allows rounding on fractional inputs, within n·u·Σ|x|', () => {
    const input = new Float32Array(4096).map((_, i) => Math.fround(0.1 * ((i % 7) - 3)));
    const want = scanReferenceF64(input, false);
    const rounded = new Float32Array(want.length);
    let acc = 0;
    for (let i = 0; i < input.length; i++) rounded[i] = acc = Math.fround(acc + input[i]!);
    expect(scanLab.check('blelloch', params, { input }, rounded)).toEqual({ ok: true });
  });
});
