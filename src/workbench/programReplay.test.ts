import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runProgramJob, type ProgramMessage } from '../cuda/host/programProtocol.ts';
import { simulate, traceStep } from '../sim/index.ts';
import { subjectAt } from '../trace/subject.ts';
import { mainSharedMemory } from '../trace/memory.ts';
import { indexTrace } from '../trace/index.ts';
import { blockAlone, replayOffer, replaySource, type LaunchToReplay } from './programReplay.ts';

const seed = (name: string): string => readFileSync(new URL(`../cuda/host/seeds/${name}`, import.meta.url), 'utf8');

/** Launches `k(a)` twice, changing `a` on the host between them: each kept run holds its own launch-time `a`. */
const TWICE = `#include <cstdio>
__global__ void k(int *a) { a[threadIdx.x] += 10 * (blockIdx.x + 1); }
int main() {
  int h[4] = {1, 2, 3, 4};
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  h[0] = 100;
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<3, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\\n", h[0], h[3]);
}
`;

describe('replaying a program launch', () => {
  it('keeps each launch with its buffers as they were at launch', () => {
    const messages: ProgramMessage[] = [];
    const kept = runProgramJob({ source: TWICE, fileName: 't.cu', executor: 'sim' }, (m) => messages.push(m));
    const done = messages.at(-1);
    if (done?.type !== 'done') throw new Error('no done');
    expect(done.launches.map((l) => l.kept)).toEqual([true, true]);
    // The binding of `a` is the one buffer whose first words are the host's values at each launch.
    const firstWords = (i: number) => Object.values(kept.get(i)!.bindings[0]!).map((b) => Array.from(b.slice(0, 4)));
    expect(firstWords(0)).toContainEqual([1, 2, 3, 4]);
    expect(firstWords(1)).toContainEqual([100, 12, 13, 14]);
    expect(kept.get(1)!.workgroups[0]).toBe(3);
  });

  it('replays one block alone with its own blockIdx, on the launch-time buffers', () => {
    const kept = runProgramJob({ source: TWICE, fileName: 't.cu', executor: 'sim' }, () => undefined);
    const run = kept.get(1)!;
    const alone = simulate(run, { trace: 'full', traceWorkgroups: [2], ...blockAlone(run, 2) });
    const whole = simulate(run, { trace: 'summary' });
    const a = (r: typeof alone) => Object.values(r.buffers[0]!).map((b) => Array.from(b.slice(0, 4))).find((w) => w[1]! > 12)!;
    // Block 2 alone adds 30 once; the whole launch adds 10 + 20 + 30.
    expect(a(alone)).toEqual([130, 42, 43, 44]);
    expect(a(whole)).toEqual([160, 72, 73, 74]);
    expect(alone.trace!.stepCount).toBeGreaterThan(0);
  });

  it("steps seed 003's shared-memory histogram to its atomicAdd on the CUDA line, with the words it adds", () => {
    const source = seed('003-histogram-shared.cu');
    const kept = runProgramJob({ source, fileName: 'program.cu', executor: 'sim' }, () => undefined);
    const run = kept.get(0)!;
    const map = replaySource(source, 'program.cu', {}, run.code);
    expect(map).toBeDefined();
    const result = simulate(run, { trace: 'full', traceWorkgroups: [0] });
    const index = indexTrace(result.trace!);
    const atomicLine = source.split('\n').findIndex((l) => l.includes('atomicAdd(&(histo_private')) + 1;
    let found = -1;
    for (let s = 0; s < result.trace!.stepCount && found < 0; s++) {
      const v = traceStep(result.trace!, s);
      const at = map!.toCuda(v.line, v.column);
      if (at?.line === atomicLine) found = s;
    }
    expect(found).toBeGreaterThanOrEqual(0);
    // Its subject: the words of histo_private the lanes add to (bins 0…6).
    const subject = subjectAt(index, found, mainSharedMemory(result.trace!));
    expect(subject.words.length).toBeGreaterThan(0);
    expect(subject.words.every((w) => w >= 0 && w < 7)).toBe(true);
  });

  it('offers one block for a launch the simulator took long over, and nothing for a quick one', () => {
    const base = { index: 0, kernel: 'k', line: 3, block: { x: 256, y: 1, z: 1 }, run: { code: '', entryPoint: 'k', workgroups: [4096], bindings: {} } } as const;
    const slow: LaunchToReplay = { ...base, grid: { x: 4096, y: 1, z: 1 }, ms: 9000 };
    expect(replayOffer(slow)).toEqual({ seconds: 14 });
    expect(replayOffer({ ...slow, ms: 40 })).toBeUndefined();
    expect(replayOffer({ ...slow, grid: { x: 1, y: 1, z: 1 } })).toBeUndefined();
  });
});
