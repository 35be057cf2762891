import type { Expr, Pos } from '../ast.ts';
import { binOp, op1 } from '../lanes.ts';
import { OpKind } from '../trace.ts';
import { binaryFn, COMPARISONS, f16Round, type Fn1 } from '../../wgsl/scalar.ts';
import { AF, AI, BOOL, concretize, F16, F32, isAbstract, leafScalar, mat, scalar, slots, typeName, vec, type Scalar, type Ty } from '../types.ts';
import { type Val, err, swizzleIndex, determinant, withLeaf, F16_UNSUPPORTED } from './shared.ts';
import { ControlFlowLowering } from './control.ts';

/** Expressions: operators, short-circuit, indexing, swizzles, matrices. */
export abstract class ExpressionLowering extends ControlFlowLowering {
  // ───────────────────────────── expressions ─────────────────────────────

  expr(e: Expr, statement = false): Val {
    switch (e.k) {
      case 'lit': {
        if (e.t === 'f16') {
          if (!this.input.shaderF16) err(`the literal '${e.text}' ${F16_UNSUPPORTED}`, e.pos);
          // The checker has refused literals beyond f16's range; the rest round to nearest even.
          return { k: 'c', ty: F16, c: [f16Round(e.v)] };
        }
        const ty = e.t === 'ai' ? AI : e.t === 'af' ? AF : scalar(e.t);
        if (e.t === 'u32' && (e.v < 0 || e.v > 0xffffffff)) err(`${e.v}u does not fit in u32`, e.pos, 'type');
        return { k: 'c', ty, c: [e.t === 'i32' ? e.v | 0 : e.v] };
      }
      case 'id': {
        const b = this.lookup(e.name);
        if (!b) return err(`unknown name '${e.name}'`, e.pos, 'type');
        if (b.k === 'val') return b.val;
        return this.load(b.ref, e.pos);
      }
      case 'un':
        return this.unary(e);
      case 'bin': {
        if (e.op === '&&' || e.op === '||') {
          const l = this.expr(e.l);
          if (l.k === 'c') {
            // Constant short-circuit.
            if (e.op === '&&' && !l.c[0]) return { k: 'c', ty: BOOL, c: [0] };
            if (e.op === '||' && l.c[0]) return { k: 'c', ty: BOOL, c: [1] };
            return this.expr(e.r);
          }
          return this.shortCircuit(e.op, l, e.r, e.pos);
        }
        return this.binary(e.op, this.expr(e.l), this.expr(e.r), e.pos);
      }
      case 'idx':
      case 'mem': {
        if (this.isRefExpr(e)) {
          if (e.k === 'mem' && e.name.length > 1) {
            const base = this.ref(e.e);
            if (base.ty.k === 'vec') return this.swizzle(this.load(base, e.pos), e.name, e.pos);
          }
          return this.load(this.ref(e), e.pos);
        }
        const base = this.expr(e.e);
        if (e.k === 'mem') {
          if (base.ty.k === 'struct') {
            const m = base.ty.members.find((x) => x.name === e.name);
            if (!m) return err(`struct ${base.ty.name} has no member '${e.name}'`, e.pos, 'type');
            if (base.k === 'c') return { k: 'c', ty: m.ty, c: base.c.slice(m.slot, m.slot + slots(m.ty)) };
            if (base.k === 'r') return { k: 'r', ty: m.ty, reg: base.reg + m.slot, alias: base.alias };
          }
          return this.swizzle(base, e.name, e.pos);
        }
        return this.indexValue(base, e);
      }
      case 'call':
        return this.call(e, statement);
    }
  }

