import type { Expr, Global, Pos, TypeExpr } from '../ast.ts';
import { BUILTINS } from '../builtins.ts';
import { op2, op3, opN } from '../lanes.ts';
import { OpKind } from '../trace.ts';
import { binaryFn, bitcast, bitsToF16, builtin1, builtin2, builtin3, convert, f16Round, f16ToBits, fusedFma, insertBits, type Fn3 } from '../../wgsl/scalar.ts';
import { BOOL, concretize, F16, F32, isAbstract, leafScalar, mat, scalar, slots, strideOf, typeName, U32, vec, type Scalar, type Ty } from '../types.ts';
import { type Val, type Binding, err, withLeaf } from './shared.ts';
import { ExpressionLowering } from './expressions.ts';

/** Calls: the builtin table, constructors and user functions (inlined). */
export abstract class CallLowering extends ExpressionLowering {
  // ───────────────────────────── calls ─────────────────────────────

  protected call(e: Extract<Expr, { k: 'call' }>, statement: boolean): Val {
    const name = e.name;
    const fn = this.fns.get(name);
    if (fn) return this.inline(fn, e, statement);
    const st = this.structs.get(name) ?? (this.aliases.has(name) ? this.resolveType(this.aliases.get(name)!) : null);
    if (st) {
      if (st.k === 'scalar') return this.call({ ...e, name: st.s }, statement);
      if (st.k === 'vec') return this.vecCtor({ ...e, name: `vec${st.n}` }, st.s);
      if (st.k === 'array') return this.arrayCtor(e, st);
      return this.construct(st, e);
    }
    switch (name) {
      case 'u32':
      case 'i32':
      case 'f32':
      case 'f16':
      case 'bool': {
        if (name === 'f16') this.resolveType({ pos: e.pos, start: e.start, end: e.end, name, args: [] });
        const to = name as Scalar;
        if (e.args.length === 0) return { k: 'c', ty: scalar(to), c: [0] };
        const v = this.expr(e.args[0]!);
        const from = leafScalar(v.ty);
        if (!from || (v.ty.k !== 'scalar')) return err(`${name}() needs a scalar`, e.pos, 'type');
        return this.map1((x) => convert(x, from, to), v, scalar(to), e.pos, OpKind.alu);
      }
      case 'bitcast': {
        const to = this.resolveType(e.tmpl![0] as TypeExpr);
        const v = this.concrete(this.expr(e.args[0]!), e.pos);
        const from = leafScalar(v.ty);
        const ts = leafScalar(to);
        if (from === 'f16' || ts === 'f16') return this.bitcastHalves(v, to, e.pos);
        if (!from || !ts || slots(to) !== slots(v.ty)) return err(`bitcast from ${typeName(v.ty)} to ${typeName(to)} is not supported`, e.pos);
        return this.map1((x) => bitcast(x, from, ts), v, to, e.pos, OpKind.alu);
      }
      case 'arrayLength': {
        const p = this.expr(e.args[0]!);
        if (p.k !== 'p' || p.ref.ty.k !== 'array' || p.ref.k !== 'mem') return err(`arrayLength needs a pointer to a runtime-sized array`, e.pos, 'type');
        // The buffer's size belongs to the run, not the program: a register move, uncounted
        // (the driver passes the length in a uniform on hardware).
        const stride = strideOf(p.ref.ty.elem);
        const MID = p.ref.mem.id;
        const start = p.ref.off;
        const dst = this.alloc(1);
        const D = dst * this.W;
        this.emit((w) => {
          const v = Math.max(0, Math.floor((w.M.mems[MID]!.words - start) / stride));
          const R = w.R;
          const L = w.lanes;
          for (let i = 0; i < w.n; i++) R[D + L[i]!] = v;
        }, e.pos, OpKind.meta, [this.flow([], [dst])]);
        return { k: 'r', ty: U32, reg: dst, alias: false };
      }
      case 'workgroupBarrier':
      case 'storageBarrier':
        this.barrier(e.pos);
        return { k: 'c', ty: BOOL, c: [0] };
      case 'workgroupUniformLoad': {
        const p = this.expr(e.args[0]!);
        if (p.k !== 'p') return err(`workgroupUniformLoad needs a pointer`, e.pos, 'type');
        this.barrier(e.pos);
        const v = this.load(p.ref, e.pos);
        this.barrier(e.pos);
        return v;
      }
      case 'select': {
        const [fv, tv, cv] = e.args.map((x) => this.expr(x));
        if (!fv || !tv || !cv) return err(`select(f, t, cond) needs three arguments`, e.pos, 'type');
        const [f2, t2] = this.unify(fv, tv, e.pos);
        if (cv.k === 'c' && cv.ty.k === 'scalar') return cv.c[0] ? t2 : f2;
        return this.mapN((x, y, z) => (z ? y : x), [f2, t2, cv], f2.ty, e.pos);
      }
      case 'all':
      case 'any': {
        const v = this.expr(e.args[0]!);
        if (v.ty.k === 'scalar') return v;
        const all = name === 'all';
        return this.vector([v], BOOL, e.pos, (xs, out) => {
          out[0] = all ? (xs.every((x) => x !== 0) ? 1 : 0) : xs.some((x) => x !== 0) ? 1 : 0;
        });
      }
      case 'dot': {
        const a = this.expr(e.args[0]!);
        const b = this.expr(e.args[1]!);
        const [ua, ub, s] = this.unify(a, b, e.pos);
        const n = slots(ua.ty);
        const f = binaryFn('*', s)!;
        const add = binaryFn('+', s)!;
        return this.vector([ua, ub], scalar(s), e.pos, (xs, out) => {
          let acc = f(xs[0]!, xs[n]!);
          for (let c = 1; c < n; c++) acc = add(acc, f(xs[c]!, xs[n + c]!));
          out[0] = acc;
        });
      }
      case 'length': {
        const v = this.concrete(this.expr(e.args[0]!), e.pos);
        if (leafScalar(v.ty) === 'f16') {
          return this.vector([v], F16, e.pos, (xs, out) => {
            out[0] = f16Round(Math.sqrt(xs.reduce((a, x) => f16Round(a + f16Round(x * x)), 0)));
          });
        }
        return this.vector([v], F32, e.pos, (xs, out) => {
          out[0] = Math.fround(Math.sqrt(xs.reduce((a, x) => Math.fround(a + Math.fround(x * x)), 0)));
        });
      }
      case 'insertBits': {
        const vs = e.args.map((x) => this.expr(x));
        const [v0, v1] = this.unify(vs[0]!, vs[1]!, e.pos);
        const s = leafScalar(v0.ty)!;
        const o = this.convertVal(vs[2]!, U32, e.pos);
        const c = this.convertVal(vs[3]!, U32, e.pos);
        const ts = s === 'ai' ? 'i32' : s;
        const n = slots(v0.ty);
        return this.vector([this.concrete(v0, e.pos), this.concrete(v1, e.pos), o, c], concretize(v0.ty), e.pos, (xs, out) => {
          for (let k = 0; k < n; k++) out[k] = insertBits(xs[k]!, xs[n + k]!, xs[2 * n]!, xs[2 * n + 1]!, ts);
        });
      }
    }
    const table = BUILTINS[name];
    if (table) {
      const vals = e.args.map((x) => this.expr(x));
      if (vals.some((v) => leafScalar(v.ty) === 'f16')) return this.halfBuiltin(name, table, vals, e);
      const sig = table.sig(vals.map((v) => v.ty));
      if (typeof sig === 'string') return err(sig, e.pos, 'type');
      const conv = vals.map((v, i) => this.convertVal(v, sig.params[i]!, e.args[i]!.pos));
      return this.vector(conv, sig.result, e.pos, sig.f);
    }
    if (name.startsWith('atomic')) return this.atomic(e);
    if (name.startsWith('subgroup') || name.startsWith('quad')) return this.subgroup(e);
    if (/^vec[234][fiuh]?$/.test(name)) return this.vecCtor(e);
    if (/^mat[234]x[234]f?$/.test(name)) {
      const ty = e.tmpl?.[0] || name.endsWith('f') ? this.resolveType({ pos: e.pos, start: e.start, end: e.end, name, args: e.tmpl ?? [] }) : mat(Number(name[3]), Number(name[5]), 'f32');
      return this.matCtor(e, ty as Extract<Ty, { k: 'mat' }>);
    }
    if (name === 'transpose' || name === 'determinant') return this.matrixFn(e);
    if (name === 'array') return this.arrayCtor(e);
    // Component-wise numeric builtins.
    const args = e.args.map((x) => this.expr(x));
    if (args.length >= 1 && args.length <= 3) {
      let vals = args;
      let s: Scalar = leafScalar(args[0]!.ty) ?? 'f32';
      if (args.length >= 2) {
        let [x, y] = this.unify(args[0]!, args[1]!, e.pos);
        let z = args[2];
        if (z) {
          const u = this.unify(x, z, e.pos);
          x = u[0];
          z = u[1];
          const u2 = this.unify(y, z, e.pos);
          y = u2[0];
          z = u2[1];
        }
        vals = z ? [x, y, z] : [x, y];
        s = leafScalar(x.ty)!;
      }
      const allConst = vals.every((v) => v.k === 'c');
      if (!allConst) {
        vals = vals.map((v) => this.concrete(v, e.pos));
        s = leafScalar(vals[0]!.ty)!;
      }
      const shape = vals.reduce<Ty>((t, v) => (v.ty.k === 'vec' ? v.ty : t), vals[0]!.ty);
      const rty = withLeaf(shape, s);
      if (args.length === 1) {
        const f = builtin1(name, s === 'ai' ? 'i32' : s);
        if (f) return this.map1(f, vals[0]!, rty, e.pos, OpKind.alu);
      } else if (args.length === 2) {
        const f = builtin2(name, s);
        if (f) return this.mapN((x, y) => f(x, y), vals, rty, e.pos);
      } else {
        const f =
          name === 'fma' && this.input.fusedFma && s === 'f32' ? fusedFma
          : name === 'fma' && this.input.fusedFma && s === 'f16' ? (a: number, b: number, c: number) => f16Round(a * b + c)
          : builtin3(name, s);
        if (f) return this.mapN(f, vals, rty, e.pos);
      }
    }
    return err(`the function '${name}' is not supported by the simulator`, e.pos);
  }

