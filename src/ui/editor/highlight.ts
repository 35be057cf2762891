import { HighlightStyle } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

/** Colours for the dark code pane (contrast ≥ 4.5:1 on #0a0f1d); kinds also differ by weight or style. */
export const darkHighlight = HighlightStyle.define([
  { tag: t.keyword, color: '#ff9ecd', fontWeight: 'bold' },
  { tag: t.typeName, color: '#7fdbca' },
  { tag: t.comment, color: '#a0a9c0', fontStyle: 'italic' },
  { tag: t.number, color: '#f7c66b' },
  { tag: t.atom, color: '#f7c66b' },
  { tag: t.meta, color: '#c3a6ff' },
  { tag: t.standard(t.variableName), color: '#82b1ff', fontWeight: 'bold' },
  { tag: t.function(t.variableName), color: '#82b1ff' },
  { tag: t.operator, color: '#e6e9f2' },
]);
