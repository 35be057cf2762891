import { describe, expect, it } from 'vitest';
import { tileScanRun } from '../labs/scan/driver.ts';
import { scanInput } from '../labs/scan/inputs.ts';
import { simulate } from '../sim/index.ts';
import { seededRandom } from '../util/random.ts';
import { barrierPhase, endOfPhase, indexTrace } from './index.ts';

describe('barrier phases', () => {
  // Blelloch over one tile of 512: many barriers, 8 warps.
  const run = tileScanRun('blelloch', scanInput(seededRandom(3), 512, 'u32'), { workgroupSize: 256 });
  const index = indexTrace(simulate(run, { warpSize: 32, trace: 'full', traceWorkgroups: [0] }).trace!, 256);

  it('ends each phase at the step that completes its barrier', () => {
    const end0 = endOfPhase(index, 0);
    expect(barrierPhase(index, end0)).toBe(1);
    expect(barrierPhase(index, end0 - 1)).toBe(0);
  });

  it('puts the end of the phase before the first at step 0, not at the end of the trace', () => {
    expect(endOfPhase(index, -1)).toBe(0);
    // Stepping back one barrier from phase 1 (the lab's "◀ Barrier") lands on the start.
    expect(endOfPhase(index, barrierPhase(index, endOfPhase(index, 0) + 1) - 2)).toBe(0);
  });
});
