/**
 * Diagnostics for the lab editor, in one shape whatever found them: our WGSL front end as you type,
 * the simulator after a replay (race, barrier divergence, out-of-bounds, step limit), and the
 * browser's WGSL compiler (Dawn in Chromium) when the GPU compiles.
 *
 * The front end is reached through `FRONT_END` only: the WGSL front end in `src/wgsl`, which
 * reports every diagnostic with a range, followed by the simulator's lowering.
 */
import type { KernelRun } from '../kernel/types.ts';
import type { ShaderMessage } from '../gpu/errors.ts';
import type { Diagnostic } from '../sim/machine.ts';
import { CAPABLE_ADAPTER_LIMITS, compile } from '../sim/program.ts';
import { check } from '../wgsl/checker.ts';

export type EditorSource = 'front end' | 'simulator' | 'GPU compiler';

/** One annotation: 1-based lines and columns; the end is exclusive, on the same or a later line. */
export interface EditorDiagnostic {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly source: EditorSource;
  /** The simulator's diagnostic kind (`race`, `step-limit`…), when it found it. */
  readonly kind?: string;
}

/** A front end: diagnostics of `code` compiled as the lab dispatches it. */
export type FrontEnd = (code: string, run: KernelRun) => readonly EditorDiagnostic[];

/** Where a point diagnostic ends: the end of the word (or the one character) it starts at. */
export function tokenEnd(code: string, line: number, column: number): { endLine: number; endColumn: number } {
  const text = code.split('\n')[line - 1] ?? '';
  const rest = text.slice(column - 1);
  const word = /^[A-Za-z_0-9]+/.exec(rest)?.[0].length ?? (rest.length > 0 ? 1 : 0);
  return { endLine: line, endColumn: column + Math.max(1, word) };
}

/**
 * Our WGSL front end (`src/wgsl`) as the editor's linter: every diagnostic it finds, errors and
 * warnings, each with its full range; then, for a module the browser would accept, the
 * simulator's lowering, so a construct the simulator cannot run yet is said as you type too.
 */
export const wgslFrontEnd: FrontEnd = (code, run) => {
  const checked = check(code, { entryPoint: run.entryPoint, overrides: run.overrides ?? {}, limits: CAPABLE_ADAPTER_LIMITS });
  const out: EditorDiagnostic[] = checked.diagnostics.map((d) => {
    // A range that ends where it starts (an end of file, say) still gets one character to mark.
    const empty = d.range.end.line === d.line && d.range.end.col <= d.col;
    const end = empty ? tokenEnd(code, d.line, d.col) : { endLine: d.range.end.line, endColumn: d.range.end.col };
    return { line: d.line, column: d.col, ...end, severity: d.severity, message: d.message, source: 'front end', kind: d.stage };
  });
  if (out.some((d) => d.severity === 'error')) return out;
  const lowered = compile(code, run.entryPoint, run.overrides ?? {});
  if (!lowered.ok) {
    for (const d of lowered.diagnostics) {
      out.push({ line: d.line, column: d.column, ...tokenEnd(code, d.line, d.column), severity: 'error', message: `${d.message} (the simulator cannot run this yet)`, source: 'front end', kind: d.kind });
    }
  }
  return out;
};

/** The front end the editor lints with. */
export const FRONT_END: FrontEnd = wgslFrontEnd;

/** The simulator's findings after a replay, as annotations on their lines. */
export function simulatorDiagnostics(code: string, list: readonly Diagnostic[]): EditorDiagnostic[] {
  const seen = new Set<string>();
  const out: EditorDiagnostic[] = [];
  for (const d of list) {
    const key = `${d.kind}:${d.line}:${d.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      line: d.line,
      column: d.column,
      ...tokenEnd(code, d.line, d.column),
      severity: d.kind === 'unsupported' || d.kind === 'trace-limit' ? 'warning' : 'error',
      message: `${d.kind}: ${d.message}`,
      source: 'simulator',
      kind: d.kind,
    });
  }
  return out;
}

/** The browser compiler's messages (already moved back from guarded code to the draft's lines). */
export function compilerDiagnostics(code: string, messages: readonly ShaderMessage[]): EditorDiagnostic[] {
  return messages
    .filter((m) => m.line > 0)
    .map((m) => ({
      line: m.line,
      column: Math.max(1, m.column),
      ...tokenEnd(code, m.line, Math.max(1, m.column)),
      severity: m.severity === 'error' ? 'error' : m.severity === 'warning' ? 'warning' : 'info',
      message: m.message,
      source: 'GPU compiler' as const,
    }));
}
