/**
 * The debugger's expressions in CUDA mode: C expressions (`tid + s`, `sdata[tid]`,
 * `threadIdx.x % 32`, `(float)s / 2`), read by the CUDA front end's parser and computed with C's
 * arithmetic (`src/cuda/host/ctypes.ts`: integer promotion, the usual arithmetic conversions, so
 * `tid + s` with an `int` and an `unsigned int` is `unsigned int`, wrap-around, truncating `/`).
 *
 * The values come from the replay, typed as WGSL types them (the generated WGSL keeps the learner's
 * names): `u32` reads as `unsigned int`, `i32` as `int`, `f32` as `float`, `bool` as `bool`.
 * Errors are `ExpressionError`s, so the console words them as it words WGSL's.
 */
import { arithType, binary, CArithmeticError, convert, parseCuda, unary, type BinaryOp, type CArith, type CValue, type Expr } from '../cuda/index.ts';
import { ExpressionError, type ArrayValue, type Scope, type ScalarValue } from '../wgsl/evaluate.ts';

/** A CUDA expression, read once. */
export interface CudaExpression {
  readonly text: string;
  readonly expr: Expr;
  /** Scalar names it reads (members written `threadIdx.x`). */
  readonly names: ReadonlySet<string>;
  /** Array names it indexes. */
  readonly arrays: ReadonlySet<string>;
}

/** A value and its C type. */
export interface CudaValue {
  readonly type: CArith;
  readonly value: CValue;
}

const PREFIX = 'void warpscope_expression() {\n';

/** The C type a replayed value of WGSL type `type` has. */
export function cudaTypeOf(type: ScalarValue['type'] | ArrayValue['type']): CArith {
  switch (type) {
    case 'u32':
      return 'unsigned int';
    case 'i32':
      return 'int';
    case 'f32':
    case 'f16':
      return 'float';
    case 'bool':
      return 'bool';
    case 'af':
      return 'double';
    default:
      return 'int';
  }
}

