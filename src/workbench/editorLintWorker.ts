/** The page's lint client: `lintWorker.ts` in a module worker, its URL through the Trusted Types policy. */
import { createLintClient } from './lintClient.ts';
import lintWorkerUrl from './lintWorker.ts?worker&url';
import { workerScriptUrl } from './trustedTypes.ts';

export const editorLint = createLintClient(() =>
  typeof Worker === 'undefined' ? undefined : new Worker(workerScriptUrl(lintWorkerUrl), { type: 'module', name: 'warpscope-lint' }),
);

// A hot update of this module (dev server) replaces it: its worker goes with it.
import.meta.hot?.dispose(() => editorLint.dispose());
