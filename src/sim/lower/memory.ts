import type { Expr, Pos } from '../ast.ts';
import { READ, WRITE, type MemInfo } from '../machine.ts';
import { OpKind, type OpKindValue } from '../trace.ts';
import { alignOf, columnStride, compWords, halfLayout, hasF16, leafScalar, scalar, slots, strideOf, typeName, vec, type Ty } from '../types.ts';
import { bitsToF16, f16ToBits } from '../../wgsl/scalar.ts';
import { type Ref, type Val, err, countOf, swizzleIndex, memLayout } from './shared.ts';
import { CompilerCore } from './core.ts';

/** Memory: references into registers and memories, address arithmetic, loads and stores. */
export abstract class MemoryLowering extends CompilerCore {
  // ───────────────────────────── references ─────────────────────────────

  protected isRefExpr(e: Expr): boolean {
    switch (e.k) {
      case 'id': {
        const b = this.lookup(e.name);
        return !!b && (b.k === 'ref' || b.val.k === 'p');
      }
      case 'idx':
        return this.isRefExpr(e.e);
      case 'mem':
        return this.isRefExpr(e.e);
      case 'un':
        return e.op === '*';
      default:
        return false;
    }
  }

  protected ref(e: Expr): Ref {
    switch (e.k) {
      case 'id': {
        const b = this.lookup(e.name);
        if (!b) return err(`unknown name '${e.name}'`, e.pos, 'type');
        if (b.k === 'ref') return b.ref;
        if (b.val.k === 'p') return b.val.ref;
        return err(`'${e.name}' is not a variable and cannot be assigned or referenced`, e.pos, 'type');
      }
      case 'un': {
        if (e.op !== '*') break;
        const p = this.expr(e.e);
        if (p.k !== 'p') return err(`'*' needs a pointer`, e.pos, 'type');
        return p.ref;
      }
      case 'idx': {
        const base = this.ref(e.e);
        const ty = base.ty;
        if (ty.k === 'array') {
          const stride = base.k === 'mem' ? strideOf(ty.elem) : slots(ty.elem);
          const count = ty.count ?? (base.k === 'mem' ? -(base.off + 1) : 0);
          return this.indexRef(base, ty.elem, stride, count, e.i, e.pos);
        }
        if (ty.k === 'vec') return this.indexRef(base, scalar(ty.s), base.k === 'mem' ? compWords(ty.s) : 1, ty.n, e.i, e.pos);
        if (ty.k === 'mat') {
          const stride = base.k === 'mem' ? columnStride(ty.r) : ty.r;
          return this.indexRef(base, vec(ty.r, ty.s), stride, ty.c, e.i, e.pos);
        }
        return err(`cannot index a value of type ${typeName(ty)}`, e.pos, 'type');
      }
      case 'mem': {
        const base = this.ref(e.e);
        const ty = base.ty;
        if (ty.k === 'struct') {
          const m = ty.members.find((x) => x.name === e.name);
          if (!m) return err(`struct ${ty.name} has no member '${e.name}'`, e.pos, 'type');
          return base.k === 'mem'
            ? { ...base, ty: m.ty, off: base.off + m.offset }
            : { ...base, ty: m.ty, base: base.base + m.slot };
        }
        if (ty.k === 'vec' && e.name.length === 1) {
          const c = swizzleIndex(e.name[0]!, e.pos);
          if (c >= ty.n) err(`.${e.name} is outside ${typeName(ty)}`, e.pos, 'type');
          return base.k === 'mem'
            ? { ...base, ty: scalar(ty.s), off: base.off + c * compWords(ty.s) }
            : { ...base, ty: scalar(ty.s), base: base.base + c };
        }
        return err(`cannot take a reference to .${e.name} of ${typeName(ty)}`, e.pos, 'type');
      }
      default:
        break;
    }
    return err(`this expression is not a reference`, e.pos, 'type');
  }

