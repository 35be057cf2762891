/**
 * The CodeMirror 6 editor of a lab kernel: WGSL highlighting, bracket matching, the timeline's
 * current line (kept on the same source line while you edit), our front end's diagnostics as you
 * type and the simulator's and the GPU compiler's after a run, Ctrl/Cmd+Enter to run. The app's
 * single-key shortcuts stay off while it has focus (it is contenteditable).
 *
 * No keyboard trap (the usual editor convention): Tab moves on to the next control until the learner
 * has typed in the editor, and indents after that; Escape then Tab leaves it again. Escape itself
 * keeps the focus where it is, so Tab goes on to the control after the editor.
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { darkHighlight } from './highlight.ts';
import { forceLinting, linter, lintGutter, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { Compartment, EditorSelection, EditorState, RangeSet, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, gutter, GutterMarker, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import type { EditorDiagnostic } from '../../workbench/editorLint.ts';
import { wgslLanguage } from './wgslLanguage.ts';
import { cudaLanguage } from './cudaLanguage.ts';
import { currentLineField, mapRunPosition, markRunEffect, relintEffect, runMapField, setLineEffect } from './runMap.ts';
import { DEBUG_TEXT } from './strings.ts';
import { useMeasured } from '../widgets/useMeasured.ts';

export interface KernelEditorHandle {
  /** The text now in the editor. */
  text(): string;
  /** Replaces the whole text (reset to original). */
  setText(text: string): void;
  /** Says the current text is what the views now replay: trace lines refer to it from here on. */
  markRun(): void;
  focus(): void;
}

interface Props {
  readonly initial: string;
  readonly label: string;
  /** The trace's current line (1-based, in the text that last ran). */
  readonly currentLine: number | undefined;
  /** Diagnostics found by running (lines of the text that last ran). */
  readonly found: readonly EditorDiagnostic[];
  /** Lints the text as typed. */
  readonly lint: (text: string) => Promise<readonly EditorDiagnostic[]>;
  readonly onChange: (text: string) => void;
  readonly onRun: () => void;
  readonly editorRef: Ref<KernelEditorHandle>;
  /** Extra extensions. */
  readonly extensions?: Extension;
  /** Lines with a breakpoint (1-based) and whether each has a condition. */
  readonly breakpoints?: readonly { line: number; conditional: boolean }[];
  /** A click in the breakpoint gutter, or F9 on the cursor's line. */
  readonly onToggleBreakpoint?: (line: number) => void;
  /**
   * Break long lines over rows (projector mode: 28 px type, where a class cannot scroll sideways);
   * otherwise lines stay as written and a long one scrolls sideways, so code keeps its shape.
   */
  readonly wrap?: boolean;
  /** The source language (fixed for the editor's life). */
  readonly language?: 'wgsl' | 'cuda';
  /** Told of every cursor move: the cursor's 1-based line. */
  readonly onCursorLine?: (line: number) => void;
  /** A line to mark as linked (the other pane's current line), 1-based. */
  readonly linkedLine?: number | undefined;
  /** Whether the text may be edited (default yes). */
  readonly readOnly?: boolean;
  /** The editable area's test id (default `kernel-editor`). */
  readonly testId?: string;
}

class BreakpointMarker extends GutterMarker {
  constructor(readonly conditional: boolean) {
    super();
  }
  override eq(other: BreakpointMarker): boolean {
    return other.conditional === this.conditional;
  }
  override toDOM(): Node {
    const el = document.createElement('span');
    el.className = 'cm-breakpoint';
    // A shape as well as a colour: ● plain, ◆ conditional.
    el.textContent = this.conditional ? '◆' : '●';
    el.title = this.conditional ? DEBUG_TEXT.conditionalBreakpoint : DEBUG_TEXT.breakpoint;
    return el;
  }
}

const setBreakpointsEffect = StateEffect.define<readonly { line: number; conditional: boolean }[]>();
const breakpointField = StateField.define<RangeSet<GutterMarker>>({
  create: () => RangeSet.empty,
  update(value, tr) {
    let next = tr.docChanged ? value.map(tr.changes) : value;
    for (const e of tr.effects) {
      if (!e.is(setBreakpointsEffect)) continue;
      const doc = tr.state.doc;
      const marks = e.value
        .filter((b) => b.line >= 1 && b.line <= doc.lines)
        .sort((a, b) => a.line - b.line)
        .map((b) => new BreakpointMarker(b.conditional).range(doc.line(b.line).from));
      next = RangeSet.of(marks);
    }
    return next;
  },
});

function toCm(state: EditorState, d: EditorDiagnostic, mapped: boolean): CmDiagnostic | undefined {
  let from: number;
  let to: number;
  if (mapped) {
    from = mapRunPosition(state, d.line, d.column);
    to = mapRunPosition(state, d.endLine, d.endColumn);
    if (from < 0) return undefined;
    if (to < from) to = from;
  } else {
    const doc = state.doc;
    if (d.line > doc.lines) return undefined;
    const l = doc.line(Math.max(1, d.line));
    from = Math.min(l.to, l.from + d.column - 1);
    const e = doc.line(Math.min(doc.lines, Math.max(1, d.endLine)));
    to = Math.max(from, Math.min(e.to, e.from + d.endColumn - 1));
  }
  return { from, to, severity: d.severity, message: d.message, source: d.source };
}

