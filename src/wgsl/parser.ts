/**
 * Recursive-descent parser for WGSL (spec §16 grammar): directives, every module-scope
 * declaration, attributes, all statements and WGSL's expression grammar with its non-associative
 * relational and bitwise levels. Every node carries its source range. A syntax error is recorded
 * and the parser resynchronises at the next statement or declaration, so one pass reports every
 * error it can.
 */
import {
  diag,
  WgslError,
  type Attr,
  type Expr,
  type Global,
  type LitKind,
  type Member,
  type Param,
  type Pos,
  type Range,
  type Stmt,
  type SwitchClause,
  type TypeExpr,
  type WgslDiagnostic,
} from './ast.ts';
import { KEYWORDS, lex, RESERVED, type Tok } from './lexer.ts';

export interface ParseResult {
  ast: Global[];
  diagnostics: WgslDiagnostic[];
}

/** Thrown inside the parser to unwind to the nearest recovery point. */
class Sync extends Error {}

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

function range(pos: Pos, end: Pos): Range {
  return { pos, end };
}

class Parser {
  private p = 0;
  readonly diagnostics: WgslDiagnostic[] = [];
  /**
   * Where the parentheses around an expression open (the outermost pair). Tint has no node for
   * parentheses: an error about the expression itself starts at the expression, but an operator or
   * accessor applied to it starts at the opening parenthesis, e.g. `(a) >> 33u` from the `(`.
   */
  private readonly parenStart = new WeakMap<Expr, Expr['start']>();
  constructor(private readonly t: Tok[]) {}

  private get cur(): Tok {
    return this.t[this.p]!;
  }
  private peek(o = 1): Tok {
    return this.t[Math.min(this.p + o, this.t.length - 1)]!;
  }
  /** End of the last consumed token. */
  private get last(): Pos {
    return this.p > 0 ? this.t[this.p - 1]!.end : this.cur.pos;
  }
  private is(s: string): boolean {
    const c = this.cur;
    return (c.k === 'sym' || c.k === 'id') && c.s === s;
  }
  private eat(s: string): boolean {
    if (this.is(s)) {
      this.p++;
      return true;
    }
    return false;
  }
  private error(msg: string, r: Range = this.cur): void {
    this.diagnostics.push(diag('error', 'parse', msg, range(r.pos, r.end)));
  }
  private fail(msg: string, r: Range = this.cur): never {
    this.error(msg, r);
    throw new Sync(msg);
  }
  private expect(s: string, use: string): Tok {
    const c = this.cur;
    if (this.is(s)) {
      this.p++;
      return c;
    }
    return this.fail(`expected '${s}' for ${use}`);
  }
  private ident(use: string): { name: string; range: Range } {
    const c = this.cur;
    if (c.k === 'id') {
      if (RESERVED.has(c.s)) this.fail(`'${c.s}' is a reserved keyword`);
      if (KEYWORDS.has(c.s)) this.fail(`expected identifier for ${use}`);
      if (c.s.startsWith('__')) this.fail(`identifiers must not start with two or more underscores`);
      this.p++;
      return { name: c.s, range: range(c.pos, c.end) };
    }
    return this.fail(`expected identifier for ${use}`);
  }
  /** Where an expression used as an operand starts, its opening parenthesis included. */
  private from(e: Expr): Expr['start'] {
    return this.parenStart.get(e) ?? e.start;
  }
  private atEof(): boolean {
    return this.cur.k === 'eof';
  }
  private tmplStart(): boolean {
    return this.cur.k === 'tmplStart';
  }

