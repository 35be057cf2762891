// What a function body writes: the one notion that the lowering (which locals and parameters
// must be WGSL `var`s, which keep a known value or range, which parameters may become constants)
// and the barrier analysis (which pointers may be re-pointed) share.
//
// A name is written where its own storage may change:
// - `x = …`, `x += …`, `++x`, `x--`;
// - `x.m = …`, `x[i] = …` when `x` is an array, a struct or a vector (its elements are its
//   storage), but not `p[i] = …`, `*p = …` or `p->m = …` when `p` is a pointer: those write what `p`
//   points to, and `p` still points there;
// - `&x` taken anywhere but as a call's argument, and a reference bound to it (`int &r = x;`,
//   `for (auto &e : x)`): it may be written through them;
// - a call's argument where the callee's parameter is a reference (`int &k`) that the callee
//   writes, or a pointer that the callee writes through (`f(&x)`, `f(v)` with `v` an array): the
//   callee is asked, through every function it passes the parameter on to. A parameter passed by
//   value is the callee's copy, and a pointer the callee only reads through writes nothing.
// Where the answer cannot be followed (a pointer compared, returned or copied into another, a
// function that calls itself), the name counts as written: a `var` too many, never a wrong `let`.
import type { Expr, FunctionDecl, Stmt } from './ast.ts';
import { forChildren } from './syntaxWalk.ts';

/** The functions of the program a call may name (overloads and template instances share a name); none for a built-in. */
export type Callees = (name: string) => readonly FunctionDecl[];

/** A function's writes: names whose own storage changes, and pointers written through (their pointee may change). */
interface Writes {
  readonly own: Set<string>;
  readonly through: Set<string>;
}

/** Names whose every declaration in `fn` (parameters, locals) is a pointer (`int *p`, `int a[]` as a parameter). */
function pointerNames(fn: FunctionDecl): Set<string> {
  const pointers = new Set<string>();
  const other = new Set<string>();
  for (const p of fn.params) (p.type.pointers.length > 0 || p.array ? pointers : other).add(p.name);
  const visit = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(visit);
    const s = n as Stmt;
    if (s.kind === 'decl') for (const v of s.vars) (v.type.pointers.length > 0 && v.dims.length === 0 && !v.type.reference ? pointers : other).add(v.name);
    if (s.kind === 'forRange') other.add(s.name);
    forChildren(n, (c) => {
      visit(c);
      return false;
    });
  };
  visit(fn.body);
  for (const o of other) pointers.delete(o);
  return pointers;
}

const summaries = new WeakMap<FunctionDecl, Writes | 'pending'>();

/** What `fn`'s whole body writes (computed once per function; a call back into a function being computed counts as writing every parameter). */
function summary(fn: FunctionDecl, callees: Callees): Writes {
  const known = summaries.get(fn);
  if (known === 'pending') {
    const all = new Set(fn.params.map((p) => p.name));
    return { own: all, through: all };
  }
  if (known) return known;
  summaries.set(fn, 'pending');
  const w = collect(fn, callees, fn.body);
  summaries.set(fn, w);
  return w;
}

