/**
 * WGSL expressions evaluated over values a debugger knows (a lane's builtins, the kernel's scalar
 * names with their WGSL types, workgroup arrays): the front end reads and checks the expression as
 * WGSL (`parse`, `check`), and the values follow WGSL's scalar semantics (`scalar.ts`, the same the
 * simulator runs): `u32` wraps (`0u - 1u` is 4294967295), `i32` wraps in two's complement, shifts
 * take their amount modulo 32, `f32` rounds to f32 after each operation, `x / 0` is `x`.
 *
 * `parseExpression` reads an expression once; `evaluateExpression` runs it against a scope.
 */
import type { Expr } from './ast.ts';
import { check } from './checker.ts';
import { parse } from './parser.ts';
import { binaryFn, builtin1, builtin2, builtin3, COMPARISONS, convert } from './scalar.ts';
import { scalar, unify, type ScalarName } from './types.ts';

/** A scalar value and its WGSL type (bool as 0 or 1; abstract numbers as doubles). */
export interface ScalarValue {
  readonly type: ScalarName;
  readonly value: number;
}

/** A one-dimensional array of scalars the expression may index (`sdata[i]`). */
export interface ArrayValue {
  readonly type: 'u32' | 'i32' | 'f32' | 'f16' | 'bool';
  readonly values: ArrayLike<number>;
}

/** What an expression's names mean. */
export interface Scope {
  /** A scalar name (`lid`, a kernel variable, or a member such as `threadIdx.x`), or undefined. */
  scalar(name: string): ScalarValue | undefined;
  /** An array name, or undefined. */
  array(name: string): ArrayValue | undefined;
}

/** The names of a scope and their types, for checking an expression before any value is known. */
export interface ScopeTypes {
  readonly scalars: ReadonlyMap<string, ScalarName>;
  readonly arrays: ReadonlyMap<string, { readonly type: ArrayValue['type']; readonly length: number }>;
}

export type ExpressionErrorKind = 'empty' | 'syntax' | 'type' | 'unknown-name' | 'unknown-array' | 'outside';

/** Why an expression cannot be read or evaluated, and where (1-based column in the expression). */
export class ExpressionError extends Error {
  constructor(
    readonly kind: ExpressionErrorKind,
    message: string,
    readonly column: number,
    /** The name or `name[index]` concerned, for 'unknown-name', 'unknown-array' and 'outside'. */
    readonly subject?: string,
    /** For 'outside': the array's last index. */
    readonly last?: number,
  ) {
    super(message);
  }
}

/** A parsed expression: its tree and the names it uses. */
export interface ParsedExpression {
  readonly text: string;
  readonly expr: Expr;
  /** Scalar names it reads (members written `threadIdx.x`). */
  readonly names: ReadonlySet<string>;
  /** Array names it indexes. */
  readonly arrays: ReadonlySet<string>;
}

const PREFIX = 'fn debugger_expression() {\n_ = (\n';
const SUFFIX = '\n);\n}\n';

/** Reads `text` as one WGSL expression. Throws an `ExpressionError` for a syntax error. */
export function parseExpression(text: string): ParsedExpression {
  if (text.trim() === '') throw new ExpressionError('empty', 'an empty expression', 1);
  if (/[;{}]/.test(text)) {
    const at = text.search(/[;{}]/);
    throw new ExpressionError('syntax', `unexpected '${text[at]}'`, at + 1);
  }
  const { ast, diagnostics } = parse(PREFIX + text + SUFFIX);
  const err = diagnostics.find((d) => d.severity === 'error');
  if (err) throw new ExpressionError('syntax', err.message, columnOf(err.range.pos.line, err.range.pos.col, text));
  const fn = ast[0];
  const stmt = fn && fn.k === 'fn' ? fn.body[0] : undefined;
  if (!stmt || stmt.k !== 'assign' || stmt.lhs !== null) throw new ExpressionError('syntax', 'not one expression', 1);
  const names = new Set<string>();
  const arrays = new Set<string>();
  const walk = (e: Expr): void => {
    switch (e.k) {
      case 'lit':
        return;
      case 'id':
        names.add(e.name);
        return;
      case 'un':
        return walk(e.e);
      case 'bin':
        walk(e.l);
        return walk(e.r);
      case 'idx':
        if (e.e.k === 'id') arrays.add(e.e.name);
        else walk(e.e);
        return walk(e.i);
      case 'mem':
        if (e.e.k === 'id') names.add(`${e.e.name}.${e.name}`);
        else walk(e.e);
        return;
      case 'call':
        return e.args.forEach(walk);
    }
  };
  walk(stmt.rhs);
  return { text, expr: stmt.rhs, names, arrays };
}

/** A column of the wrapped source as a column of the expression (its text starts on line 3). */
function columnOf(line: number, col: number, text: string): number {
  const lines = text.split('\n');
  const at = line - 3;
  if (at < 0) return 1;
  if (at >= lines.length) return text.length + 1;
  return lines.slice(0, at).reduce((n, l) => n + l.length + 1, 0) + col;
}