  /**
   * `l && r` / `l || r` as WGSL defines them: the right side runs only in the lanes whose left
   * side does not decide the result (a branch, like an `if`), so its loads, calls and bounds
   * checks never happen in the other lanes.
   */
  protected shortCircuit(op: string, l: Val, rE: Expr, pos: Pos): Val {
    if (l.ty.k !== 'scalar' || l.ty.s !== 'bool') err(`'${op}' needs bool operands, not ${typeName(l.ty)}`, pos, 'type');
    const W = this.W;
    const dst = this.alloc(1);
    const D = dst * W;
    this.mov(dst, this.regOf(l, pos), 1, pos);
    // Lanes whose left side is `decided` already have their result.
    const decided = op === '&&' ? 0 : 1;
    const endL = this.label();
    this.emit((w) => {
      w.push();
      const R = w.R;
      const L = w.lanes;
      const n = w.n;
      let go = 0;
      for (let i = 0; i < n; i++) if (R[D + L[i]!] !== decided) go++;
      if (go === n) return;
      if (go === 0) {
        w.pc = endL.pc;
        return;
      }
      w.M.divergentBranches++;
      const m = w.mask;
      for (let i = 0; i < n; i++) {
        const x = L[i]!;
        if (R[D + x] === decided) m[x] = 0;
      }
      w.modS[w.sp - 1] = 1;
      w.relanes();
    }, pos, OpKind.branch);
    this.restore.push(endL);
    const r = this.expr(rE);
    if (r.ty.k !== 'scalar' || r.ty.s !== 'bool') err(`'${op}' needs bool operands, not ${typeName(r.ty)}`, pos, 'type');
    this.mov(dst, this.regOf(r, pos), 1, pos);
    this.restore.pop();
    this.place(endL);
    this.emitRestore(pos, true, 0, null);
    return { k: 'r', ty: BOOL, reg: dst, alias: false };
  }

  protected indexValue(base: Val, e: Extract<Expr, { k: 'idx' }>): Val {
    const ty = base.ty;
    let elem: Ty;
    let count: number;
    if (ty.k === 'vec') {
      elem = scalar(ty.s);
      count = ty.n;
    } else if (ty.k === 'array' && ty.count !== null) {
      elem = ty.elem;
      count = ty.count;
    } else if (ty.k === 'mat') {
      elem = vec(ty.r, ty.s);
      count = ty.c;
    } else return err(`cannot index ${typeName(ty)}`, e.pos, 'type');
    const es = slots(elem);
    const iv = this.expr(e.i);
    if (iv.k === 'c') {
      const i = iv.c[0]!;
      if (i < 0 || i >= count) err(`index ${i} is outside 0…${count - 1}`, e.pos, 'type');
      if (base.k === 'c') return { k: 'c', ty: elem, c: base.c.slice(i * es, (i + 1) * es) };
      if (base.k === 'r') return { k: 'r', ty: elem, reg: base.reg + i * es, alias: base.alias };
    }
    const reg = this.regOf(base, e.pos);
    const r = this.indexRef({ k: 'reg', ty, base: reg, dyn: -1 }, elem, es, count, e.i, e.pos);
    return this.load(r, e.pos);
  }

  protected swizzle(v: Val, name: string, pos: Pos): Val {
    if (v.ty.k !== 'vec') return err(`.${name} needs a vector, not ${typeName(v.ty)}`, pos, 'type');
    const n = v.ty.n;
    const idx = [...name].map((ch) => {
      const c = swizzleIndex(ch, pos);
      if (c >= n) err(`.${name} is outside ${typeName(v.ty)}`, pos, 'type');
      return c;
    });
    const ty = vec(idx.length, v.ty.s);
    if (v.k === 'c') return { k: 'c', ty, c: idx.map((i) => v.c[i]!) };
    if (v.k === 'p') return err(`cannot swizzle a pointer`, pos, 'type');
    if (idx.every((x, i) => x === idx[0]! + i)) return { k: 'r', ty, reg: v.reg + idx[0]!, alias: v.alias };
    const dst = this.alloc(idx.length);
    idx.forEach((x, i) => this.mov(dst + i, v.reg + x, 1, pos));
    return { k: 'r', ty, reg: dst, alias: false };
  }