  /** Skips to just after the next `;` or to the next `}` / declaration start at this nesting. */
  private recover(stopAtBrace: boolean): void {
    let depth = 0;
    while (this.cur.k !== 'eof') {
      const c = this.cur;
      if (c.k === 'sym') {
        if (c.s === '{' || c.s === '(' || c.s === '[') depth++;
        else if (c.s === '}' || c.s === ')' || c.s === ']') {
          if (depth === 0 && c.s === '}') {
            if (!stopAtBrace) this.p++;
            return;
          }
          depth = Math.max(0, depth - 1);
          if (depth === 0 && c.s === '}' && !stopAtBrace) {
            this.p++;
            return;
          }
        } else if (c.s === ';' && depth === 0) {
          this.p++;
          return;
        }
      }
      if (!stopAtBrace && depth === 0 && c.k === 'id' && ['fn', 'struct', 'alias', 'override', 'const_assert'].includes(c.s)) return;
      this.p++;
    }
  }

  // ───────────────────────────── module ─────────────────────────────

  module(): Global[] {
    const out: Global[] = [];
    let seenDecl = false;
    while (this.cur.k !== 'eof') {
      const start = this.p;
      try {
        if (this.eat(';')) continue;
        if (this.is('enable') || this.is('requires') || (this.is('diagnostic') && this.peek().s === '(')) {
          const d = this.directive();
          if (seenDecl) this.error('directives must come before all global declarations', d);
          out.push(d);
          continue;
        }
        seenDecl = true;
        out.push(this.global());
      } catch (e) {
        if (!(e instanceof Sync)) throw e;
        if (this.p === start) this.p++;
        this.recover(false);
      }
    }
    return out;
  }

  private directive(): Global {
    const tok = this.cur;
    this.p++;
    if (tok.s === 'diagnostic') {
      const c = this.diagnosticControl();
      this.expect(';', 'diagnostic directive');
      return { k: 'diagnostic', pos: tok.pos, start: tok.pos, end: this.last, ...c };
    }
    const names: { name: string; range: Range }[] = [];
    do {
      if (this.is(';')) break;
      const c = this.cur;
      if (c.k !== 'id') this.fail(`expected identifier for ${tok.s} directive`);
      this.p++;
      names.push({ name: c.s, range: range(c.pos, c.end) });
    } while (this.eat(','));
    if (!names.length) this.fail(`expected identifier for ${tok.s} directive`);
    this.expect(';', `${tok.s} directive`);
    return { k: 'directive', directive: tok.s as 'enable' | 'requires', names, pos: tok.pos, start: tok.pos, end: this.last };
  }

  /** `(severity, rule)` or `(severity, namespace.rule)`. */
  private diagnosticControl(): { severity: string; rule: string; severityRange: Range; ruleRange: Range } {
    this.expect('(', 'diagnostic control');
    const sev = this.cur;
    if (sev.k !== 'id') this.fail('expected severity control');
    this.p++;
    this.expect(',', 'diagnostic control');
    const r0 = this.cur;
    if (r0.k !== 'id') this.fail('expected diagnostic rule name');
    this.p++;
    let rule = r0.s;
    if (this.eat('.')) {
      const r1 = this.cur;
      if (r1.k !== 'id') this.fail('expected diagnostic identifier');
      this.p++;
      rule += `.${r1.s}`;
    }
    this.eat(',');
    this.expect(')', 'diagnostic control');
    const known = ['error', 'warning', 'info', 'off'];
    if (!known.includes(sev.s)) this.fail(`expected severity control\nPossible values: 'error', 'info', 'off', 'warning'`, sev);
    return { severity: sev.s, rule, severityRange: range(sev.pos, sev.end), ruleRange: range(r0.pos, this.last) };
  }

  private attrs(): Attr[] {
    const out: Attr[] = [];
    while (this.is('@')) {
      const pos = this.cur.pos;
      this.p++;
      const c = this.cur;
      if (c.k !== 'id') this.fail('expected attribute');
      this.p++;
      const name = c.s;
      const args: Expr[] = [];
      if (name === 'diagnostic') {
        const ctl = this.diagnosticControl();
        const sev: Expr = { k: 'id', name: ctl.severity, ...ctl.severityRange, start: ctl.severityRange.pos };
        const rule: Expr = { k: 'id', name: ctl.rule, ...ctl.ruleRange, start: ctl.ruleRange.pos };
        args.push(sev, rule);
      } else if (this.eat('(')) {
        while (!this.is(')')) {
          args.push(this.expr());
          if (!this.eat(',')) break;
        }
        this.expect(')', `${name} attribute`);
      }
      out.push({ pos, start: pos, end: this.last, name, nameRange: range(c.pos, c.end), args });
    }
    return out;
  }