  /**
   * `bitcast` where either side holds f16: the value's bits as 16-bit halves, low half first
   * (vec2<f16> ↔ u32/i32/f32, vec4<f16> ↔ vec2 of 32-bit scalars, f16 ↔ f16).
   */
  protected bitcastHalves(v: Val, to: Ty, pos: Pos): Val {
    const from = leafScalar(v.ty)!;
    const ts = leafScalar(to);
    const halvesOf = (t: Ty, s: Scalar) => slots(t) * (s === 'f16' ? 1 : 2);
    if (!ts || ts === 'bool' || from === 'bool' || halvesOf(v.ty, from) !== halvesOf(to, ts)) {
      return err(`bitcast from ${typeName(v.ty)} to ${typeName(to)}: the sizes differ (${halvesOf(v.ty, from) * 16} and ${ts ? halvesOf(to, ts) * 16 : '?'} bits)`, pos, 'type');
    }
    const nIn = slots(v.ty);
    const nOut = slots(to);
    const hs = new Int32Array(halvesOf(to, ts));
    return this.vector([v], to, pos, (xs, out) => {
      let k = 0;
      for (let c = 0; c < nIn; c++) {
        if (from === 'f16') hs[k++] = f16ToBits(xs[c]!);
        else {
          const b = bitcast(xs[c]!, from, 'u32');
          hs[k++] = b & 0xffff;
          hs[k++] = b >>> 16;
        }
      }
      k = 0;
      for (let c = 0; c < nOut; c++) {
        if (ts === 'f16') out[c] = bitsToF16(hs[k++]!);
        else {
          out[c] = bitcast((hs[k]! | (hs[k + 1]! << 16)) >>> 0, 'u32', ts);
          k += 2;
        }
      }
    });
  }