  protected indexRef(base: Ref, elem: Ty, stride: number, count: number, idxE: Expr, pos: Pos): Ref {
    const iv = this.expr(idxE);
    if (iv.k === 'c') {
      const i = iv.c[0]!;
      if (i < 0 || (i >= count && count > 0)) err(`index ${i} is outside 0…${count - 1}`, pos, 'type');
      return base.k === 'mem'
        ? { ...base, ty: elem, off: base.off + i * stride }
        : { ...base, ty: elem, base: base.base + i * stride };
    }
    const s = leafScalar(iv.ty);
    if (s !== 'u32' && s !== 'i32') err(`array index must be i32 or u32, not ${typeName(iv.ty)}`, pos, 'type');
    const ir = this.regOf(iv, pos);
    if (base.k === 'mem') {
      const b = this.flatten(base, pos);
      return { k: 'mem', ty: elem, mem: b.mem, off: b.off, dyn: b.dyn, ix: { reg: ir, stride, count } };
    }
    return this.indexOp(base, elem, stride, count, ir, pos);
  }

  /** Materialises a fused index into the per-lane offset register. */
  protected flatten(ref: Extract<Ref, { k: 'mem' }>, pos: Pos): Extract<Ref, { k: 'mem' }> {
    if (!ref.ix) return ref;
    const r = this.indexOp({ k: 'mem', ty: ref.ty, mem: ref.mem, off: 0, dyn: ref.dyn }, ref.ty, ref.ix.stride, ref.ix.count, ref.ix.reg, pos);
    return { k: 'mem', ty: ref.ty, mem: ref.mem, off: ref.off, dyn: r.dyn };
  }

  protected indexOp(base: Ref, elem: Ty, stride: number, count: number, ir: number, pos: Pos): Ref {
    const prev = base.dyn;
    // A memory reference's offset register is followed by its out-of-bounds flag (an index was
    // clamped), so the memory instruction can keep clamped accesses out of race detection.
    const flagged = base.k === 'mem';
    const dst = this.alloc(flagged ? 2 : 1);
    const W = this.W;
    const I = ir * W;
    const P = prev * W;
    const D = dst * W;
    const MID = base.k === 'mem' ? base.mem.id : -1;
    const id = this.nextOp;
    // Address arithmetic (IMAD on hardware); out-of-range indices clamp like WGSL's robust access.
    this.emit((w) => {
      const R = w.R;
      const L = w.lanes;
      const cnt = countOf(w, MID, count, stride);
      for (let k = 0; k < w.n; k++) {
        const l = L[k]!;
        let i = R[I + l]!;
        let bad = 0;
        if (i >= cnt || i < 0) {
          w.M.indexOutOfBounds(w, l, i, cnt, id);
          i = i < 0 || cnt === 0 ? 0 : cnt - 1;
          bad = 1;
        }
        R[D + l] = (prev >= 0 ? R[P + l]! : 0) + i * stride;
        if (flagged) R[D + W + l] = bad | (prev >= 0 ? R[P + W + l]! : 0);
      }
    }, pos, OpKind.alu);
    return base.k === 'mem' ? { ...base, ty: elem, dyn: dst } : { ...base, ty: elem, dyn: dst };
  }

  protected load(ref: Ref, pos: Pos): Val {
    const ty = ref.ty.k === 'atomic' ? scalar(ref.ty.s) : ref.ty;
    if (ref.k === 'reg') {
      if (ref.dyn < 0) return { k: 'r', ty, reg: ref.base, alias: true };
      const n = slots(ty);
      const dst = this.alloc(n);
      const W = this.W;
      const B = ref.base;
      const DY = ref.dyn * W;
      this.emit((w) => {
        const R = w.R;
        const L = w.lanes;
        for (let i = 0; i < w.n; i++) {
          const l = L[i]!;
          const s = B + R[DY + l]!;
          for (let c = 0; c < n; c++) R[(dst + c) * W + l] = R[(s + c) * W + l]!;
        }
      }, pos, OpKind.local);
      return { k: 'r', ty, reg: dst, alias: false };
    }
    if (ty.k === 'array' && ty.count === null) err(`cannot load a runtime-sized array as a value`, pos, 'type');
    if (ref.mem.halves && hasF16(ty)) {
      const dst = this.alloc(slots(ty));
      this.memOpHalf(ref, ty, dst, READ, pos);
      return { k: 'r', ty, reg: dst, alias: false };
    }
    const { offs, views } = memLayout(ty);
    const dst = this.alloc(offs.length);
    this.memOp(ref, offs, views, dst, READ, pos);
    return { k: 'r', ty, reg: dst, alias: false };
  }

