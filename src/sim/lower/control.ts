import type { Expr, Pos, Stmt } from '../ast.ts';
import { OpKind } from '../trace.ts';
import { AI, concretize, leafScalar, slots, typeName } from '../types.ts';
import { type Binding, type Label, type Ref, type Val, err } from './shared.ts';
import { MemoryLowering } from './memory.ts';

/** SIMT control flow: statements, the mask stack, parked lanes, if / loops / switch. */
export abstract class ControlFlowLowering extends MemoryLowering {
  // ───────────────────────────── statements ─────────────────────────────

  protected stmts(list: readonly Stmt[]): void {
    this.scopes.push(new Map());
    for (const s of list) this.stmt(s);
    this.closeScopes(this.scopes.pop());
  }

  protected stmt(s: Stmt): void {
    switch (s.k) {
      case 'nop':
        return;
      case 'block':
        this.stmts(s.body);
        return;
      case 'decl':
        return this.decl(s);
      case 'assign': {
        if (!s.lhs) {
          this.expr(s.rhs);
          return;
        }
        const ref = this.ref(s.lhs);
        if (s.op === '=') {
          this.store(ref, this.expr(s.rhs), s.pos);
          return;
        }
        const cur = this.load(ref, s.pos);
        const rhs = this.expr(s.rhs);
        this.store(ref, this.binary(s.op.slice(0, -1), cur, rhs, s.pos), s.pos);
        return;
      }
      case 'incdec': {
        const ref = this.ref(s.lhs);
        const cur = this.load(ref, s.pos);
        this.store(ref, this.binary(s.op === '++' ? '+' : '-', cur, { k: 'c', ty: AI, c: [1] }, s.pos), s.pos);
        return;
      }
      case 'expr':
        this.expr(s.e, true);
        return;
      case 'if':
        return this.ifStmt(s);
      case 'for':
      case 'while':
      case 'loop':
        return this.loopStmt(s);
      case 'switch':
        return this.switchStmt(s);
      case 'break': {
        const b = this.breakables[this.breakables.length - 1];
        if (!b) err(`'break' outside a loop or switch`, s.pos, 'type');
        this.parkLanes(b.id * 4 + 2, s.pos);
        return;
      }
      case 'continue': {
        const b = [...this.breakables].reverse().find((x) => x.loop);
        if (!b) err(`'continue' outside a loop`, s.pos, 'type');
        this.parkLanes(b.id * 4 + 3, s.pos);
        return;
      }
      case 'return': {
        const f = this.fnStack[this.fnStack.length - 1]!;
        if (s.e) {
          if (!f.retTy) err(`this function returns nothing`, s.pos, 'type');
          const v = this.convertVal(this.expr(s.e), f.retTy, s.pos);
          this.mov(f.retReg, this.regOf(v, s.pos), slots(f.retTy), s.pos);
        }
        this.parkLanes(f.cid * 4 + 1, s.pos);
        return;
      }
      case 'discard':
        return err(`'discard' is only allowed in fragment shaders`, s.pos, 'type');
    }
  }

  protected decl(s: Extract<Stmt, { k: 'decl' }>): void {
    const ty = s.ty ? this.resolveType(s.ty) : null;
    if (s.decl === 'const') {
      if (!s.init) err(`const needs a value`, s.pos, 'type');
      let v = this.constEval(s.init);
      if (ty) v = this.convertVal(v, ty, s.pos);
      this.declare(s.name, { k: 'val', val: v });
      return;
    }
    if (s.decl === 'let') {
      if (!s.init) err(`let needs a value`, s.pos, 'type');
      let v = this.expr(s.init);
      if (ty) v = this.convertVal(v, ty, s.pos);
      else if (v.k !== 'p') v = this.concrete(v, s.pos);
      this.declare(s.name, { k: 'val', val: v.k === 'r' ? this.own(v, s.pos) : v });
      return;
    }
    let t = ty;
    let init: Val | null = null;
    if (s.init) {
      init = this.expr(s.init);
      if (!t) t = concretize(init.ty);
    }
    if (!t) err(`var needs a type or a value`, s.pos, 'type');
    const ref: Ref = { k: 'reg', ty: t, base: this.alloc(slots(t)), dyn: -1 };
    if (init) this.store(ref, init, s.pos);
    else this.zero(ref, s.pos);
    this.declare(s.name, { k: 'ref', ref });
  }

  /** Parks the active lanes with `code` and jumps to the reconvergence point. */
  protected parkLanes(code: number, pos: Pos): void {
    const target = this.restore[this.restore.length - 1]!;
    this.emit((w) => {
      const L = w.lanes;
      for (let i = 0; i < w.n; i++) {
        const l = L[i]!;
        w.park[l] = code;
        w.mask[l] = 0;
      }
      w.n = 0;
      w.parkCount++;
      w.pc = target.pc;
    }, pos, OpKind.meta);
  }

