/**
 * The CUDA conformance suite on Dawn (the `webgpu` package; SwiftShader where there is no GPU):
 * every run case through compileCuda → prepareLaunch → the GPU executor, compared with the same
 * expectations as on the simulator. Error and launch-error cases do not reach an executor and run
 * in conformance.test.ts only. Warp-function cases need 32-lane subgroups: on an adapter whose
 * subgroup size is another (SwiftShader's is 4) they are skipped, and the skip says why.
 */
import { describe, it } from 'vitest';
import { compileCuda, prepareLaunch } from '../index.ts';
import type { GpuExecutor } from '../../gpu/executor.ts';
import { CASES } from './cases/index.ts';
import { checkRun, type FrontEnd, type RunCase } from './harness.ts';
import { KNOWN_FAILURES } from './known-failures.ts';

const FRONT_END: FrontEnd = { compileCuda, prepareLaunch };

let gpu: GpuExecutor | undefined;
let absent = '';
try {
  const { sharedNodeGpu } = await import('../../gpu/node.ts');
  gpu = await sharedNodeGpu();
} catch (e) {
  absent = e instanceof Error ? e.message : String(e);
}
const adapter = gpu?.adapter;
const subgroup = adapter?.subgroupMinSize !== undefined && adapter.subgroupMinSize === adapter.subgroupMaxSize ? adapter.subgroupMinSize : undefined;
const RUN_CASES = CASES.filter((c): c is RunCase => c.kind === 'run');

describe.skipIf(!gpu)(`CUDA conformance on Dawn${gpu ? ` (${adapter?.name ?? 'adapter'}, subgroup size ${subgroup ?? 'varies'})` : ` — skipped: no WebGPU adapter in Node (${absent})`}`, () => {
  for (const c of RUN_CASES) {
    if (c.warp && subgroup !== 32) {
      it.skip(`${c.id} [skipped: warp functions need 32-lane warps; this adapter's subgroup size is ${subgroup ?? 'not fixed'}]`, () => {});
      continue;
    }
    const known = KNOWN_FAILURES[c.id]?.dawn;
    const test = async () => {
      const failures = await checkRun(FRONT_END, c, (run) => gpu!.run(run));
      if (failures.length) throw new Error(`${c.id} (${c.spec}):\n  ${failures.join('\n  ')}`);
    };
    if (known) it.fails(`${c.id} [known failure: ${known}]`, test);
    else it(c.id, test);
  }
});
