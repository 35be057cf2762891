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
import type { Expr, Pos } from './ast.ts';
import { DONE, type MemInfo } from './machine.ts';
import { OpKind } from './trace.ts';
import { convert } from '../wgsl/scalar.ts';
import { concretize, F32, hasF16, leafScalar, makeStruct, minBindingWords, sizeOf, slots, typeName, type Ty } from './types.ts';
import { type Ref, type Val, type Binding, type Program, BUILTIN_NAMES, err } from './lower/shared.ts';
import { SyncLowering } from './lower/sync.ts';
export type { Builtins, CompileInput, LocalSymbol, Program, TaintFlow } from './lower/shared.ts';

/** The whole lowering: the module (globals, entry point) on top of the layers in `lower/`. */
export class Compiler extends SyncLowering {
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
          if (al !== undefined && (al < 2 || (al & (al - 1)) !== 0)) err(`@align(${al}) must be a power of two of at least 2 bytes here`, align!.pos, 'type');
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
    for (const [name, b] of scope) this.recordSymbol(scope, name, b);
    this.stmts(entry.body);
    this.place(exit);
    this.emit((w) => {
      w.status = DONE;
    }, entry.pos, OpKind.exit);
    // Module-scope constants and overrides the kernel used, for the warp watch.
    for (const [name, b] of this.globals) this.recordSymbol(undefined, name, b);

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
      locals: this.locals.map((l) => ({ ...l, to: l.to < 0 ? this.ops.length : l.to })),
    };
  }


  protected global(name: string): Binding | undefined {
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
        const element = wordElement(ty);
        const mem: MemInfo = { id: this.mems.length, name, space: 'workgroup', words: Math.ceil(sizeOf(ty)), group: -1, binding: -1, readOnly: false, pos: g.pos, halves: hasF16(ty), ...(element ? { element } : {}) };
        this.mems.push(mem);
        b = { k: 'ref', ref: { k: 'mem', ty, mem, off: 0, dyn: -1 } };
      } else if (g.space === 'storage' || g.space === 'uniform') {
        const group = this.attrInt(g.attrs, 'group', g.pos);
        const binding = this.attrInt(g.attrs, 'binding', g.pos);
        const readOnly = g.space === 'uniform' || g.access !== 'read_write';
        const mem: MemInfo = { id: this.mems.length, name, space: g.space, words: -1, group, binding, readOnly, pos: g.pos, halves: hasF16(ty), minWords: minBindingWords(ty) };
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
}

/** The scalar type every word of a workgroup variable holds, when it is one (see `MemInfo.element`). */
function wordElement(ty: Ty): MemInfo['element'] {
  const t = ty.k === 'array' ? ty.elem : ty;
  if (t.k === 'atomic') return t.s;
  if (t.k === 'scalar' && (t.s === 'u32' || t.s === 'i32' || t.s === 'f32')) return t.s;
  return undefined;
}
