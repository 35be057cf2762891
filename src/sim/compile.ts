/**
 * Compiles a parsed WGSL module to the simulator's IR: a flat array of instructions, each a
 * closure that runs ONE warp instruction (a tight loop over the active lanes of typed-array
 * register files). Closures are built from fixed code; no source text is ever generated or
 * evaluated.
 *
 * - Values are flattened into registers (`reg * warpSize + lane` in a Float64Array).
 * - Constants fold at compile time; constants that reach instructions live in preset registers.
 * - User functions are inlined at each call site (WGSL forbids recursion); `ptr` parameters bind
 *   to the caller's reference.
 * - Control flow is structured: `if`, loops and `switch` save the active mask on a per-warp
 *   stack and restore it at the reconvergence point. `break`, `continue` and `return` park lanes
 *   with a code naming the construct that will wake them (`id*4+2` break, `+3` continue, `+1`
 *   return), so lanes that left stay masked until the construct ends.
 */
import type { Expr, Global, Pos, Stmt, TypeExpr } from './ast.ts';
import { WgslError } from './ast.ts';
import { ATOMIC, ATOMIC_READ, DONE, READ, WAIT, WRITE, type MemInfo, type OpFn, type Warp } from './machine.ts';
import { BUILTINS } from './builtins.ts';
import { binOp, move, op1, op2, op3, opN } from './lanes.ts';
import { OpKind } from './trace.ts';
import {
  binaryFn, bitcast, builtin1, builtin2, builtin3, COMPARISONS, convert, fusedFma, insertBits, type Fn1, type Fn2, type Fn3,
} from './scalar.ts';
import {
  AF, AI, BOOL, columnStride, concretize, F32, I32, isAbstract, leafScalar, makeStruct, mat, scalar, sizeOf, slots, strideOf,
  typeName, U32, vec, type Scalar, type Ty,
} from './types.ts';

interface Label {
  pc: number;
}

type Ref =
  | { readonly k: 'reg'; readonly ty: Ty; readonly base: number; readonly dyn: number }
  | {
      readonly k: 'mem';
      readonly ty: Ty;
      readonly mem: MemInfo;
      readonly off: number;
      readonly dyn: number;
      /**
       * A last dynamic index the memory instruction applies itself (fused address math). A
       * negative `count` is a runtime-sized array starting at word `-count - 1`: its length
       * comes from the run's binding.
       */
      readonly ix?: { readonly reg: number; readonly stride: number; readonly count: number };
    };

type Val =
  | { readonly k: 'r'; readonly ty: Ty; readonly reg: number; readonly alias: boolean }
  | { readonly k: 'c'; readonly ty: Ty; readonly c: readonly number[] }
  | { readonly k: 'p'; readonly ty: Ty; readonly ref: Ref };

type Binding = { k: 'ref'; ref: Ref } | { k: 'val'; val: Val };

/** One taint flow of an instruction: union of `src` registers into each `dst` register. */
export interface TaintFlow {
  readonly src: Int32Array;
  readonly dst: Int32Array;
}

export interface Builtins {
  lid: number;
  lidx: number;
  gid: number;
  wgid: number;
  nwg: number;
  sgid: number;
  sgsize: number;
  /** subgroup_id: the warp's index in its workgroup. */
  sgIndex: number;
  /** num_subgroups: warps per workgroup. */
  nsg: number;
}

/** The compiled kernel. */
export interface Program {
  readonly ops: OpFn[];
  readonly counted: Uint8Array;
  readonly opLine: Int32Array;
  readonly opColumn: Int32Array;
  readonly opKind: Uint8Array;
  readonly taint: (readonly TaintFlow[] | null)[];
  readonly nregs: number;
  readonly constInit: readonly (readonly [number, number])[];
  readonly builtins: Builtins;
  readonly workgroupSize: readonly [number, number, number];
  /** Every memory the kernel names: buffers (sized by each run's bindings) and workgroup variables. */
  readonly mems: readonly MemInfo[];
  /** Lanes per warp the program was compiled for (its register layout depends on it). */
  readonly warpSize: number;
}