/** Reads `text` as one C expression. Throws an `ExpressionError` (columns of `text`). */
export function parseCudaExpression(text: string): CudaExpression {
  if (text.trim() === '') throw new ExpressionError('empty', 'an empty expression', 1);
  const bad = text.search(/[;{}#\n]/);
  if (bad >= 0) throw new ExpressionError('syntax', `unexpected '${text[bad]}'`, bad + 1);
  const { unit, diagnostics } = parseCuda(`${PREFIX}${text}\n;}\n`, { fileName: 'expression' });
  const err = diagnostics.find((d) => d.severity === 'error');
  if (err) throw new ExpressionError('syntax', err.message, err.line === 2 ? err.column : err.line < 2 ? 1 : text.length + 1);
  const fn = unit.items[0];
  const stmt = fn && fn.kind === 'function' ? fn.body?.body[0] : undefined;
  if (!stmt || stmt.kind !== 'expr') throw new ExpressionError('syntax', 'not one expression', 1);
  const names = new Set<string>();
  const arrays = new Set<string>();
  const walk = (e: Expr): void => {
    switch (e.kind) {
      case 'ident':
        names.add(e.name);
        return;
      case 'unary':
        return walk(e.arg);
      case 'binary':
      case 'comma':
        walk(e.left);
        return walk(e.right);
      case 'cond':
        walk(e.test);
        walk(e.then);
        return walk(e.else);
      case 'index':
        if (e.object.kind === 'ident') arrays.add(e.object.name);
        else walk(e.object);
        return walk(e.index);
      case 'member':
        if (e.object.kind === 'ident') names.add(`${e.object.name}.${e.name}`);
        else walk(e.object);
        return;
      case 'cast':
        return walk(e.arg);
      default:
        return;
    }
  };
  walk(stmt.expr);
  return { text, expr: stmt.expr, names, arrays };
}

/** An integer literal's C type: the first of C's list for its base and suffix that holds it. */
function literalType(e: Extract<Expr, { kind: 'num' }>): CArith {
  if (e.isFloat) return e.floatSuffix ? 'float' : 'double';
  const decimal = !/^0[xXbB0-7]/.test(e.text) || e.text === '0';
  const list: CArith[] = e.unsigned
    ? e.long >= 2
      ? ['unsigned long long']
      : e.long === 1
        ? ['unsigned long', 'unsigned long long']
        : ['unsigned int', 'unsigned long', 'unsigned long long']
    : e.long >= 2
      ? decimal
        ? ['long long']
        : ['long long', 'unsigned long long']
      : e.long === 1
        ? decimal
          ? ['long', 'long long']
          : ['long', 'unsigned long', 'long long', 'unsigned long long']
        : decimal
          ? ['int', 'long', 'long long']
          : ['int', 'unsigned int', 'long', 'unsigned long', 'long long', 'unsigned long long'];
  const max: Partial<Record<CArith, number>> = { int: 2147483647, 'unsigned int': 4294967295, long: 2 ** 63 - 1, 'long long': 2 ** 63 - 1 };
  return list.find((t) => e.value <= (max[t] ?? Infinity)) ?? list[list.length - 1]!;
}

const BINARY = new Set(['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^', '<', '>', '<=', '>=', '==', '!=']);

const truth = (v: CudaValue): boolean => v.value !== 0 && v.value !== 0n && !Number.isNaN(v.value);

/** What `expression` computes in `scope`, with C's semantics. Throws an `ExpressionError`. */
export function evaluateCudaExpression(expression: CudaExpression, scope: Scope): CudaValue {
  const at = (e: Expr) => e.range.col;
  const ev = (e: Expr): CudaValue => {
    switch (e.kind) {
      case 'num':
        return { type: literalType(e), value: e.isFloat && e.floatSuffix ? Math.fround(e.value) : e.value };
      case 'char':
        return { type: 'int', value: e.value };
      case 'bool':
        return { type: 'bool', value: e.value ? 1 : 0 };
      case 'ident':
      case 'member': {
        const name = e.kind === 'ident' ? e.name : e.object.kind === 'ident' ? `${e.object.name}.${e.name}` : undefined;
        const v = name === undefined ? undefined : scope.scalar(name);
        if (!v) {
          if (name !== undefined && e.kind === 'ident' && scope.array(name)) throw new ExpressionError('type', `'${name}' is an array: print one element, such as ${name}[0]`, at(e), name);
          throw new ExpressionError('unknown-name', `use of undeclared identifier '${name ?? e.name}'`, at(e), name ?? e.name);
        }
        return { type: cudaTypeOf(v.type), value: v.value };
      }
      case 'index': {
        const name = e.object.kind === 'ident' ? e.object.name : undefined;
        const arr = name === undefined ? undefined : scope.array(name);
        if (!arr) throw new ExpressionError('unknown-array', `no array named '${name ?? '?'}'`, at(e), name ?? '?');
        const i = ev(e.index);
        if (i.type === 'float' || i.type === 'double') throw new ExpressionError('type', `array subscript is not an integer`, at(e.index));
        const k = Number(i.value);
        if (k < 0 || k >= arr.values.length) throw new ExpressionError('outside', `index ${k} out of bounds`, at(e), `${name}[${k}]`, arr.values.length - 1);
        return { type: cudaTypeOf(arr.type), value: arr.values[k]! };
      }
      case 'unary': {
        if (e.op === '*' || e.op === '&' || e.op === '++' || e.op === '--') throw new ExpressionError('type', `'${e.op}' is not evaluated here: the debugger reads values, it does not take addresses or change them`, at(e));
        const v = ev(e.arg);
        return unary(e.op, v.type, v.value);
      }
      case 'binary': {
        if (e.op === '&&' || e.op === '||') {
          const l = truth(ev(e.left));
          if (e.op === '&&' ? !l : l) return { type: 'int', value: l ? 1 : 0 };
          return { type: 'int', value: truth(ev(e.right)) ? 1 : 0 };
        }
        if (!BINARY.has(e.op)) throw new ExpressionError('type', `'${e.op}' is not evaluated here`, at(e));
        const l = ev(e.left);
        const r = ev(e.right);
        return binary(e.op as BinaryOp, l.type, l.value, r.type, r.value);
      }
      case 'cond': {
        const then = truth(ev(e.test)) ? ev(e.then) : ev(e.else);
        return then;
      }
      case 'cast': {
        const to = e.type.pointers.length === 0 ? arithType(e.type.base) : undefined;
        if (!to) throw new ExpressionError('type', `cannot convert to '${e.type.base}${'*'.repeat(e.type.pointers.length)}' here: casts to arithmetic types only`, at(e));
        const v = ev(e.arg);
        return { type: to, value: convert(v.value, v.type, to) };
      }
      case 'assign':
        throw new ExpressionError('type', `'${e.op}' is not evaluated here: the debugger reads values, it does not change them`, at(e));
      case 'call':
        throw new ExpressionError('type', 'function calls are not evaluated here', at(e));
      default:
        throw new ExpressionError('type', `this kind of expression is not evaluated here`, at(e));
    }
  };
  try {
    return ev(expression.expr);
  } catch (e) {
    if (e instanceof CArithmeticError) throw new ExpressionError('type', e.message, 1);
    throw e;
  }
}
