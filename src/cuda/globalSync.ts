// Whether a kernel's `__syncthreads()` must order global memory too (WGSL's `storageBarrier()`
// beside `workgroupBarrier()`): only where one thread can read global memory that another wrote
// before the barrier, that is where the kernel (with the device functions it calls) both writes
// and reads some global memory, not atomically.
//
// The analysis follows where each pointer points rather than its name: a device function's
// pointer parameter points where the arguments of its calls point, a pointer local where its
// initializer points. So `insert(lists, …)` with `lists` a `__shared__` array touches shared
// memory only, and `fill(p)` writing through `p = out` counts as a write of `out`, read back by
// the kernel as `out[…]`. What it cannot follow (a pointer local assigned another pointer, a
// device function returning a pointer) may point to any global memory: an extra storageBarrier,
// never a missing one.
import type { Expr, FunctionDecl, Stmt } from './ast.ts';
import { forChildren } from './syntaxWalk.ts';
import { writtenNames } from './writes.ts';

/** Where a pointer may point: names of global memory (`param:x`, `global:x`), `shared`, or `ANY` (any global memory). */
type Origins = ReadonlySet<string>;
const SHARED = 'shared';
const ANY = '?';
const NONE: Origins = new Set();

/** A file-scope variable as the analysis needs it. */
export interface GlobalVar {
  readonly name: string;
  readonly kind: 'shared' | 'constant' | 'device' | 'managed';
}

const union = (...sets: Origins[]): Origins => new Set(sets.flatMap((s) => [...s]));