const theme = EditorView.theme({
  '&': { fontSize: 'var(--code-font-size, 0.9rem)' },
  '.cm-content': { fontFamily: 'var(--mono, ui-monospace, monospace)' },
  '.cm-current-step': { backgroundColor: 'var(--current-line-bg, rgba(255, 200, 0, 0.22))', boxShadow: 'inset 3px 0 0 var(--accent, #b36b00)' },
  '.cm-linked-line': { backgroundColor: 'var(--linked-line-bg, rgba(130, 177, 255, 0.18))', boxShadow: 'inset -3px 0 0 var(--focus, #1a5fb4)' },
  '&.cm-focused': { outline: '2px solid var(--focus, #1a5fb4)' },
  // The error tooltip in the pane's own dark colours (CodeMirror's light box took the pane's light
  // text: 1.1:1). Text #e6e9f2 on #1b2236 is 13:1; the severities differ by their mark and words too.
  '.cm-tooltip': { backgroundColor: '#1b2236', color: '#e6e9f2', border: '1px solid #7a86a8', borderRadius: '4px' },
  '.cm-tooltip .cm-diagnostic': { color: '#e6e9f2' },
  '.cm-diagnostic-error': { borderLeftColor: '#ff8a8a' },
  '.cm-diagnostic-warning': { borderLeftColor: '#f7c66b' },
  // Placed above or below the line with a gap, never over the line being edited.
  '.cm-tooltip.cm-tooltip-above': { transform: 'translateY(-6px)' },
  '.cm-tooltip.cm-tooltip-below': { transform: 'translateY(6px)' },
});


const setLinkedEffect = StateEffect.define<number | null>();
const linkedMark = Decoration.line({ class: 'cm-linked-line' });
/** The line the other pane's cursor maps to (generated WGSL ↔ CUDA). */
const linkedField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    let next = value.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setLinkedEffect)) continue;
      const line = e.value;
      next = line !== null && line >= 1 && line <= tr.state.doc.lines ? Decoration.set([linkedMark.range(tr.state.doc.line(line).from)]) : Decoration.none;
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** The key of the measure that brings the current line into view (a newer request replaces an older one). */
const bringLineKey = {};

/**
 * Brings the whole current line, wrapped or not, into view inside the code pane, and only there:
 * read and written in the editor's own measure cycle (one layout per frame, none forced in a key's
 * task). Nothing moves while the learner is in the editor.
 */
function bringCurrentLine(view: EditorView): void {
  view.requestMeasure({
    key: bringLineKey,
    read: (ed) => {
      const pos = ed.state.field(currentLineField).pos;
      if (pos < 0 || ed.hasFocus) return undefined;
      const block = ed.lineBlockAt(pos);
      const top = ed.documentTop + block.top;
      const bottom = ed.documentTop + block.bottom;
      const scroller = [ed.scrollDOM, ed.dom.closest<HTMLElement>('.code-scroll')].find((el) => el && el.scrollHeight > el.clientHeight + 1);
      if (!scroller) return undefined;
      const b = scroller.getBoundingClientRect();
      if (top >= b.top + 8 && bottom <= b.bottom - 8) return undefined;
      return { scroller, by: top - b.top - Math.max(8, Math.min(b.height / 3, b.height - (bottom - top) - 8)) };
    },
    write: (m) => {
      if (m) m.scroller.scrollTop += m.by;
    },
  });
}