const BUILTIN_NAMES: Record<string, keyof Builtins> = {
  local_invocation_id: 'lid',
  local_invocation_index: 'lidx',
  global_invocation_id: 'gid',
  workgroup_id: 'wgid',
  num_workgroups: 'nwg',
  subgroup_invocation_id: 'sgid',
  subgroup_size: 'sgsize',
  subgroup_id: 'sgIndex',
  num_subgroups: 'nsg',
};

const SWIZZLE = 'xyzw';
const SWIZZLE_RGBA = 'rgba';

function err(msg: string, pos: Pos, kind: 'unsupported' | 'type' = 'unsupported'): never {
  throw new WgslError(msg, pos, kind);
}

export interface CompileInput {
  readonly module: readonly Global[];
  readonly entryPoint: string;
  readonly overrides: Readonly<Record<string, number>>;
  /** `fma` rounds once (true) or after the product and after the sum (false). */
  readonly fusedFma: boolean;
}

/** Element count of an indexed array: static, or (negative) read from the run's memory size. */
function countOf(w: Warp, mem: number, count: number, stride: number): number {
  if (count >= 0) return count;
  return Math.max(0, Math.floor((w.M.mems[mem]!.words + count + 1) / stride));
}

export class Compiler {
  private readonly ops: OpFn[] = [];
  private readonly counted: number[] = [];
  private readonly pos: Pos[] = [];
  private readonly kinds: number[] = [];
  private readonly taints: (readonly TaintFlow[] | null)[] = [];
  private nregs = 0;
  private readonly constRegs = new Map<string, number>();
  private readonly constInit: [number, number][] = [];
  private readonly W: number;
  private readonly structs = new Map<string, Ty>();
  private readonly structDecls = new Map<string, Extract<Global, { k: 'struct' }>>();
  private readonly aliases = new Map<string, TypeExpr>();
  private readonly fns = new Map<string, Extract<Global, { k: 'fn' }>>();
  private readonly globals = new Map<string, Binding>();
  private readonly pendingGlobals = new Map<string, Global>();
  private scopes: Map<string, Binding>[] = [];
  private nextId = 1;
  /** Innermost breakable constructs (loops and switches). */
  private breakables: { id: number; loop: boolean }[] = [];
  /** Where to jump when every lane has parked. */
  private restore: Label[] = [];
  private fnStack: { name: string; cid: number; retReg: number; retTy: Ty | null }[] = [];
  private readonly mems: MemInfo[] = [];
  private privInits: { ref: Ref; init: Expr | null; pos: Pos }[] = [];
  builtins!: Builtins;

  constructor(
    W: number,
    private readonly input: CompileInput,
  ) {
    this.W = W;
  }

  // ───────────────────────────── registers, constants, emission ─────────────────────────────

  private alloc(n: number): number {
    const r = this.nregs;
    this.nregs += Math.max(n, 1);
    return r;
  }