  protected unary(e: Extract<Expr, { k: 'un' }>): Val {
    if (e.op === '&') {
      const ref = this.ref(e.e);
      return { k: 'p', ty: { k: 'ptr', space: ref.k === 'mem' ? ref.mem.space : 'function', elem: ref.ty }, ref };
    }
    if (e.op === '*') return this.load(this.ref(e), e.pos);
    const v = this.expr(e.e);
    const s = leafScalar(v.ty);
    if (!s || v.ty.k === 'mat') return err(`operator ${e.op} is not defined for ${typeName(v.ty)}`, e.pos, 'type');
    let f: Fn1;
    if (e.op === '-') {
      if (s === 'u32') err(`unary '-' is not defined for u32`, e.pos, 'type');
      f = s === 'i32' ? (x) => -x | 0 : (x) => -x;
    } else if (e.op === '!') {
      if (s !== 'bool') err(`'!' needs a bool`, e.pos, 'type');
      f = (x) => (x ? 0 : 1);
    } else {
      if (s !== 'u32' && s !== 'i32' && s !== 'ai') err(`'~' needs an integer`, e.pos, 'type');
      f = s === 'u32' ? (x) => ~x >>> 0 : (x) => ~x;
    }
    return this.map1(f, v, v.ty, e.pos, OpKind.alu);
  }

  /** Applies `f` component-wise; folds constants. */
  protected map1(f: Fn1, v: Val, ty: Ty, pos: Pos, kind: number): Val {
    if (v.k === 'c') return { k: 'c', ty, c: v.c.map((x) => f(x)) };
    ty = concretize(ty);
    const n = slots(ty);
    const a = this.regOf(v, pos);
    const dst = this.alloc(n);
    for (let c = 0; c < n; c++) this.emit(op1(this.W, dst + c, a + c, f), pos, kind, [this.flow([a + c], [dst + c])]);
    return { k: 'r', ty, reg: dst, alias: false };
  }

  /** Unifies abstract operands with the other side's concrete type. */
  protected unify(a: Val, b: Val, pos: Pos): [Val, Val, Scalar] {
    const sa = leafScalar(a.ty);
    const sb = leafScalar(b.ty);
    if (!sa || !sb) err(`operands must be numbers or bools, not ${typeName(a.ty)} and ${typeName(b.ty)}`, pos, 'type');
    if (sa === sb) return [a, b, sa];
    const aAbs = sa === 'ai' || sa === 'af';
    const bAbs = sb === 'ai' || sb === 'af';
    if (aAbs && bAbs) {
      // ai with af → af.
      const ca = a.k === 'c' ? { ...a, ty: a.ty.k === 'vec' ? vec(a.ty.n, 'af') : AF } : a;
      const cb = b.k === 'c' ? { ...b, ty: b.ty.k === 'vec' ? vec(b.ty.n, 'af') : AF } : b;
      return [ca, cb, 'af'];
    }
    if (aAbs) return [this.convertVal(a, withLeaf(a.ty, sb), pos), b, sb];
    if (bAbs) return [a, this.convertVal(b, withLeaf(b.ty, sa), pos), sa];
    return err(`type mismatch: ${typeName(a.ty)} and ${typeName(b.ty)}`, pos, 'type');
  }