function collect(fn: FunctionDecl, callees: Callees, within: unknown): Writes {
  const pointers = pointerNames(fn);
  const own = new Set<string>();
  const through = new Set<string>();
  // The variable whose own storage an lvalue is: x for x, x.m, x[i] (x not a pointer); none for *p, p->m, p[i].
  const owner = (t: Expr): string | undefined => {
    if (t.kind === 'ident') return t.name;
    if (t.kind === 'member' && !t.arrow) return owner(t.object);
    if (t.kind === 'index') return t.object.kind === 'ident' && pointers.has(t.object.name) ? undefined : owner(t.object);
    if (t.kind === 'cast') return owner(t.arg);
    return undefined;
  };
  // The name an lvalue or pointer expression is reached from, through subscripts, members, `*`, casts and pointer arithmetic.
  const root = (t: Expr): string | undefined => {
    switch (t.kind) {
      case 'ident': return t.name;
      case 'member': case 'index': return root(t.object);
      case 'unary': return t.op === '*' || t.op === '&' ? root(t.arg) : undefined;
      case 'cast': return root(t.arg);
      case 'binary': return t.op === '+' || t.op === '-' ? (root(t.left) ?? root(t.right)) : undefined;
      case 'comma': return root(t.right);
      default: return undefined;
    }
  };
  // `t` is written (assigned, incremented, its address taken or bound to a reference).
  const write = (t: Expr): void => {
    const o = owner(t);
    if (o) own.add(o);
    const r = root(t);
    if (r && (t.kind !== 'ident' || o === undefined)) through.add(r);
  };
  // The subscripts of an lvalue are read; the lvalue itself is not.
  const subscripts = (t: Expr): void => {
    if (t.kind === 'index') {
      value(t.index);
      subscripts(t.object);
    } else if (t.kind === 'member') subscripts(t.object);
    else if (t.kind === 'unary' && t.op === '*') subscripts(t.arg);
    else if (t.kind === 'cast') subscripts(t.arg);
    else if (t.kind !== 'ident') value(t);
  };
  // What a pointer argument points into is written: `&x` writes x; an array (`v`, `v + 2`, `s.a`) its own
  // storage; a pointer (`p`, `p + 1`) what it points to.
  const writeThrough = (a: Expr): void => {
    if (a.kind === 'unary' && a.op === '&') return write(a.arg);
    const r = root(a);
    if (!r) return;
    through.add(r);
    if (!pointers.has(r)) own.add(owner(a) ?? r);
  };
  // A call: each argument is written where the callee writes its parameter (a reference) or
  // through it (a pointer). `&x` given to a built-in (`atomicAdd(&x, 1)`) may be written.
  const call = (e: Extract<Expr, { kind: 'call' }>): void => {
    const fns = e.callee.kind === 'ident' ? callees(e.callee.name).filter((f) => f.body && f.params.length >= e.args.length) : [];
    e.args.forEach((a, i) => {
      const params = fns.map((f) => ({ p: f.params[i]!, s: summary(f, callees) }));
      if (params.some(({ p, s }) => p.type.reference && s.own.has(p.name))) write(a);
      if (params.some(({ p, s }) => !p.type.reference && (p.type.pointers.length > 0 || p.array) && s.through.has(p.name))) writeThrough(a);
      if (a.kind === 'unary' && a.op === '&') {
        if (!fns.length) write(a.arg);
        return subscripts(a.arg);
      }
      // A name passed to a function of the program is written above if the callee writes it.
      if (fns.length && a.kind === 'ident') return;
      value(a);
    });
  };
  // An expression whose value is used: a pointer named bare (compared, copied, returned) may be written through elsewhere.
  const value = (e: unknown): void => {
    if (!e || typeof e !== 'object') return;
    if (Array.isArray(e)) return e.forEach(value);
    const x = e as Expr;
    switch (x.kind) {
      case 'ident':
        if (pointers.has(x.name)) through.add(x.name);
        return;
      case 'assign':
        write(x.left);
        subscripts(x.left);
        return value(x.right);
      case 'unary':
        if (x.op === '++' || x.op === '--' || x.op === '&') {
          write(x.arg);
          return subscripts(x.arg);
        }
        if (x.op === '*') return subscripts(x.arg);
        break;
      case 'index':
        value(x.index);
        return subscripts(x.object);
      case 'member':
        return x.arrow ? subscripts(x.object) : value(x.object);
      case 'call':
        if (x.callee.kind === 'ident') return call(x);
        break;
    }
    forChildren(x, (c) => {
      statement(c);
      return false;
    });
  };
  const statement = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(statement);
    const s = n as Stmt;
    if (s.kind === 'decl') {
      for (const v of s.vars) {
        if (v.type.reference && v.init) write(v.init);
        if (v.init) value(v.init);
        v.ctorArgs?.forEach(value);
        v.dims.forEach((d) => d && value(d));
      }
      return;
    }
    if (s.kind === 'forRange') {
      if (s.type.reference) write(s.over);
      value(s.over);
      return statement(s.body);
    }
    if ('kind' in s && typeof s.kind === 'string' && !isStatement(s.kind)) return value(s);
    forChildren(s, (c) => {
      statement(c);
      return false;
    });
  };
  statement(within);
  return { own, through };
}

const EXPRESSIONS = new Set(['ident', 'num', 'str', 'char', 'bool', 'unary', 'binary', 'assign', 'cond', 'call', 'launch', 'index', 'member', 'cast', 'sizeof', 'new', 'delete', 'init', 'comma']);
const isStatement = (kind: string): boolean => !EXPRESSIONS.has(kind);

/**
 * The names `within` (by default `fn`'s whole body) writes, as the comment at the top of this
 * file defines it; `callees` names the program's functions a call may reach.
 */
export function writtenNames(fn: FunctionDecl, callees: Callees, within: unknown = fn.body): Set<string> {
  return within === fn.body ? new Set(summary(fn, callees).own) : collect(fn, callees, within).own;
}