const MEMBER_STRUCT = 'DebuggerDim3';
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks a parsed expression against the types of a scope as the WGSL front end checks a kernel:
 * unknown names, and every type error (`lid + 1i`, `1u << 1i`, `sdata[0] + 1u` with f32 `sdata`),
 * as the browser would report them. Throws an `ExpressionError`.
 */
export function checkExpression(parsed: ParsedExpression, types: ScopeTypes): void {
  for (const name of parsed.names) {
    if (!types.scalars.has(name)) throw new ExpressionError('unknown-name', `unresolved value '${name}'`, 1, name);
  }
  for (const name of parsed.arrays) {
    if (!types.arrays.has(name)) throw new ExpressionError('unknown-array', `no array named '${name}'`, 1, name);
  }
  const decls: string[] = [];
  const params: string[] = [];
  const members = new Map<string, Set<string>>();
  for (const [name, type] of types.scalars) {
    const dot = name.indexOf('.');
    if (dot > 0) {
      const base = name.slice(0, dot);
      if (!members.has(base)) members.set(base, new Set());
      members.get(base)!.add(`${name.slice(dot + 1)}: ${type}`);
    } else if (IDENT.test(name) && !types.arrays.has(name)) params.push(`${name}: ${type}`);
  }
  [...members].forEach(([base, fields], k) => {
    decls.push(`struct ${MEMBER_STRUCT}_${k} { ${[...fields].join(', ')} }`);
    params.push(`${base}: ${MEMBER_STRUCT}_${k}`);
  });
  for (const [name, a] of types.arrays) if (IDENT.test(name)) decls.push(`var<workgroup> ${name}: array<${a.type === 'bool' ? 'u32' : a.type}, ${Math.max(1, a.length)}>;`);
  const head = `${decls.join('\n')}\nfn debugger_expression(${params.join(', ')}) {\n_ = (\n`;
  const source = head + parsed.text + SUFFIX;
  const needsF16 = [...types.scalars.values()].includes('f16') || /\d[hH]\b|f16/.test(parsed.text);
  const { diagnostics } = check((needsF16 ? 'enable f16;\n' : '') + source);
  const err = diagnostics.find((d) => d.severity === 'error');
  if (err) {
    const exprLine = head.split('\n').length + (needsF16 ? 1 : 0);
    throw new ExpressionError('type', err.message, columnOf(err.range.pos.line - exprLine + 3, err.range.pos.col, parsed.text));
  }
}

/** The scope's names and types. */
export function typesOf(names: Iterable<[string, ScalarName]>, arrays: Iterable<[string, { type: ArrayValue['type']; length: number }]>): ScopeTypes {
  return { scalars: new Map(names), arrays: new Map(arrays) };
}

const checked = new WeakMap<ParsedExpression, Map<string, ExpressionError | null>>();

/**
 * Evaluates a parsed expression in `scope`: first checked as WGSL against the types of the names
 * it uses (once per set of types), then computed. Throws an `ExpressionError`.
 */
export function evaluateExpression(parsed: ParsedExpression, scope: Scope): ScalarValue {
  const scalars: [string, ScalarName][] = [];
  for (const name of parsed.names) {
    const v = scope.scalar(name);
    if (!v) throw new ExpressionError('unknown-name', `unresolved value '${name}'`, 1, name);
    scalars.push([name, v.type]);
  }
  const arrays: [string, { type: ArrayValue['type']; length: number }][] = [];
  for (const name of parsed.arrays) {
    const a = scope.array(name);
    if (!a) throw new ExpressionError('unknown-array', `no array named '${name}'`, 1, name);
    arrays.push([name, { type: a.type, length: a.values.length }]);
  }
  const key = JSON.stringify([scalars, arrays]);
  let byTypes = checked.get(parsed);
  if (!byTypes) checked.set(parsed, (byTypes = new Map<string, ExpressionError | null>()));
  if (!byTypes.has(key)) {
    try {
      checkExpression(parsed, typesOf(scalars, arrays));
      byTypes.set(key, null);
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      byTypes.set(key, e);
    }
  }
  const error = byTypes.get(key);
  if (error) throw error;
  return evaluate(parsed.expr, scope, parsed.text);
}

const isAbstract = (s: ScalarName) => s === 'ai' || s === 'af';

/** `a` and `b` converted to their common type (WGSL's automatic conversion of abstract numbers). */
function common(a: ScalarValue, b: ScalarValue): [ScalarName, number, number] {
  const t = unify(scalar(a.type), scalar(b.type));
  if (!t || t.k !== 'scalar') throw new ExpressionError('type', `no common type for '${a.type}' and '${b.type}'`, 1);
  return [t.s, convert(a.value, a.type, t.s), convert(b.value, b.type, t.s)];
}