  private global(): Global {
    const attrs = this.attrs();
    const tok = this.cur;
    const pos = tok.pos;
    switch (tok.k === 'id' ? tok.s : '') {
      case 'const_assert': {
        this.p++;
        const e = this.expr();
        this.expect(';', 'const assertion');
        return { k: 'const_assert', pos, start: pos, end: this.last, e };
      }
      case 'alias': {
        this.p++;
        const id = this.ident('type alias');
        this.expect('=', 'type alias');
        const ty = this.type();
        this.expect(';', 'type alias');
        return { k: 'alias', pos, start: pos, end: this.last, name: id.name, nameRange: id.range, ty };
      }
      case 'struct': {
        this.p++;
        const id = this.ident('struct declaration');
        this.expect('{', 'struct declaration');
        const members: Member[] = [];
        while (!this.is('}')) {
          const ma = this.attrs();
          const mpos = this.cur.pos;
          const m = this.ident('struct member');
          this.expect(':', 'struct member');
          const ty = this.type();
          members.push({ pos: mpos, start: mpos, end: this.last, name: m.name, nameRange: m.range, ty, attrs: ma });
          if (!this.eat(',')) break;
        }
        this.expect('}', 'struct declaration');
        return { k: 'struct', pos, start: pos, end: this.last, name: id.name, nameRange: id.range, members };
      }
      case 'const':
      case 'override': {
        this.p++;
        const kind = tok.s as 'const' | 'override';
        const id = this.ident(`${kind} declaration`);
        const ty = this.eat(':') ? this.type() : null;
        let init: Expr | null = null;
        if (this.eat('=')) init = this.expr();
        else if (kind === 'const') this.fail(`expected '=' for const declaration`);
        this.expect(';', `${kind} declaration`);
        return { k: kind, pos, start: pos, end: this.last, name: id.name, nameRange: id.range, ty, init, attrs };
      }
      case 'var': {
        this.p++;
        let space = 'private';
        let access = '';
        let spaceGiven = false;
        let spaceRange: Range | undefined;
        if (this.tmplStart()) {
          this.p++;
          const sp = this.ident('variable address space');
          space = sp.name;
          spaceRange = sp.range;
          spaceGiven = true;
          if (this.eat(',')) access = this.ident('variable access mode').name;
          if (this.cur.k !== 'tmplEnd') this.fail(`expected '>' for variable declaration`);
          this.p++;
        }
        const id = this.ident('variable declaration');
        const ty = this.eat(':') ? this.type() : null;
        const init = this.eat('=') ? this.expr() : null;
        this.expect(';', 'variable declaration');
        return {
          k: 'gvar', pos, start: pos, end: this.last, name: id.name, nameRange: id.range, space, spaceGiven, access, ty, init, attrs,
          ...(spaceRange ? { spaceRange } : {}),
        };
      }
      case 'let':
        return this.fail(`module-scope 'let' is invalid, use 'const'`);
      case 'fn':
        return this.fn(attrs, pos);
      default:
        return this.fail(attrs.length ? `expected declaration after attributes` : `unexpected token`);
    }
  }

