/**
 * Warp idioms that CUDA spells as shuffle loops and WGSL has as one subgroup built-in. CUDA has
 * no warp scan or warp sum, so a learner writes the Kogge–Stone scan
 *
 *     for (int d = 1; d < 32; d *= 2) { int up = __shfl_up_sync(0xffffffff, v, d); if (lane >= d) v += up; }
 *
 * and the butterfly `for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d);`.
 * On 32 active lanes whose `lane` is each lane's place in the warp, and on 32-bit integers (whose
 * addition wraps, so its order does not matter), they compute exactly `subgroupInclusiveAdd(v)`
 * and `subgroupAdd(v)`. This module only recognises the shape in the syntax tree; the lowering
 * checks the types and emits the built-in behind a run-time test of the rest (the whole warp is
 * active, `lane` equals the subgroup's lane), with the loop as written as the other branch.
 */
import type { Expr, Stmt } from './ast.ts';

type ForStmt = Extract<Stmt, { kind: 'for' }>;

/** A recognised loop: the variable it scans or sums, and what it must be checked for. */
export interface WarpIdiom {
  readonly kind: 'scan' | 'sum';
  /** The variable scanned or summed in place. */
  readonly value: string;
  /** The loop counter (its declaration, for its type). */
  readonly counter: Extract<Stmt, { kind: 'decl' }>;
  /** The shuffle call: its mask (and width, if given) must be the full warp. */
  readonly shuffle: Extract<Expr, { kind: 'call' }>;
  /** Scan: the declaration of the shuffled value (`int up = …`), whose type must be the value's. */
  readonly temp?: Extract<Stmt, { kind: 'decl' }>;
  /** Scan: the expression compared with the counter (`lane` in `lane >= d`). */
  readonly lane?: Expr;
}

const isIdent = (e: Expr | undefined, name: string): boolean => e?.kind === 'ident' && e.name === name;

/** The one statement of a body that is a single statement, or a block of one. */
function single(s: Stmt): Stmt | undefined {
  if (s.kind !== 'block') return s;
  return s.body.length === 1 ? single(s.body[0]!) : undefined;
}

/** The counter's values, for a start, a constant bound and a doubling or halving step (at most 64 trips). */
function trips(s: ForStmt, counter: string, start: number, constant: (e: Expr) => number | undefined): number[] | undefined {
  const test = s.test;
  const u = s.update;
  if (!test || !u || test.kind !== 'binary' || !isIdent(test.left, counter)) return undefined;
  const bound = constant(test.right);
  if (bound === undefined) return undefined;
  const holds: Record<string, (x: number) => boolean> = { '<': (x) => x < bound, '<=': (x) => x <= bound, '>': (x) => x > bound, '>=': (x) => x >= bound, '!=': (x) => x !== bound };
  const ok = holds[test.op];
  if (!ok) return undefined;
  let step: ((x: number) => number) | undefined;
  if (u.kind === 'assign' && isIdent(u.left, counter)) {
    const k = constant(u.right);
    if (u.op === '*=' && k === 2) step = (x) => x * 2;
    else if (u.op === '<<=' && k === 1) step = (x) => x * 2;
    else if (u.op === '/=' && k === 2) step = (x) => Math.trunc(x / 2);
    else if (u.op === '>>=' && k === 1) step = (x) => x >> 1;
    else if (u.op === '=' && u.right.kind === 'binary' && isIdent(u.right.left, counter)) {
      // `d = d * 2`, `d = d / 2`, `d = d << 1`, `d = d >> 1`
      const r = constant(u.right.right);
      const op = u.right.op;
      if ((op === '*' && r === 2) || (op === '<<' && r === 1)) step = (x) => x * 2;
      else if ((op === '/' && r === 2) || (op === '>>' && r === 1)) step = (x) => Math.trunc(x / 2);
    }
  }
  if (!step) return undefined;
  const out: number[] = [];
  for (let x = start; ok(x); x = step(x)) {
    if (out.length === 64) return undefined;
    out.push(x);
  }
  return out;
}