  /** A register preset to `value` in every lane of every warp. */
  private constReg(values: readonly number[]): number {
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
  private fresh: { op: number; dst: number; remake: (dst: number) => [OpFn, TaintFlow[]] } | null = null;

  private emit(fn: OpFn, pos: Pos, kind: number, taint: readonly TaintFlow[] | null = null): number {
    const id = this.ops.length;
    this.ops.push(fn);
    this.pos.push(pos);
    this.kinds.push(kind);
    this.counted.push(kind === OpKind.meta || kind === OpKind.exit ? 0 : 1);
    this.taints.push(taint);
    return id;
  }

  private get nextOp(): number {
    return this.ops.length;
  }

  private label(): Label {
    return { pc: -1 };
  }
  private place(l: Label): void {
    l.pc = this.ops.length;
  }

  private flow(src: readonly number[], dst: readonly number[]): TaintFlow {
    return { src: Int32Array.from(src), dst: Int32Array.from(dst) };
  }

  // ───────────────────────────── types ─────────────────────────────

  private resolveType(t: TypeExpr): Ty {
    const a = this.aliases.get(t.name);
    if (a) return this.resolveType(a);
    const st = this.structs.get(t.name);
    if (st) return st;
    switch (t.name) {
      case 'u32': return U32;
      case 'i32': return I32;
      case 'f32': return F32;
      case 'bool': return BOOL;
      case 'f16': return err(`f16 is not supported`, t.pos);
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
      if (el !== F32) err(`matrices of ${typeName(el)} are not supported (f32 only)`, t.pos);
      return mat(Number(mm[1]), Number(mm[2]), 'f32');
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
  private overrideValue(g: Extract<Global, { k: 'const' | 'override' }>): number | undefined {
    const given = this.input.overrides;
    if (given[g.name] !== undefined) return given[g.name];
    const id = g.attrs.find((a) => a.name === 'id')?.args[0];
    if (!id) return undefined;
    const v = this.constEval(id);
    return v.k === 'c' ? given[String(v.c[0])] : undefined;
  }

  private constInt(e: TypeExpr | Expr, pos: Pos): number {
    const ex: Expr = 'k' in e ? e : { k: 'id', pos: e.pos, start: e.start, end: e.end, name: e.name };
    const v = this.constEval(ex);
    if (v.k !== 'c' || v.ty.k !== 'scalar' || v.ty.s === 'f32' || v.ty.s === 'af') err(`expected a constant integer`, pos);
    return v.c[0]!;
  }

  private constEval(e: Expr): Val {
    const before = this.ops.length;
    const v = this.expr(e);
    if (v.k !== 'c' || this.ops.length !== before) err(`expected a constant expression`, e.pos);
    return v;
  }

  // ───────────────────────────── module ─────────────────────────────

  compile(): Program {
    const { module, entryPoint } = this.input;
    for (const g of module) {
      if (g.k === 'struct') {
        const ms = g.members.map((m) => {
          const align = m.attrs.find((a) => a.name === 'align');
          const size = m.attrs.find((a) => a.name === 'size');
          const ty = this.resolveType(m.ty);
          const al = align ? this.constInt(align.args[0]!, align.pos) : undefined;
          const sz = size ? this.constInt(size.args[0]!, size.pos) : undefined;
          if (al !== undefined && (al < 4 || (al & (al - 1)) !== 0)) err(`@align(${al}) must be a power of two of at least 4 bytes here`, align!.pos, 'type');
          if (sz !== undefined && sz < sizeOf(ty) * 4) err(`@size(${sz}) is smaller than ${typeName(ty)} (${sizeOf(ty) * 4} bytes)`, size!.pos, 'type');
          return { name: m.name, ty, align: al, size: sz };
        });
        this.structs.set(g.name, makeStruct(g.name, ms));
        this.structDecls.set(g.name, g);
      } else if (g.k === 'alias') {
        this.aliases.set(g.name, g.ty);
      } else if (g.k === 'fn') {
        this.fns.set(g.name, g);
      } else if (g.k === 'const' || g.k === 'override' || g.k === 'gvar') {
        this.pendingGlobals.set(g.name, g);
      }
    }
    const entry = this.fns.get(entryPoint);
    if (!entry) err(`entry point '${entryPoint}' not found`, { line: 1, col: 1 }, 'type');
    if (!entry.attrs.some((a) => a.name === 'compute')) err(`'${entryPoint}' is not a @compute function`, entry.pos, 'type');
    // Resolve constants, overrides and private variables in declaration order (consts may
    // reference others lazily). Buffers and workgroup variables are resolved on first use only:
    // an entry point's resource interface is what it statically uses (WGSL §13.3.2), so a module
    // with several entry points never asks for the buffers of the others.
    for (const [name, g] of [...this.pendingGlobals]) {
      if (g.k !== 'gvar' || g.space === 'private') this.global(name);
    }

    const wsAttr = entry.attrs.find((a) => a.name === 'workgroup_size');
    if (!wsAttr) err(`@compute function needs @workgroup_size`, entry.pos, 'type');
    const ws = [1, 1, 1] as [number, number, number];
    wsAttr.args.forEach((a, i) => {
      ws[i] = this.constInt(a, a.pos);
    });

    // Builtin registers, set by the scheduler for each workgroup.
    this.builtins = {
      lid: this.alloc(3),
      lidx: this.alloc(1),
      gid: this.alloc(3),
      wgid: this.alloc(3),
      nwg: this.alloc(3),
      sgid: this.alloc(1),
      sgsize: this.alloc(1),
      sgIndex: this.alloc(1),
      nsg: this.alloc(1),
    };

    const scope = new Map<string, Binding>();
    const builtinReg = (attrs: readonly { name: string; args: readonly Expr[] }[], what: string, pos: Pos): number => {
      const b = attrs.find((a) => a.name === 'builtin');
      if (!b || b.args[0]?.k !== 'id') return err(`${what} needs a @builtin`, pos, 'type');
      const bname = (b.args[0] as { name: string }).name;
      const key = BUILTIN_NAMES[bname];
      if (!key) return err(`@builtin(${bname}) is not a compute builtin the simulator knows`, pos);
      return this.builtins[key];
    };
    const entryMoves: (() => void)[] = [];
    for (const p of entry.params) {
      const ty = this.resolveType(p.ty);
      const decl = ty.k === 'struct' ? this.structDecls.get(ty.name) : undefined;
      if (ty.k === 'struct' && decl && !p.attrs.some((a) => a.name === 'builtin')) {
        // An entry-point struct: each member is a builtin, copied into the struct's registers.
        const base = this.alloc(slots(ty));
        ty.members.forEach((m, i) => {
          const src = builtinReg(decl.members[i]!.attrs, `member '${m.name}' of entry-point struct ${ty.name}`, decl.members[i]!.pos);
          entryMoves.push(() => this.mov(base + m.slot, src, slots(m.ty), p.pos));
        });
        scope.set(p.name, { k: 'val', val: { k: 'r', ty, reg: base, alias: true } });
        continue;
      }
      const reg = builtinReg(p.attrs, `entry-point parameter '${p.name}'`, p.pos);
      scope.set(p.name, { k: 'val', val: { k: 'r', ty, reg, alias: true } });
    }
    this.scopes = [scope];
    const exit = this.label();
    this.restore = [exit];
    this.fnStack = [{ name: entry.name, cid: 0, retReg: -1, retTy: null }];
    for (const m of entryMoves) m();
    // Private variables start at their initializer (or zero) in every invocation.
    for (const pi of this.privInits) {
      if (pi.init) this.store(pi.ref, this.expr(pi.init), pi.pos);
      else this.zero(pi.ref, pi.pos);
    }
    this.stmts(entry.body);
    this.place(exit);
    this.emit((w) => {
      w.status = DONE;
    }, entry.pos, OpKind.exit);

    return {
      ops: this.ops,
      counted: Uint8Array.from(this.counted),
      opLine: Int32Array.from(this.pos, (p) => p.line),
      opColumn: Int32Array.from(this.pos, (p) => p.col),
      opKind: Uint8Array.from(this.kinds),
      taint: this.taints,
      nregs: this.nregs,
      constInit: this.constInit,
      builtins: this.builtins,
      workgroupSize: ws,
      mems: this.mems,
      warpSize: this.W,
    };
  }

  private global(name: string): Binding | undefined {
    const done = this.globals.get(name);
    if (done) return done;
    const g = this.pendingGlobals.get(name);
    if (!g) return undefined;
    this.pendingGlobals.delete(name);
    let b: Binding;
    if (g.k === 'const' || g.k === 'override') {
      let v: Val;
      const ov = g.k === 'override' ? this.overrideValue(g) : undefined;
      const ty = g.ty ? this.resolveType(g.ty) : null;
      if (ov !== undefined) {
        const t = ty ?? F32;
        v = { k: 'c', ty: t, c: [convert(ov, 'af', leafScalar(t) ?? 'f32')] };
      } else {
        if (!g.init) err(`override '${name}' has no value: pass it in KernelRun.overrides`, g.pos, 'type');
        v = this.constEval(g.init);
        if (ty) v = this.convertVal(v, ty, g.pos);
        else if (g.k === 'override') v = this.convertVal(v, concretize(v.ty), g.pos);
      }
      b = { k: 'val', val: v };
    } else if (g.k === 'gvar') {
      if (!g.ty) err(`module-scope var '${name}' needs a type`, g.pos, 'type');
      const ty = this.resolveType(g.ty);
      if (g.space === 'private') {
        const ref: Ref = { k: 'reg', ty, base: this.alloc(slots(ty)), dyn: -1 };
        this.privInits.push({ ref, init: g.init, pos: g.pos });
        b = { k: 'ref', ref };
      } else if (g.space === 'workgroup') {
        if (ty.k === 'array' && ty.count === null) err(`workgroup arrays need a fixed size`, g.pos, 'type');
        const mem: MemInfo = { id: this.mems.length, name, space: 'workgroup', words: sizeOf(ty), group: -1, binding: -1, readOnly: false, pos: g.pos };
        this.mems.push(mem);
        b = { k: 'ref', ref: { k: 'mem', ty, mem, off: 0, dyn: -1 } };
      } else if (g.space === 'storage' || g.space === 'uniform') {
        const group = this.attrInt(g.attrs, 'group', g.pos);
        const binding = this.attrInt(g.attrs, 'binding', g.pos);
        const readOnly = g.space === 'uniform' || g.access !== 'read_write';
        const mem: MemInfo = { id: this.mems.length, name, space: g.space, words: -1, group, binding, readOnly, pos: g.pos };
        this.mems.push(mem);
        b = { k: 'ref', ref: { k: 'mem', ty, mem, off: 0, dyn: -1 } };
      } else {
        return err(`var<${g.space}> is not supported`, g.pos);
      }
    } else {
      return undefined;
    }
    this.globals.set(name, b);
    return b;
  }

  private attrInt(attrs: readonly { name: string; args: readonly Expr[] }[], name: string, pos: Pos): number {
    const a = attrs.find((x) => x.name === name);
    if (!a || !a.args[0]) err(`missing @${name}`, pos, 'type');
    return this.constInt(a.args[0], pos);
  }

  private lookup(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const b = this.scopes[i]!.get(name);
      if (b) return b;
    }
    return this.global(name);
  }

  private declare(name: string, b: Binding): void {
    // A named value outlives the statement: its register must really be written (see `retarget`).
    this.fresh = null;
    this.scopes[this.scopes.length - 1]!.set(name, b);
  }

  // ───────────────────────────── values ─────────────────────────────

  private regOf(v: Val, pos: Pos): number {
    if (v.k === 'r') return v.reg;
    if (v.k === 'c') {
      const cv = this.convertVal(v, concretize(v.ty), pos);
      return this.constReg(cv.k === 'c' ? cv.c : v.c);
    }
    return err(`a pointer cannot be used as a value here`, pos, 'type');
  }

  /** Converts abstract values (and only those) to the concrete type `to`. */
  private convertVal(v: Val, to: Ty, pos: Pos): Val {
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

  private concrete(v: Val, pos: Pos): Val {
    return isAbstract(v.ty) ? this.convertVal(v, concretize(v.ty), pos) : v;
  }

  /**
   * `x = a op b` into a variable's register: when the operation is the instruction just emitted
   * and its result a temporary that only this store reads (every caller of `store` drops the value
   * afterwards), the operation writes the variable itself and the move disappears. Same lanes,
   * same count (moves are uncounted), same taint for the variable.
   */
  private retarget(dst: number, src: number): boolean {
    const f = this.fresh;
    this.fresh = null;
    if (!f || f.dst !== src || f.op !== this.ops.length - 1) return false;
    const [fn, taint] = f.remake(dst);
    this.ops[f.op] = fn;
    this.taints[f.op] = taint;
    return true;
  }

  /** Moves `n` slots (uncounted: a register rename on hardware). */
  private mov(dst: number, src: number, n: number, pos: Pos): void {
    if (dst === src || n === 0) return;
    const flows = [];
    for (let c = 0; c < n; c++) flows.push(this.flow([src + c], [dst + c]));
    this.emit(move(this.W, dst, src, n), pos, OpKind.meta, flows);
  }

  /** A fresh register copy of `v` (for `let` of a variable, which must not alias it). */
  private own(v: Val, pos: Pos): Val {
    if (v.k !== 'r' || !v.alias) return v;
    const n = slots(v.ty);
    const r = this.alloc(n);
    this.mov(r, v.reg, n, pos);
    return { k: 'r', ty: v.ty, reg: r, alias: false };
  }

  // ───────────────────────────── references ─────────────────────────────

  private isRefExpr(e: Expr): boolean {
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

  private ref(e: Expr): Ref {
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
        if (ty.k === 'vec') return this.indexRef(base, scalar(ty.s), 1, ty.n, e.i, e.pos);
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
            ? { ...base, ty: scalar(ty.s), off: base.off + c }
            : { ...base, ty: scalar(ty.s), base: base.base + c };
        }
        return err(`cannot take a reference to .${e.name} of ${typeName(ty)}`, e.pos, 'type');
      }
      default:
        break;
    }
    return err(`this expression is not a reference`, e.pos, 'type');
  }

  private indexRef(base: Ref, elem: Ty, stride: number, count: number, idxE: Expr, pos: Pos): Ref {
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
  private flatten(ref: Extract<Ref, { k: 'mem' }>, pos: Pos): Extract<Ref, { k: 'mem' }> {
    if (!ref.ix) return ref;
    const r = this.indexOp({ k: 'mem', ty: ref.ty, mem: ref.mem, off: 0, dyn: ref.dyn }, ref.ty, ref.ix.stride, ref.ix.count, ref.ix.reg, pos);
    return { k: 'mem', ty: ref.ty, mem: ref.mem, off: ref.off, dyn: r.dyn };
  }

  private indexOp(base: Ref, elem: Ty, stride: number, count: number, ir: number, pos: Pos): Ref {
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

  private load(ref: Ref, pos: Pos): Val {
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
    const { offs, views } = memLayout(ty, 0);
    const dst = this.alloc(offs.length);
    this.memOp(ref, offs, views, dst, READ, pos);
    return { k: 'r', ty, reg: dst, alias: false };
  }

  /** Emits a memory instruction moving `offs.length` words between memory and registers. */
  private memOp(ref: Extract<Ref, { k: 'mem' }>, offs: Int32Array, views: Uint8Array, reg: number, mode: number, pos: Pos): void {
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
    if (mode === WRITE && mem.readOnly) err(`'${mem.name}' is read-only (${mem.space === 'uniform' ? 'uniform' : 'storage, read'})`, pos, 'type');
    const shared = mem.space === 'workgroup';
    const kind =
      mem.space === 'uniform' ? OpKind.loadUniform
      : shared ? (mode === READ ? OpKind.loadShared : OpKind.storeShared)
      : mode === READ ? OpKind.loadGlobal : OpKind.storeGlobal;
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

  private store(ref: Ref, v: Val, pos: Pos): void {
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
    const { offs, views } = memLayout(target, 0);
    this.memOp(ref, offs, views, src, WRITE, pos);
  }

  private zero(ref: Ref, pos: Pos): void {
    const n = ref.ty.k === 'array' && ref.ty.count === null ? 0 : slots(ref.ty);
    if (n === 0) return;
    const src = this.constReg(new Array<number>(n).fill(0));
    if (ref.k === 'reg' && ref.dyn < 0) this.mov(ref.base, src, n, pos);
    else this.store(ref, { k: 'r', ty: ref.ty, reg: src, alias: true }, pos);
  }

  // ───────────────────────────── statements ─────────────────────────────

  private stmts(list: readonly Stmt[]): void {
    this.scopes.push(new Map());
    for (const s of list) this.stmt(s);
    this.scopes.pop();
  }

  private stmt(s: Stmt): void {
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

  private decl(s: Extract<Stmt, { k: 'decl' }>): void {
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
  private parkLanes(code: number, pos: Pos): void {
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
  private emitRestore(pos: Pos, pop: boolean, wake: number, skip: Label | null): void {
    const W = this.W;
    this.emit((w) => {
      const top = w.sp - 1;
      // Fast path: nothing parked and the mask never changed inside → it is the saved mask.
      if (w.modS[top] === 0 && w.pkS[top] === w.parkCount) {
        if (pop) w.sp--;
        return;
      }
      const s = w.stack[top]!;
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

  private condReg(e: Expr, v: Val): number {
    if (v.ty.k !== 'scalar' || v.ty.s !== 'bool') err(`condition must be bool, not ${typeName(v.ty)}`, e.pos, 'type');
    return this.regOf(v, e.pos);
  }

  private ifStmt(s: Extract<Stmt, { k: 'if' }>): void {
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
      const sv = w.stack[w.sp - 1]!;
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

  private loopStmt(s: Extract<Stmt, { k: 'for' | 'while' | 'loop' }>): void {
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
        let left = 0;
        for (let i = 0; i < n; i++) {
          const l = L[i]!;
          if ((R[C + l] ? 1 : 0) === want) {
            m[l] = 0;
            park[l] = BRK;
            left++;
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
    this.stmts(s.body);
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
        this.scopes.pop();
      }
    }
    this.restore.pop();
    this.breakables.pop();
    // The back edge is a real branch instruction (and makes empty loops count toward maxSteps).
    this.emit((w) => {
      w.pc = top.pc;
    }, s.pos, OpKind.branch);
    this.place(endL);
    this.emitRestore(s.pos, true, BRK, null);
    this.scopes.pop();
  }

  private switchStmt(s: Extract<Stmt, { k: 'switch' }>): void {
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
        const sv = w.stack[w.sp - 1]!;
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

  // ───────────────────────────── expressions ─────────────────────────────

  expr(e: Expr, statement = false): Val {
    switch (e.k) {
      case 'lit': {
        if (e.t === 'f16') err(`f16 literals ('${e.text}') are not supported`, e.pos);
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
  private shortCircuit(op: string, l: Val, rE: Expr, pos: Pos): Val {
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

  private indexValue(base: Val, e: Extract<Expr, { k: 'idx' }>): Val {
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

  private swizzle(v: Val, name: string, pos: Pos): Val {
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

  private unary(e: Extract<Expr, { k: 'un' }>): Val {
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
      f = s === 'i32' ? (x) => -x | 0 : s === 'f32' ? (x) => -x : (x) => -x;
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
  private map1(f: Fn1, v: Val, ty: Ty, pos: Pos, kind: number): Val {
    if (v.k === 'c') return { k: 'c', ty, c: v.c.map((x) => f(x)) };
    ty = concretize(ty);
    const n = slots(ty);
    const a = this.regOf(v, pos);
    const dst = this.alloc(n);
    for (let c = 0; c < n; c++) this.emit(op1(this.W, dst + c, a + c, f), pos, kind, [this.flow([a + c], [dst + c])]);
    return { k: 'r', ty, reg: dst, alias: false };
  }

  /** Unifies abstract operands with the other side's concrete type. */
  private unify(a: Val, b: Val, pos: Pos): [Val, Val, Scalar] {
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

  private binary(op: string, a0: Val, b0: Val, pos: Pos): Val {
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
  private matrixBinary(op: string, a0: Val, b0: Val, pos: Pos): Val {
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

  private matrixFn(e: Extract<Expr, { k: 'call' }>): Val {
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
  private matCtor(e: Extract<Expr, { k: 'call' }>, ty: Extract<Ty, { k: 'mat' }>): Val {
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

  // ───────────────────────────── calls ─────────────────────────────

  private call(e: Extract<Expr, { k: 'call' }>, statement: boolean): Val {
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
      case 'bool': {
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
      const sig = table.sig(vals.map((v) => v.ty));
      if (typeof sig === 'string') return err(sig, e.pos, 'type');
      const conv = vals.map((v, i) => this.convertVal(v, sig.params[i]!, e.args[i]!.pos));
      return this.vector(conv, sig.result, e.pos, sig.f);
    }
    if (name.startsWith('atomic')) return this.atomic(e);
    if (name.startsWith('subgroup') || name.startsWith('quad')) return this.subgroup(e);
    if (/^vec[234][fiu]?$/.test(name)) return this.vecCtor(e);
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
        const f = name === 'fma' && this.input.fusedFma && s === 'f32' ? fusedFma : builtin3(name, s);
        if (f) return this.mapN(f, vals, rty, e.pos);
      }
    }
    return err(`the function '${name}' is not supported by the simulator`, e.pos);
  }

  /** Component-wise N-ary op, scalars broadcast over vectors. */
  private mapN(f: Fn3, vals: readonly Val[], ty: Ty, pos: Pos): Val {
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
  private vector(vals: readonly Val[], ty: Ty, pos: Pos, f: (xs: Float64Array, out: Float64Array) => void): Val {
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
  private compose(ty: Ty, parts: readonly Val[], pos: Pos): Val {
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

  private vecCtor(e: Extract<Expr, { k: 'call' }>, forced: Scalar | null = null): Val {
    const n = Number(e.name[3]);
    const suffix = e.name[4];
    let s: Scalar | null = forced ?? (suffix === 'f' ? 'f32' : suffix === 'i' ? 'i32' : suffix === 'u' ? 'u32' : null);
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

  private arrayCtor(e: Extract<Expr, { k: 'call' }>, forced: Ty | null = null): Val {
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

  private construct(ty: Ty, e: Extract<Expr, { k: 'call' }>): Val {
    if (ty.k !== 'struct') return err(`cannot construct ${typeName(ty)}`, e.pos, 'type');
    if (e.args.length === 0) return { k: 'c', ty, c: new Array<number>(slots(ty)).fill(0) };
    if (e.args.length !== ty.members.length) err(`${ty.name} needs ${ty.members.length} values`, e.pos, 'type');
    return this.compose(ty, e.args.map((a, i) => this.convertVal(this.expr(a), ty.members[i]!.ty, a.pos)), e.pos);
  }

  private inline(fn: Extract<Global, { k: 'fn' }>, e: Extract<Expr, { k: 'call' }>, statement: boolean): Val {
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
    this.scopes = savedScopes;
    this.breakables = savedBreak;
    void statement;
    if (!retTy) return { k: 'c', ty: BOOL, c: [0] };
    return { k: 'r', ty: retTy, reg: retReg, alias: false };
  }

  private barrier(pos: Pos): void {
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

  private atomic(e: Extract<Expr, { k: 'call' }>): Val {
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

  private subgroup(e: Extract<Expr, { k: 'call' }>): Val {
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
      : opName === 'Min' ? (x, y) => Math.min(x, y)
      : opName === 'Max' ? (x, y) => Math.max(x, y)
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

function swizzleIndex(ch: string, pos: Pos): number {
  let c = SWIZZLE.indexOf(ch);
  if (c < 0) c = SWIZZLE_RGBA.indexOf(ch);
  if (c < 0) err(`'${ch}' is not a vector component`, pos, 'type');
  return c;
}

/** Determinant of an n×n column-major f32 matrix by cofactor expansion, rounding each step. */
function determinant(m: ArrayLike<number>, n: number): number {
  const fr = Math.fround;
  const at = (col: number, row: number) => m[col * n + row]!;
  if (n === 2) return fr(fr(at(0, 0) * at(1, 1)) - fr(at(1, 0) * at(0, 1)));
  let acc = 0;
  for (let j = 0; j < n; j++) {
    const minor: number[] = [];
    for (let cc = 0; cc < n; cc++) {
      if (cc === j) continue;
      for (let rr = 1; rr < n; rr++) minor.push(at(cc, rr));
    }
    const term = fr(at(j, 0) * determinant(minor, n - 1));
    acc = j === 0 ? term : j % 2 ? fr(acc - term) : fr(acc + term);
  }
  return acc;
}

function withLeaf(t: Ty, s: Scalar): Ty {
  if (t.k === 'vec') return vec(t.n, s);
  if (t.k === 'mat') return mat(t.c, t.r, s);
  if (t.k === 'scalar') return scalar(s);
  return t;
}

function leafOf(t: Ty): Scalar {
  if (t.k === 'array') return leafOf(t.elem);
  return leafScalar(t) ?? 'u32';
}

/** Word offsets and typed-array views (0 u32, 1 i32, 2 f32) of a type's components. */
function memLayout(t: Ty, base: number): { offs: Int32Array; views: Uint8Array } {
  const offs: number[] = [];
  const views: number[] = [];
  const walk = (ty: Ty, off: number): void => {
    switch (ty.k) {
      case 'scalar':
      case 'atomic': {
        offs.push(off);
        views.push(ty.s === 'i32' ? 1 : ty.s === 'f32' ? 2 : 0);
        return;
      }
      case 'vec':
        for (let c = 0; c < ty.n; c++) walk(scalar(ty.s), off + c);
        return;
      case 'mat':
        for (let j = 0; j < ty.c; j++) walk(vec(ty.r, ty.s), off + j * columnStride(ty.r));
        return;
      case 'array': {
        const st = strideOf(ty.elem);
        for (let i = 0; i < (ty.count ?? 0); i++) walk(ty.elem, off + i * st);
        return;
      }
      case 'struct':
        for (const m of ty.members) walk(m.ty, off + m.offset);
        return;
      case 'ptr':
        return;
    }
  };
  walk(t, base);
  return { offs: Int32Array.from(offs), views: Uint8Array.from(views) };
}
