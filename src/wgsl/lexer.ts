/**
 * WGSL tokens (spec §3): blankspace and line breaks, nested block comments, Unicode XID
 * identifiers, the reserved words, numeric literals, and template-list discovery (§3.9), which
 * marks the `<` … `>` pairs that delimit template lists so the parser never has to guess.
 */
import { diag, type Pos, type Range, type WgslDiagnostic } from './ast.ts';

export type TokKind = 'id' | 'int' | 'float' | 'sym' | 'tmplStart' | 'tmplEnd' | 'eof';

export interface Tok extends Range {
  k: TokKind;
  s: string;
}

/** Keywords (§15.1): names a declaration may not take. */
export const KEYWORDS = new Set([
  'alias', 'break', 'case', 'const', 'const_assert', 'continue', 'continuing', 'default', 'diagnostic',
  'discard', 'else', 'enable', 'false', 'fn', 'for', 'if', 'let', 'loop', 'override', 'requires',
  'return', 'struct', 'switch', 'true', 'var', 'while',
]);

/** Reserved words (§15.2): not usable as identifiers. */
export const RESERVED = new Set(
  (
    'NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become ' +
    'cast catch class co_await co_return co_yield coherent column_major common compile compile_fragment ' +
    'concept const_cast consteval constexpr constinit crate debugger decltype delete demote ' +
    'demote_to_helper do dynamic_cast enum explicit export extends extern external fallthrough filter ' +
    'final finally friend from fxgroup get goto groupshared highp impl implements import inline ' +
    'instanceof interface layout lowp macro macro_rules match mediump meta mod module move mut ' +
    'mutable namespace new nil noexcept noinline nointerpolation non_coherent noncoherent ' +
    'noperspective null nullptr of operator package packoffset partition pass patch pixelfragment ' +
    'precise precision premerge priv protected pub public readonly ref regardless register ' +
    'reinterpret_cast require resource restrict self set shared sizeof smooth snorm static ' +
    'static_assert static_cast std subroutine super target template this thread_local throw trait ' +
    'try type typedef typeid typename typeof union unless unorm unsafe unsized use using varying ' +
    'virtual volatile wgsl where with writeonly yield'
  ).split(' '),
);

const SYMS = [
  '<<=', '>>=', '->', '&&', '||', '==', '!=', '<=', '>=', '<<', '>>', '+=', '-=', '*=', '/=', '%=',
  '&=', '|=', '^=', '++', '--', '!', '~', '&', '|', '^', '+', '-', '*', '/', '%', '<', '>', '=',
  '(', ')', '[', ']', '{', '}', ',', ';', ':', '.', '@',
];

const XID_START = /[\p{XID_Start}]/u;
const XID_CONTINUE = /[\p{XID_Continue}]/u;
const BLANK = new Set([' ', '\t', '\n', '\v', '\f', '\r', '\u0085', '\u200e', '\u200f', '\u2028', '\u2029']);
const LINE_BREAK = new Set(['\n', '\v', '\f', '\r', '\u0085', '\u2028', '\u2029']);

const INT_RE = /^(?:0[xX][0-9a-fA-F]+|0(?![0-9])|[1-9][0-9]*)[iu]?/;
const FLOAT_RE =
  /^(?:0[xX](?:[0-9a-fA-F]*\.[0-9a-fA-F]+|[0-9a-fA-F]+\.[0-9a-fA-F]*)(?:[pP][+-]?[0-9]+[fh]?)?|0[xX][0-9a-fA-F]+[pP][+-]?[0-9]+[fh]?|(?:[0-9]*\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][+-]?[0-9]+)?[fh]?|[0-9]+[eE][+-]?[0-9]+[fh]?|(?:0|[1-9][0-9]*)[fh])/;

export interface LexResult {
  toks: Tok[];
  diagnostics: WgslDiagnostic[];
}