/** `v += t` or `v = v + t` / `v = t + v`: the name added into and what is added, if it is one of these. */
function addInto(e: Expr): { into: string; added: Expr } | undefined {
  if (e.kind !== 'assign' || e.left.kind !== 'ident') return undefined;
  const into = e.left.name;
  if (e.op === '+=') return { into, added: e.right };
  if (e.op !== '=' || e.right.kind !== 'binary' || e.right.op !== '+') return undefined;
  if (isIdent(e.right.left, into)) return { into, added: e.right.right };
  if (isIdent(e.right.right, into)) return { into, added: e.right.left };
  return undefined;
}

/** Whether `e` names any of `names`. */
function names(e: unknown, set: ReadonlySet<string>): boolean {
  if (!e || typeof e !== 'object') return false;
  if (Array.isArray(e)) return e.some((x) => names(x, set));
  const x = e as { kind?: string; name?: string };
  if (x.kind === 'ident' && set.has(x.name!)) return true;
  for (const k in x) if (k !== 'range' && names((x as Record<string, unknown>)[k], set)) return true;
  return false;
}

const shuffleOf = (e: Expr | undefined, fn: string, value: string, counter: string): Extract<Expr, { kind: 'call' }> | undefined =>
  e?.kind === 'call' && isIdent(e.callee, fn) && !e.templateArgs && (e.args.length === 3 || e.args.length === 4) && isIdent(e.args[1], value) && isIdent(e.args[2], counter) ? e : undefined;

/**
 * The scan or sum loop `s` is, if it is one: the counter takes exactly 1, 2, 4, 8, 16 (in either
 * order), and the body is the idiom's and nothing else. Types, mask and width are the caller's to check.
 */
export function warpIdiom(s: ForStmt, constant: (e: Expr) => number | undefined): WarpIdiom | undefined {
  const init = s.init;
  if (!init || init.kind !== 'decl' || init.vars.length !== 1 || init.storage.static) return undefined;
  const c = init.vars[0]!;
  if (!c.init || c.dims.length || c.type.pointers.length || c.type.reference) return undefined;
  const start = constant(c.init);
  if (start === undefined) return undefined;
  const values = trips(s, c.name, start, constant);
  if (!values || [...values].sort((a, b) => a - b).join() !== '1,2,4,8,16') return undefined;
  // The butterfly: `v += __shfl_xor_sync(mask, v, d);`
  const one = single(s.body);
  if (one?.kind === 'expr') {
    const add = addInto(one.expr);
    const shuffle = add && shuffleOf(add.added, '__shfl_xor_sync', add.into, c.name);
    return add && shuffle && add.into !== c.name && !names(shuffle.args[0], new Set([add.into, c.name])) ? { kind: 'sum', value: add.into, counter: init, shuffle } : undefined;
  }
  // The scan: `T up = __shfl_up_sync(mask, v, d); if (lane >= d) v += up;`
  if (s.body.kind !== 'block' || s.body.body.length !== 2) return undefined;
  const [first, second] = s.body.body as [Stmt, Stmt];
  if (first.kind !== 'decl' || first.vars.length !== 1 || first.storage.static || second.kind !== 'if' || second.else) return undefined;
  const temp = first.vars[0]!;
  if (temp.dims.length || temp.type.pointers.length || temp.type.reference || !temp.init) return undefined;
  const test = second.test;
  const then = single(second.then);
  const add = then?.kind === 'expr' ? addInto(then.expr) : undefined;
  if (!add || !isIdent(add.added, temp.name) || add.into === c.name || add.into === temp.name) return undefined;
  const shuffle = shuffleOf(temp.init, '__shfl_up_sync', add.into, c.name);
  if (!shuffle || test.kind !== 'binary') return undefined;
  // `lane >= d`, or `d <= lane`.
  const lane = test.op === '>=' && isIdent(test.right, c.name) ? test.left : test.op === '<=' && isIdent(test.left, c.name) ? test.right : undefined;
  const own = new Set([add.into, c.name, temp.name]);
  if (!lane || names(lane, own) || names(shuffle.args[0], own) || names(shuffle.args[3], own)) return undefined;
  return { kind: 'scan', value: add.into, counter: init, shuffle, temp: first, lane };
}