  private fn(attrs: Attr[], pos: Pos): Global {
    this.p++;
    const id = this.ident('function declaration');
    this.expect('(', 'function declaration');
    const params: Param[] = [];
    while (!this.is(')')) {
      const pa = this.attrs();
      const ppos = this.cur.pos;
      const pn = this.ident('parameter');
      this.expect(':', 'parameter');
      const ty = this.type();
      params.push({ pos: ppos, start: ppos, end: this.last, name: pn.name, nameRange: pn.range, ty, attrs: pa });
      if (!this.eat(',')) break;
    }
    this.expect(')', 'function declaration');
    let ret: TypeExpr | null = null;
    let retAttrs: Attr[] = [];
    if (this.eat('->')) {
      retAttrs = this.attrs();
      ret = this.type();
    }
    this.attrs();
    const { body, close } = this.block('function declaration');
    return {
      k: 'fn', pos, start: pos, end: this.last, name: id.name, nameRange: id.range, params, ret, retAttrs, attrs, body, bodyEnd: close,
    };
  }

  private templateArgs(): (TypeExpr | Expr)[] {
    this.p++; // tmplStart
    const args: (TypeExpr | Expr)[] = [];
    while (this.cur.k !== 'tmplEnd') {
      if (this.atEof()) this.fail(`missing closing '>' for template list`);
      const e = this.expr();
      args.push(asType(e) ?? e);
      if (!this.eat(',')) break;
    }
    if (this.cur.k !== 'tmplEnd') this.fail(`expected '>' for template argument list`);
    this.p++;
    return args;
  }

  type(): TypeExpr {
    const c = this.cur;
    if (c.k !== 'id') this.fail(`invalid type`);
    if (RESERVED.has(c.s)) this.fail(`'${c.s}' is a reserved keyword`);
    if (KEYWORDS.has(c.s)) this.fail(`invalid type`);
    this.p++;
    const args = this.tmplStart() ? this.templateArgs() : [];
    return { pos: c.pos, start: c.pos, end: this.last, name: c.s, args };
  }

  // ───────────────────────────── statements ─────────────────────────────

  private block(use: string): { body: Stmt[]; close: Range } {
    this.expect('{', use);
    const out: Stmt[] = [];
    while (!this.is('}')) {
      if (this.atEof()) this.fail(`expected '}' for ${use}`);
      const start = this.p;
      try {
        const s = this.stmt();
        if (s) out.push(s);
      } catch (e) {
        if (!(e instanceof Sync)) throw e;
        if (this.p === start && !this.is('}')) this.p++;
        this.recover(true);
      }
    }
    const close = this.cur;
    this.p++;
    return { body: out, close: range(close.pos, close.end) };
  }

  private body(use: string): Stmt[] {
    this.attrs();
    return this.block(use).body;
  }

