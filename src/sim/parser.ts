/**
 * A small recursive-descent WGSL parser for compute shaders. It is our own (not wgsl_reflect's)
 * because the simulator needs the line AND column of every expression and statement, and every
 * construct of the kernels we ship; anything it cannot read becomes a `WgslError` with a position,
 * which `simulate` reports as an `unsupported` diagnostic.
 */
import type { Attr, Expr, Global, LitKind, Param, Pos, Stmt, SwitchClause, TypeExpr } from './ast.ts';
import { WgslError } from './ast.ts';

type TokKind = 'id' | 'num' | 'op' | 'eof';
interface Tok {
  k: TokKind;
  s: string;
  line: number;
  col: number;
}

const OPS = [
  '<<=', '>>=', '->', '&&', '||', '==', '!=', '<=', '>=', '<<', '>>', '+=', '-=', '*=', '/=', '%=',
  '&=', '|=', '^=', '++', '--', '!', '~', '&', '|', '^', '+', '-', '*', '/', '%', '<', '>', '=',
  '(', ')', '[', ']', '{', '}', ',', ';', ':', '.', '@',
];

function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (src[i] === '\n') {
          line++;
          lineStart = i + 1;
          i++;
        } else if (src[i] === '/' && src[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (src[i] === '*' && src[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    const col = i - lineStart + 1;
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(src[j]!)) j++;
      toks.push({ k: 'id', s: src.slice(i, j), line, col });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(0[xX][0-9a-fA-F]+[iu]?|(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fh]?|[0-9]+[eE][+-]?[0-9]+[fh]?|[0-9]+[iufh]?)/.exec(
        src.slice(i, i + 64),
      );
      const s = m ? m[0] : c;
      toks.push({ k: 'num', s, line, col });
      i += s.length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new WgslError(`unexpected character ${describeChar(c)}`, { line, col }, 'syntax');
    toks.push({ k: 'op', s: op, line, col });
    i += op.length;
  }
  toks.push({ k: 'eof', s: '<end of file>', line, col: i - lineStart + 1 });
  return toks;
}

/** A character as a message can show it: printable ones quoted, others (NUL…) by code point. */
function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
    const hex = code.toString(16).toUpperCase().padStart(4, '0');
    return `U+${hex}${code === 0 ? ' (NUL)' : ''}`;
  }
  return `'${c}'`;
}

/** Names that take a template list in expressions: `vec3<f32>(…)`, `array<u32, 4>(…)`. */
const TEMPLATED = new Set([
  'vec2', 'vec3', 'vec4', 'array', 'ptr', 'atomic', 'bitcast',
  'mat2x2', 'mat2x3', 'mat2x4', 'mat3x2', 'mat3x3', 'mat3x4', 'mat4x2', 'mat4x3', 'mat4x4',
]);

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

class Parser {
  private p = 0;
  /** Inside a template list `>` closes the list instead of comparing. */
  private inTemplate = 0;
  constructor(private readonly t: Tok[]) {}

  private get cur(): Tok {
    return this.t[this.p]!;
  }
  private peek(o = 1): Tok {
    return this.t[Math.min(this.p + o, this.t.length - 1)]!;
  }
  private pos(tok: Tok = this.cur): Pos {
    return { line: tok.line, col: tok.col };
  }
  private is(s: string): boolean {
    const c = this.cur;
    return (c.k === 'op' || c.k === 'id') && c.s === s;
  }
  private eat(s: string): boolean {
    if (this.is(s)) {
      this.p++;
      return true;
    }
    return false;
  }
  private fail(msg: string, tok: Tok = this.cur): never {
    throw new WgslError(msg, this.pos(tok), 'syntax');
  }
  private expect(s: string): Tok {
    const c = this.cur;
    if (s === '>' && c.k === 'op' && (c.s === '>>' || c.s === '>=' || c.s === '>>=')) {
      // Split `>>` that closes two template lists: `array<vec4<f32>>`.
      this.t[this.p] = { ...c, s: c.s.slice(1), col: c.col + 1 };
      return c;
    }
    if (!this.is(s)) this.fail(`expected '${s}' but found '${c.s}'`);
    this.p++;
    return c;
  }
  private ident(): string {
    const c = this.cur;
    if (c.k !== 'id') this.fail(`expected a name but found '${c.s}'`);
    this.p++;
    return c.s;
  }

  module(): Global[] {
    const out: Global[] = [];
    while (this.cur.k !== 'eof') {
      if (this.eat(';')) continue;
      out.push(this.global());
    }
    return out;
  }

