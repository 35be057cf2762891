/**
 * The editor's memory of the text that last ran: trace lines refer to that text, so the current
 * line and the run's findings are mapped through every edit since (no React, testable in Node).
 */
import { ChangeSet, StateEffect, StateField, type EditorState, type Text } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';

/** The text that last ran and the edits since, so its line numbers can be found in today's text. */
interface RunMap {
  readonly doc: Text;
  readonly since: ChangeSet;
}

export const markRunEffect = StateEffect.define<null>();
/** Asks the linter to run again (findings from a run arrived; the text did not change). */
export const relintEffect = StateEffect.define<null>();
export const setLineEffect = StateEffect.define<number | null>();

export const runMapField = StateField.define<RunMap>({
  create: (state) => ({ doc: state.doc, since: ChangeSet.empty(state.doc.length) }),
  update(value, tr) {
    if (tr.effects.some((e) => e.is(markRunEffect))) return { doc: tr.state.doc, since: ChangeSet.empty(tr.state.doc.length) };
    return tr.docChanged ? { doc: value.doc, since: value.since.compose(tr.changes) } : value;
  },
});

/** Where a 1-based line and column of the text that last ran is now, or -1 when that line is gone. */
export function mapRunPosition(state: EditorState, line: number, column = 1): number {
  const map = state.field(runMapField);
  if (line < 1 || line > map.doc.lines) return -1;
  const l = map.doc.line(line);
  const pos = Math.min(l.to, l.from + Math.max(0, column - 1));
  return map.since.mapPos(pos, 1);
}

const currentLineMark = Decoration.line({ class: 'cm-current-step', attributes: { 'data-current-step': 'yes' } });

/** The current line as a position in today's text, mapped through edits. */
export const currentLineField = StateField.define<{ pos: number; deco: DecorationSet }>({
  create: () => ({ pos: -1, deco: Decoration.none }),
  update(value, tr) {
    let pos = tr.docChanged && value.pos >= 0 ? tr.changes.mapPos(value.pos, 1) : value.pos;
    for (const e of tr.effects) {
      if (e.is(setLineEffect)) pos = e.value === null ? -1 : mapRunPosition(tr.state, e.value);
    }
    if (pos === value.pos && !tr.docChanged) return value;
    if (pos < 0 || pos > tr.state.doc.length) return { pos: -1, deco: Decoration.none };
    const line = tr.state.doc.lineAt(pos);
    return { pos, deco: Decoration.set([currentLineMark.range(line.from)]) };
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.deco),
});

