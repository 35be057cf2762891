/**
 * Diagnostics for the lab editor, in one shape whatever found them: our WGSL front end as you type,
 * the simulator after a replay (race, barrier divergence, out-of-bounds, step limit), and the
 * browser's WGSL compiler (Dawn in Chromium) when the GPU compiles.
 *
 * The front end is reached through `FRONT_END` only. Today it is the simulator's compile path
 * (`src/sim`), which stops at the first error and gives a point; when the new front end
 * (`src/wgsl`, every diagnostic with a range) lands, pointing `FRONT_END` at it is the one change.
 */
import type { KernelRun } from '../kernel/types.ts';
import type { ShaderMessage } from '../gpu/errors.ts';
import { WgslError } from '../sim/ast.ts';
import { Compiler } from '../sim/compile.ts';
import { Machine, type Diagnostic } from '../sim/machine.ts';
import { parseWgsl } from '../sim/parser.ts';

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

/** The simulator's parser and compiler as a front end: the first error, widened to its token. */
export const simulatorFrontEnd: FrontEnd = (code, run) => {
  try {
    const module = parseWgsl(code);
    new Compiler(new Machine(32), { module, entryPoint: run.entryPoint, bindings: run.bindings, overrides: run.overrides ?? {} }).compile();
    return [];
  } catch (e) {
    if (!(e instanceof WgslError)) throw e;
    const { line, col } = e.pos;
    return [
      {
        line,
        column: col,
        ...tokenEnd(code, line, col),
        severity: 'error',
        message: e.kind === 'unsupported' ? `${e.message} (the simulator cannot run this yet)` : e.message,
        source: 'front end',
        kind: e.kind,
      },
    ];
  }
};

/** The front end the editor lints with (switch to `src/wgsl` here). */
export const FRONT_END: FrontEnd = simulatorFrontEnd;

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
