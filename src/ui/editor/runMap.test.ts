import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { currentLineField, mapRunPosition, markRunEffect, runMapField, setLineEffect } from './runMap.ts';

const doc = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
const lineOf = (s: EditorState) => {
  const { pos } = s.field(currentLineField);
  return pos < 0 ? -1 : s.doc.lineAt(pos).number;
};

describe('the current line kept in step while editing', () => {
  it('stays on its source line when lines are added above it, and later trace lines still find their source', () => {
    let s = EditorState.create({ doc, extensions: [runMapField, currentLineField] });
    s = s.update({ effects: setLineEffect.of(5) }).state;
    expect(lineOf(s)).toBe(5);
    s = s.update({ changes: { from: 0, insert: 'new a\nnew b\n' } }).state;
    expect(lineOf(s)).toBe(7);
    expect(s.doc.line(7).text).toBe('line 5');
    // The timeline moves on: line 8 of the text that ran is line 10 now.
    s = s.update({ effects: setLineEffect.of(8) }).state;
    expect(lineOf(s)).toBe(10);
    expect(s.doc.line(10).text).toBe('line 8');
    expect(s.doc.lineAt(mapRunPosition(s, 3, 2)).text).toBe('line 3');
  });

  it('after a run the trace refers to the new text, and a deleted line has no place', () => {
    let s = EditorState.create({ doc, extensions: [runMapField, currentLineField] });
    s = s.update({ changes: { from: 0, insert: 'x\n' } }).state;
    s = s.update({ effects: markRunEffect.of(null) }).state;
    s = s.update({ effects: setLineEffect.of(1) }).state;
    expect(s.doc.line(lineOf(s)).text).toBe('x');
    expect(mapRunPosition(s, 99)).toBe(-1);
  });
});