  private stmt(): Stmt | null {
    const attrs = this.attrs();
    const tok = this.cur;
    const pos = tok.pos;
    const withAttrs = attrs.length ? { attrs } : {};
    if (this.eat(';')) return null;
    if (tok.k === 'sym' && tok.s === '{') {
      const { body } = this.block('block statement');
      return { k: 'block', pos, start: pos, end: this.last, body, ...withAttrs };
    }
    switch (tok.k === 'id' ? tok.s : '') {
      case 'var':
      case 'let':
      case 'const': {
        const s = this.declaration();
        this.expect(';', tok.s === 'const' ? 'const declaration' : 'variable declaration');
        return s;
      }
      case 'return': {
        this.p++;
        const e = this.is(';') ? null : this.expr();
        this.expect(';', 'return statement');
        return { k: 'return', pos, start: pos, end: this.last, e };
      }
      case 'if':
        return this.ifStmt(attrs);
      case 'switch': {
        this.p++;
        const sel = this.expr();
        this.attrs();
        this.expect('{', 'switch statement');
        const clauses: SwitchClause[] = [];
        while (!this.is('}')) {
          const cpos = this.cur.pos;
          const sels: (Expr | null)[] = [];
          if (this.eat('default')) {
            sels.push(null);
          } else {
            if (!this.eat('case')) this.fail(`expected case statement`);
            while (!this.is(':') && !this.is('{') && !this.is('@')) {
              if (this.eat('default')) sels.push(null);
              else sels.push(this.expr());
              if (!this.eat(',')) break;
            }
            if (!sels.length) this.fail(`expected case selector expression or default`);
          }
          this.eat(':');
          const body = this.body('case statement');
          clauses.push({ pos: cpos, start: cpos, end: this.last, sels, body });
        }
        this.p++;
        return { k: 'switch', pos, start: pos, end: this.last, sel, clauses, ...withAttrs };
      }
      case 'loop':
        return this.loopStmt(pos, withAttrs);
      case 'for': {
        this.p++;
        this.expect('(', 'for loop');
        const init = this.is(';') ? null : this.simpleStmt(true);
        this.expect(';', 'initializer in for loop');
        const cond = this.is(';') ? null : this.expr();
        this.expect(';', 'condition in for loop');
        const update = this.is(')') ? null : this.simpleStmt(false);
        this.expect(')', 'for loop');
        const body = this.body('for loop');
        return { k: 'for', pos, start: pos, end: this.last, init, cond, update, body, ...withAttrs };
      }
      case 'while': {
        this.p++;
        const cond = this.expr();
        const body = this.body('while loop');
        return { k: 'while', pos, start: pos, end: this.last, cond, body, ...withAttrs };
      }
      case 'break':
        this.p++;
        if (this.is('if')) this.fail(`expected ';' for break statement`);
        this.expect(';', 'break statement');
        return { k: 'break', pos, start: pos, end: this.last };
      case 'continue':
        this.p++;
        this.expect(';', 'continue statement');
        return { k: 'continue', pos, start: pos, end: this.last };
      case 'discard':
        this.p++;
        this.expect(';', 'discard statement');
        return { k: 'discard', pos, start: pos, end: this.last };
      case 'const_assert': {
        this.p++;
        const e = this.expr();
        this.expect(';', 'const assertion');
        return { k: 'const_assert', pos, start: pos, end: this.last, e };
      }
      case 'continuing':
        return this.fail(`continuing must be the last statement of a loop body`);
      case 'else':
        return this.fail(`else without if`);
      default: {
        const s = this.simpleStmt(true);
        this.expect(';', s.k === 'expr' ? 'function call' : s.k === 'incdec' ? 'increment statement' : 'assignment statement');
        return s;
      }
    }
  }

  private loopStmt(pos: Pos, withAttrs: { attrs?: Attr[] }): Stmt {
    this.p++;
    this.attrs();
    this.expect('{', 'loop statement');
    const body: Stmt[] = [];
    let continuing: Stmt[] | null = null;
    let breakIf: Expr | null = null;
    let breakIfPos: Pos | null = null;
    while (!this.is('}')) {
      if (this.atEof()) this.fail(`expected '}' for loop statement`);
      if (this.is('continuing')) {
        this.p++;
        this.attrs();
        this.expect('{', 'continuing statement');
        continuing = [];
        while (!this.is('}')) {
          if (this.atEof()) this.fail(`expected '}' for continuing statement`);
          if (this.is('break') && this.peek().s === 'if') {
            breakIfPos = this.cur.pos;
            this.p += 2;
            breakIf = this.expr();
            this.expect(';', 'break-if statement');
            if (!this.is('}')) this.fail(`expected '}' for continuing statement`);
            continue;
          }
          const start = this.p;
          try {
            const s = this.stmt();
            if (s) continuing.push(s);
          } catch (e) {
            if (!(e instanceof Sync)) throw e;
            if (this.p === start && !this.is('}')) this.p++;
            this.recover(true);
          }
        }
        this.p++;
        if (!this.is('}')) this.fail(`expected '}' for loop statement`);
        continue;
      }
      const start = this.p;
      try {
        const s = this.stmt();
        if (s) body.push(s);
      } catch (e) {
        if (!(e instanceof Sync)) throw e;
        if (this.p === start && !this.is('}')) this.p++;
        this.recover(true);
      }
    }
    this.p++;
    return { k: 'loop', pos, start: pos, end: this.last, body, continuing, breakIf, breakIfPos, ...withAttrs };
  }

