import type { Expr, Global, Pos, TypeExpr } from '../ast.ts';
import type { MemInfo, OpFn } from '../machine.ts';
import { move } from '../lanes.ts';
import { OpKind } from '../trace.ts';
import { convert } from '../../wgsl/scalar.ts';
import { BOOL, concretize, F16, F32, I32, isAbstract, leafScalar, mat, slots, typeName, U32, vec, type Ty } from '../types.ts';
import { type Label, type Ref, type Val, type Binding, type TaintFlow, type Builtins, err, type CompileInput, type LocalSymbol, leafOf, F16_UNSUPPORTED } from './shared.ts';

/**
 * State of one compilation and the basics every lowering layer uses: registers and constants,
 * instruction emission, types, scopes and value moves. The layers above add memory
 * (`memory.ts`), control flow (`control.ts`), expressions (`expressions.ts`), calls
 * (`calls.ts`) and synchronisation, atomics and subgroups (`sync.ts`); `../compile.ts` finishes
 * with the module (globals, the entry point).
 */
export abstract class CompilerCore {
  protected readonly ops: OpFn[] = [];
  protected readonly counted: number[] = [];
  protected readonly pos: Pos[] = [];
  protected readonly kinds: number[] = [];
  protected readonly taints: (readonly TaintFlow[] | null)[] = [];
  protected nregs = 0;
  protected readonly constRegs = new Map<string, number>();
  protected readonly constInit: [number, number][] = [];
  protected readonly W: number;
  protected readonly structs = new Map<string, Ty>();
  protected readonly structDecls = new Map<string, Extract<Global, { k: 'struct' }>>();
  protected readonly aliases = new Map<string, TypeExpr>();
  protected readonly fns = new Map<string, Extract<Global, { k: 'fn' }>>();
  protected readonly globals = new Map<string, Binding>();
  protected readonly pendingGlobals = new Map<string, Global>();
  protected scopes: Map<string, Binding>[] = [];
  /** Symbols of the scalar names declared in each open scope, closed (their `to` set) when it ends. */
  private readonly scopeSymbols = new WeakMap<Map<string, Binding>, LocalSymbol[]>();
  protected readonly locals: LocalSymbol[] = [];
  protected nextId = 1;
  /** Innermost breakable constructs (loops and switches). */
  protected breakables: { id: number; loop: boolean }[] = [];
  /** Where to jump when every lane has parked. */
  protected restore: Label[] = [];
  protected fnStack: { name: string; cid: number; retReg: number; retTy: Ty | null }[] = [];
  protected readonly mems: MemInfo[] = [];
  protected privInits: { ref: Ref; init: Expr | null; pos: Pos }[] = [];
  builtins!: Builtins;

  constructor(
    W: number,
    protected readonly input: CompileInput,
  ) {
    this.W = W;
  }


  // ───────────────────────────── registers, constants, emission ─────────────────────────────

  protected alloc(n: number): number {
    const r = this.nregs;
    this.nregs += Math.max(n, 1);
    return r;
  }

  /** A register preset to `value` in every lane of every warp. */
  protected constReg(values: readonly number[]): number {
    const key = values.join(',');
    let r = this.constRegs.get(key);
    if (r === undefined) {
      r = this.alloc(values.length);
      for (let i = 0; i < values.length; i++) this.constInit.push([r + i, values[i]!]);
      this.constRegs.set(key, r);
    }
    return r;
  }

  /** The last scalar binary operation into a fresh temporary (see `retarget`). */
  protected fresh: { op: number; dst: number; remake: (dst: number) => [OpFn, TaintFlow[]] } | null = null;

  protected emit(fn: OpFn, pos: Pos, kind: number, taint: readonly TaintFlow[] | null = null): number {
    const id = this.ops.length;
    this.ops.push(fn);
    this.pos.push(pos);
    this.kinds.push(kind);
    this.counted.push(kind === OpKind.meta || kind === OpKind.exit ? 0 : 1);
    this.taints.push(taint);
    return id;
  }

  protected get nextOp(): number {
    return this.ops.length;
  }

