/**
 * Uniformity analysis (WGSL §14.2), flow-sensitive over each function: which values may differ
 * between invocations, and whether control flow reaching a barrier, `workgroupUniformLoad` or a
 * subgroup/quad operation may be non-uniform. Functions are analysed callee first; a function
 * whose barrier needs uniform control flow passes that requirement (and which parameters must be
 * uniform) to its call sites. Subgroup operations honour `diagnostic(…, subgroup_uniformity)`
 * directives and `@diagnostic` attributes on functions and statements; barriers are always errors.
 */
import { diag, span, type Attr, type Expr, type Global, type Range, type Stmt, type WgslDiagnostic } from './ast.ts';
import { BARRIERS, BUILTIN_VALUES, isSubgroupOp } from './builtins.ts';

/** Taint bits: bit 0 = may be non-uniform; bit k+1 = depends on parameter k of the function. */
const NU = 1;

type Severity = 'error' | 'warning' | 'info' | 'off';

interface Site {
  name: string;
  range: Range;
  severity: Severity;
  subgroup: boolean;
}

interface FnInfo {
  /** The operation that needs the call site's control flow to be uniform. */
  req: Site | null;
  /** Parameters whose values decide whether `req` is reached (bit k+1 for parameter k). */
  reqParams: number;
  /** Taint of the returned value. */
  ret: number;
}

interface Cell {
  taint: number;
}

type Fn = Global & { k: 'fn' };

export function analyseUniformity(ast: readonly Global[]): WgslDiagnostic[] {
  return new Uniformity(ast).run();
}

class Uniformity {
  private readonly out: WgslDiagnostic[] = [];
  private readonly reported = new Set<string>();
  private readonly fns = new Map<string, Fn>();
  private readonly info = new Map<string, FnInfo>();
  private readonly globalTaint = new Map<string, number>();
  private readonly structs = new Map<string, Global & { k: 'struct' }>();
  private moduleSubgroup: Severity = 'error';
  /** Each reported site, with the function whose walk reported it. */
  private readonly sites: { d: WgslDiagnostic; fn: string; subgroup: boolean }[] = [];

  constructor(private readonly ast: readonly Global[]) {}

  run(): WgslDiagnostic[] {
    for (const g of this.ast) {
      if (g.k === 'fn') this.fns.set(g.name, g);
      else if (g.k === 'struct') this.structs.set(g.name, g);
      else if (g.k === 'gvar') {
        const readOnly = g.space === 'uniform' || (g.space === 'storage' && g.access !== 'read_write' && g.access !== 'write') || !g.spaceGiven;
        this.globalTaint.set(g.name, readOnly ? 0 : NU);
      } else if (g.k === 'const' || g.k === 'override') this.globalTaint.set(g.name, 0);
      else if (g.k === 'diagnostic' && g.rule === 'subgroup_uniformity') this.moduleSubgroup = g.severity as Severity;
    }
    for (const f of this.fns.values()) this.analyse(f);
    return this.tintsChoice();
  }

  /**
   * Tint stops at the first function (callee first) whose uniformity fails and reports one error
   * for it: a barrier (or workgroupUniformLoad) before any subgroup operation, and among those the
   * last one reached. Warnings and notes-only severities are all kept.
   */
  private tintsChoice(): WgslDiagnostic[] {
    const errors = this.sites.filter((r) => r.d.severity === 'error');
    if (errors.length < 2) return this.out;
    const group = errors.filter((r) => r.fn === errors[0]!.fn);
    const barriers = group.filter((r) => !r.subgroup);
    const pick = (barriers.length ? barriers : group).at(-1)!.d;
    return this.out.filter((d) => d.severity !== 'error' || d === pick);
  }

  private analyse(f: Fn): FnInfo {
    const have = this.info.get(f.name);
    if (have) return have;
    // Provisional entry so recursion (already an error elsewhere) terminates.
    const info: FnInfo = { req: null, reqParams: 0, ret: 0 };
    this.info.set(f.name, info);
    new FnWalker(this, f, info).walk();
    return info;
  }

  callee(name: string): FnInfo | null {
    const f = this.fns.get(name);
    return f ? this.analyse(f) : null;
  }

  global(name: string): number | undefined {
    return this.globalTaint.get(name);
  }

  structOf(name: string): (Global & { k: 'struct' }) | undefined {
    return this.structs.get(name);
  }

  get moduleSeverity(): Severity {
    return this.moduleSubgroup;
  }