  /** Emits a memory instruction moving `offs.length` words between memory and registers. */
  protected memOp(ref: Extract<Ref, { k: 'mem' }>, offs: Int32Array, views: Uint8Array, reg: number, mode: number, pos: Pos): void {
    const mem = ref.mem;
    const MID = mem.id;
    const W = this.W;
    const off = ref.off;
    const DY = ref.dyn * W;
    const dyn = ref.dyn;
    const ix = ref.ix;
    const IX = ix ? ix.reg * W : 0;
    const ixStride = ix ? ix.stride : 0;
    const ixCount = ix ? ix.count : 0;
    const n = offs.length;
    let span = 0;
    for (let c = 0; c < n; c++) span = Math.max(span, offs[c]! + 1);
    const id = this.nextOp;
    const kind = memOpKind(mem, mode, pos);
    const shared = mem.space === 'workgroup';
    const R0 = reg * W;
    if (n === 1 && offs[0] === 0) {
      // One word per lane (the common case): addresses, bounds and the access in one pass each,
      // full warps without the lane list.
      const view = views[0]!;
      const read = mode === READ;
      // 1: one indexed array and a static offset; 2: a dynamic address only; 0: anything else.
      const fast = ix && dyn < 0 ? 1 : !ix && dyn >= 0 ? 2 : 0;
      this.emit((w) => {
        const M = w.M;
        const m = M.mems[MID]!;
        const v = view === 0 ? m.u32 : view === 1 ? m.i32 : m.f32;
        const R = w.R;
        const L = w.lanes;
        const A = w.addr;
        const O = w.oob;
        const nn = w.n;
        const full = nn === W;
        const lim = m.words - 1;
        const cnt = ix ? countOf(w, MID, ixCount, ixStride) : 0;
        // Fast pass over the usual shapes (`a[i]`, or one dynamic address), in bounds everywhere;
        // the general pass below redoes the warp when any lane needs clamping and a diagnostic.
        let slow = fast === 0;
        if (fast === 1) {
          for (let i = 0; i < nn; i++) {
            const l = full ? i : L[i]!;
            const x = R[IX + l]!;
            const a = off + x * ixStride;
            if (x >= cnt || x < 0 || a > lim) {
              slow = true;
              break;
            }
            A[l] = a;
            O[l] = 0;
          }
        } else if (fast === 2) {
          for (let i = 0; i < nn; i++) {
            const l = full ? i : L[i]!;
            const a = off + R[DY + l]!;
            if (a < 0 || a > lim || R[DY + W + l]) {
              slow = true;
              break;
            }
            A[l] = a;
            O[l] = 0;
          }
        }
        if (slow) for (let i = 0; i < nn; i++) {
          const l = full ? i : L[i]!;
          let a = off;
          let bad = 0;
          if (dyn >= 0) {
            a += R[DY + l]!;
            bad = R[DY + W + l]!;
          }
          if (ix) {
            let x = R[IX + l]!;
            if (x >= cnt || x < 0) {
              M.indexOutOfBounds(w, l, x, cnt, id);
              x = x < 0 || cnt === 0 ? 0 : cnt - 1;
              bad = 1;
            }
            a += x * ixStride;
          }
          if (a < 0 || a > lim) {
            M.outOfBounds(w, m, l, a, id);
            a = a < 0 || lim < 0 ? 0 : lim;
            bad = 1;
          }
          A[l] = a;
          O[l] = bad;
        }
        M.observe(w, m, 1, mode, id);
        if (read) {
          if (full) for (let l = 0; l < W; l++) R[R0 + l] = v[A[l]!]!;
          else
            for (let i = 0; i < nn; i++) {
              const l = L[i]!;
              R[R0 + l] = v[A[l]!]!;
            }
        } else if (full) for (let l = 0; l < W; l++) v[A[l]!] = R[R0 + l]!;
        else
          for (let i = 0; i < nn; i++) {
            const l = L[i]!;
            v[A[l]!] = R[R0 + l]!;
          }
        if (M.tr) M.traceMem(w, m, offs, reg, mode, reg);
      }, pos, kind, mode === READ && !shared ? [this.flow([], [reg])] : null);
      return;
    }
    this.emit((w) => {
      const M = w.M;
      const m = M.mems[MID]!;
      const arrs = [m.u32, m.i32, m.f32] as const;
      const R = w.R;
      const L = w.lanes;
      const A = w.addr;
      const nn = w.n;
      M.addresses(w, off, dyn, IX, ixStride, ix ? countOf(w, MID, ixCount, ixStride) : 0, !!ix, id);
      M.access(w, m, span, mode, id);
      for (let c = 0; c < n; c++) {
        const v = arrs[views[c]!]!;
        const o = offs[c]!;
        const Rc = R0 + c * W;
        if (mode === READ) {
          for (let i = 0; i < nn; i++) {
            const l = L[i]!;
            R[Rc + l] = v[A[l]! + o]!;
          }
        } else {
          for (let i = 0; i < nn; i++) {
            const l = L[i]!;
            v[A[l]! + o] = R[Rc + l]!;
          }
        }
      }
      if (M.tr) M.traceMem(w, m, offs, reg, mode, reg);
    }, pos, kind, mode === READ && !shared ? [this.flow([], Array.from({ length: n }, (_, c) => reg + c))] : null);
  }