  protected label(): Label {
    return { pc: -1 };
  }
  protected place(l: Label): void {
    l.pc = this.ops.length;
  }

  protected flow(src: readonly number[], dst: readonly number[]): TaintFlow {
    return { src: Int32Array.from(src), dst: Int32Array.from(dst) };
  }

  // ───────────────────────────── types ─────────────────────────────

  protected resolveType(t: TypeExpr): Ty {
    const a = this.aliases.get(t.name);
    if (a) return this.resolveType(a);
    const st = this.structs.get(t.name);
    if (st) return st;
    switch (t.name) {
      case 'u32': return U32;
      case 'i32': return I32;
      case 'f32': return F32;
      case 'bool': return BOOL;
      case 'f16':
      case 'vec2h':
      case 'vec3h':
      case 'vec4h':
        if (!this.input.shaderF16) err(`'${t.name}' ${F16_UNSUPPORTED}`, t.pos);
        return t.name === 'f16' ? F16 : vec(Number(t.name[3]), 'f16');
      case 'vec2i': return vec(2, 'i32');
      case 'vec3i': return vec(3, 'i32');
      case 'vec4i': return vec(4, 'i32');
      case 'vec2u': return vec(2, 'u32');
      case 'vec3u': return vec(3, 'u32');
      case 'vec4u': return vec(4, 'u32');
      case 'vec2f': return vec(2, 'f32');
      case 'vec3f': return vec(3, 'f32');
      case 'vec4f': return vec(4, 'f32');
      case 'vec2':
      case 'vec3':
      case 'vec4': {
        const e = t.args[0];
        if (!e || !('args' in e && 'name' in e && !('k' in e))) err(`${t.name} needs an element type`, t.pos);
        const el = this.resolveType(e);
        if (el.k !== 'scalar') err(`vector elements must be scalars`, t.pos);
        return vec(Number(t.name[3]), el.s);
      }
      case 'atomic': {
        const el = this.resolveType(t.args[0] as TypeExpr);
        if (el !== U32 && el !== I32) err(`atomic<${typeName(el)}> is not supported`, t.pos);
        return { k: 'atomic', s: el === U32 ? 'u32' : 'i32' };
      }
      case 'array': {
        const elT = t.args[0];
        if (!elT) err(`array needs an element type`, t.pos);
        const el = this.resolveType(elT as TypeExpr);
        const cnt = t.args[1];
        if (!cnt) return { k: 'array', elem: el, count: null };
        const n = this.constInt(cnt, t.pos);
        return { k: 'array', elem: el, count: n };
      }
      case 'ptr': {
        const space = (t.args[0] as TypeExpr).name;
        const el = this.resolveType(t.args[1] as TypeExpr);
        return { k: 'ptr', space, elem: el };
      }
    }
    const mm = /^mat([234])x([234])(f?)$/.exec(t.name);
    if (mm) {
      let el: Ty = F32;
      if (!mm[3]) {
        const e = t.args[0];
        if (!e) err(`${t.name} needs an element type: ${t.name}<f32>`, t.pos, 'type');
        el = this.resolveType(e as TypeExpr);
      }
      if (el === F16) err(`matrices of f16 are not simulated (f32 only): compute with mat${mm[1]}x${mm[2]}<f32> and round with quantizeToF16 where the kernel needs half precision`, t.pos);
      if (el !== F32) err(`matrices of ${typeName(el)} are not supported (f32 only)`, t.pos);
      return mat(Number(mm[1]), Number(mm[2]), 'f32');
    }
    if (/^mat[234]x[234]h$/.test(t.name)) {
      if (!this.input.shaderF16) err(`'${t.name}' ${F16_UNSUPPORTED}`, t.pos);
      err(`'${t.name}': matrices of f16 are not simulated (f32 only): compute with mat${t.name[3]}x${t.name[5]}f and round with quantizeToF16 where the kernel needs half precision`, t.pos);
    }
    if (/^mat\d/.test(t.name)) err(`unknown matrix type '${t.name}'`, t.pos, 'type');
    if (t.name.startsWith('texture_') || t.name === 'sampler' || t.name === 'sampler_comparison' || t.name === 'external_texture') {
      err(
        `'${t.name}': textures and samplers are not simulated (the GPU runs this kernel; the simulator replays compute ` +
          `kernels over storage and uniform buffers only). To step through it here, pass the data in a ` +
          `var<storage> array instead`,
        t.pos,
      );
    }
    return err(`unknown type '${t.name}'`, t.pos, 'type');
  }

