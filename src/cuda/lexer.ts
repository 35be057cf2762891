/**
 * CUDA C/C++ tokens. Every token keeps the file, line and column it was written at (1-based,
 * UTF-16 columns as editors count them); the preprocessor re-stamps macro expansions with their
 * use site, so every later stage reports positions in the learner's text.
 */

export type TokenKind = 'id' | 'num' | 'str' | 'char' | 'punct' | 'eof';

export interface Pos {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export interface Token extends Pos {
  readonly kind: TokenKind;
  readonly text: string;
  /** End of the token (exclusive column), on `line`. */
  readonly endCol: number;
  /** First token on its line (directives start there). */
  readonly bol: boolean;
  /** Whitespace before it (the preprocessor's `#` operator keeps single spaces). */
  readonly space: boolean;
  /** Macro names that must not expand again in this token (the hide set). */
  readonly hide?: ReadonlySet<string>;
}

export interface LexProblem extends Pos {
  readonly message: string;
}

/** A `//` comment that holds code after it on the same line (a post whose line breaks were lost). */
export interface CodeComment extends Pos {
  readonly text: string;
}

export interface LexResult {
  readonly tokens: Token[];
  readonly problems: LexProblem[];
  readonly codeComments: CodeComment[];
}

// Longest first: the lexer takes the first that matches.
const PUNCT = [
  '<<=', '>>=', '...', '->*', '::',
  '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '->', '##',
  '+', '-', '*', '/', '%', '<', '>', '=', '!', '~', '&', '|', '^', '?', ':', ';', ',', '.', '(', ')', '[', ']', '{', '}', '#',
];

const isIdStart = (c: string): boolean => {
  const k = c.charCodeAt(0);
  return (k >= 97 && k <= 122) || (k >= 65 && k <= 90) || k === 95 || k === 36 || k > 127;
};
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isIdPart = (c: string): boolean => isIdStart(c) || isDigit(c);
/** Punctuators by first character, longest first. */
const PUNCT_BY_FIRST = new Map<string, string[]>();
for (const p of PUNCT) PUNCT_BY_FIRST.set(p[0]!, [...(PUNCT_BY_FIRST.get(p[0]!) ?? []), p]);

/**
 * Splits `text` into tokens. Comments and line continuations (`\` before a line break) are
 * blank space; a line break ends a directive, so each token records whether it starts a line.
 */
export function lex(text: string, file: string): LexResult {
  const tokens: Token[] = [];
  const problems: LexProblem[] = [];
  const codeComments: CodeComment[] = [];
  let i = 0;
  let line = 1;
  let col = 1;
  let bol = true;
  let space = false;
  const n = text.length;
  const advance = (k: number): void => {
    for (let j = 0; j < k; j++) {
      if (text[i] === '\n') {
        line++;
        col = 1;
      } else col++;
      i++;
    }
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') {
      advance(1);
      bol = true;
      space = false;
      continue;
    }
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      advance(text[i + 1] === '\r' ? 3 : 2);
      space = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\u3000' || c === '\u00a0') {
      advance(1);
      space = true;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const start = { file, line, col };
      let j = i;
      while (j < n && text[j] !== '\n') j++;
      const body = text.slice(i + 2, j);
      // Code hidden in a comment: a statement end or a brace after some words.
      if (/[;{}]\s*\S/.test(body) && /\b(if|for|int|return|unsigned|float|__syncthreads)\b/.test(body)) {
        codeComments.push({ ...start, text: body });
      }
      advance(j - i);
      space = true;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const start = { file, line, col };
      const end = text.indexOf('*/', i + 2);
      if (end < 0) {
        problems.push({ ...start, message: 'unterminated /* comment: add */ where the comment ends' });
        advance(n - i);
        break;
      }
      advance(end + 2 - i);
      space = true;
      continue;
    }
    const startLine = line;
    const startCol = col;
    const push = (kind: TokenKind, t: string): void => {
      tokens.push({ kind, text: t, file, line: startLine, col: startCol, endCol: startCol + t.length, bol, space });
      bol = false;
      space = false;
    };
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(text[j]!)) j++;
      const word = text.slice(i, j);
      // Wide/UTF string prefixes are read as plain strings.
      if ((word === 'L' || word === 'u8' || word === 'u' || word === 'U') && (text[j] === '"' || text[j] === "'")) {
        advance(j - i);
        continue;
      }
      push('id', word);
      advance(j - i);
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1]))) {
      const m = /^(0[xX][0-9a-fA-F']*(\.[0-9a-fA-F]*)?([pP][+-]?[0-9]+)?|[0-9']*\.?[0-9']*([eE][+-]?[0-9]+)?)[A-Za-z0-9_]*/.exec(text.slice(i, i + 64));
      const t = m![0];
      push('num', t);
      advance(t.length);
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (text[j] !== c) {
        problems.push({ file, line, col, message: `missing terminating ${c} character` });
        advance(j - i);
        continue;
      }
      push(c === '"' ? 'str' : 'char', text.slice(i, j + 1));
      advance(j + 1 - i);
      continue;
    }
    const p = PUNCT_BY_FIRST.get(c)?.find((q) => q.length === 1 || text.startsWith(q, i));
    if (p) {
      push('punct', p);
      advance(p.length);
      continue;
    }
    problems.push({ file, line, col, message: `unexpected character '${c}' (U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})${c.charCodeAt(0) > 127 ? ': a full-width or non-ASCII symbol, probably copied from a web page; type it again in ASCII' : ''}` });
    advance(1);
  }
  tokens.push({ kind: 'eof', text: '', file, line, col, endCol: col, bol: true, space: false });
  return { tokens, problems, codeComments };
}

/** The value of a C character literal (`'a'`, `'\n'`, `'\0'`, `'\x41'`). */
export function charValue(lit: string): number {
  const body = lit.slice(1, -1);
  if (body[0] !== '\\') return body.codePointAt(0) ?? 0;
  const c = unescape(body).codePointAt(0) ?? 0;
  return c >= 0xdc80 && c <= 0xdcff ? c & 0xff : c;
}

/** The text of a C string literal with its escapes resolved. */
export function stringValue(lit: string): string {
  return unescape(lit.slice(1, -1));
}

/**
 * A numeric escape names a byte, not a character: one above 0x7F (`"\\xC3\\xA9"`, UTF-8 spelt out)
 * is carried as U+DC80–U+DCFF, the way the host's streams carry raw bytes (src/cuda/host/libc/bytes.ts),
 * so it is stored and printed as that byte.
 */
const escapedByte = (v: number): string => String.fromCharCode(v >= 0x80 && v <= 0xff ? 0xdc00 | v : v);

function unescape(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x') return escapedByte(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return escapedByte(parseInt(e, 8));
    const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
    return map[e] ?? e;
  });
}