function evaluate(e: Expr, scope: Scope, text: string): ScalarValue {
  const column = () => columnOf(e.start.line, e.start.col, text);
  switch (e.k) {
    case 'lit':
      return { type: e.t, value: e.v };
    case 'id': {
      const v = scope.scalar(e.name);
      if (!v) throw new ExpressionError('unknown-name', `unresolved value '${e.name}'`, column(), e.name);
      return v;
    }
    case 'mem': {
      const name = e.e.k === 'id' ? `${e.e.name}.${e.name}` : e.name;
      const v = scope.scalar(name);
      if (!v) throw new ExpressionError('unknown-name', `unresolved value '${name}'`, column(), name);
      return v;
    }
    case 'idx': {
      const name = e.e.k === 'id' ? e.e.name : '';
      const arr = scope.array(name);
      if (!arr) throw new ExpressionError('unknown-array', `no array named '${name}'`, column(), name);
      const i = evaluate(e.i, scope, text);
      // An abstract index is an i32 (`sdata[-1]` is outside, not a huge u32).
      const at = i.type === 'ai' ? i.value : i.type === 'i32' ? i.value : i.value >>> 0;
      if (!Number.isInteger(at) || at < 0 || at >= arr.values.length) {
        throw new ExpressionError('outside', `${name}[${at}] is outside 0…${arr.values.length - 1}`, column(), `${name}[${at}]`, arr.values.length - 1);
      }
      return { type: arr.type, value: arr.values[at]! };
    }
    case 'un': {
      const a = evaluate(e.e, scope, text);
      switch (e.op) {
        case '!':
          return { type: 'bool', value: a.value ? 0 : 1 };
        case '~':
          return { type: a.type, value: a.type === 'u32' ? ~a.value >>> 0 : a.type === 'ai' ? -a.value - 1 : ~a.value };
        case '-':
          // i32: -(-2^31) wraps to itself; floats keep their sign of zero.
          return { type: a.type, value: a.type === 'i32' ? -a.value | 0 : convert(-a.value, 'af', a.type === 'ai' ? 'af' : a.type) };
      }
      throw new ExpressionError('type', `the operator '${e.op}' is not supported here`, column());
    }
    case 'bin': {
      const op = e.op;
      if (op === '&&' || op === '||') {
        const a = evaluate(e.l, scope, text);
        if ((op === '&&') === (a.value === 0)) return { type: 'bool', value: a.value ? 1 : 0 };
        return { type: 'bool', value: evaluate(e.r, scope, text).value ? 1 : 0 };
      }
      const a = evaluate(e.l, scope, text);
      const b = evaluate(e.r, scope, text);
      if (op === '<<' || op === '>>') {
        // The amount is a u32; the value keeps its own type (an abstract value beside a
        // run-time amount is an i32).
        const s: ScalarName = a.type === 'ai' && !isAbstract(b.type) ? 'i32' : a.type;
        const f = binaryFn(op, s)!;
        return { type: s, value: f(convert(a.value, a.type, s), convert(b.value, b.type, isAbstract(b.type) ? 'ai' : 'u32')) };
      }
      const [s, x, y] = common(a, b);
      const f = binaryFn(op, s);
      if (!f) throw new ExpressionError('type', `no operator '${op}' for '${s}'`, column());
      return { type: COMPARISONS.has(op) ? 'bool' : s, value: f(x, y) };
    }
    case 'call':
      return call(e, scope, text);
  }
}

const CONSTRUCTORS = new Set<ScalarName>(['u32', 'i32', 'f32', 'f16', 'bool']);

function call(e: Expr & { k: 'call' }, scope: Scope, text: string): ScalarValue {
  const args = e.args.map((a) => evaluate(a, scope, text));
  const column = columnOf(e.start.line, e.start.col, text);
  if (CONSTRUCTORS.has(e.name as ScalarName) && args.length === 1) {
    const to = e.name as ScalarName;
    return { type: to, value: convert(args[0]!.value, args[0]!.type, to) };
  }
  if (e.name === 'select' && args.length === 3) {
    const [s, f, t] = common(args[0]!, args[1]!);
    return { type: s, value: args[2]!.value ? t : f };
  }
  // Component-wise numeric builtins: the arguments in their common type.
  let s: ScalarName = args[0]?.type ?? 'ai';
  for (const a of args.slice(1)) s = common({ type: s, value: 0 }, a)[0];
  const xs = args.map((a) => convert(a.value, a.type, s));
  // Abstract arguments are evaluated in their concrete type (what a kernel would run).
  const run: ScalarName = s === 'ai' ? 'i32' : s === 'af' ? 'f32' : s;
  const v = xs.map((x) => convert(x, s, run));
  const value = v.length === 1 ? builtin1(e.name, run)?.(v[0]!) : v.length === 2 ? builtin2(e.name, run)?.(v[0]!, v[1]!) : v.length === 3 ? builtin3(e.name, run)?.(v[0]!, v[1]!, v[2]!) : undefined;
  if (value === undefined) throw new ExpressionError('type', `'${e.name}' cannot be evaluated here`, column);
  return { type: run, value };
}