export function lex(src: string): LexResult {
  const toks: Tok[] = [];
  const diagnostics: WgslDiagnostic[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = src.length;
  const here = (at = i): Pos => ({ line, col: at - lineStart + 1, offset: at });
  /** Consumes one code unit (or CRLF) that may be a line break. */
  const step = (): void => {
    const c = src[i]!;
    if (LINE_BREAK.has(c)) {
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      lineStart = i;
    } else i++;
  };
  while (i < n) {
    const c = src[i]!;
    if (BLANK.has(c)) {
      step();
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && !LINE_BREAK.has(src[i]!)) i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const start = here();
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (src[i] === '/' && src[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (src[i] === '*' && src[i + 1] === '/') {
          depth--;
          i += 2;
        } else step();
      }
      if (depth > 0) diagnostics.push(diag('error', 'lex', 'unterminated block comment', { pos: start, end: here() }));
      continue;
    }
    const pos = here();
    const cp = src.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (ch === '_' || XID_START.test(ch)) {
      let j = i + ch.length;
      while (j < n) {
        const d = String.fromCodePoint(src.codePointAt(j)!);
        if (!XID_CONTINUE.test(d)) break;
        j += d.length;
      }
      const s = src.slice(i, j);
      i = j;
      toks.push({ k: s === '_' ? 'sym' : 'id', s, pos, end: here() });
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const rest = src.slice(i, i + 512);
      const f = FLOAT_RE.exec(rest);
      const m = INT_RE.exec(rest);
      let s: string;
      let k: TokKind;
      if (f && (!m || f[0].length > m[0].length)) {
        s = f[0];
        k = 'float';
      } else if (m) {
        s = m[0];
        k = 'int';
      } else {
        // A leading zero: `012`.
        s = /^[0-9]+/.exec(rest)![0];
        k = 'int';
        diagnostics.push(diag('error', 'lex', 'integer literal cannot have leading 0s', { pos, end: here(i + s.length) }));
      }
      i += s.length;
      toks.push({ k, s, pos, end: here() });
      continue;
    }
    const sym = SYMS.find((o) => src.startsWith(o, i));
    if (sym) {
      i += sym.length;
      toks.push({ k: 'sym', s: sym, pos, end: here() });
      continue;
    }
    const what = cp === 0 ? `null character ${codePoint(cp)} (NUL) found` : `invalid character ${characterName(cp)} found`;
    i += ch.length;
    diagnostics.push(diag('error', 'lex', what, { pos, end: here() }));
  }
  const eof = here();
  toks.push({ k: 'eof', s: '<end of file>', pos: eof, end: eof });
  discoverTemplates(toks);
  return { toks, diagnostics };
}

/** `U+0024`: a code point as Unicode writes it. */
function codePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Names a character so a person can find it: printable ones quoted with their code point
 * (`'$' (U+0024)`), invisible ones (controls, format characters, separators) by code point alone.
 */
function characterName(cp: number): string {
  const ch = String.fromCodePoint(cp);
  return /[\p{C}\p{Z}]/u.test(ch) ? codePoint(cp) : `'${ch}' (${codePoint(cp)})`;
}

function shifted(p: Pos, by: number): Pos {
  return { line: p.line, col: p.col + by, offset: (p.offset ?? 0) + by };
}

/**
 * Template-list discovery (WGSL §3.9) over tokens: marks `<` that opens and `>` that closes a
 * template list as `tmplStart` / `tmplEnd`, splitting `>>`, `>=` and `>>=` where a list closes.
 */
export function discoverTemplates(toks: Tok[]): void {
  const pending: { idx: number; depth: number }[] = [];
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.k === 'id') {
      const nx = toks[i + 1];
      if (nx && nx.k === 'sym' && nx.s === '<') {
        pending.push({ idx: i + 1, depth });
        i++;
      }
      continue;
    }
    if (t.k !== 'sym') continue;
    const s = t.s;
    if (s[0] === '>') {
      const top = pending[pending.length - 1];
      if (top && top.depth === depth) {
        pending.pop();
        toks[top.idx]!.k = 'tmplStart';
        if (s.length > 1) {
          const rest: Tok = { k: 'sym', s: s.slice(1), pos: shifted(t.pos, 1), end: t.end };
          toks.splice(i + 1, 0, rest);
        }
        toks[i] = { k: 'tmplEnd', s: '>', pos: t.pos, end: shifted(t.pos, 1) };
        continue;
      }
      if (s === '>>=') {
        depth = 0;
        pending.length = 0;
      }
      continue;
    }
    switch (s) {
      case '(':
      case '[':
        depth++;
        break;
      case ')':
      case ']':
        while (pending.length && pending[pending.length - 1]!.depth >= depth) pending.pop();
        depth = Math.max(0, depth - 1);
        break;
      case '&&':
      case '||':
        while (pending.length && pending[pending.length - 1]!.depth >= depth) pending.pop();
        break;
      case '=':
      case ';':
      case '{':
      case ':':
      case '+=':
      case '-=':
      case '*=':
      case '/=':
      case '%=':
      case '&=':
      case '|=':
      case '^=':
      case '<<=':
        depth = 0;
        pending.length = 0;
        break;
      case '<=':
        // After a name, `<=` is a comparison the spec's scan steps over; elsewhere its `=` resets.
        if (toks[i - 1]?.k === 'id') break;
        depth = 0;
        pending.length = 0;
        break;
      default:
        break;
    }
  }
}