export function readsAndWritesGlobal(kernel: FunctionDecl, overloads: ReadonlyMap<string, readonly FunctionDecl[]>, globals: Iterable<GlobalVar>): boolean {
  const fileScope = new Map<string, Origins>();
  for (const g of globals) fileScope.set(g.name, g.kind === 'shared' ? new Set([SHARED]) : g.kind === 'constant' ? NONE : new Set([`global:${g.name}`]));
  const written = new Set<string>();
  const read = new Set<string>();
  const done = new Set<string>();
  const active = new Set<FunctionDecl>();

  const visit = (fn: FunctionDecl, params: Origins[]): void => {
    const key = `${fn.name}@${fn.range.file}:${fn.range.line}:${fn.range.col}:${params.map((p) => [...p].sort().join(',')).join(';')}`;
    if (done.has(key) || active.has(fn) || !fn.body) return;
    done.add(key);
    active.add(fn);
    // Pointers the function re-points anywhere (`p = q`, `++p`, `&p`, a reference to p written) may point anywhere.
    const reassigned = writtenNames(fn, (name) => overloads.get(name) ?? []);
    const scopes: Map<string, Origins>[] = [new Map(fn.params.map((p, i) => [p.name, reassigned.has(p.name) && p.type.pointers.length ? union(params[i] ?? NONE, new Set([ANY])) : (params[i] ?? NONE)]))];
    const lookup = (name: string): Origins | undefined => {
      for (let i = scopes.length - 1; i >= 0; i--) {
        const o = scopes[i]?.get(name);
        if (o) return o;
      }
      return fileScope.get(name);
    };
    // The memory a pointer-valued expression may point into.
    const origins = (e: Expr): Origins => {
      switch (e.kind) {
        case 'ident': return lookup(e.name) ?? NONE;
        case 'binary': return e.op === '+' || e.op === '-' ? union(origins(e.left), origins(e.right)) : NONE;
        case 'unary': return e.op === '&' ? target(e.arg) : e.op === '-' || e.op === '+' || e.op === '!' || e.op === '~' ? NONE : origins(e.arg);
        case 'index': return origins(e.object);
        case 'member': return e.arrow ? origins(e.object) : target(e.object);
        case 'cast': return origins(e.arg);
        case 'cond': return union(origins(e.then), origins(e.else));
        case 'comma': return origins(e.right);
        case 'assign': return origins(e.right);
        case 'call': return (overloads.get(e.callee.kind === 'ident' ? e.callee.name : '') ?? []).some((f) => f.returnType.pointers.length) ? new Set([ANY]) : NONE;
        default: return NONE;
      }
    };
    // The memory an lvalue lives in.
    const target = (e: Expr): Origins => {
      if (e.kind === 'ident') {
        const own = lookup(e.name);
        return own && fileScope.get(e.name) === own ? own : NONE; // a local's own storage is not global
      }
      if (e.kind === 'index') return origins(e.object);
      if (e.kind === 'unary' && e.op === '*') return origins(e.arg);
      if (e.kind === 'member') return e.arrow ? origins(e.object) : target(e.object);
      return origins(e);
    };
    const add = (set: Set<string>, o: Origins): void => o.forEach((x) => set.add(x));
    // Reads the subscripts of an lvalue, not the lvalue itself.
    const walkSubscripts = (e: Expr): void => {
      if (e.kind === 'index') {
        walk(e.index);
        walkSubscripts(e.object);
      } else if (e.kind === 'member') walkSubscripts(e.object);
      else if (e.kind === 'unary' && e.op === '*') walk(e.arg);
      else if (e.kind !== 'ident') walk(e);
    };
    const walk = (n: unknown): void => {
      if (!n || typeof n !== 'object') return;
      if (Array.isArray(n)) return n.forEach(walk);
      const x = n as Expr | Stmt;
      switch (x.kind) {
        case 'block': case 'for':
          scopes.push(new Map());
          forChildren(n, (v) => { walk(v); return false; });
          scopes.pop();
          return;
        case 'decl':
          for (const v of x.vars) {
            if (v.init) walk(v.init);
            v.ctorArgs?.forEach(walk);
            const o = x.storage.shared ? new Set([SHARED]) : v.init ? origins(v.init) : NONE;
            scopes[scopes.length - 1]?.set(v.name, reassigned.has(v.name) && v.type.pointers.length ? union(o, new Set([ANY])) : o);
          }
          return;
        case 'assign':
          if (x.left.kind !== 'ident' || fileScope.get(x.left.name) === lookup(x.left.name)) {
            add(written, target(x.left));
            if (x.op !== '=') add(read, target(x.left));
          }
          walkSubscripts(x.left);
          walk(x.right);
          return;
        case 'unary':
          if (x.op === '++' || x.op === '--') {
            add(written, target(x.arg));
            add(read, target(x.arg));
            return walkSubscripts(x.arg);
          }
          if (x.op === '&') return walkSubscripts(x.arg);
          if (x.op === '*') add(read, origins(x.arg));
          break;
        case 'index':
          add(read, origins(x.object));
          break;
        case 'member':
          if (x.arrow) add(read, origins(x.object));
          break;
        case 'ident':
          add(read, target(x));
          return;
        case 'call':
          if (x.callee.kind === 'ident') {
            const name = x.callee.name;
            if (name.startsWith('atomic')) return x.args.slice(1).forEach(walk);
            const callees = (overloads.get(name) ?? []).filter((f) => f.body && f.params.length >= x.args.length);
            if (callees.length) {
              // A pointer argument is read or written where the callee dereferences it, not here.
              x.args.forEach(walk);
              const args = x.args.map(origins);
              for (const f of callees) visit(f, f.params.map((_, i) => args[i] ?? NONE));
              return;
            }
            // Any other function (a built-in) may read what it is given.
            for (const a of x.args) add(read, origins(a));
          }
          break;
      }
      forChildren(n, (v) => { walk(v); return false; });
    };
    walk(fn.body);
    active.delete(fn);
  };
  visit(kernel, kernel.params.map((p) => (p.type.pointers.length || p.array ? new Set([`param:${p.name}`]) : NONE)));
  const isGlobal = (o: string): boolean => o !== SHARED;
  const anyRead = [...read].some(isGlobal);
  return [...written].some((o) => isGlobal(o) && (read.has(o) || read.has(ANY) || (o === ANY && anyRead)));
}
