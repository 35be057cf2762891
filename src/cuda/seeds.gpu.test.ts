/**
 * The posts' kernels on Dawn (SwiftShader where there is no GPU): the same cases as
 * seeds.test.ts, run on the GPU executor and on the simulator; both must equal the CPU reference.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { GpuExecutor } from '../gpu/executor.ts';
import { sharedNodeGpu } from '../gpu/node.ts';
import { simulate } from '../sim/index.ts';
import { compileCuda, prepareLaunch } from './index.ts';
import { SEED_CASES, seedLines } from './testdata/seeds.ts';

let gpu: GpuExecutor;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
});

const FILES = { 'error.cuh': '#pragma once\n#define CHECK(call) call\n' };

describe("the posts' kernels on Dawn and on the simulator", () => {
  it.each(SEED_CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const text = seedLines(c.seed, c.lines[0], c.lines[1]);
    const r = compileCuda(c.fix ? c.fix.apply(text) : text, { fileName: `post-${c.seed}.cu`, files: FILES });
    if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`).join('\n'));
    // The post's block where the adapter allows it, else the same kernel at 256 threads.
    const threads = c.config.block.x * c.config.block.y * c.config.block.z;
    const at = c.narrow && threads > (await gpu.ready()).summary.limits.maxComputeInvocationsPerWorkgroup ? c.narrow : c;
    const args = at.args();
    const launch = prepareLaunch(r.program, c.kernel, at.config, args);
    const onGpu = launch.readBack(await gpu.run(launch.run));
    const onSim = launch.readBack(simulate(launch.run, { trace: 'summary' }).buffers);
    for (const [name, want] of Object.entries(at.expected(args))) {
      expect(Array.from(onGpu[name] as ArrayLike<number>), `${name} on Dawn`).toEqual(Array.from(want));
      expect(Array.from(onSim[name] as ArrayLike<number>), `${name} on the simulator`).toEqual(Array.from(want));
    }
  });
});