  /** Restores the mask saved at the construct's start, minus parked lanes. */
  protected emitRestore(pos: Pos, pop: boolean, wake: number, skip: Label | null): void {
    const W = this.W;
    this.emit((w) => {
      const top = w.sp - 1;
      // Fast path: nothing parked and the mask never changed inside → it is the saved mask.
      if (w.modS[top] === 0 && w.pkS[top] === w.parkCount) {
        if (pop) w.sp--;
        return;
      }
      const s = w.saved(top);
      if (pop) w.sp--;
      const park = w.park;
      const m = w.mask;
      for (let l = 0; l < W; l++) {
        if (s[l] && park[l] === wake && wake !== 0) park[l] = 0;
        m[l] = s[l] && park[l] === 0 ? 1 : 0;
      }
      w.relanes();
      if (skip && w.n === 0) w.pc = skip.pc;
    }, pos, OpKind.meta);
  }

  protected condReg(e: Expr, v: Val): number {
    if (v.ty.k !== 'scalar' || v.ty.s !== 'bool') err(`condition must be bool, not ${typeName(v.ty)}`, e.pos, 'type');
    return this.regOf(v, e.pos);
  }

  protected ifStmt(s: Extract<Stmt, { k: 'if' }>): void {
    const W = this.W;
    const cv = this.expr(s.cond);
    if (cv.k === 'c') {
      // Constant condition: no branch at all.
      if (cv.c[0]) this.stmts(s.then);
      else if (s.else) this.stmts(s.else);
      return;
    }
    const C = this.condReg(s.cond, cv) * W;
    const elseL = this.label();
    const elseBody = this.label();
    const endL = this.label();
    this.emit((w) => {
      w.push();
      const R = w.R;
      const L = w.lanes;
      const m = w.mask;
      let t = 0;
      const n = w.n;
      if (n === W) for (let l = 0; l < W; l++) t += R[C + l] ? 1 : 0;
      else for (let i = 0; i < n; i++) if (R[C + L[i]!]) t++;
      if (t === n) return;
      if (t === 0) {
        // Uniformly not taken: the mask stays, run the else side directly.
        w.pc = elseBody.pc;
        return;
      }
      w.M.divergentBranches++;
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        if (!R[C + l]) m[l] = 0;
      }
      w.modS[w.sp - 1] = 1;
      w.cntS[w.sp - 1] = n - t;
      w.relanes();
    }, s.cond.pos, OpKind.branch);
    this.restore.push(elseL);
    this.stmts(s.then);
    this.restore.pop();
    this.place(elseL);
    this.emit((w) => {
      if (w.cntS[w.sp - 1] === 0) {
        // Every lane took the then side: skip the else side.
        w.pc = endL.pc;
        return;
      }
      const sv = w.saved(w.sp - 1);
      const R = w.R;
      const park = w.park;
      const m = w.mask;
      for (let l = 0; l < W; l++) m[l] = sv[l] && park[l] === 0 && !R[C + l] ? 1 : 0;
      w.relanes();
      if (w.n === 0) w.pc = endL.pc;
    }, s.pos, OpKind.meta);
    this.place(elseBody);
    if (s.else) {
      this.restore.push(endL);
      this.stmts(s.else);
      this.restore.pop();
    }
    this.place(endL);
    // When every lane left through break, continue or return inside the branch, nothing runs
    // the statements after it: jump straight to where those lanes reconverge (the loop's
    // continue or exit point, or the function's end). Running them with an empty mask would
    // count phantom instructions and make a barrier look reached by 0 of 32 invocations.
    this.emitRestore(s.pos, true, 0, this.restore[this.restore.length - 1] ?? null);
  }

  protected loopStmt(s: Extract<Stmt, { k: 'for' | 'while' | 'loop' }>): void {
    const W = this.W;
    this.scopes.push(new Map());
    if (s.k === 'for' && s.init) this.stmt(s.init);
    const id = this.nextId++;
    const BRK = id * 4 + 2;
    const CONT = id * 4 + 3;
    const top = this.label();
    const contL = this.label();
    const endL = this.label();
    this.emit((w) => w.push(), s.pos, OpKind.meta);
    this.place(top);
    // Loop exit test: lanes whose condition is false park until the loop ends.
    const exitTest = (cond: Expr, exitWhen: boolean, pos: Pos) => {
      const cv = this.expr(cond);
      if (cv.k === 'c') {
        if (!!cv.c[0] === exitWhen) this.parkLanes(BRK, pos);
        return;
      }
      const C = this.condReg(cond, cv) * W;
      const want = exitWhen ? 1 : 0;
      this.emit((w) => {
        const R = w.R;
        const L = w.lanes;
        const m = w.mask;
        const park = w.park;
        const n = w.n;
        // Count the lanes that leave first (usually none, so nothing else to do), then park them.
        let left = 0;
        if (n === W) for (let l = 0; l < W; l++) left += (R[C + l] ? 1 : 0) === want ? 1 : 0;
        else for (let i = 0; i < n; i++) left += (R[C + L[i]!] ? 1 : 0) === want ? 1 : 0;
        if (left !== 0) {
          for (let i = 0; i < n; i++) {
            const l = L[i]!;
            if ((R[C + l] ? 1 : 0) === want) {
              m[l] = 0;
              park[l] = BRK;
            }
          }
        }
        if (left !== 0 && left !== n) w.M.divergentBranches++;
        if (left !== 0) {
          w.parkCount++;
          w.relanes();
        }
        if (w.n === 0) w.pc = endL.pc;
      }, pos, OpKind.branch);
    };
    this.breakables.push({ id, loop: true });
    if ((s.k === 'for' && s.cond) || s.k === 'while') {
      const cond = s.k === 'for' ? s.cond! : s.cond;
      this.restore.push(endL);
      exitTest(cond, false, cond.pos);
      this.restore.pop();
    }
    this.restore.push(contL);
    // A `loop` body's scope stays open through `continuing` and `break if`, which see its
    // declarations; a `for` loop's update does not (it sees the loop variable, not the body's).
    const bodyScope = new Map<string, Binding>();
    this.scopes.push(bodyScope);
    for (const b of s.body) this.stmt(b);
    if (s.k !== 'loop') this.closeScopes(this.scopes.pop());
    this.restore.pop();
    this.place(contL);
    this.emitRestore(s.pos, false, CONT, endL);
    this.restore.push(endL);
    if (s.k === 'for' && s.update) this.stmt(s.update);
    if (s.k === 'loop') {
      if (s.continuing) {
        this.scopes.push(new Map());
        for (const c of s.continuing) this.stmt(c);
        if (s.breakIf) exitTest(s.breakIf, true, s.breakIfPos ?? s.breakIf.pos);
        this.closeScopes(this.scopes.pop());
      }
    }
    if (s.k === 'loop') this.closeScopes(this.scopes.pop());
    this.restore.pop();
    this.breakables.pop();
    // The back edge is a real branch instruction (and makes empty loops count toward maxSteps).
    this.emit((w) => {
      w.pc = top.pc;
    }, s.pos, OpKind.branch);
    this.place(endL);
    this.emitRestore(s.pos, true, BRK, null);
    this.closeScopes(this.scopes.pop());
  }

  protected switchStmt(s: Extract<Stmt, { k: 'switch' }>): void {
    const W = this.W;
    const sel = this.concrete(this.expr(s.sel), s.sel.pos);
    const ss = leafScalar(sel.ty);
    if (sel.ty.k !== 'scalar' || (ss !== 'u32' && ss !== 'i32')) err(`switch selector must be i32 or u32`, s.sel.pos, 'type');
    const values: number[] = [];
    const clauseOf: number[] = [];
    let def = -1;
    s.clauses.forEach((c, j) => {
      for (const e of c.sels) {
        if (e === null) def = j;
        else {
          const cv = this.convertVal(this.constEval(e), sel.ty, e.pos);
          values.push(cv.k === 'c' ? cv.c[0]! : 0);
          clauseOf.push(j);
        }
      }
    });
    const S = this.regOf(sel, s.sel.pos) * W;
    const CL = this.alloc(1) * W;
    const id = this.nextId++;
    const BRK = id * 4 + 2;
    const nv = values.length;
    const seen = new Int32Array(s.clauses.length);
    let stamp = 0;
    this.emit((w) => {
      w.push();
      const R = w.R;
      const L = w.lanes;
      let distinct = 0;
      stamp++;
      for (let i = 0; i < w.n; i++) {
        const l = L[i]!;
        const x = R[S + l]!;
        let c = def;
        for (let k = 0; k < nv; k++) {
          if (values[k] === x) {
            c = clauseOf[k]!;
            break;
          }
        }
        R[CL + l] = c;
        if (c >= 0 && seen[c] !== stamp) {
          seen[c] = stamp;
          distinct++;
        }
      }
      if (distinct > 1) w.M.divergentBranches++;
      w.modS[w.sp - 1] = 1;
    }, s.sel.pos, OpKind.branch);
    const endL = this.label();
    this.breakables.push({ id, loop: false });
    s.clauses.forEach((c, j) => {
      const next = this.label();
      this.emit((w) => {
        const sv = w.saved(w.sp - 1);
        const R = w.R;
        const park = w.park;
        const m = w.mask;
        for (let l = 0; l < W; l++) m[l] = sv[l] && park[l] === 0 && R[CL + l] === j ? 1 : 0;
        w.relanes();
        if (w.n === 0) w.pc = next.pc;
      }, c.pos, OpKind.meta);
      this.restore.push(next);
      this.stmts(c.body);
      this.restore.pop();
      this.place(next);
    });
    this.breakables.pop();
    this.place(endL);
    this.emitRestore(s.pos, true, BRK, null);
  }

}
