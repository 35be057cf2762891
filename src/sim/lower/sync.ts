import type { Expr, Pos } from '../ast.ts';
import { ATOMIC, ATOMIC_READ, WAIT } from '../machine.ts';
import { OpKind } from '../trace.ts';
import { binaryFn, builtin2, type Fn2 } from '../../wgsl/scalar.ts';
import { BOOL, isAbstract, leafScalar, makeStruct, scalar, slots, U32, vec, type Ty } from '../types.ts';
import { type Val, err } from './shared.ts';
import { CallLowering } from './calls.ts';

/** Barriers, atomics, subgroup and quad operations. */
export abstract class SyncLowering extends CallLowering {
  protected barrier(pos: Pos): void {
    const W = this.W;
    this.emit((w) => {
      const M = w.M;
      if (w.n !== w.nExist) {
        let returned = 0;
        for (let l = 0; l < W; l++) if (w.exist[l] && w.park[l] === 1) returned++;
        M.diag(
          'barrier-divergence',
          pos,
          `barrier reached by only ${w.n} of the ${w.nExist} invocations of warp ${w.id} in workgroup ` +
            `${M.wgLinear}${returned ? ` (${returned} already returned)` : ''}: it sits in non-uniform ` +
            `control flow. WGSL compilers reject a barrier in non-uniform control flow; CUDA leaves ` +
            `__syncthreads() in divergent code undefined (it may hang or let threads pass early).`,
        );
      }
      w.status = WAIT;
    }, pos, OpKind.barrier);
  }