  private attrs(): Attr[] {
    const out: Attr[] = [];
    while (this.is('@')) {
      const pos = this.pos();
      this.p++;
      const name = this.ident();
      const args: Expr[] = [];
      if (this.eat('(')) {
        while (!this.is(')')) {
          args.push(this.expr());
          if (!this.eat(',')) break;
        }
        this.expect(')');
      }
      out.push({ pos, name, args });
    }
    return out;
  }

  private global(): Global {
    const attrs = this.attrs();
    const tok = this.cur;
    const pos = this.pos();
    switch (tok.s) {
      case 'enable':
      case 'requires':
      case 'diagnostic':
        while (!this.is(';') && this.cur.k !== 'eof') this.p++;
        this.expect(';');
        return { k: 'other', pos };
      case 'const_assert':
        this.p++;
        this.expr();
        this.expect(';');
        return { k: 'other', pos };
      case 'alias': {
        this.p++;
        const name = this.ident();
        this.expect('=');
        const ty = this.type();
        this.expect(';');
        return { k: 'alias', pos, name, ty };
      }
      case 'struct': {
        this.p++;
        const name = this.ident();
        this.expect('{');
        const members: { pos: Pos; name: string; ty: TypeExpr; attrs: Attr[] }[] = [];
        while (!this.is('}')) {
          const ma = this.attrs();
          const mpos = this.pos();
          const mname = this.ident();
          this.expect(':');
          members.push({ pos: mpos, name: mname, ty: this.type(), attrs: ma });
          if (!this.eat(',')) break;
        }
        this.expect('}');
        this.eat(';');
        return { k: 'struct', pos, name, members };
      }
      case 'const':
      case 'override': {
        this.p++;
        const name = this.ident();
        const ty = this.eat(':') ? this.type() : null;
        const init = this.eat('=') ? this.expr() : null;
        this.expect(';');
        return { k: tok.s, pos, name, ty, init, attrs };
      }
      case 'var': {
        this.p++;
        let space = 'private';
        let access = '';
        if (this.eat('<')) {
          this.inTemplate++;
          space = this.ident();
          if (this.eat(',')) access = this.ident();
          this.inTemplate--;
          this.expect('>');
        }
        const name = this.ident();
        const ty = this.eat(':') ? this.type() : null;
        const init = this.eat('=') ? this.expr() : null;
        this.expect(';');
        return { k: 'gvar', pos, name, space, access, ty, init, attrs };
      }
      case 'fn': {
        this.p++;
        const name = this.ident();
        this.expect('(');
        const params: Param[] = [];
        while (!this.is(')')) {
          const pa = this.attrs();
          const ppos = this.pos();
          const pname = this.ident();
          this.expect(':');
          params.push({ pos: ppos, name: pname, ty: this.type(), attrs: pa });
          if (!this.eat(',')) break;
        }
        this.expect(')');
        let ret: TypeExpr | null = null;
        if (this.eat('->')) {
          this.attrs();
          ret = this.type();
        }
        const body = this.block();
        return { k: 'fn', pos, name, params, ret, attrs, body };
      }
      default:
        return this.fail(`unexpected '${tok.s}' at module scope`);
    }
  }

  private templateArgs(): (TypeExpr | Expr)[] {
    this.expect('<');
    this.inTemplate++;
    const args: (TypeExpr | Expr)[] = [];
    while (!this.is('>') && !this.is('>>') && !this.is('>=')) {
      const c = this.cur;
      const nx = this.peek();
      if (c.k === 'id' && (TEMPLATED.has(c.s) || (nx.k === 'op' && (nx.s === ',' || nx.s[0] === '>')))) {
        args.push(this.type());
      } else {
        args.push(this.expr());
      }
      if (!this.eat(',')) break;
    }
    this.inTemplate--;
    this.expect('>');
    return args;
  }

  type(): TypeExpr {
    const pos = this.pos();
    const name = this.ident();
    const args = this.is('<') ? this.templateArgs() : [];
    return { pos, name, args };
  }

  private block(): Stmt[] {
    this.attrs();
    this.expect('{');
    const out: Stmt[] = [];
    while (!this.is('}')) {
      if (this.cur.k === 'eof') this.fail(`expected '}' but reached the end of the file`);
      const s = this.stmt();
      if (s) out.push(s);
    }
    this.expect('}');
    return out;
  }