  /**
   * A table builtin over f16 (geometric functions, ldexp): the f32 entry computes on the f16
   * arguments (exact in f32) and each float result rounds to f16. Builtins returning structs
   * (frexp, modf) are not simulated for f16.
   */
  protected halfBuiltin(name: string, table: NonNullable<(typeof BUILTINS)[string]>, vals: readonly Val[], e: Extract<Expr, { k: 'call' }>): Val {
    const asF32 = (t: Ty): Ty => (leafScalar(t) === 'f16' || leafScalar(t) === 'af' ? withLeaf(t, 'f32') : t);
    const sig = table.sig(vals.map((v) => asF32(v.ty)));
    if (typeof sig === 'string') return err(sig.replace(/f32/g, 'f16'), e.pos, 'type');
    const rs = leafScalar(sig.result);
    if (sig.result.k === 'struct' || rs === null) return err(`${name} of f16 is not simulated: compute it in f32 and convert the result with f16(…)`, e.pos);
    const params = sig.params.map((p) => (leafScalar(p) === 'f32' ? withLeaf(p, 'f16') : p));
    const conv = vals.map((v, i) => this.convertVal(v, params[i]!, e.args[i]!.pos));
    const f = sig.f;
    const result = rs === 'f32' ? withLeaf(sig.result, 'f16') : sig.result;
    const n = slots(result);
    return this.vector(conv, result, e.pos, (xs, out) => {
      f(xs, out);
      if (rs === 'f32') for (let k = 0; k < n; k++) out[k] = f16Round(out[k]!);
    });
  }