  protected atomic(e: Extract<Expr, { k: 'call' }>): Val {
    const name = e.name;
    const p = this.expr(e.args[0]!);
    if (p.k !== 'p' || p.ref.ty.k !== 'atomic') return err(`${name} needs a pointer to an atomic`, e.pos, 'type');
    if (p.ref.k !== 'mem') return err(`atomics must live in storage or workgroup memory`, e.pos, 'type');
    const ref = this.flatten(p.ref, e.pos);
    const s = (ref.ty as { s: 'u32' | 'i32' }).s;
    const ty = scalar(s);
    const args = e.args.slice(1).map((a) => this.regOf(this.convertVal(this.expr(a), ty, a.pos), a.pos));
    const wrapV = s === 'u32' ? (x: number) => x >>> 0 : (x: number) => x | 0;
    let f: Fn2 | null = null;
    switch (name) {
      case 'atomicAdd': f = (o, v) => wrapV(o + v); break;
      case 'atomicSub': f = (o, v) => wrapV(o - v); break;
      case 'atomicMax': f = (o, v) => Math.max(o, v); break;
      case 'atomicMin': f = (o, v) => Math.min(o, v); break;
      case 'atomicAnd': f = (o, v) => wrapV(o & v); break;
      case 'atomicOr': f = (o, v) => wrapV(o | v); break;
      case 'atomicXor': f = (o, v) => wrapV(o ^ v); break;
      case 'atomicExchange':
      case 'atomicStore': f = (_o, v) => v; break;
      case 'atomicLoad': f = (o) => o; break;
      case 'atomicCompareExchangeWeak': break;
      default: return err(`'${name}' is not supported`, e.pos);
    }
    const cas = name === 'atomicCompareExchangeWeak';
    const resTy: Ty = cas ? makeStruct('__atomic_compare_exchange_result', [{ name: 'old_value', ty }, { name: 'exchanged', ty: BOOL }]) : ty;
    const dst = this.alloc(slots(resTy));
    const mem = ref.mem;
    const MID = mem.id;
    const W = this.W;
    const off = ref.off;
    const dyn = ref.dyn;
    const DY = dyn * W;
    const V = (args[0] ?? 0) * W;
    const C2 = (args[1] ?? 0) * W;
    const D = dst * W;
    const id = this.nextOp;
    const isLoad = name === 'atomicLoad';
    const isStore = name === 'atomicStore';
    const mode = isLoad ? ATOMIC_READ : ATOMIC;
    if (!isLoad && mem.readOnly) err(`'${mem.name}' is read-only`, e.pos, 'type');
    const shared = mem.space === 'workgroup';
    const offs = Int32Array.of(0);
    const valueReg = isLoad ? dst : (args[cas ? 1 : 0] ?? dst);
    this.emit((w) => {
      const M = w.M;
      const m = M.mems[MID]!;
      const view = s === 'u32' ? m.u32 : m.i32;
      const R = w.R;
      const L = w.lanes;
      const A = w.addr;
      const n = w.n;
      const O = w.oob;
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        A[l] = off + (dyn >= 0 ? R[DY + l]! : 0);
        O[l] = dyn >= 0 ? R[DY + W + l]! : 0;
      }
      M.access(w, m, 1, mode, id);
      M.atomics += n;
      // Lane order: the documented, reproducible serialisation of a warp's atomics.
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        const a = A[l]!;
        const old = view[a]!;
        if (cas) {
          const ok = old === R[V + l]! ? 1 : 0;
          if (ok) view[a] = R[C2 + l]!;
          R[D + l] = old;
          R[D + W + l] = ok;
        } else {
          const nv = f!(old, R[V + l]!);
          if (!isLoad) view[a] = nv;
          if (!isStore) R[D + l] = old;
        }
      }
      if (M.tr) M.traceMem(w, m, offs, valueReg, mode, isLoad ? -1 : valueReg);
    }, e.pos, isLoad ? (shared ? OpKind.loadShared : OpKind.loadGlobal) : shared ? OpKind.atomicShared : OpKind.atomicGlobal,
    shared ? null : [this.flow([], [dst])]);
    if (isStore) return { k: 'c', ty: BOOL, c: [0] };
    return { k: 'r', ty: resTy, reg: dst, alias: false };
  }

  protected subgroup(e: Extract<Expr, { k: 'call' }>): Val {
    const name = e.name;
    const W = this.W;
    const pos = e.pos;
    if (name === 'subgroupElect') {
      const dst = this.alloc(1);
      const D = dst * W;
      this.emit((w) => {
        const R = w.R;
        const L = w.lanes;
        for (let i = 0; i < w.n; i++) R[D + L[i]!] = i === 0 ? 1 : 0;
      }, pos, OpKind.subgroup);
      return { k: 'r', ty: BOOL, reg: dst, alias: false };
    }
    if (name === 'subgroupBallot') {
      const v = this.expr(e.args[0]!);
      const C = this.regOf(v, pos) * W;
      const dst = this.alloc(4);
      const D = dst * W;
      this.emit((w) => {
        const R = w.R;
        const L = w.lanes;
        const bits = [0, 0, 0, 0];
        for (let i = 0; i < w.n; i++) {
          const l = L[i]!;
          if (R[C + l] && l < 128) bits[l >> 5]! |= 1 << (l & 31);
        }
        for (let i = 0; i < w.n; i++) {
          const l = L[i]!;
          for (let c = 0; c < 4; c++) R[D + c * W + l] = bits[c]! >>> 0;
        }
      }, pos, OpKind.subgroup);
      return { k: 'r', ty: vec(4, 'u32'), reg: dst, alias: false };
    }
    const v = this.concrete(this.expr(e.args[0]!), pos);
    const s = leafScalar(v.ty);
    if (!s) return err(`${name} needs a number`, pos, 'type');
    const n = slots(v.ty);
    const src = this.regOf(v, pos);
    const dst = this.alloc(n);
    let arg = -1;
    if (e.args[1]) {
      const av = this.expr(e.args[1]);
      arg = this.regOf(isAbstract(av.ty) ? this.convertVal(av, U32, pos) : av, pos);
    }
    const A = arg * W;
    const opName = name.replace(/^subgroup(Inclusive|Exclusive)?/, '');
    const scan = name.includes('Inclusive') ? 1 : name.includes('Exclusive') ? 2 : 0;
    const combine: Fn2 | null =
      opName === 'Add' ? binaryFn('+', s)
      : opName === 'Mul' ? binaryFn('*', s)
      // min and max skip a NaN operand (WGSL §17.5), as Dawn's subgroup reductions do.
      : opName === 'Min' ? builtin2('min', s)
      : opName === 'Max' ? builtin2('max', s)
      : opName === 'And' ? binaryFn('&', s)
      : opName === 'Or' ? binaryFn('|', s)
      : opName === 'Xor' ? binaryFn('^', s)
      : opName === 'All' ? (x, y) => (x && y ? 1 : 0)
      : opName === 'Any' ? (x, y) => (x || y ? 1 : 0)
      : null;
    const identity = opName === 'Mul' || opName === 'All' ? 1 : opName === 'Min' ? Infinity : opName === 'Max' ? -Infinity : opName === 'And' ? (s === 'u32' ? 0xffffffff : -1) : 0;
    const quad = name.startsWith('quad');
    const shuffleKind = quad
      ? 6 + ['quadBroadcast', 'quadSwapX', 'quadSwapY', 'quadSwapDiagonal'].indexOf(name)
      : ['Broadcast', 'BroadcastFirst', 'Shuffle', 'ShuffleXor', 'ShuffleUp', 'ShuffleDown'].indexOf(opName);
    if (quad ? shuffleKind < 6 : !combine && shuffleKind < 0) return err(`'${name}' is not supported by the simulator`, pos);
    const tmp = new Float64Array(W);
    for (let c = 0; c < n; c++) {
      const S = (src + c) * W;
      const D = (dst + c) * W;
      if (combine && !quad) {
        this.emit((w) => {
          const R = w.R;
          const L = w.lanes;
          let acc = identity;
          // Lane order: the GPU may combine in another order, so f32 sums can differ by ulps.
          for (let i = 0; i < w.n; i++) {
            const l = L[i]!;
            const x = R[S + l]!;
            if (scan === 2) R[D + l] = acc;
            acc = i === 0 && scan !== 2 ? x : combine(acc, x);
            if (scan === 1) R[D + l] = acc;
          }
          if (scan === 0) for (let i = 0; i < w.n; i++) R[D + L[i]!] = acc;
        }, pos, OpKind.subgroup);
      } else {
        this.emit((w) => {
          const R = w.R;
          const L = w.lanes;
          for (let l = 0; l < W; l++) tmp[l] = R[S + l]!;
          const first = w.n > 0 ? L[0]! : 0;
          for (let i = 0; i < w.n; i++) {
            const l = L[i]!;
            let from: number;
            const a = arg >= 0 ? R[A + l]! : 0;
            switch (shuffleKind) {
              case 0: from = a; break;
              case 1: from = first; break;
              case 2: from = a; break;
              case 3: from = l ^ a; break;
              case 4: from = l - a; break;
              case 5: from = l + a; break;
              // Quads: lanes 4q…4q+3.
              case 6: from = (l & ~3) + a; break;
              case 7: from = l ^ 1; break;
              case 8: from = l ^ 2; break;
              default: from = l ^ 3; break;
            }
            // Reading an inactive or missing lane is undefined on GPUs; we return the own value.
            R[D + l] = from >= 0 && from < W && w.mask[from] ? tmp[from]! : tmp[l]!;
          }
        }, pos, OpKind.subgroup);
      }
    }
    return { k: 'r', ty: v.ty, reg: dst, alias: false };
  }
}
