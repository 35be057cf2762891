import { describe, expect, it } from 'vitest';
import type { WorkerRequest, WorkerResponse } from './worker.ts';
import { createSimWorker, SimCancelled } from './workerClient.ts';

/** A worker that records what it is sent and lets the test answer or fail it. */
class FakeWorker {
  sent: WorkerRequest[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  postMessage(m: WorkerRequest): void {
    this.sent.push(m);
  }
  terminate(): void {
    this.terminated = true;
  }
  fail(message: string): void {
    this.onerror?.({ message } as ErrorEvent);
  }
}

const run = { code: '', entryPoint: 'main', workgroups: [1] as [number], bindings: {} };

/** A client over fake workers, and every worker it has started, in order. */
function fakeWorkers() {
  const spawned: FakeWorker[] = [];
  const client = createSimWorker(() => {
    const w = new FakeWorker();
    spawned.push(w);
    return w;
  });
  return { client, spawned };
}

describe('simulation worker client', () => {
  it('a worker that fails (blocked, or out of memory) is replaced, and the failure says what happened', async () => {
    const { client, spawned } = fakeWorkers();
    const job = client.simulate(run);
    spawned[0]!.fail('');
    await expect(job.promise).rejects.toThrow(
      'The simulation worker stopped without a message: it could not start (a Content-Security-Policy without worker-src for this page?) or ran out of memory. Reload the page; with a large input, choose a smaller one.',
    );
    expect(spawned[0]!.terminated).toBe(true);
    // The next run gets a fresh worker rather than the dead one.
    const next = client.simulate(run);
    expect(spawned).toHaveLength(2);
    expect(spawned[1]!.sent).toHaveLength(1);
    next.cancel();
    await expect(next.promise).rejects.toBeInstanceOf(SimCancelled);
    client.dispose();
  });

  it('keeps a worker error message that has one', async () => {
    const { client, spawned } = fakeWorkers();
    const job = client.simulate(run);
    spawned[0]!.fail('Uncaught RangeError: Array buffer allocation failed');
    await expect(job.promise).rejects.toThrow('The simulation worker failed: Uncaught RangeError: Array buffer allocation failed');
    client.dispose();
  });
});