  /** Component-wise N-ary op, scalars broadcast over vectors. */
  protected mapN(f: Fn3, vals: readonly Val[], ty: Ty, pos: Pos): Val {
    const n = slots(ty);
    if (vals.every((v) => v.k === 'c')) {
      const out: number[] = [];
      for (let c = 0; c < n; c++) {
        const xs = vals.map((v) => (v as { c: readonly number[] }).c[slots(v.ty) === 1 ? 0 : c]!);
        out.push(f(xs[0]!, xs[1]!, xs[2] ?? 0));
      }
      return { k: 'c', ty, c: out };
    }
    const regs = vals.map((v) => this.regOf(this.concrete(v, pos), pos));
    ty = concretize(ty);
    const dst = this.alloc(n);
    const W = this.W;
    for (let c = 0; c < n; c++) {
      const src = regs.map((r, i) => r + (slots(vals[i]!.ty) === 1 ? 0 : c));
      const op = vals.length === 3 ? op3(W, dst + c, src[0]!, src[1]!, src[2]!, f) : op2(W, dst + c, src[0]!, src[1]!, (x, y) => f(x, y, 0));
      this.emit(op, pos, OpKind.alu, [this.flow(src, [dst + c])]);
    }
    return { k: 'r', ty, reg: dst, alias: false };
  }

  /**
   * A builtin computed on whole values: `f(xs, out)` gets the argument components (each argument
   * flattened, in order) and writes the result's components. Folds when every argument is
   * constant; otherwise one instruction.
   */
  protected vector(vals: readonly Val[], ty: Ty, pos: Pos, f: (xs: Float64Array, out: Float64Array) => void): Val {
    const n = slots(ty);
    if (vals.every((v) => v.k === 'c')) {
      const xs = Float64Array.from(vals.flatMap((v) => [...(v as { c: readonly number[] }).c]));
      const out = new Float64Array(n);
      f(xs, out);
      return { k: 'c', ty, c: Array.from(out) };
    }
    const src: number[] = [];
    for (const v of vals) {
      const r = this.regOf(this.concrete(v, pos), pos);
      for (let c = 0; c < slots(v.ty); c++) src.push(r + c);
    }
    const dst = this.alloc(n);
    const dsts = Array.from({ length: n }, (_, c) => dst + c);
    this.emit(opN(this.W, src, dsts, f), pos, OpKind.alu, [this.flow(src, dsts)]);
    return { k: 'r', ty: concretize(ty), reg: dst, alias: false };
  }

  /** Builds a composite value from component values (constants fold). */
  protected compose(ty: Ty, parts: readonly Val[], pos: Pos): Val {
    if (parts.every((p) => p.k === 'c')) {
      return { k: 'c', ty, c: parts.flatMap((p) => [...(p as { c: readonly number[] }).c]) };
    }
    const dst = this.alloc(slots(ty));
    let at = 0;
    for (const p of parts) {
      const n = slots(p.ty);
      this.mov(dst + at, this.regOf(p, pos), n, pos);
      at += n;
    }
    return { k: 'r', ty, reg: dst, alias: false };
  }

  protected vecCtor(e: Extract<Expr, { k: 'call' }>, forced: Scalar | null = null): Val {
    const n = Number(e.name[3]);
    const suffix = e.name[4];
    if (suffix === 'h') this.resolveType({ pos: e.pos, start: e.start, end: e.end, name: e.name, args: [] });
    let s: Scalar | null = forced ?? (suffix === 'f' ? 'f32' : suffix === 'i' ? 'i32' : suffix === 'u' ? 'u32' : suffix === 'h' ? 'f16' : null);
    if (e.tmpl && e.tmpl[0]) {
      const t = this.resolveType(e.tmpl[0] as TypeExpr);
      s = leafScalar(t);
    }
    const args = e.args.map((x) => this.expr(x));
    if (!s) {
      const concrete = args.find((a) => !isAbstract(a.ty));
      s = concrete ? leafScalar(concrete.ty) : args.some((a) => leafScalar(a.ty) === 'af') ? 'af' : args.length ? 'ai' : 'f32';
    }
    const ls = s!;
    const ty = vec(n, ls);
    if (args.length === 0) return { k: 'c', ty, c: new Array<number>(n).fill(0) };
    const parts: Val[] = [];
    for (const a of args) {
      const as = leafScalar(a.ty);
      let v = a;
      if (as !== ls) {
        if (isAbstract(a.ty)) v = this.convertVal(a, withLeaf(a.ty, ls), e.pos);
        else v = this.map1((x) => convert(x, as!, ls), a, withLeaf(a.ty, ls), e.pos, OpKind.alu);
      }
      parts.push(v);
    }
    if (parts.length === 1 && parts[0]!.ty.k === 'scalar') {
      return this.compose(ty, new Array<Val>(n).fill(parts[0]!), e.pos);
    }
    const total = parts.reduce((a, p) => a + slots(p.ty), 0);
    if (total !== n) err(`vec${n} needs ${n} components, got ${total}`, e.pos, 'type');
    return this.compose(ty, parts, e.pos);
  }

