/**
 * A `__shared__` scalar read right after `__syncthreads()`: `__syncthreads(); int c = count;`.
 * CUDA: every write to `count` made before the barrier is visible to every thread of the block
 * after it, so each thread reads the same value, and a loop or branch on `c` may hold further
 * `__syncthreads()` (every thread takes it alike). WGSL's uniformity analysis cannot see that a
 * plain read of workgroup memory is the same everywhere; its `workgroupUniformLoad` says so: it
 * waits for the whole workgroup, then gives every invocation the value. The lowering emits that
 * for these declarations (after the barrier as written), and the barrier check counts the local
 * as the same in every thread. A write to the variable by some thread before the others have read
 * it is a race in CUDA; in the WGSL, workgroupUniformLoad's own barriers order it after the reads.
 */
import type { FunctionDecl, Stmt } from './ast.ts';
import { forChildren } from './syntaxWalk.ts';

const isSyncthreads = (s: Stmt | undefined): boolean =>
  s?.kind === 'expr' && s.expr.kind === 'call' && s.expr.callee.kind === 'ident' && s.expr.callee.name === '__syncthreads' && s.expr.args.length === 0;

const cache = new WeakMap<FunctionDecl, ReadonlySet<Stmt>>();

/**
 * The declarations `T x = s;` (one variable) of `fn` whose initializer names one of `fn`'s own
 * `__shared__` scalars (declared once, no local of that name besides) and whose statement
 * directly follows `__syncthreads();` in the same block.
 */
export function uniformSharedReads(fn: FunctionDecl): ReadonlySet<Stmt> {
  const known = cache.get(fn);
  if (known) return known;
  const shared = new Map<string, number>();
  const others = new Set<string>();
  const blocks: Stmt[][] = [];
  const visit = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    const s = n as Stmt;
    if (s.kind === 'block') blocks.push(s.body);
    if (s.kind === 'decl')
      for (const v of s.vars) {
        if (s.storage.shared && !s.storage.extern && v.dims.length === 0 && v.type.pointers.length === 0) shared.set(v.name, (shared.get(v.name) ?? 0) + 1);
        else others.add(v.name);
      }
    forChildren(n, (c) => {
      visit(c);
      return false;
    });
  };
  visit(fn.body);
  const out = new Set<Stmt>();
  for (const body of blocks)
    body.forEach((s, i) => {
      if (s.kind !== 'decl' || s.storage.shared || s.vars.length !== 1 || !isSyncthreads(body[i - 1])) return;
      const v = s.vars[0]!;
      if (v.dims.length || v.type.pointers.length || v.type.reference || v.init?.kind !== 'ident') return;
      const name = v.init.name;
      if (shared.get(name) === 1 && !others.has(name)) out.add(s);
    });
  cache.set(fn, out);
  return out;
}