  /** A pipeline constant, given by name or by its `@id` (as WebGPU's `constants` record takes it). */
  protected overrideValue(g: Extract<Global, { k: 'const' | 'override' }>): number | undefined {
    const given = this.input.overrides;
    if (given[g.name] !== undefined) return given[g.name];
    const id = g.attrs.find((a) => a.name === 'id')?.args[0];
    if (!id) return undefined;
    const v = this.constEval(id);
    return v.k === 'c' ? given[String(v.c[0])] : undefined;
  }

  protected constInt(e: TypeExpr | Expr, pos: Pos): number {
    const ex: Expr = 'k' in e ? e : { k: 'id', pos: e.pos, start: e.start, end: e.end, name: e.name };
    const v = this.constEval(ex);
    if (v.k !== 'c' || v.ty.k !== 'scalar' || v.ty.s === 'f32' || v.ty.s === 'af') err(`expected a constant integer`, pos);
    return v.c[0]!;
  }

  protected constEval(e: Expr): Val {
    const before = this.ops.length;
    const v = this.expr(e);
    if (v.k !== 'c' || this.ops.length !== before) err(`expected a constant expression`, e.pos);
    return v;
  }

  protected attrInt(attrs: readonly { name: string; args: readonly Expr[] }[], name: string, pos: Pos): number {
    const a = attrs.find((x) => x.name === name);
    if (!a || !a.args[0]) err(`missing @${name}`, pos, 'type');
    return this.constInt(a.args[0], pos);
  }