  /** Reports `site`, reached in non-uniform control flow while walking function `fn`. */
  report(fn: string, site: Site, cause: { range: Range; message: string } | null, via: string | null): void {
    if (site.severity === 'off') return;
    const key = `${site.range.pos.offset}:${site.name}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const notes: { message: string; range: Range }[] = [];
    if (via) notes.push({ message: `called by '${via}'`, range: site.range });
    if (cause) notes.push(cause);
    const what = site.subgroup ? 'subgroup uniform control flow' : 'uniform control flow';
    const d = diag(site.severity, 'uniformity', `'${site.name}' must only be called from ${what}`, site.range, notes);
    this.out.push(d);
    this.sites.push({ d, fn, subgroup: site.subgroup });
  }
}

function severityOf(attrs: readonly Attr[] | undefined, inherited: Severity): Severity {
  for (const a of attrs ?? []) {
    if (a.name !== 'diagnostic') continue;
    const sev = a.args[0];
    const rule = a.args[1];
    if (sev?.k === 'id' && rule?.k === 'id' && rule.name === 'subgroup_uniformity') return sev.name as Severity;
  }
  return inherited;
}

class FnWalker {
  private scopes: Map<string, Cell>[] = [new Map<string, Cell>()];
  private cf = 0;
  private exitTaint = 0;
  private readonly loops: { taint: number }[] = [];
  private severity: Severity;
  private readonly entry: boolean;
  /** Where the control flow became non-uniform, for the note. */
  private cause: { range: Range; message: string } | null = null;

  constructor(
    private readonly u: Uniformity,
    private readonly f: Fn,
    private readonly info: FnInfo,
  ) {
    this.severity = severityOf(f.attrs, u.moduleSeverity);
    this.entry = f.attrs.some((a) => a.name === 'compute' || a.name === 'fragment' || a.name === 'vertex');
  }

  walk(): void {
    this.f.params.forEach((p, k) => {
      let taint = 1 << (k + 1);
      if (this.entry) {
        const b = p.attrs.find((a) => a.name === 'builtin')?.args[0];
        if (b && b.k === 'id') taint = BUILTIN_VALUES[b.name]?.uniform ? 0 : NU;
        else {
          const s = this.u.structOf(p.ty.name);
          taint = 0;
          for (const m of s?.members ?? []) {
            const mb = m.attrs.find((a) => a.name === 'builtin')?.args[0];
            if (mb && mb.k === 'id' && !BUILTIN_VALUES[mb.name]?.uniform) taint = NU;
          }
        }
      }
      this.scopes[0]!.set(p.name, { taint });
    });
    this.stmts(this.f.body);
  }

  private get eff(): number {
    let t = this.cf | this.exitTaint;
    for (const l of this.loops) t |= l.taint;
    return t;
  }

  private lookup(name: string): Cell | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const c = this.scopes[i]!.get(name);
      if (c) return c;
    }
    return undefined;
  }

  private snapshot(): Map<Cell, number> {
    const m = new Map<Cell, number>();
    for (const s of this.scopes) for (const c of s.values()) m.set(c, c.taint);
    return m;
  }

  private restore(m: Map<Cell, number>): void {
    for (const [c, t] of m) c.taint = t;
  }

  private mergeInto(acc: Map<Cell, number>): void {
    for (const [c, t] of acc) acc.set(c, t | c.taint);
  }

  private stmts(list: readonly Stmt[]): void {
    this.scopes.push(new Map());
    for (const s of list) this.stmt(s);
    this.scopes.pop();
  }

  private withSeverity(attrs: readonly Attr[] | undefined, body: () => void): void {
    const saved = this.severity;
    this.severity = severityOf(attrs, saved);
    body();
    this.severity = saved;
  }

  private branch(cond: number, condRange: Range, arms: (readonly Stmt[] | null)[]): void {
    const saved = this.cf;
    const savedCause = this.cause;
    if (cond & NU && !(this.cf & NU)) this.cause = { range: condRange, message: 'control flow depends on possibly non-uniform value' };
    this.cf |= cond;
    const start = this.snapshot();
    const acc = new Map(start);
    for (const c of acc.keys()) acc.set(c, 0);
    for (const arm of arms) {
      this.restore(start);
      if (arm) this.stmts(arm);
      this.mergeInto(acc);
    }
    this.restore(acc);
    this.cf = saved;
    if (!(this.eff & NU)) this.cause = savedCause;
  }

  private loop(cond: Expr | null, body: readonly Stmt[], tail: () => void): void {
    this.loops.push({ taint: 0 });
    const saved = this.cf;
    for (let pass = 0; pass < 2; pass++) {
      const before = this.snapshot();
      if (cond) {
        const c = this.expr(cond);
        if (c & NU && !(this.eff & NU)) this.cause = { range: span(cond), message: 'control flow depends on possibly non-uniform value' };
        this.cf |= c;
      }
      // The continuing block (the tail) sees the body's declarations.
      this.scopes.push(new Map());
      for (const st of body) this.stmt(st);
      tail();
      this.scopes.pop();
      const after = this.snapshot();
      for (const [c, t] of before) after.set(c, t | (after.get(c) ?? 0));
      this.restore(after);
    }
    this.cf = saved;
    this.loops.pop();
  }

  private stmt(s: Stmt): void {
    switch (s.k) {
      case 'block':
        this.withSeverity(s.attrs, () => this.stmts(s.body));
        return;
      case 'decl': {
        const t = s.init ? this.expr(s.init) : 0;
        this.scopes[this.scopes.length - 1]!.set(s.name, { taint: s.decl === 'var' ? t | this.eff : t });
        return;
      }
      case 'assign': {
        const t = this.expr(s.rhs);
        if (!s.lhs) return;
        const lt = this.expr(s.lhs);
        const root = rootName(s.lhs);
        const cell = root ? this.lookup(root) : undefined;
        if (cell) {
          if (s.op === '=' && s.lhs.k === 'id') cell.taint = t | this.eff;
          else cell.taint |= t | lt | this.eff;
        }
        return;
      }
      case 'incdec': {
        const root = rootName(s.lhs);
        const cell = root ? this.lookup(root) : undefined;
        if (cell) cell.taint |= this.eff;
        return;
      }
      case 'expr':
        this.expr(s.e);
        return;
      case 'if':
        this.withSeverity(s.attrs, () => {
          const c = this.expr(s.cond);
          this.branch(c, span(s.cond), [s.then, s.else]);
        });
        return;
      case 'switch':
        this.withSeverity(s.attrs, () => {
          const c = this.expr(s.sel);
          for (const cl of s.clauses) for (const x of cl.sels) if (x) this.expr(x);
          this.branch(c, span(s.sel), s.clauses.map((cl) => cl.body));
        });
        return;
      case 'loop':
        this.withSeverity(s.attrs, () =>
          this.loop(null, s.body, () => {
            this.scopes.push(new Map());
            for (const st of s.continuing ?? []) this.stmt(st);
            if (s.breakIf) {
              const c = this.expr(s.breakIf);
              this.loops[this.loops.length - 1]!.taint |= c;
            }
            this.scopes.pop();
          }),
        );
        return;
      case 'for':
        this.withSeverity(s.attrs, () => {
          this.scopes.push(new Map());
          if (s.init) this.stmt(s.init);
          this.loop(s.cond, s.body, () => {
            if (s.update) this.stmt(s.update);
          });
          this.scopes.pop();
        });
        return;
      case 'while':
        this.withSeverity(s.attrs, () => this.loop(s.cond, s.body, () => undefined));
        return;
      case 'break':
      case 'continue': {
        const l = this.loops[this.loops.length - 1];
        if (l) l.taint |= this.cf;
        return;
      }
      case 'return': {
        if (s.e) this.info.ret |= this.expr(s.e) | this.eff;
        this.exitTaint |= this.cf;
        return;
      }
      default:
        return;
    }
  }

  /** A call that needs uniform control flow, at `site`, reached with control-flow taint `t`. */
  private need(site: Site, t: number, via: string | null): void {
    if (t & NU) {
      this.u.report(this.f.name, site, this.cause, via);
      return;
    }
    if (site.severity === 'off') return;
    this.info.req ??= site;
    this.info.reqParams |= t & ~NU;
  }

  private expr(e: Expr): number {
    switch (e.k) {
      case 'lit':
        return 0;
      case 'id': {
        const c = this.lookup(e.name);
        if (c) return c.taint;
        return this.u.global(e.name) ?? 0;
      }
      case 'un':
        if (e.op === '&' && e.e.k === 'id') return 0;
        return this.expr(e.e);
      case 'bin': {
        const l = this.expr(e.l);
        if (e.op === '&&' || e.op === '||') {
          const saved = this.cf;
          this.cf |= l;
          const r = this.expr(e.r);
          this.cf = saved;
          return l | r;
        }
        return l | this.expr(e.r);
      }
      case 'idx':
        return this.expr(e.e) | this.expr(e.i);
      case 'mem':
        return this.expr(e.e);
      case 'call':
        return this.call(e);
    }
  }

  private call(e: Expr & { k: 'call' }): number {
    const args = e.args.map((a) => this.expr(a));
    const all = args.reduce((m, t) => m | t, 0);
    const site = (subgroup: boolean): Site => ({ name: e.name, range: e.nameRange, severity: subgroup ? this.severity : 'error', subgroup });
    if (this.lookup(e.name) === undefined) {
      const callee = this.u.callee(e.name);
      if (callee) {
        if (callee.req) {
          let t = this.eff;
          args.forEach((a, k) => {
            if (callee.reqParams & (1 << (k + 1))) t |= a;
          });
          this.need(callee.req, t, this.f.name);
        }
        let ret = callee.ret & NU;
        args.forEach((a, k) => {
          if (callee.ret & (1 << (k + 1))) ret |= a;
        });
        // Pointer arguments: the callee may store through them.
        e.args.forEach((a) => {
          if (a.k === 'un' && a.op === '&') {
            const root = rootName(a.e);
            const cell = root ? this.lookup(root) : undefined;
            if (cell) cell.taint |= this.eff | ret;
          }
        });
        return ret;
      }
    }
    if (BARRIERS.has(e.name)) {
      this.need(site(false), this.eff, null);
      return e.name === 'workgroupUniformLoad' ? 0 : 0;
    }
    if (isSubgroupOp(e.name)) {
      this.need(site(true), this.eff, null);
      return NU;
    }
    if (e.name.startsWith('atomic')) return NU;
    return all;
  }
}

function rootName(e: Expr): string | null {
  switch (e.k) {
    case 'id':
      return e.name;
    case 'idx':
    case 'mem':
      return rootName(e.e);
    case 'un':
      return e.op === '*' ? rootName(e.e) : null;
    default:
      return null;
  }
}
