import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../kernel/types.ts';
import { FRONT_END } from './editorLint.ts';
import { createLintClient } from './lintClient.ts';
import type { LintRequest, LintResponse } from './lintWorker.ts';

const run = (code: string): KernelRun => ({ code, entryPoint: 'main', workgroups: [1], bindings: {} });
const GOOD = '@compute @workgroup_size(1) fn main() {}';
const BAD = '@compute @workgroup_size(1) fn main() { let x = ; }';

/** A worker that answers on a later task, as a real one does, or fails. */
function fakeWorker(mode: 'answer' | 'fail') {
  const posted: LintRequest[] = [];
  const w = {
    onmessage: null as ((e: MessageEvent<LintResponse>) => void) | null,
    onerror: null as ((e: ErrorEvent) => void) | null,
    terminated: false,
    postMessage(m: LintRequest) {
      posted.push(m);
      setTimeout(() => {
        if (mode === 'fail') w.onerror?.({ message: 'boom' } as ErrorEvent);
        else w.onmessage?.({ data: { id: m.id, diagnostics: FRONT_END(m.code, { ...run(m.code), overrides: m.overrides }) } } as MessageEvent<LintResponse>);
      }, 0);
    },
    terminate() {
      w.terminated = true;
    },
  };
  return { w, posted };
}

describe('lint client', () => {
  it('asks the worker and gives back what the front end finds, with ranges', async () => {
    const { w, posted } = fakeWorker('answer');
    const client = createLintClient(() => w);
    const [good, bad] = await Promise.all([client.lint(run(GOOD)), client.lint(run(BAD))]);
    expect(posted.map((p) => p.id)).toEqual([1, 2]);
    expect(good).toEqual([]);
    expect(bad).toEqual(FRONT_END(BAD, run(BAD)));
    expect(bad[0]).toMatchObject({ line: 1, severity: 'error', source: 'front end' });
  });

  it('lints on this thread when the worker fails or cannot start, losing nothing', async () => {
    const { w } = fakeWorker('fail');
    const client = createLintClient(() => w);
    expect(await client.lint(run(BAD))).toEqual(FRONT_END(BAD, run(BAD)));
    expect(w.terminated).toBe(true);
    expect(await client.lint(run(BAD))).toEqual(FRONT_END(BAD, run(BAD)));
    const none = createLintClient(() => undefined);
    expect(await none.lint(run(BAD))).toEqual(FRONT_END(BAD, run(BAD)));
  });
});