  private ifStmt(attrs: Attr[]): Stmt {
    const pos = this.cur.pos;
    this.p++; // if
    const cond = this.expr();
    const then = this.body('if statement');
    let els: Stmt[] | null = null;
    if (this.eat('else')) {
      if (this.is('if')) els = [this.ifStmt([])];
      else els = this.body('else statement');
    }
    return { k: 'if', pos, start: pos, end: this.last, cond, then, else: els, ...(attrs.length ? { attrs } : {}) };
  }

  private declaration(): Stmt {
    const pos = this.cur.pos;
    const decl = this.cur.s as 'var' | 'let' | 'const';
    this.p++;
    let space: string | undefined;
    if (decl === 'var' && this.tmplStart()) {
      this.p++;
      space = this.ident('variable address space').name;
      if (this.eat(',')) this.ident('variable access mode');
      if (this.cur.k !== 'tmplEnd') this.fail(`expected '>' for variable declaration`);
      this.p++;
    }
    const id = this.ident(`${decl === 'var' ? 'variable' : decl} declaration`);
    const ty = this.eat(':') ? this.type() : null;
    let init: Expr | null = null;
    if (this.eat('=')) init = this.expr();
    else if (decl !== 'var') this.fail(`expected '=' for ${decl} declaration`);
    return {
      k: 'decl', pos, start: pos, end: this.last, decl, name: id.name, nameRange: id.range, ty, init,
      ...(space !== undefined ? { space } : {}),
    };
  }

  /** Assignment, increment, call or declaration: what `for (…;…;…)` headers allow. */
  private simpleStmt(allowDecl: boolean): Stmt {
    const pos = this.cur.pos;
    if (this.is('var') || this.is('let') || this.is('const')) {
      if (!allowDecl) this.fail(`expected assignment, increment or function call`);
      return this.declaration();
    }
    if (this.is('_')) {
      this.p++;
      this.expect('=', 'assignment');
      const rhs = this.expr();
      return { k: 'assign', pos, start: pos, end: this.last, lhs: null, op: '=', rhs };
    }
    const parenthesised = this.is('(');
    const lhs = this.unary();
    const c = this.cur;
    if (c.k === 'sym' && (c.s === '++' || c.s === '--')) {
      this.p++;
      return { k: 'incdec', pos, start: pos, end: this.last, lhs, op: c.s };
    }
    if (c.k === 'sym' && ASSIGN_OPS.has(c.s)) {
      this.p++;
      const rhs = this.expr();
      return { k: 'assign', pos, start: pos, end: this.last, lhs, op: c.s, opRange: range(c.pos, c.end), rhs };
    }
    if (lhs.k === 'call' && !parenthesised) return { k: 'expr', pos, start: pos, end: this.last, e: lhs };
    return this.fail(`expected '=' for assignment`);
  }

  // ───────────────────────────── expressions ─────────────────────────────

  expr(): Expr {
    const l = this.unary();
    const c = this.cur;
    if (c.k === 'sym' && (c.s === '&' || c.s === '|' || c.s === '^')) {
      // bitwise_expression: unary (op unary)+, one operator only.
      let e = l;
      const first = this.cur;
      while (this.is(c.s)) {
        const opPos = this.cur.pos;
        this.p++;
        const r = this.unary();
        e = { k: 'bin', pos: opPos, start: this.from(e), end: this.last, op: c.s, l: e, r };
      }
      const n = this.cur;
      if (n.k === 'sym' && ['&', '|', '^', '&&', '||', '==', '!=', '<', '<=', '>=', '>', '<<', '>>', '+', '-', '*', '/', '%'].includes(n.s)) {
        this.fail(`mixing '${c.s}' and '${n.s}' requires parenthesis`, first);
      }
      return e;
    }
    const rel = this.relationalRest(l);
    const n = this.cur;
    if (n.k === 'sym' && (n.s === '&&' || n.s === '||')) {
      let e = rel;
      while (this.is(n.s)) {
        const opPos = this.cur.pos;
        this.p++;
        const r = this.relationalRest(this.unary());
        e = { k: 'bin', pos: opPos, start: this.from(e), end: this.last, op: n.s, l: e, r };
      }
      const m = this.cur;
      if (m.k === 'sym' && (m.s === '&&' || m.s === '||')) this.fail(`mixing '${n.s}' and '${m.s}' requires parenthesis`);
      return e;
    }
    return rel;
  }

