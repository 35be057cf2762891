/**
 * A small CodeMirror editor for a whole CUDA program: C++/CUDA highlighting, line numbers, history,
 * compile errors marked at their CUDA line and column, Ctrl/Cmd+Enter to run; Tab passes it until the learner types, and Escape then Tab leaves it.
 * Text set from outside (an example, an opened file) replaces the document.
 */
import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { darkHighlight } from '../editor/highlight.ts';
import { lintGutter, setDiagnostics, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import type { CudaDiagnostic as Diagnostic } from '../../workbench/programClient.ts';
import { cudaLanguage } from '../editor/cudaLanguage.ts';

interface Props {
  readonly value: string;
  readonly label: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly onChange: (text: string) => void;
  readonly onRun: () => void;
}

/** A 1-based CUDA line and column as a document offset, clamped into the text. */
function offsetOf(state: EditorState, line: number, column: number): number {
  const l = state.doc.line(Math.min(Math.max(1, line), state.doc.lines));
  return Math.min(l.from + Math.max(0, column - 1), l.to);
}

export function CudaEditor({ value, label, diagnostics, onChange, onRun }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const handlers = useRef({ onChange, onRun });
  handlers.current = { onChange, onRun };

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          cudaLanguage,
          syntaxHighlighting(darkHighlight),
          lintGutter(),
          keymap.of([
            { key: 'Mod-Enter', run: () => (handlers.current.onRun(), true) },
            { key: 'Escape', run: (ed) => (ed.setTabFocusMode(true), true) },
            ...defaultKeymap,
            ...historyKeymap,
            indentWithTab,
          ]),
          EditorView.updateListener.of((u) => {
            // As in the lab's editor: typing is what makes Tab indent.
            if (u.transactions.some((tr) => tr.isUserEvent('input') || tr.isUserEvent('delete'))) u.view.setTabFocusMode(false);
            if (u.docChanged) handlers.current.onChange(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'program-editor' }),
        ],
      }),
    });
    // Until the learner types, Tab moves the focus on; Escape then Tab leaves after typing.
    v.setTabFocusMode(true);
    view.current = v;
    return () => v.destroy();
    // The editor is made once; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const marks: CmDiagnostic[] = diagnostics.map((d) => {
      const from = offsetOf(v.state, d.line, d.column);
      const to = Math.min(v.state.doc.lineAt(from).to, from + 1);
      return { from, to: Math.max(to, from), severity: d.severity, message: `${d.line}:${d.column}: ${d.message}` };
    });
    v.dispatch(setDiagnostics(v.state, marks));
  }, [diagnostics]);

  return <div ref={host} className="program-editor" />;
}