  /**
   * A memory instruction over a value holding f16 (WGSL layout: an f16 is 2 bytes, vec2<f16> 4,
   * vec3/vec4<f16> 8): addresses in 2-byte halves, each f16 read or written as its half of the
   * word, other components as whole words. Observers get each lane's first word in `w.addr` and
   * its halves in `M.halfAddr`, so banks, sectors and bounds count the words really touched and
   * races the halves.
   */
  protected memOpHalf(ref: Extract<Ref, { k: 'mem' }>, ty: Ty, reg: number, mode: number, pos: Pos): void {
    const mem = ref.mem;
    const kind = memOpKind(mem, mode, pos);
    const { hoffs, views } = halfLayout(ty);
    const n = hoffs.length;
    let hEnd = 0;
    for (let c = 0; c < n; c++) hEnd = Math.max(hEnd, hoffs[c]! + (views[c] === 3 ? 1 : 2));
    // Alignment in halves: a value never straddles it, so a clamped start stays aligned.
    const alH = Math.max(1, alignOf(ty) * 2);
    const MID = mem.id;
    const W = this.W;
    const off = ref.off;
    const dyn = ref.dyn;
    const DY = dyn * W;
    const ix = ref.ix;
    const IX = ix ? ix.reg * W : 0;
    const ixStride = ix ? ix.stride : 0;
    const ixCount = ix ? ix.count : 0;
    const id = this.nextOp;
    const shared = mem.space === 'workgroup';
    const read = mode === READ;
    const HB = new Int32Array(W);
    this.emit((w) => {
      const M = w.M;
      const m = M.mems[MID]!;
      const R = w.R;
      const L = w.lanes;
      const A = w.addr;
      const O = w.oob;
      const nn = w.n;
      const cnt = ix ? countOf(w, MID, ixCount, ixStride) : 0;
      const lim = Math.floor((m.words * 2 - hEnd) / alH) * alH;
      let span = 1;
      for (let i = 0; i < nn; i++) {
        const l = L[i]!;
        let a = off;
        let bad = 0;
        if (dyn >= 0) {
          a += R[DY + l]!;
          bad = R[DY + W + l]!;
        }
        if (ix) {
          let x = R[IX + l]!;
          if (x >= cnt || x < 0) {
            M.indexOutOfBounds(w, l, x, cnt, id);
            x = x < 0 || cnt === 0 ? 0 : cnt - 1;
            bad = 1;
          }
          a += x * ixStride;
        }
        let h = a * 2;
        if (h < 0 || h > lim) {
          M.outOfBounds(w, m, l, Math.floor(a), id);
          h = h < 0 || lim < 0 ? 0 : lim;
          bad = 1;
        }
        HB[l] = h;
        A[l] = h >> 1;
        O[l] = bad;
        // Words this lane touches: one more when a value of odd half-alignment starts mid-word.
        const sp = ((h + hEnd - 1) >> 1) - (h >> 1) + 1;
        if (sp > span) span = sp;
      }
      M.halfAddr = HB;
      M.halfSpan = hEnd;
      M.observe(w, m, span, mode, id);
      M.halfAddr = null;
      const u16 = m.u16;
      const tr = M.tr;
      // Lane by lane, component by component: trace records in the order whole-word accesses use.
      for (let i = 0; i < nn; i++) {
        const l = L[i]!;
        const hb = HB[l]!;
        for (let c = 0; c < n; c++) {
          const hh = hb + hoffs[c]!;
          const vw = views[c]!;
          const Rc = (reg + c) * W + l;
          if (vw === 3) {
            if (read) R[Rc] = bitsToF16(u16[hh]!);
            else u16[hh] = f16ToBits(R[Rc]!);
          } else {
            const arr = vw === 0 ? m.u32 : vw === 1 ? m.i32 : m.f32;
            if (read) R[Rc] = arr[hh >> 1]!;
            else arr[hh >> 1] = R[Rc]!;
          }
          if (tr) M.traceOne(w, m, l, hh >> 1, reg + c, mode, read ? -1 : reg + c);
        }
      }
    }, pos, kind, read && !shared ? [this.flow([], Array.from({ length: n }, (_, c) => reg + c))] : null);
  }