  protected binary(op: string, a0: Val, b0: Val, pos: Pos): Val {
    if (a0.ty.k === 'mat' || b0.ty.k === 'mat') return this.matrixBinary(op, a0, b0, pos);
    const shift = op === '<<' || op === '>>';
    let a: Val;
    let b: Val;
    let s: Scalar;
    if (shift) {
      a = a0;
      s = leafScalar(a0.ty) ?? 'u32';
      b = isAbstract(b0.ty) ? this.convertVal(b0, withLeaf(b0.ty, 'u32'), pos) : b0;
      if (a.k !== 'c' || b.k !== 'c') {
        if (s === 'ai') {
          a = this.convertVal(a, withLeaf(a.ty, 'i32'), pos);
          s = 'i32';
        }
      }
    } else {
      [a, b, s] = this.unify(a0, b0, pos);
    }
    const f = binaryFn(op, s);
    if (!f) return err(`operator '${op}' is not defined for ${typeName(a.ty)}`, pos, 'type');
    const cmp = COMPARISONS.has(op);
    const na = a.ty.k === 'vec' ? a.ty.n : 1;
    const nb = b.ty.k === 'vec' ? b.ty.n : 1;
    const n = Math.max(na, nb);
    if (na !== nb && na !== 1 && nb !== 1) err(`vector sizes differ (${na} vs ${nb})`, pos, 'type');
    const leaf: Scalar = cmp ? 'bool' : s;
    const ty = vec(n, leaf);
    if (a.k === 'c' && b.k === 'c') {
      const out: number[] = [];
      for (let c = 0; c < n; c++) out.push(f(a.c[na === 1 ? 0 : c]!, b.c[nb === 1 ? 0 : c]!));
      return { k: 'c', ty, c: out };
    }
    const ra = this.regOf(a, pos);
    const rb = this.regOf(b, pos);
    const dst = this.alloc(n);
    for (let c = 0; c < n; c++) {
      const sa = ra + (na === 1 ? 0 : c);
      const sb = rb + (nb === 1 ? 0 : c);
      const op1 = this.emit(binOp(op, s, this.W, dst + c, sa, sb, f), pos, OpKind.alu, [this.flow([sa, sb], [dst + c])]);
      if (n === 1) this.fresh = { op: op1, dst, remake: (d) => [binOp(op, s, this.W, d, sa, sb, f), [this.flow([sa, sb], [d])]] };
    }
    return { k: 'r', ty, reg: dst, alias: false };
  }

  /** Matrix arithmetic (f32): + and - per component, * by a scalar, a vector or a matrix. */
  protected matrixBinary(op: string, a0: Val, b0: Val, pos: Pos): Val {
    const f32Of = (v: Val): Val => (isAbstract(v.ty) ? this.convertVal(v, withLeaf(concretize(v.ty), 'f32'), pos) : v);
    const a = f32Of(a0);
    const b = f32Of(b0);
    const ta = a.ty;
    const tb = b.ty;
    if (leafScalar(ta) !== 'f32' || leafScalar(tb) !== 'f32') err(`matrix operands must be f32, not ${typeName(ta)} and ${typeName(tb)}`, pos, 'type');
    const fr = Math.fround;
    if ((op === '+' || op === '-') && ta.k === 'mat' && tb.k === 'mat') {
      if (ta.c !== tb.c || ta.r !== tb.r) err(`${typeName(ta)} ${op} ${typeName(tb)}: the shapes differ`, pos, 'type');
      const n = ta.c * ta.r;
      const sub = op === '-';
      return this.vector([a, b], ta, pos, (xs, out) => {
        for (let k = 0; k < n; k++) out[k] = fr(sub ? xs[k]! - xs[n + k]! : xs[k]! + xs[n + k]!);
      });
    }
    if (op !== '*') return err(`operator '${op}' is not defined for ${typeName(ta)} and ${typeName(tb)}`, pos, 'type');
    if (ta.k === 'scalar' || tb.k === 'scalar') {
      const m = (ta.k === 'mat' ? ta : tb) as Extract<Ty, { k: 'mat' }>;
      const n = m.c * m.r;
      const sFirst = ta.k === 'scalar';
      return this.vector([a, b], m, pos, (xs, out) => {
        for (let k = 0; k < n; k++) out[k] = sFirst ? fr(xs[0]! * xs[1 + k]!) : fr(xs[k]! * xs[n]!);
      });
    }
    if (ta.k === 'mat' && tb.k === 'vec') {
      if (tb.n !== ta.c) err(`${typeName(ta)} * ${typeName(tb)}: the vector needs ${ta.c} components`, pos, 'type');
      const { c, r } = ta;
      return this.vector([a, b], vec(r, 'f32'), pos, (xs, out) => {
        for (let i = 0; i < r; i++) {
          let acc = fr(xs[i]! * xs[c * r]!);
          for (let j = 1; j < c; j++) acc = fr(acc + fr(xs[j * r + i]! * xs[c * r + j]!));
          out[i] = acc;
        }
      });
    }
    if (ta.k === 'vec' && tb.k === 'mat') {
      if (ta.n !== tb.r) err(`${typeName(ta)} * ${typeName(tb)}: the vector needs ${tb.r} components`, pos, 'type');
      const { c, r } = tb;
      return this.vector([a, b], vec(c, 'f32'), pos, (xs, out) => {
        for (let j = 0; j < c; j++) {
          let acc = fr(xs[0]! * xs[r + j * r]!);
          for (let i = 1; i < r; i++) acc = fr(acc + fr(xs[i]! * xs[r + j * r + i]!));
          out[j] = acc;
        }
      });
    }
    if (ta.k === 'mat' && tb.k === 'mat') {
      if (ta.c !== tb.r) err(`${typeName(ta)} * ${typeName(tb)}: inner sizes differ`, pos, 'type');
      const K = ta.c;
      const R = ta.r;
      const C = tb.c;
      const nb = K * R;
      return this.vector([a, b], mat(C, R, 'f32'), pos, (xs, out) => {
        for (let j = 0; j < C; j++) {
          for (let i = 0; i < R; i++) {
            let acc = fr(xs[i]! * xs[nb + j * K]!);
            for (let k = 1; k < K; k++) acc = fr(acc + fr(xs[k * R + i]! * xs[nb + j * K + k]!));
            out[j * R + i] = acc;
          }
        }
      });
    }
    return err(`operator '*' is not defined for ${typeName(ta)} and ${typeName(tb)}`, pos, 'type');
  }

