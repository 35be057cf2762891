/**
 * A vector built one component at a time from the same operation. CUDA's `float4` has no
 * arithmetic, so a learner who multiplies and adds four floats at once spells each component:
 *
 *     make_float4(fmaf(a, b.x, c.x), fmaf(a, b.y, c.y), fmaf(a, b.z, c.z), fmaf(a, b.w, c.w))
 *     make_float4(p.x + q.x, p.y + q.y, p.z + q.z, p.w + q.w)
 *
 * WGSL has vector arithmetic, so each is one operation on whole vectors: `fma(vec4<f32>(a), b, c)`,
 * `p + q`. That reads as what the learner meant, and it hands the GPU's compiler one vector
 * operation instead of four scalar ones packed into a constructor. Each component's result is
 * what its scalar operation gives (WGSL's vector built-ins and operators work component by
 * component), so nothing changes but the shape.
 *
 * This module only recognises the shape in the syntax tree: in every argument the same function
 * (or the same arithmetic operator), and in each of its operand places either component i of one
 * and the same expression (`b.x`, `b.y`, … in order: the whole vector `b`) or one and the same
 * expression in every argument (`a`: a scalar, written once). The lowering checks what needs
 * types: the vectors are float vectors of the right width, the function works component by
 * component, and every operand written once is free of side effects (it was evaluated once per
 * component before).
 */
import type { Expr } from './ast.ts';
import { sameExpr } from './componentChain.ts';

/** One operand place of the operation. */
export type Operand =
  /** Component i of this expression in argument i: the whole vector. */
  | { readonly kind: 'vector'; readonly e: Expr }
  /** This expression in every argument: one scalar for all the components. */
  | { readonly kind: 'scalar'; readonly e: Expr };

/** A recognised vector operation. */
export interface Componentwise {
  /** The function every argument calls (`fmaf`), or the operator every argument applies (`+`). */
  readonly op: { readonly kind: 'call'; readonly name: string } | { readonly kind: 'binary'; readonly op: string };
  readonly operands: readonly Operand[];
}

const COMPONENTS = ['x', 'y', 'z', 'w'];
const ARITHMETIC = new Set(['+', '-', '*', '/']);

/** The arguments of `make_floatN(…)` as one operation on whole vectors, or undefined. */
export function componentwise(args: readonly Expr[]): Componentwise | undefined {
  if (args.length < 2 || args.length > 4) return undefined;
  const first = args[0]!;
  let op: Componentwise['op'];
  let operandsOf: (e: Expr) => readonly Expr[] | undefined;
  if (first.kind === 'call' && first.callee.kind === 'ident' && !first.templateArgs) {
    const name = first.callee.name;
    const arity = first.args.length;
    op = { kind: 'call', name };
    operandsOf = (e) => (e.kind === 'call' && e.callee.kind === 'ident' && e.callee.name === name && !e.templateArgs && e.args.length === arity ? e.args : undefined);
  } else if (first.kind === 'binary' && ARITHMETIC.has(first.op)) {
    const o = first.op;
    op = { kind: 'binary', op: o };
    operandsOf = (e) => (e.kind === 'binary' && e.op === o ? [e.left, e.right] : undefined);
  } else return undefined;
  const perArg: (readonly Expr[])[] = [];
  for (const a of args) {
    const ops = operandsOf(a);
    if (!ops) return undefined;
    perArg.push(ops);
  }
  const operands: Operand[] = [];
  for (let p = 0; p < perArg[0]!.length; p++) {
    const column = perArg.map((ops) => ops[p]!);
    const objects = column.map((e, i) => (e.kind === 'member' && !e.arrow && e.name === COMPONENTS[i] ? e.object : undefined));
    if (objects.every((o): o is Expr => o !== undefined) && objects.every((o) => sameExpr(o, objects[0]!))) operands.push({ kind: 'vector', e: objects[0]! });
    else if (column.every((e) => sameExpr(e, column[0]!))) operands.push({ kind: 'scalar', e: column[0]! });
    else return undefined;
  }
  return operands.some((o) => o.kind === 'vector') ? { op, operands } : undefined;
}