  private relationalRest(l: Expr): Expr {
    const s = this.shiftRest(l);
    const c = this.cur;
    if (c.k === 'sym' && ['<', '>', '<=', '>=', '==', '!='].includes(c.s)) {
      this.p++;
      const r = this.shiftRest(this.unary());
      const e: Expr = { k: 'bin', pos: c.pos, start: this.from(s), end: this.last, op: c.s, l: s, r };
      const n = this.cur;
      if (n.k === 'sym' && ['<', '>', '<=', '>=', '==', '!='].includes(n.s)) {
        this.fail(`mixing '${c.s}' and '${n.s}' requires parenthesis`);
      }
      return e;
    }
    return s;
  }

  private shiftRest(l: Expr): Expr {
    const c = this.cur;
    if (c.k === 'sym' && (c.s === '<<' || c.s === '>>')) {
      this.p++;
      const r = this.unary();
      return { k: 'bin', pos: c.pos, start: this.from(l), end: this.last, op: c.s, l, r };
    }
    let e = this.mulRest(l);
    while (this.is('+') || this.is('-')) {
      const op = this.cur.s;
      const opPos = this.cur.pos;
      this.p++;
      const r = this.mulRest(this.unary());
      e = { k: 'bin', pos: opPos, start: this.from(e), end: this.last, op, l: e, r };
    }
    return e;
  }