  private stmt(): Stmt | null {
    this.attrs();
    const tok = this.cur;
    const pos = this.pos();
    if (this.eat(';')) return null;
    if (tok.k === 'op' && tok.s === '{') return { k: 'block', pos, body: this.block() };
    switch (tok.k === 'id' ? tok.s : '') {
      case 'var':
      case 'let':
      case 'const': {
        const s = this.declaration();
        this.expect(';');
        return s;
      }
      case 'return': {
        this.p++;
        const e = this.is(';') ? null : this.expr();
        this.expect(';');
        return { k: 'return', pos, e };
      }
      case 'if':
        return this.ifStmt();
      case 'switch': {
        this.p++;
        const sel = this.expr();
        this.attrs();
        this.expect('{');
        const clauses: SwitchClause[] = [];
        while (!this.is('}')) {
          const cpos = this.pos();
          const sels: (Expr | null)[] = [];
          if (this.eat('default')) {
            sels.push(null);
          } else {
            this.expect('case');
            while (!this.is(':') && !this.is('{')) {
              if (this.eat('default')) sels.push(null);
              else sels.push(this.expr());
              if (!this.eat(',')) break;
            }
          }
          this.eat(':');
          clauses.push({ pos: cpos, sels, body: this.block() });
        }
        this.expect('}');
        return { k: 'switch', pos, sel, clauses };
      }
      case 'loop': {
        this.p++;
        this.attrs();
        this.expect('{');
        const body: Stmt[] = [];
        let continuing: Stmt[] | null = null;
        let breakIf: Expr | null = null;
        let breakIfPos: Pos | null = null;
        while (!this.is('}')) {
          if (this.is('continuing')) {
            this.p++;
            this.attrs();
            this.expect('{');
            continuing = [];
            while (!this.is('}')) {
              if (this.is('break') && this.peek().s === 'if') {
                breakIfPos = this.pos();
                this.p += 2;
                breakIf = this.expr();
                this.expect(';');
                continue;
              }
              const s = this.stmt();
              if (s) continuing.push(s);
            }
            this.expect('}');
            continue;
          }
          const s = this.stmt();
          if (s) body.push(s);
        }
        this.expect('}');
        return { k: 'loop', pos, body, continuing, breakIf, breakIfPos };
      }
      case 'for': {
        this.p++;
        this.expect('(');
        const init = this.is(';') ? null : this.simpleStmt();
        this.expect(';');
        const cond = this.is(';') ? null : this.expr();
        this.expect(';');
        const update = this.is(')') ? null : this.simpleStmt();
        this.expect(')');
        return { k: 'for', pos, init, cond, update, body: this.block() };
      }
      case 'while': {
        this.p++;
        const cond = this.expr();
        return { k: 'while', pos, cond, body: this.block() };
      }
      case 'break':
        this.p++;
        if (this.is('if')) this.fail(`'break if' is only allowed at the end of a continuing block`);
        this.expect(';');
        return { k: 'break', pos };
      case 'continue':
        this.p++;
        this.expect(';');
        return { k: 'continue', pos };
      case 'discard':
        this.p++;
        this.expect(';');
        return { k: 'discard', pos };
      case 'const_assert':
        this.p++;
        this.expr();
        this.expect(';');
        return { k: 'nop', pos };
      default: {
        const s = this.simpleStmt();
        this.expect(';');
        return s;
      }
    }
  }

  private ifStmt(): Stmt {
    const pos = this.pos();
    this.expect('if');
    const cond = this.expr();
    const then = this.block();
    let els: Stmt[] | null = null;
    if (this.eat('else')) {
      els = this.is('if') ? [this.ifStmt()] : this.block();
    }
    return { k: 'if', pos, cond, then, else: els };
  }

  private declaration(): Stmt {
    const pos = this.pos();
    const decl = this.ident() as 'var' | 'let' | 'const';
    if (decl === 'var' && this.is('<')) {
      this.inTemplate++;
      this.p++;
      const space = this.ident();
      this.inTemplate--;
      this.expect('>');
      if (space !== 'function') this.fail(`'var<${space}>' is not allowed inside a function`);
    }
    const name = this.ident();
    const ty = this.eat(':') ? this.type() : null;
    const init = this.eat('=') ? this.expr() : null;
    return { k: 'decl', pos, decl, name, ty, init };
  }

  /** Assignment, increment, call or declaration: what `for (…;…;…)` headers allow. */
  private simpleStmt(): Stmt {
    const pos = this.pos();
    if (this.is('var') || this.is('let') || this.is('const')) return this.declaration();
    if (this.is('_')) {
      this.p++;
      this.expect('=');
      return { k: 'assign', pos, lhs: null, op: '=', rhs: this.expr() };
    }
    const lhs = this.unary();
    const c = this.cur;
    if (c.k === 'op' && (c.s === '++' || c.s === '--')) {
      this.p++;
      return { k: 'incdec', pos, lhs, op: c.s };
    }
    if (c.k === 'op' && ASSIGN_OPS.has(c.s)) {
      this.p++;
      return { k: 'assign', pos, lhs, op: c.s, rhs: this.expr() };
    }
    if (lhs.k === 'call') return { k: 'expr', pos, e: lhs };
    return this.fail(`expected an assignment or a call but found '${c.s}'`);
  }

