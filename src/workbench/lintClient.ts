/**
 * The editor's as-you-type lint on a worker of its own (`lintWorker.ts`), so typing never waits
 * for the WGSL front end. Where no worker can start (or it fails), the lint runs here instead:
 * slower to the eye, never lost.
 */
import type { KernelRun } from '../kernel/types.ts';
import { FRONT_END, type EditorDiagnostic } from './editorLint.ts';
import type { LintRequest, LintResponse } from './lintWorker.ts';

interface LintWorkerLike {
  postMessage(message: LintRequest): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<LintResponse>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
}

export interface LintClient {
  /** The diagnostics of `run.code` compiled for `run.entryPoint` with `run.overrides`. */
  lint(run: KernelRun): Promise<readonly EditorDiagnostic[]>;
  dispose(): void;
}

const inThread = (run: KernelRun): readonly EditorDiagnostic[] => FRONT_END(run.code, run);

export function createLintClient(spawn: () => LintWorkerLike | undefined): LintClient {
  let worker: LintWorkerLike | undefined;
  let broken = false;
  let nextId = 1;
  const pending = new Map<number, { run: KernelRun; resolve: (d: readonly EditorDiagnostic[]) => void }>();

  const fail = () => {
    broken = true;
    worker?.terminate();
    worker = undefined;
    // What was asked of the worker is answered here.
    for (const p of pending.values()) p.resolve(inThread(p.run));
    pending.clear();
  };

  const ensure = (): LintWorkerLike | undefined => {
    if (worker || broken) return worker;
    try {
      worker = spawn();
    } catch {
      worker = undefined;
    }
    if (!worker) {
      broken = true;
      return undefined;
    }
    worker.onmessage = (e) => {
      const p = pending.get(e.data.id);
      if (!p) return;
      pending.delete(e.data.id);
      p.resolve('diagnostics' in e.data ? e.data.diagnostics : inThread(p.run));
    };
    worker.onerror = fail;
    return worker;
  };

  return {
    lint(run) {
      const w = ensure();
      if (!w) return Promise.resolve(inThread(run));
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, { run, resolve });
        w.postMessage({ id, code: run.code, entryPoint: run.entryPoint, overrides: run.overrides ?? {} });
      });
    },
    dispose() {
      worker?.terminate();
      worker = undefined;
      for (const p of pending.values()) p.resolve([]);
      pending.clear();
    },
  };
}