  protected matrixFn(e: Extract<Expr, { k: 'call' }>): Val {
    if (e.args.length !== 1) return err(`${e.name} takes one matrix`, e.pos, 'type');
    let v = this.expr(e.args[0]!);
    if (v.ty.k !== 'mat') return err(`${e.name} needs a matrix, not ${typeName(v.ty)}`, e.pos, 'type');
    v = this.convertVal(v, concretize(v.ty), e.pos);
    const { c, r } = v.ty as Extract<Ty, { k: 'mat' }>;
    if (e.name === 'transpose') {
      return this.vector([v], mat(r, c, 'f32'), e.pos, (xs, out) => {
        for (let j = 0; j < c; j++) for (let i = 0; i < r; i++) out[i * c + j] = xs[j * r + i]!;
      });
    }
    if (c !== r) return err(`determinant needs a square matrix, not ${typeName(v.ty)}`, e.pos, 'type');
    return this.vector([v], F32, e.pos, (xs, out) => {
      out[0] = determinant(xs, c);
    });
  }

  /** `matCxR(...)`: zero, C*R scalars or C column vectors, converted to f32. */
  protected matCtor(e: Extract<Expr, { k: 'call' }>, ty: Extract<Ty, { k: 'mat' }>): Val {
    const args = e.args.map((x) => this.expr(x));
    const n = ty.c * ty.r;
    if (args.length === 0) return { k: 'c', ty, c: new Array<number>(n).fill(0) };
    if (args.length === 1 && args[0]!.ty.k === 'mat') {
      const m = args[0]!.ty;
      if (m.c !== ty.c || m.r !== ty.r) err(`cannot convert ${typeName(m)} to ${typeName(ty)}`, e.pos, 'type');
      return this.convertVal(args[0]!, ty, e.pos);
    }
    const parts: Val[] = [];
    for (const [i, v] of args.entries()) {
      const vt = v.ty;
      const want = vt.k === 'vec' ? vec(ty.r, 'f32') : F32;
      if (vt.k === 'vec' && vt.n !== ty.r) err(`column ${i} of ${typeName(ty)} must be a vec${ty.r}`, e.args[i]!.pos, 'type');
      parts.push(this.convertVal(v, want, e.args[i]!.pos));
    }
    const total = parts.reduce((a, p) => a + slots(p.ty), 0);
    if (total !== n) err(`${typeName(ty)} needs ${ty.c} columns or ${n} values, got ${total} components`, e.pos, 'type');
    return this.compose(ty, parts, e.pos);
  }

}