  protected store(ref: Ref, v: Val, pos: Pos): void {
    const target = ref.ty.k === 'atomic' ? scalar(ref.ty.s) : ref.ty;
    v = this.convertVal(v, target, pos);
    if (v.k === 'p') err(`cannot store a pointer`, pos, 'type');
    const n = slots(target);
    const src = this.regOf(v, pos);
    if (ref.k === 'reg') {
      if (ref.dyn < 0) {
        if (n === 1 && this.retarget(ref.base, src)) return;
        this.mov(ref.base, src, n, pos);
        return;
      }
      const W = this.W;
      const B = ref.base;
      const DY = ref.dyn * W;
      this.emit((w) => {
        const R = w.R;
        const L = w.lanes;
        for (let i = 0; i < w.n; i++) {
          const l = L[i]!;
          const d = B + R[DY + l]!;
          for (let c = 0; c < n; c++) R[(d + c) * W + l] = R[(src + c) * W + l]!;
        }
      }, pos, OpKind.local);
      return;
    }
    if (ref.mem.halves && hasF16(target)) {
      this.memOpHalf(ref, target, src, WRITE, pos);
      return;
    }
    const { offs, views } = memLayout(target);
    this.memOp(ref, offs, views, src, WRITE, pos);
  }

  protected zero(ref: Ref, pos: Pos): void {
    const n = ref.ty.k === 'array' && ref.ty.count === null ? 0 : slots(ref.ty);
    if (n === 0) return;
    const src = this.constReg(new Array<number>(n).fill(0));
    if (ref.k === 'reg' && ref.dyn < 0) this.mov(ref.base, src, n, pos);
    else this.store(ref, { k: 'r', ty: ref.ty, reg: src, alias: true }, pos);
  }

}

/** The kind of a plain read or write of `mem`; a write to a read-only memory is refused at `pos`. */
function memOpKind(mem: MemInfo, mode: number, pos: Pos): OpKindValue {
  if (mode === WRITE && mem.readOnly) err(`'${mem.name}' is read-only (${mem.space === 'uniform' ? 'uniform' : 'storage, read'})`, pos, 'type');
  if (mem.space === 'uniform') return OpKind.loadUniform;
  if (mem.space === 'workgroup') return mode === READ ? OpKind.loadShared : OpKind.storeShared;
  return mode === READ ? OpKind.loadGlobal : OpKind.storeGlobal;
}