  protected arrayCtor(e: Extract<Expr, { k: 'call' }>, forced: Ty | null = null): Val {
    const args = e.args.map((x) => this.expr(x));
    let elem: Ty;
    if (forced && forced.k === 'array') elem = forced.elem;
    else if (e.tmpl && e.tmpl[0]) elem = this.resolveType(e.tmpl[0] as TypeExpr);
    else if (args[0]) elem = concretize(args[0].ty);
    else return err(`array() needs an element type`, e.pos, 'type');
    const count = forced && forced.k === 'array' ? (forced.count ?? args.length) : e.tmpl && e.tmpl[1] ? this.constInt(e.tmpl[1], e.pos) : args.length;
    const ty: Ty = { k: 'array', elem, count };
    if (args.length === 0) return { k: 'c', ty, c: new Array<number>(slots(ty)).fill(0) };
    if (args.length !== count) err(`array of ${count} needs ${count} values`, e.pos, 'type');
    return this.compose(ty, args.map((a) => this.convertVal(a, elem, e.pos)), e.pos);
  }

  protected construct(ty: Ty, e: Extract<Expr, { k: 'call' }>): Val {
    if (ty.k !== 'struct') return err(`cannot construct ${typeName(ty)}`, e.pos, 'type');
    if (e.args.length === 0) return { k: 'c', ty, c: new Array<number>(slots(ty)).fill(0) };
    if (e.args.length !== ty.members.length) err(`${ty.name} needs ${ty.members.length} values`, e.pos, 'type');
    return this.compose(ty, e.args.map((a, i) => this.convertVal(this.expr(a), ty.members[i]!.ty, a.pos)), e.pos);
  }

  protected inline(fn: Extract<Global, { k: 'fn' }>, e: Extract<Expr, { k: 'call' }>, statement: boolean): Val {
    if (this.fnStack.some((f) => f.name === fn.name)) err(`recursion ('${fn.name}') is not allowed in WGSL`, e.pos, 'type');
    if (fn.params.length !== e.args.length) err(`${fn.name} takes ${fn.params.length} arguments`, e.pos, 'type');
    const scope = new Map<string, Binding>();
    fn.params.forEach((p, i) => {
      const pty = this.resolveType(p.ty);
      let v = this.expr(e.args[i]!);
      if (pty.k === 'ptr') {
        if (v.k !== 'p') err(`argument ${i + 1} of ${fn.name} must be a pointer (&…)`, e.args[i]!.pos, 'type');
      } else {
        v = this.convertVal(v, pty, e.args[i]!.pos);
        if (v.k === 'r') v = this.own(v, e.pos);
      }
      this.fresh = null;
      scope.set(p.name, { k: 'val', val: v });
      this.recordSymbol(scope, p.name, { k: 'val', val: v });
    });
    const retTy = fn.ret ? this.resolveType(fn.ret) : null;
    const retReg = retTy ? this.alloc(slots(retTy)) : -1;
    const cid = this.nextId++;
    const end = this.label();
    const savedScopes = this.scopes;
    const savedBreak = this.breakables;
    this.scopes = [scope];
    this.breakables = [];
    this.fnStack.push({ name: fn.name, cid, retReg, retTy });
    this.restore.push(end);
    this.emit((w) => w.push(), e.pos, OpKind.meta);
    this.stmts(fn.body);
    this.place(end);
    this.emitRestore(fn.pos, true, cid * 4 + 1, null);
    this.restore.pop();
    this.fnStack.pop();
    this.closeScopes(...this.scopes);
    this.scopes = savedScopes;
    this.breakables = savedBreak;
    void statement;
    if (!retTy) return { k: 'c', ty: BOOL, c: [0] };
    return { k: 'r', ty: retTy, reg: retReg, alias: false };
  }

}