  private mulRest(l: Expr): Expr {
    let e = l;
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.cur.s;
      const opPos = this.cur.pos;
      this.p++;
      const r = this.unary();
      e = { k: 'bin', pos: opPos, start: this.from(e), end: this.last, op, l: e, r };
    }
    return e;
  }

  private unary(): Expr {
    const c = this.cur;
    if (c.k === 'sym' && (c.s === '-' || c.s === '!' || c.s === '~' || c.s === '*' || c.s === '&')) {
      this.p++;
      const e = this.unary();
      return { k: 'un', pos: c.pos, start: c.pos, end: this.last, op: c.s, e };
    }
    if (c.k === 'sym' && (c.s === '--' || c.s === '&&')) {
      // `--x` is two negations and `&&x` two address-ofs in WGSL's grammar.
      this.p++;
      const inner = this.unary();
      const op = c.s[0]!;
      const mid = shiftPos(c.pos, 1);
      const e: Expr = { k: 'un', pos: mid, start: mid, end: this.last, op, e: inner };
      return { k: 'un', pos: c.pos, start: c.pos, end: this.last, op, e };
    }
    return this.postfix(this.primary());
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const open = this.cur;
      if (this.eat('[')) {
        const i = this.expr();
        this.expect(']', 'index accessor');
        e = { k: 'idx', pos: open.pos, start: this.from(e), end: this.last, e, i };
      } else if (this.eat('.')) {
        const dot = open;
        const c = this.cur;
        if (c.k !== 'id') this.fail(`expected identifier for member accessor`);
        this.p++;
        e = { k: 'mem', pos: dot.pos, start: this.from(e), end: this.last, e, name: c.s, nameRange: range(c.pos, c.end) };
      } else return e;
    }
  }

  private primary(): Expr {
    const c = this.cur;
    const pos = c.pos;
    if (c.k === 'int' || c.k === 'float') {
      this.p++;
      return this.literal(c);
    }
    if (c.k === 'id') {
      if (c.s === 'true' || c.s === 'false') {
        this.p++;
        return { k: 'lit', pos, start: pos, end: c.end, v: c.s === 'true' ? 1 : 0, t: 'bool', text: c.s };
      }
      if (RESERVED.has(c.s)) this.fail(`'${c.s}' is a reserved keyword`);
      if (KEYWORDS.has(c.s)) this.fail(`unable to parse right side of ${c.s} expression`);
      this.p++;
      const nameRange = range(c.pos, c.end);
      const tmpl = this.tmplStart() ? this.templateArgs() : null;
      if (this.eat('(')) {
        const args: Expr[] = [];
        while (!this.is(')')) {
          args.push(this.expr());
          if (!this.eat(',')) break;
        }
        this.expect(')', 'function call');
        return { k: 'call', pos, start: pos, end: this.last, name: c.s, nameRange, tmpl, args };
      }
      return tmpl ? { k: 'id', pos, start: pos, end: this.last, name: c.s, tmpl } : { k: 'id', pos, start: pos, end: this.last, name: c.s };
    }
    if (this.eat('(')) {
      const e = this.expr();
      this.expect(')', 'expression');
      this.parenStart.set(e, pos);
      return e;
    }
    return this.fail(c.k === 'eof' ? `unexpected end of file` : `unable to parse expression`);
  }

  private literal(c: Tok): Expr {
    const s = c.s;
    const r = { pos: c.pos, start: c.pos, end: c.end };
    const hex = /^0[xX]/.test(s);
    const last = s[s.length - 1]!;
    let t: LitKind;
    let body = s;
    if (c.k === 'int') {
      if (last === 'u' || last === 'i') {
        t = last === 'u' ? 'u32' : 'i32';
        body = s.slice(0, -1);
      } else t = 'ai';
      const v = hex ? Number(BigInt(body)) : Number(body);
      return { k: 'lit', ...r, v, t, text: s };
    }
    if (last === 'f' || last === 'h') {
      t = last === 'f' ? 'f32' : 'f16';
      body = s.slice(0, -1);
    } else t = 'af';
    const v = hex ? parseHexFloat(body) : Number(body);
    return { k: 'lit', ...r, v: t === 'f32' ? Math.fround(v) : v, t, text: s };
  }
}

function shiftPos(p: Pos, by: number): Pos {
  return { line: p.line, col: p.col + by, offset: (p.offset ?? 0) + by };
}

/** A bare (possibly templated) name in a template list is a type. */
function asType(e: Expr): TypeExpr | null {
  if (e.k !== 'id') return null;
  return { pos: e.pos, start: e.start, end: e.end, name: e.name, args: e.tmpl ?? [] };
}

function parseHexFloat(s: string): number {
  const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?$/.exec(s);
  if (!m) return NaN;
  const intPart = m[1] ?? '';
  const frac = m[2] ?? '';
  const exp = Number(m[3] ?? '0');
  let v = 0;
  for (const d of intPart + frac) v = v * 16 + parseInt(d, 16);
  return v * Math.pow(2, exp - 4 * frac.length);
}

/** Parses a WGSL module; returns the tree and every lexical and syntax error found. */
export function parse(source: string): ParseResult {
  const { toks, diagnostics } = lex(source);
  const p = new Parser(toks);
  const ast = p.module();
  const all = [...diagnostics, ...p.diagnostics].sort((a, b) => (a.range.pos.offset ?? 0) - (b.range.pos.offset ?? 0));
  return { ast, diagnostics: all };
}

/** Parses a WGSL module. Throws `WgslError` (with line and column) at the first syntax error. */
export function parseWgsl(source: string): Global[] {
  const { ast, diagnostics } = parse(source);
  const first = diagnostics.find((d) => d.severity === 'error');
  if (first) throw new WgslError(first.message, first.range.pos, 'syntax');
  return ast;
}