export function KernelEditor({
  initial,
  label,
  currentLine,
  found,
  lint,
  onChange,
  onRun,
  editorRef,
  extensions,
  breakpoints,
  onToggleBreakpoint,
  wrap = false,
  language = 'wgsl',
  onCursorLine,
  linkedLine,
  readOnly = false,
  testId = 'kernel-editor',
}: Props) {
  // The pane the listing scrolls in (the code column, else the editor itself), measured by the shared hook.
  const [host, pane] = useMeasured<HTMLDivElement, { readonly width: number; readonly height: number }>((el) => ({ width: el.clientWidth, height: el.clientHeight }), { target: (el) => el.closest<HTMLElement>('.code-scroll') ?? el });
  const view = useRef<EditorView | null>(null);
  const wrapping = useRef(new Compartment());
  const wrapNow = useRef(wrap);
  wrapNow.current = wrap;
  const latest = useRef({ found, lint, onChange, onRun, onToggleBreakpoint, onCursorLine });
  latest.current = { found, lint, onChange, onRun, onToggleBreakpoint, onCursorLine };

  useEffect(() => {
    const state = EditorState.create({
      doc: initial,
      extensions: [
        breakpointField,
        gutter({
          class: 'cm-breakpoint-gutter',
          markers: (v) => v.state.field(breakpointField),
          initialSpacer: () => new BreakpointMarker(false),
          domEventHandlers: {
            mousedown(v, block) {
              latest.current.onToggleBreakpoint?.(v.state.doc.lineAt(block.from).number);
              return true;
            },
          },
        }),
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        language === 'cuda' ? cudaLanguage : wgslLanguage,
        linkedField,
        EditorState.readOnly.of(readOnly),
        syntaxHighlighting(darkHighlight),
        runMapField,
        currentLineField,
        lintGutter(),
        linter(
          async (v) => {
            // The document as it was asked about: a newer one gets a lint of its own.
            const state = v.state;
            const typed = (await latest.current.lint(state.doc.toString())).flatMap((d) => toCm(state, d, false) ?? []);
            const ran = latest.current.found.flatMap((d) => toCm(state, d, true) ?? []);
            return [...typed, ...ran];
          },
          { delay: 350, needsRefresh: (u) => u.transactions.some((tr) => tr.effects.some((e) => e.is(relintEffect))) },
        ),
        keymap.of([
          { key: 'Mod-Enter', preventDefault: true, run: () => (latest.current.onRun(), true) },
          {
            key: 'F9',
            preventDefault: true,
            run: (v) => {
              latest.current.onToggleBreakpoint?.(v.state.doc.lineAt(v.state.selection.main.head).number);
              return true;
            },
          },
          {
            key: 'Escape',
            run: (v) => {
              v.setTabFocusMode(true);
              return true;
            },
          },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        EditorView.updateListener.of((u) => {
          // Typing (or deleting) is what makes Tab indent; a change from a run or a shared link is not.
          if (u.transactions.some((tr) => tr.isUserEvent('input') || tr.isUserEvent('delete'))) u.view.setTabFocusMode(false);
          if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          if (u.selectionSet || u.docChanged) latest.current.onCursorLine?.(u.state.doc.lineAt(u.state.selection.main.head).number);
          // The listing laid out anew (its lines drawn, wrapped, a font loaded): the current line again.
          if (u.geometryChanged) bringCurrentLine(u.view);
        }),
        // tabindex states what contenteditable already is (in the tab order), so checkers that look
        // for a focusable element inside a region that scrolls sideways (long lines) find it.
        EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': testId, tabindex: '0' }),
        wrapping.current.of(wrapNow.current ? EditorView.lineWrapping : []),
        // With wrapped lines, a cursor remembers which side of a wrap it sits on, and CodeMirror puts
        // the browser's selection there again on its next measure, also after a blur; in Chrome that
        // moves the focus back into the editor, so the timeline keys typed into the kernel after the
        // person had left it. Leaving the editor drops that side, so the focus stays where it went.
        EditorView.domEventHandlers({
          blur(_event, v) {
            const main = v.state.selection.main;
            if (main.empty && main.assoc !== 0) v.dispatch({ selection: EditorSelection.cursor(main.head) });
            return false;
          },
        }),
        theme,
        extensions ?? [],
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    // Until the learner types, Tab moves the focus on (it neither indents nor makes a draft).
    v.setTabFocusMode(true);
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is made once per mount; its props reach it through `latest` and effects.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: setLineEffect.of(currentLine ?? null) });
  }, [currentLine]);

  // The whole current line, wrapped or not, comes into view inside the code pane, and only there:
  // the page itself never scrolls to the code (stacked at 800 px, the stage comes first). Read and
  // written in the editor's own measure cycle (one layout per frame, none forced in the key's task),
  // on each new line, when the lines wrap anew, and whenever the pane is laid out anew (the page
  // opening on a step, a panel opening beside it).
  useEffect(() => {
    const v = view.current;
    if (!v || currentLine === undefined) return;
    bringCurrentLine(v);
  }, [currentLine, pane, wrap]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch({ effects: relintEffect.of(null) });
    // In a task of its own: a run's news already costs the page one render, and the lint (the
    // front end and the compile of the whole draft) in the same task would make it a long one.
    const later = setTimeout(() => forceLinting(v), 0);
    return () => clearTimeout(later);
  }, [found]);

  useEffect(() => {
    view.current?.dispatch({ effects: setLinkedEffect.of(linkedLine ?? null) });
  }, [linkedLine]);

  useEffect(() => {
    view.current?.dispatch({ effects: setBreakpointsEffect.of(breakpoints ?? []) });
  }, [breakpoints]);

  useEffect(() => {
    view.current?.dispatch({ effects: wrapping.current.reconfigure(wrap ? EditorView.lineWrapping : []) });
  }, [wrap]);

  useImperativeHandle(
    editorRef,
    () => ({
      text: () => view.current?.state.doc.toString() ?? initial,
      setText(text) {
        const v = view.current;
        if (!v) return;
        v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
        v.dispatch({ effects: markRunEffect.of(null) });
      },
      markRun() {
        view.current?.dispatch({ effects: markRunEffect.of(null) });
      },
      focus() {
        view.current?.focus();
      },
    }),
    [initial],
  );

  return <div ref={host} className="kernel-editor" />;
}