  // Expressions, lowest precedence first. WGSL forbids some mixes (a & b | c); we parse them
  // with C precedence, which gives the same meaning for every program WGSL accepts.
  expr(): Expr {
    return this.binary(0);
  }

  private static readonly LEVELS: readonly (readonly string[])[] = [
    ['||'],
    ['&&'],
    ['|'],
    ['^'],
    ['&'],
    ['==', '!='],
    ['<', '>', '<=', '>='],
    ['<<', '>>'],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  private binary(level: number): Expr {
    if (level >= Parser.LEVELS.length) return this.unary();
    let l = this.binary(level + 1);
    const ops = Parser.LEVELS[level]!;
    for (;;) {
      const c = this.cur;
      if (c.k !== 'op' || !ops.includes(c.s)) return l;
      if (this.inTemplate > 0 && (c.s === '>' || c.s === '>=' || c.s === '>>')) return l;
      this.p++;
      const r = this.binary(level + 1);
      l = { k: 'bin', pos: { line: c.line, col: c.col }, op: c.s, l, r };
    }
  }

  private unary(): Expr {
    const c = this.cur;
    if (c.k === 'op' && (c.s === '-' || c.s === '!' || c.s === '~' || c.s === '*' || c.s === '&')) {
      this.p++;
      return { k: 'un', pos: this.pos(c), op: c.s, e: this.unary() };
    }
    return this.postfix(this.primary());
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const c = this.cur;
      if (this.eat('[')) {
        const saved = this.inTemplate;
        this.inTemplate = 0;
        const i = this.expr();
        this.inTemplate = saved;
        this.expect(']');
        e = { k: 'idx', pos: this.pos(c), e, i };
      } else if (this.eat('.')) {
        e = { k: 'mem', pos: this.pos(c), e, name: this.ident() };
      } else return e;
    }
  }

  private primary(): Expr {
    const c = this.cur;
    const pos = this.pos(c);
    if (c.k === 'num') {
      this.p++;
      return parseNumber(c.s, pos);
    }
    if (c.k === 'id') {
      if (c.s === 'true' || c.s === 'false') {
        this.p++;
        return { k: 'lit', pos, v: c.s === 'true' ? 1 : 0, t: 'bool' };
      }
      this.p++;
      let tmpl: (TypeExpr | Expr)[] | null = null;
      if (TEMPLATED.has(c.s) && this.is('<')) tmpl = this.templateArgs();
      if (this.eat('(')) {
        const saved = this.inTemplate;
        this.inTemplate = 0;
        const args: Expr[] = [];
        while (!this.is(')')) {
          args.push(this.expr());
          if (!this.eat(',')) break;
        }
        this.inTemplate = saved;
        this.expect(')');
        return { k: 'call', pos, name: c.s, tmpl, args };
      }
      if (tmpl) this.fail(`expected '(' after '${c.s}<…>'`);
      return { k: 'id', pos, name: c.s };
    }
    if (this.eat('(')) {
      const saved = this.inTemplate;
      this.inTemplate = 0;
      const e = this.expr();
      this.inTemplate = saved;
      this.expect(')');
      return e;
    }
    return this.fail(`expected an expression but found '${c.s}'`);
  }
}

function parseNumber(s: string, pos: Pos): Expr {
  let t: LitKind;
  let body = s;
  const last = s[s.length - 1]!;
  const hex = /^0[xX]/.test(s);
  if (last === 'u' || last === 'i') {
    t = last === 'u' ? 'u32' : 'i32';
    body = s.slice(0, -1);
  } else if (!hex && (last === 'f' || last === 'h')) {
    if (last === 'h') throw new WgslError(`f16 literals ('${s}') are not supported`, pos);
    t = 'f32';
    body = s.slice(0, -1);
  } else if (!hex && /[.eE]/.test(s)) {
    t = 'af';
  } else {
    t = 'ai';
  }
  const v = hex ? parseInt(body.slice(2), 16) : Number(body);
  if (Number.isNaN(v)) throw new WgslError(`cannot read the number '${s}'`, pos, 'syntax');
  return { k: 'lit', pos, v: t === 'f32' ? Math.fround(v) : v, t };
}

/** Parses a WGSL module. Throws `WgslError` (with line and column) on text it cannot read. */
export function parseWgsl(src: string): Global[] {
  return new Parser(lex(src)).module();
}
