/**
 * A vector component picked at run time. CUDA's `float4` has no `operator[]`, so a learner who
 * writes component `k` of a vector spells it as a chain of branches:
 *
 *     if (k == 0) v->x = value;
 *     else if (k == 1) v->y = value;
 *     else if (k == 2) v->z = value;
 *     else v->w = value;
 *
 * WGSL indexes vectors, so the chain is one store `v[min(k, 3u)] = value` (with no final `else`,
 * `if (k < 4u) { v[k] = value; }`). Where `v` lies in shared or global memory that matters on a
 * GPU: the threads of a warp that pick different components take the branches one after another,
 * four stores where one does. This module only recognises the shape in the syntax tree; the
 * lowering checks what it needs types for (the tested value is a pure integer, the place a vector
 * in memory) and otherwise lowers the chain as written.
 *
 * Exactly one branch runs, so the place and the value are evaluated once either way; the tested
 * value is evaluated once instead of up to four times, so it must be free of side effects (the
 * lowering checks that it is pure).
 */
import type { Expr, Stmt } from './ast.ts';
import { forChildren } from './syntaxWalk.ts';

type Assign = Extract<Expr, { kind: 'assign' }>;
type Member = Extract<Expr, { kind: 'member' }>;

/** A recognised chain. */
export interface ComponentChain {
  /** The value every test compares (`k`). */
  readonly key: Expr;
  /** The first branch's assignment: its left side is the member the lowering indexes instead. */
  readonly write: Assign & { readonly left: Member };
  /** How many components the chain names (x…w: 4): with a final `else`, every other key goes to the last. */
  readonly count: number;
  /** No final `else`: a key outside 0 … count − 1 writes nothing. */
  readonly guarded: boolean;
}

const COMPONENTS = ['x', 'y', 'z', 'w'];

/** The expression statement of a branch that is one, or a block of one. */
function singleAssign(s: Stmt): (Assign & { left: Member }) | undefined {
  const one = s.kind === 'block' ? (s.body.length === 1 ? s.body[0]! : undefined) : s;
  if (one?.kind !== 'expr' || one.expr.kind !== 'assign' || one.expr.left.kind !== 'member') return undefined;
  return one.expr as Assign & { left: Member };
}

/** The same tree, wherever it was written. */
export function sameExpr(a: Expr, b: Expr): boolean {
  const text = (e: Expr): string => JSON.stringify(e, (key, value: unknown) => (key === 'range' ? undefined : value));
  return text(a) === text(b);
}

/** No call, assignment, increment, comma, `new` or `delete` anywhere in `e`: evaluating it again changes nothing. */
function sideEffectFree(e: Expr): boolean {
  const effect = (n: unknown): boolean => {
    const x = n as { kind?: string; op?: string };
    if (x.kind && ['call', 'launch', 'assign', 'comma', 'new', 'delete'].includes(x.kind)) return true;
    if (x.kind === 'unary' && (x.op === '++' || x.op === '--')) return true;
    return forChildren(x, effect);
  };
  return !effect(e);
}

/** `s` as a chain that writes component `key` of one place, or undefined. */
export function componentChain(s: Extract<Stmt, { kind: 'if' }>): ComponentChain | undefined {
  const arms: { index: number; write: Assign & { left: Member } }[] = [];
  let key: Expr | undefined;
  let last: (Assign & { left: Member }) | undefined;
  for (let at: Stmt | undefined = s; at; ) {
    if (at.kind !== 'if') {
      last = singleAssign(at);
      if (!last) return undefined;
      break;
    }
    const t = at.test;
    if (t.kind !== 'binary' || t.op !== '==') return undefined;
    const [k, n] = t.right.kind === 'num' ? [t.left, t.right] : t.left.kind === 'num' ? [t.right, t.left] : [undefined, undefined];
    if (!k || n?.kind !== 'num' || n.isFloat || (key && !sameExpr(key, k))) return undefined;
    key = k;
    const write = singleAssign(at.then);
    if (!write) return undefined;
    arms.push({ index: n.value, write });
    at = at.else;
  }
  const first = arms[0];
  if (!key || !first || !sideEffectFree(key)) return undefined;
  const count = arms.length + (last ? 1 : 0);
  if (count < 2 || count > COMPONENTS.length) return undefined;
  const writes = [...arms, ...(last ? [{ index: count - 1, write: last }] : [])];
  const seen = new Set<number>();
  for (const { index, write } of writes) {
    const w = write;
    if (index >= count || COMPONENTS.indexOf(w.left.name) !== index || seen.has(index)) return undefined;
    seen.add(index);
    if (w.op !== first.write.op || w.left.arrow !== first.write.left.arrow || !sameExpr(w.left.object, first.write.left.object) || !sameExpr(w.right, first.write.right)) return undefined;
  }
  // Now indices 0 … count − 1, each once (with an else, the arms take 0 … count − 2 and the else the last).
  return { key, write: first.write, count, guarded: !last };
}