  protected lookup(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const b = this.scopes[i]!.get(name);
      if (b) return b;
    }
    return this.global(name);
  }

  protected declare(name: string, b: Binding): void {
    // A named value outlives the statement: its register must really be written (see `retarget`).
    this.fresh = null;
    const scope = this.scopes[this.scopes.length - 1]!;
    scope.set(name, b);
    this.recordSymbol(scope, name, b);
  }

  /** Notes a scalar name for the warp watch: in scope from the next instruction to its scope's end (`scope` undefined: a module-scope name, in scope everywhere). */
  protected recordSymbol(scope: Map<string, Binding> | undefined, name: string, b: Binding): void {
    const ty = b.k === 'ref' ? b.ref.ty : b.val.ty;
    if (ty.k !== 'scalar' || ty.s === 'f16') return;
    const type = ty.s === 'ai' ? 'i32' : ty.s === 'af' ? 'f32' : ty.s;
    let sym: LocalSymbol | undefined;
    const from = scope ? this.ops.length : 0;
    if (b.k === 'ref') {
      if (b.ref.k === 'reg' && b.ref.dyn < 0) sym = { name, type, reg: b.ref.base, from, to: -1 };
    } else if (b.val.k === 'r') sym = { name, type, reg: b.val.reg, from, to: -1 };
    else if (b.val.k === 'c' && b.val.c.length === 1) sym = { name, type, reg: -1, constant: b.val.c[0]!, from, to: -1 };
    if (!sym) return;
    this.locals.push(sym);
    if (!scope) return;
    let list = this.scopeSymbols.get(scope);
    if (!list) this.scopeSymbols.set(scope, (list = []));
    list.push(sym);
  }

  /** Ends the scopes in `ended`: their names go out of scope at the next instruction. */
  protected closeScopes(...ended: (Map<string, Binding> | undefined)[]): void {
    for (const scope of ended) {
      if (!scope) continue;
      for (const sym of this.scopeSymbols.get(scope) ?? []) sym.to = this.ops.length;
    }
  }

  // ───────────────────────────── values ─────────────────────────────

  protected regOf(v: Val, pos: Pos): number {
    if (v.k === 'r') return v.reg;
    if (v.k === 'c') {
      const cv = this.convertVal(v, concretize(v.ty), pos);
      return this.constReg(cv.k === 'c' ? cv.c : v.c);
    }
    return err(`a pointer cannot be used as a value here`, pos, 'type');
  }

  /** Converts abstract values (and only those) to the concrete type `to`. */
  protected convertVal(v: Val, to: Ty, pos: Pos): Val {
    if (v.k === 'p') return v;
    if (typeName(v.ty) === typeName(to)) return v;
    if (!isAbstract(v.ty)) {
      err(`type mismatch: expected ${typeName(to)} but found ${typeName(v.ty)}`, pos, 'type');
    }
    const ts = leafScalar(to);
    const fs = leafScalar(v.ty);
    if (v.k === 'c') {
      if (to.k === 'array' && v.ty.k === 'array') return { k: 'c', ty: to, c: v.c.map((x) => convert(x, leafOf(v.ty), leafOf(to))) };
      if (!ts || !fs || slots(to) !== slots(v.ty)) err(`cannot convert ${typeName(v.ty)} to ${typeName(to)}`, pos, 'type');
      if (fs === 'af' && (ts === 'u32' || ts === 'i32')) err(`cannot convert a float literal to ${ts}`, pos, 'type');
      return { k: 'c', ty: to, c: v.c.map((x) => convert(x, fs, ts)) };
    }
    return err(`cannot convert ${typeName(v.ty)} to ${typeName(to)}`, pos, 'type');
  }

  protected concrete(v: Val, pos: Pos): Val {
    return isAbstract(v.ty) ? this.convertVal(v, concretize(v.ty), pos) : v;
  }

  /**
   * `x = a op b` into a variable's register: when the operation is the instruction just emitted
   * and its result a temporary that only this store reads (every caller of `store` drops the value
   * afterwards), the operation writes the variable itself and the move disappears. Same lanes,
   * same count (moves are uncounted), same taint for the variable.
   */
  protected retarget(dst: number, src: number): boolean {
    const f = this.fresh;
    this.fresh = null;
    if (!f || f.dst !== src || f.op !== this.ops.length - 1) return false;
    const [fn, taint] = f.remake(dst);
    this.ops[f.op] = fn;
    this.taints[f.op] = taint;
    return true;
  }

  /** Moves `n` slots (uncounted: a register rename on hardware). */
  protected mov(dst: number, src: number, n: number, pos: Pos): void {
    if (dst === src || n === 0) return;
    const flows = [];
    for (let c = 0; c < n; c++) flows.push(this.flow([src + c], [dst + c]));
    this.emit(move(this.W, dst, src, n), pos, OpKind.meta, flows);
  }

  /** A fresh register copy of `v` (for `let` of a variable, which must not alias it). */
  protected own(v: Val, pos: Pos): Val {
    if (v.k !== 'r' || !v.alias) return v;
    const n = slots(v.ty);
    const r = this.alloc(n);
    this.mov(r, v.reg, n, pos);
    return { k: 'r', ty: v.ty, reg: r, alias: false };
  }


  // ───────────────────────────── defined by the layers above ─────────────────────────────

  abstract expr(e: Expr, statement?: boolean): Val;
  protected abstract global(name: string): Binding | undefined;
  protected abstract binary(op: string, a0: Val, b0: Val, pos: Pos): Val;
  protected abstract call(e: Extract<Expr, { k: 'call' }>, statement: boolean): Val;
  protected abstract compose(ty: Ty, parts: readonly Val[], pos: Pos): Val;
  protected abstract vector(vals: readonly Val[], ty: Ty, pos: Pos, f: (xs: Float64Array, out: Float64Array) => void): Val;
  protected abstract barrier(pos: Pos): void;
  protected abstract atomic(e: Extract<Expr, { k: 'call' }>): Val;
  protected abstract subgroup(e: Extract<Expr, { k: 'call' }>): Val;
}
