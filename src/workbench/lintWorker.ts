/**
 * Web Worker entry for the editor's as-you-type lint: the WGSL front end and the simulator's
 * lowering (`editorLint.ts`) off the UI thread, which they would otherwise hold for about 150 ms
 * on each pause in typing. Message in: `{ id, code, entryPoint, overrides }`; out:
 * `{ id, diagnostics }` or `{ id, error }`.
 */
import { FRONT_END, type EditorDiagnostic } from './editorLint.ts';

export interface LintRequest {
  readonly id: number;
  readonly code: string;
  readonly entryPoint: string;
  readonly overrides: Readonly<Record<string, number>>;
}

export type LintResponse = { readonly id: number; readonly diagnostics: readonly EditorDiagnostic[] } | { readonly id: number; readonly error: string };

interface LintScope {
  onmessage: ((e: { data: LintRequest }) => void) | null;
  postMessage(message: LintResponse): void;
}

const scope = globalThis as unknown as LintScope;

scope.onmessage = (e) => {
  const { id, code, entryPoint, overrides } = e.data;
  try {
    const diagnostics = FRONT_END(code, { code, entryPoint, overrides, workgroups: [1], bindings: {} });
    scope.postMessage({ id, diagnostics });
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
