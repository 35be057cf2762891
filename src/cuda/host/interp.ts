/* eslint-disable @typescript-eslint/no-this-alias -- the compiled closures capture the interpreter (and the runtime) by name */
/**
 * The host-code interpreter: compiles each function of the CUDA translation unit (the parser's
 * syntax tree, `../ast.ts`) once into JavaScript closures, typed statically as C types them, and
 * runs `main`. A statement costs a few closure calls, not a walk of the tree.
 *
 * - Values: C's arithmetic types as ctypes.ts represents them; pointers are addresses in memory.ts
 *   (block · 2^32 + offset), so every access is bounds-checked against the block it points into.
 * - Locals live in a frame array; a local whose address is taken, every array and every struct
 *   lives in a memory block of its own.
 * - Control flow: a statement returns 0 (normal), BREAK, CONTINUE or RETURN.
 * - Errors are `HostError`s at the CUDA line of the statement that was running.
 */
import type { Expr, FunctionDecl, Range, Stmt, TranslationUnit, TypeRef } from '../ast.ts';
import { ARITH, binary, convert, unary, type BinaryOp, type CArith, type CValue, type UnaryOp } from './ctypes.ts';
import { encodeBytes } from './libc/bytes.ts';
import { BLOCK_SPAN, HostFault, Memory, type Block, type BlockKind, type ScalarKind } from './memory.ts';
import {
  BOOL, CHAR, DIM3, DOUBLE, INT, LONG, UINT, ULONG, VOID, arith, namedType, ptr, scalarKind, sizeOf, struct, typeName, type HType,
} from './types.ts';

export type V = number | bigint;
export type Frame = V[];
export type Ev = (f: Frame) => V;
type Exec = (f: Frame) => number;

const BREAK = 1;
const CONTINUE = 2;
const RETURN = 3;

/** An error of the host program, at a CUDA position. */
export class HostError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    /** The exit status a Linux process would report (139 for a segmentation fault). */
    readonly exitStatus = 1,
  ) {
    super(message);
  }
}

/** How many steps run between two looks at the stop signal (a look costs a property read). */
const CHECK_EVERY = 1 << 16;

/** The run's `AbortSignal` was aborted: the program stops where it is. */
export class StopSignal extends Error {
  constructor() {
    super('stopped');
  }
}

/** `exit(code)` or the end of `main`. */
export class ExitSignal extends Error {
  constructor(readonly code: number) {
    super(`exit(${code})`);
  }
}

/** A compiled expression: its C type, how to evaluate it, and where it is stored if an lvalue. */
export interface Compiled {
  readonly t: HType;
  readonly ev: Ev;
  /** An lvalue in a frame slot. */
  readonly slot?: number;
  /** An lvalue in memory: its address. */
  readonly addr?: Ev;
  readonly range: Range;
  /** A string literal's text (for printf's format, checked once). */
  readonly literal?: string;
  /** A comparison's truth as a boolean (a loop test skips the 1/0 round trip). */
  readonly test?: (f: Frame) => boolean;
  /** An lvalue in memory: a store specialised to its type (else `assigner` builds one from `addr`). */
  readonly store?: (f: Frame, v: V) => void;
}

export interface VectorObj {
  of: HType;
  data: number;
  size: number;
  cap: number;
}

/** What a builtin (library function) sees. */
export interface BuiltinContext {
  readonly interp: Interpreter;
  readonly range: Range;
}
export type Builtin = (ctx: BuiltinContext, args: Compiled[], call: Extract<Expr, { kind: 'call' | 'launch' }>) => Compiled;

interface Local {
  t: HType;
  slot: number;
  /** A `const` local with a constant initializer (usable in array sizes). */
  constValue?: V;
  /** In memory: the slot holds the block's address. */
  inMemory: boolean;
}

interface FnInfo {
  decl: FunctionDecl;
  ret: HType;
  params: HType[];
  compiled?: (args: V[]) => V;
}

export class Interpreter {
  readonly mem = new Memory();
  readonly vectors: VectorObj[] = [];
  stdout: string[] = [];
  stderr: string[] = [];
  steps = 0;
  maxSteps: number;
  /** The step count at which the budget and the stop signal are next checked (`checkpoint`). */
  nextCheck: number;
  readonly signal: AbortSignal | undefined;
  /** The statement running now (for error positions). */
  at: Range | undefined;
  retVal: V = 0;
  private readonly functions = new Map<string, FnInfo>();
  private readonly structs = new Map<string, HType>();
  private readonly typedefs = new Map<string, HType>();
  private readonly globals = new Map<string, { t: HType; addr: number; kind: BlockKind }>();
  private readonly strings = new Map<string, number>();
  // per-function compilation state
  private scopes: Map<string, Local>[] = [];
  private nslots = 0;
  private addressTaken = new Set<string>();
  private fnRet: HType = VOID;

  constructor(
    readonly unit: TranslationUnit,
    readonly builtins: Readonly<Record<string, Builtin>>,
    options: { maxSteps?: number; signal?: AbortSignal; onCheckpoint?: () => void } = {},
  ) {
    this.maxSteps = options.maxSteps ?? 2e9;
    this.signal = options.signal;
    this.onCheckpoint = options.onCheckpoint;
    this.nextCheck = Math.min(this.maxSteps, CHECK_EVERY);
  }

  // ---- errors ----
  fail(message: string, range: Range | undefined = this.at, exitStatus = 1): never {
    throw new HostError(message, range?.line ?? 0, range?.col ?? 0, exitStatus);
  }

  // ---- set-up ----
  /** Declares structs, typedefs, functions and globals; then `main` can run. */
  load(): void {
    for (const item of this.unit.items) {
      if (item.kind === 'struct') {
        const members: [string, HType][] = [];
        for (const f of item.fields) members.push([f.name, this.declType(f.type, f.dims, f.range)]);
        this.structs.set(item.name, struct(item.name, members));
      } else if (item.kind === 'typedef') {
        this.typedefs.set(item.name, this.typeOf(item.type));
      } else if (item.kind === 'function') {
        if (item.global || !item.body) continue;
        if (item.device && !item.host) continue;
        if (item.template) continue;
        this.functions.set(item.name, { decl: item, ret: this.typeOf(item.returnType), params: item.params.map((p) => this.paramType(p.type)) });
      } else if (item.kind === 'var') {
        const s = item.decl.storage;
        if (s.shared) continue;
        const kind: BlockKind = s.constant ? 'constant' : s.managed ? 'managed' : s.device ? 'device' : 'global';
        for (const v of item.decl.vars) {
          const t = this.declType(v.type, v.dims, v.range);
          const addr = this.mem.allocate(sizeOf(t), { kind, label: v.name, line: v.range.line, ...elementInfo(t) });
          this.globals.set(v.name, { t, addr, kind });
          if (v.init || v.ctorArgs) {
            this.at = v.range;
            this.scopes = [new Map<string, Local>()];
            this.nslots = 0;
            const init = this.initializer(t, { t, ev: () => addr, addr: () => addr, range: v.range }, v.init, v.ctorArgs, v.range);
            init(new Array<V>(this.nslots).fill(0));
          }
        }
      }
    }
  }

  /** A global's address and type (for `cudaMemcpyToSymbol`). */
  globalSymbol(name: string): { t: HType; addr: number; kind: BlockKind } | undefined {
    return this.globals.get(name);
  }

  /** Runs `main(argc, argv)` and returns its exit status. */
  runMain(args: readonly string[]): number {
    const main = this.functions.get('main');
    if (!main) this.fail('the program has no main() function', { file: '', line: 1, col: 1, endLine: 1, endCol: 1 });
    const argv = [this.unit.items.length ? 'program' : 'program', ...args];
    const argvBlock = this.mem.allocate(8 * (argv.length + 1), { kind: 'global', label: 'argv', line: 0 });
    argv.forEach((a, i) => this.mem.store(argvBlock + 8 * i, 'u64', this.mem.allocString(a, { kind: 'global', label: `argv[${i}]`, line: 0 })));
    const call = this.callable('main', main.decl.range);
    try {
      const r = call(main.params.length >= 2 ? [argv.length, argvBlock] : []);
      return Number(r) | 0;
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      throw e;
    }
  }

  // ---- types ----
  typeOf(r: TypeRef): HType {
    let t: HType | undefined;
    const base = r.base.replace(/^std::/, '');
    if (base === 'vector') {
      const arg = r.templateArgs?.[0];
      t = { k: 'vector', of: arg && arg.kind === 'type' ? this.typeOf(arg) : INT };
    } else {
      t = namedType(base) ?? this.structs.get(base) ?? this.typedefs.get(base);
    }
    if (!t) this.fail(`unknown type '${r.base}'`, r.range);
    for (let i = 0; i < r.pointers.length; i++) t = ptr(t);
    return t;
  }

  private paramType(r: TypeRef): HType {
    return this.typeOf(r);
  }

  private declType(r: TypeRef, dims: readonly (Expr | null)[], range: Range, initCount?: number): HType {
    let t = this.typeOf(r);
    for (let i = dims.length - 1; i >= 0; i--) {
      const d = dims[i];
      const n = d ? this.constInt(d) : (initCount ?? 0);
      t = { k: 'array', of: t, n };
    }
    void range;
    return t;
  }

  private constInt(e: Expr): number {
    // Array sizes: evaluate once in an empty frame (constants, `const int` globals, sizeof).
    const saved = [this.scopes, this.nslots] as const;
    const c = this.expr(e);
    const v = c.ev(new Array<V>(this.nslots + 8).fill(0));
    [this.scopes, this.nslots] = saved;
    return Number(v);
  }

  // ---- functions ----
  callable(name: string, range: Range): (args: V[]) => V {
    const fn = this.functions.get(name);
    if (!fn) this.fail(`no function '${name}' that host code can call`, range);
    if (!fn.compiled) {
      // Compile on first use; recursion finds this stub and calls through it.
      const holder: { body?: (args: V[]) => V } = {};
      fn.compiled = (args) => holder.body!(args);
      holder.body = this.compileFunction(fn);
      fn.compiled = holder.body;
    }
    return fn.compiled;
  }

  private compileFunction(fn: FnInfo): (args: V[]) => V {
    const savedScopes = this.scopes;
    const savedN = this.nslots;
    const savedTaken = this.addressTaken;
    const savedRet = this.fnRet;
    this.scopes = [new Map<string, Local>()];
    this.nslots = 0;
    this.fnRet = fn.ret;
    this.addressTaken = new Set();
    collectAddressTaken(fn.decl.body!, this.addressTaken);
    const params = fn.decl.params.map((p, i) => this.declareLocal(p.name, fn.params[i]!, p.range));
    const body = this.block(fn.decl.body!.body);
    const nslots = () => this.nslots;
    const n = nslots();
    this.scopes = savedScopes;
    this.nslots = savedN;
    this.addressTaken = savedTaken;
    this.fnRet = savedRet;
    const ret = fn.ret;
    const mem = this.mem;
    const interp = this;
    const isMain = fn.decl.name === 'main';
    return (args: V[]): V => {
      const f: Frame = new Array<V>(n).fill(0);
      for (let i = 0; i < params.length; i++) {
        const p = params[i]!;
        if (p.inMemory) {
          const a = mem.allocate(sizeOf(p.t), { kind: 'stack', label: fn.decl.params[i]!.name, line: fn.decl.range.line });
          f[p.slot] = a;
          storeTo(mem, p.t, a, args[i] ?? 0);
        } else f[p.slot] = args[i] ?? 0;
      }
      if (++interp.steps > interp.nextCheck) interp.checkpoint();
      const r = body(f);
      if (r === RETURN) return interp.retVal;
      if (isMain) return 0;
      return ret.k === 'void' ? 0 : 0;
    };
  }

  /** Told at every checkpoint (a worker flushes the output it holds back). */
  private readonly onCheckpoint: (() => void) | undefined;

  /** Every CHECK_EVERY steps: the step budget, then the stop signal. */
  checkpoint(): void {
    if (this.steps > this.maxSteps) this.stepLimit();
    if (this.signal?.aborted) throw new StopSignal();
    this.onCheckpoint?.();
    this.nextCheck = Math.min(this.maxSteps, this.steps + CHECK_EVERY);
  }

  stepLimit(): never {
    this.fail(`the program ran more than ${this.maxSteps.toLocaleString('en-US')} steps without ending: an endless loop? (stopped by the step budget)`);
  }

  private declareLocal(name: string, t: HType, range: Range): Local {
    void range;
    const inMemory = t.k === 'array' || t.k === 'struct' || this.addressTaken.has(name);
    const l: Local = { t, slot: this.nslots++, inMemory };
    this.scopes[this.scopes.length - 1]!.set(name, l);
    return l;
  }

  private lookup(name: string): Local | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const l = this.scopes[i]!.get(name);
      if (l) return l;
    }
    return undefined;
  }

  // ---- statements ----
  private block(body: readonly Stmt[]): Exec {
    this.scopes.push(new Map());
    const parts = body.map((s) => this.stmt(s));
    this.scopes.pop();
    const n = parts.length;
    if (n === 1) return parts[0]!;
    if (n === 2) {
      const [a, b] = parts as [Exec, Exec];
      return (f) => a(f) || b(f);
    }
    return (f) => {
      for (let i = 0; i < n; i++) {
        const r = parts[i]!(f);
        if (r) return r;
      }
      return 0;
    };
  }

  private stmt(s: Stmt): Exec {
    const interp = this;
    const range = s.range;
    switch (s.kind) {
      case 'block':
        return this.block(s.body);
      case 'empty':
        return () => 0;
      case 'expr': {
        const e = this.expr(s.expr).ev;
        return (f) => {
          interp.at = range;
          e(f);
          return 0;
        };
      }
      case 'decl':
        return this.declStmt(s);
      case 'if': {
        const test = this.truth(this.expr(s.test));
        const then = this.scoped(s.then);
        const els = s.else ? this.scoped(s.else) : undefined;
        if (els) return (f) => ((interp.at = range), test(f) ? then(f) : els(f));
        return (f) => ((interp.at = range), test(f) ? then(f) : 0);
      }
      case 'while':
      case 'for':
      case 'do':
        return this.loop(s);
      case 'forRange':
        return this.rangeFor(s);
      case 'return': {
        if (!s.arg) return () => RETURN;
        const c = this.expr(s.arg);
        const ev = this.convertTo(c, this.fnRet).ev;
        return (f) => {
          interp.at = range;
          interp.retVal = ev(f);
          return RETURN;
        };
      }
      case 'break':
        return () => BREAK;
      case 'continue':
        return () => CONTINUE;
      case 'switch':
        return this.switchStmt(s);
      case 'case':
      case 'default':
        this.fail(`'${s.kind}' outside a switch`, range);
        break;
      case 'unsupported':
        this.fail(`${s.what} is not supported in host code`, range);
    }
    return () => 0;
  }

  private scoped(s: Stmt): Exec {
    this.scopes.push(new Map());
    const e = this.stmt(s);
    this.scopes.pop();
    return e;
  }

  private loop(s: Extract<Stmt, { kind: 'for' | 'while' | 'do' }>): Exec {
    const interp = this;
    const range = s.range;
    this.scopes.push(new Map());
    const init = s.kind === 'for' && s.init ? this.stmt(s.init) : undefined;
    const test = s.kind === 'for' ? (s.test ? this.truth(this.expr(s.test)) : () => true) : this.truth(this.expr(s.test));
    const update = s.kind === 'for' && s.update ? this.expr(s.update).ev : undefined;
    const body = this.scoped(s.body);
    this.scopes.pop();
    const max = () => interp.checkpoint();
    if (s.kind === 'do') {
      return (f) => {
        do {
          const r = body(f);
          if (r === BREAK) break;
          if (r === RETURN) return r;
          if (++interp.steps > interp.nextCheck) max();
          interp.at = range;
        } while (test(f));
        return 0;
      };
    }
    return (f) => {
      interp.at = range;
      if (init) init(f);
      while (test(f)) {
        const r = body(f);
        if (r === BREAK) break;
        if (r === RETURN) return r;
        if (++interp.steps > interp.nextCheck) max();
        if (update) {
          interp.at = range;
          update(f);
        }
      }
      return 0;
    };
  }

  /**
   * C++11's `for (T x : r)` over an array or a `std::vector` ([stmt.ranged]): `r` is evaluated
   * once, then `T &x` names each element in turn (writes go to the element) and `T x` is a copy of
   * it, converted to `T` (`auto` takes the element's type).
   */
  private rangeFor(s: Extract<Stmt, { kind: 'forRange' }>): Exec {
    const interp = this;
    const range = s.range;
    if (s.over.kind === 'init') this.fail("a range-based 'for' over a braced list is not supported here: put the values in an array first (int xs[] = {…}; for (int x : xs))", s.over.range);
    this.scopes.push(new Map());
    const over = this.expr(s.over);
    let of: HType;
    let extent: (f: Frame) => readonly [number, number];
    if (over.t.k === 'vector') {
      of = over.t.of;
      const h = over.ev;
      extent = (f) => {
        const v = interp.vector(h(f) as number);
        return [v.data, v.size];
      };
    } else if (over.t.k === 'array') {
      of = over.t.of;
      const a = over.ev;
      const n = over.t.n;
      extent = (f) => [a(f) as number, n];
    } else {
      this.fail(`a range-based 'for' over a value of type '${typeName(over.t)}': it takes an array or a std::vector (for a pointer, loop with an index)`, s.over.range);
    }
    const el = sizeOf(of);
    // A hidden slot holds the current element's address.
    const cursor = this.nslots++;
    const element = this.memLvalue(of, (f) => f[cursor] as number, range);
    const declared = s.type.base === 'auto' ? of : this.typeOf(s.type);
    let bind: Exec;
    if (s.type.reference) {
      if (typeName(declared) !== typeName(of)) this.fail(`a reference of type '${typeName(declared)} &' cannot name the elements of type '${typeName(of)}'`, s.nameRange);
      const l = this.declareLocal(s.name, of, s.nameRange);
      l.inMemory = true;
      bind = (f) => ((f[l.slot] = f[cursor]!), 0);
    } else {
      const l = this.declareLocal(s.name, declared, s.nameRange);
      const target: Compiled = l.inMemory ? this.memLvalue(declared, (f) => f[l.slot] as number, s.nameRange) : { t: declared, ev: (f) => f[l.slot]!, slot: l.slot, range: s.nameRange };
      let copy: Exec;
      if (declared.k === 'struct' || declared.k === 'array') {
        if (typeName(declared) !== typeName(of)) this.fail(`cannot initialise '${typeName(declared)}' from the elements of type '${typeName(of)}'`, s.nameRange);
        copy = this.structCopy(target, element);
      } else if (declared.k === 'vector') {
        const set = this.assigner(target);
        const src = element.ev;
        copy = (f) => (set(f, interp.vectorCopy(src(f) as number)), 0);
      } else {
        const set = this.assigner(target);
        const value = this.convertTo(element, declared, s.nameRange).ev;
        copy = (f) => (set(f, value(f)), 0);
      }
      if (l.inMemory) {
        const mem = this.mem;
        const bytes = sizeOf(declared);
        const info = { kind: 'stack' as const, label: s.name, line: s.nameRange.line, ...elementInfo(declared) };
        bind = (f) => {
          const cur = f[l.slot] as number;
          const b = cur ? mem.blockOf(cur) : undefined;
          if (!b || b.freed || b.size !== bytes) f[l.slot] = mem.allocate(bytes, info);
          return copy(f);
        };
      } else bind = copy;
    }
    const body = this.scoped(s.body);
    this.scopes.pop();
    const max = () => interp.checkpoint();
    return (f) => {
      interp.at = range;
      const [base, n] = extent(f);
      for (let i = 0; i < n; i++) {
        f[cursor] = base + i * el;
        interp.at = range;
        bind(f);
        const r = body(f);
        if (r === BREAK) break;
        if (r === RETURN) return r;
        if (++interp.steps > interp.nextCheck) max();
      }
      return 0;
    };
  }

  private switchStmt(s: Extract<Stmt, { kind: 'switch' }>): Exec {
    const test = this.expr(s.test).ev;
    const body = s.body.kind === 'block' ? s.body.body : [s.body];
    this.scopes.push(new Map());
    const labels: { value?: V; index: number }[] = [];
    const parts: Exec[] = [];
    for (const st of body) {
      if (st.kind === 'case') labels.push({ value: this.expr(st.test).ev([]), index: parts.length });
      else if (st.kind === 'default') labels.push({ index: parts.length });
      else parts.push(this.stmt(st));
    }
    this.scopes.pop();
    return (f) => {
      const v = test(f);
       
      let start = labels.find((l) => l.value !== undefined && l.value == v)?.index;
      start ??= labels.find((l) => l.value === undefined)?.index;
      if (start === undefined) return 0;
      for (let i = start; i < parts.length; i++) {
        const r = parts[i]!(f);
        if (r === BREAK) return 0;
        if (r) return r;
      }
      return 0;
    };
  }

  private declStmt(s: Extract<Stmt, { kind: 'decl' }>): Exec {
    const interp = this;
    const parts: Exec[] = [];
    for (const v of s.vars) {
      const initCount = v.init?.kind === 'init' ? v.init.items.length : v.init?.kind === 'str' ? v.init.value.length + 1 : undefined;
      const t = this.declType(v.type, v.dims, v.range, initCount);
      if (s.storage.static) {
        // A static local is a global with a local name.
        const addr = this.mem.allocate(sizeOf(t), { kind: 'global', label: v.name, line: v.range.line, ...elementInfo(t) });
        const l = this.declareLocal(v.name, t, v.range);
        const init = v.init || v.ctorArgs ? this.initializer(t, this.memLvalue(t, () => addr, v.range), v.init, v.ctorArgs, v.range) : undefined;
        let done = false;
        parts.push((f) => {
          f[l.slot] = addr;
          if (!done && init) init(f);
          done = true;
          return 0;
        });
        l.inMemory = true;
        continue;
      }
      const l = this.declareLocal(v.name, t, v.range);
      const range = v.range;
      if (v.type.isConst && t.k === 'arith' && v.init && isConstExpr(v.init)) {
        l.constValue = this.convertTo(this.expr(v.init), t).ev([]);
      }
      if (l.inMemory) {
        const bytes = sizeOf(t);
        const mem = this.mem;
        const info = { kind: 'stack' as const, label: v.name, line: range.line, ...elementInfo(t) };
        const lv = this.memLvalue(t, (f) => f[l.slot] as number, range);
        const init = this.initializer(t, lv, v.init, v.ctorArgs, range);
        parts.push((f) => {
          interp.at = range;
          // One block per declaration and call: a loop body reuses its block.
          const cur = f[l.slot] as number;
          const b = cur ? mem.blockOf(cur) : undefined;
          if (!b || b.freed || b.size !== bytes) f[l.slot] = mem.allocate(bytes, info);
          init(f);
          return 0;
        });
      } else {
        const lv: Compiled = { t, ev: (f) => f[l.slot]!, slot: l.slot, range };
        const init = this.initializer(t, lv, v.init, v.ctorArgs, range);
        parts.push((f) => {
          interp.at = range;
          init(f);
          return 0;
        });
      }
    }
    if (parts.length === 1) return parts[0]!;
    return (f) => {
      for (const p of parts) p(f);
      return 0;
    };
  }

  /** The code that initialises `target` (a fresh variable) from `= init`, `{…}` or `(args)`. */
  private initializer(t: HType, target: Compiled, init: Expr | undefined, ctorArgs: readonly Expr[] | undefined, range: Range): Exec {
    if (t.k === 'struct' && t.name === 'dim3' && (ctorArgs || (init && init.kind !== 'init'))) {
      const args = ctorArgs ? ctorArgs.map((a) => this.expr(a)) : [this.expr(init!)];
      if (args.length === 1 && args[0]!.t.k === 'struct') return this.structCopy(target, args[0]!);
      const xs = [0, 1, 2].map((i) => (args[i] ? this.convertTo(args[i], arith('unsigned int')).ev : () => 1));
      const addr = target.addr!;
      const mem = this.mem;
      return (f) => {
        const a = addr(f) as number;
        for (let i = 0; i < 3; i++) mem.store(a + 4 * i, 'u32', xs[i]!(f));
        return 0;
      };
    }
    if (t.k === 'vector') {
      const args = (ctorArgs ?? (init && init.kind === 'init' ? [] : init ? [init] : [])).map((a) => this.expr(a));
      const items = init && init.kind === 'init' ? init.items.map((a) => this.convertTo(this.expr(a), t.of).ev) : undefined;
      const set = this.assigner(target);
      const interp = this;
      if (args.length === 1 && args[0]!.t.k === 'vector') {
        const src = args[0]!.ev;
        return (f) => (set(f, interp.vectorCopy(src(f) as number)), 0);
      }
      const count = args[0] ? this.convertTo(args[0], ULONG).ev : undefined;
      const fill = args[1] ? this.convertTo(args[1], t.of).ev : undefined;
      return (f) => {
        const h = interp.vectorNew(t.of, 0);
        if (items) for (const it of items) interp.vectorPush(h, it(f));
        else if (count) {
          const n = Number(count(f));
          const v = fill ? fill(f) : 0;
          for (let i = 0; i < n; i++) interp.vectorPush(h, t.of.k === 'vector' ? interp.vectorCopy(v as number) : v);
        }
        set(f, h);
        return 0;
      };
    }
    if (!init && !ctorArgs) {
      if (t.k === 'array' || t.k === 'struct') return () => 0; // uninitialised, as C leaves it (zeroed here)
      const set = this.assigner(target);
      return (f) => (set(f, 0), 0);
    }
    if (init && init.kind === 'init') return this.aggregateInit(t, target, init.items, range);
    if (t.k === 'array' && init && init.kind === 'str') {
      const bytes = encodeBytes(init.value);
      const addr = target.addr!;
      const mem = this.mem;
      return (f) => {
        const a = addr(f) as number;
        bytes.forEach((b, i) => mem.store(a + i, 'u8', b));
        mem.store(a + bytes.length, 'u8', 0);
        return 0;
      };
    }
    const src = init ? this.expr(init) : this.expr(ctorArgs![0]!);
    if (t.k === 'struct') return this.structCopy(target, src);
    const ev = this.convertTo(src, t, range).ev;
    const set = this.assigner(target);
    return (f) => (set(f, ev(f)), 0);
  }

  private aggregateInit(t: HType, target: Compiled, items: readonly Expr[], range: Range): Exec {
    const mem = this.mem;
    const addr = target.addr;
    if (!addr) this.fail(`a brace initializer for '${typeName(t)}' is not supported here`, range);
    const parts: ((f: Frame, base: number) => void)[] = [];
    const bytes = sizeOf(t);
    const place = (ty: HType, e: Expr, offset: number): void => {
      if (e.kind === 'init') {
        const sub = ty.k === 'array' ? ty.of : undefined;
        if (ty.k === 'array' && sub) e.items.forEach((x, i) => place(sub, x, offset + i * sizeOf(sub)));
        else if (ty.k === 'struct') [...ty.fields.values()].forEach((fd, i) => e.items[i] && place(fd.type, e.items[i], offset + fd.offset));
        return;
      }
      if (ty.k === 'array') {
        place(ty.of, e, offset);
        return;
      }
      const kind = scalarKind(ty);
      if (!kind) this.fail(`cannot initialise a '${typeName(ty)}' element this way`, e.range);
      const ev = this.convertTo(this.expr(e), ty, e.range).ev;
      parts.push((f, base) => mem.store(base + offset, kind, ev(f)));
    };
    place(t, { kind: 'init', items: [...items], range }, 0);
    return (f) => {
      const base = addr(f) as number;
      mem.bytes(base, bytes, true).fill(0);
      for (const p of parts) p(f, base);
      return 0;
    };
  }

  private structCopy(target: Compiled, src: Compiled): Exec {
    const mem = this.mem;
    const bytes = sizeOf(target.t);
    const to = target.addr!;
    const from = src.addr ?? src.ev;
    return (f) => {
      mem.bytes(to(f) as number, bytes, true).set(mem.bytes(from(f) as number, bytes, false));
      return 0;
    };
  }

  // ---- vectors ----
  vectorNew(of: HType, n: number): number {
    const el = sizeOf(of);
    const cap = Math.max(n, 4);
    const data = this.mem.allocate(cap * el, { kind: 'heap', label: 'std::vector', line: this.at?.line ?? 0, elementType: typeName(of), elementBytes: el });
    this.vectors.push({ of, data, size: n, cap });
    return this.vectors.length - 1;
  }
  vector(h: number): VectorObj {
    const v = this.vectors[h];
    if (!v) this.fail('use of a std::vector that was never constructed');
    return v;
  }
  vectorPush(h: number, value: V): void {
    const v = this.vector(h);
    const el = sizeOf(v.of);
    if (v.size === v.cap) {
      const cap = v.cap * 2;
      const data = this.mem.allocate(cap * el, { kind: 'heap', label: 'std::vector', line: this.at?.line ?? 0, elementType: typeName(v.of), elementBytes: el });
      if (v.size) this.mem.bytes(data, v.size * el, true).set(this.mem.bytes(v.data, v.size * el, false));
      this.mem.free(v.data, 'free');
      v.data = data;
      v.cap = cap;
    }
    storeTo(this.mem, v.of, v.data + v.size * el, value);
    v.size++;
  }
  vectorCopy(h: number): number {
    const v = this.vector(h);
    const n = this.vectorNew(v.of, 0);
    const el = sizeOf(v.of);
    for (let i = 0; i < v.size; i++) {
      const x = loadFrom(this.mem, v.of, v.data + i * el);
      this.vectorPush(n, v.of.k === 'vector' ? this.vectorCopy(x as number) : x);
    }
    return n;
  }

  // ---- expressions ----
  /** A string literal's address (one block per distinct text). */
  stringLiteral(text: string, range: Range): number {
    let a = this.strings.get(text);
    if (a === undefined) {
      a = this.mem.allocString(text, { kind: 'string', label: 'a string literal', line: range.line });
      this.strings.set(text, a);
    }
    return a;
  }

  memLvalue(t: HType, addr: Ev, range: Range): Compiled {
    const mem = this.mem;
    if (t.k === 'array' || t.k === 'struct') return { t, ev: addr, addr, range };
    const kind = scalarKind(t);
    if (!kind) this.fail(`cannot use a value of type '${typeName(t)}' here`, range);
    return { t, ev: loader(mem, kind, addr), addr, range };
  }

  /** `(f, v) => store v into the lvalue`. */
  assigner(lv: Compiled): (f: Frame, v: V) => void {
    if (lv.slot !== undefined) {
      const s = lv.slot;
      return (f, v) => {
        f[s] = v;
      };
    }
    if (lv.store) return lv.store;
    if (!lv.addr) this.fail('expression is not assignable', lv.range);
    const kind = scalarKind(lv.t);
    if (!kind) this.fail(`cannot assign to a '${typeName(lv.t)}' this way`, lv.range);
    const addr = lv.addr;
    const mem = this.mem;
    return storer(mem, kind, addr);
  }

  /** Array and function designators decay; everything else is itself. */
  rvalue(c: Compiled): Compiled {
    if (c.t.k === 'array') return { t: ptr(c.t.of), ev: c.ev, range: c.range };
    return c;
  }

  truth(c: Compiled): (f: Frame) => boolean {
    const r = this.rvalue(c);
    if (r.test) return r.test;
    const ev = r.ev;
    // C: a scalar is true when it compares unequal to 0 (so NaN is true). Evaluated once.
    if (r.t.k === 'ptr' || (r.t.k === 'arith' && (ARITH[r.t.t].bytes <= 4 || ARITH[r.t.t].float))) return (f) => ev(f) !== 0;
    return (f) => {
      const v = ev(f);
      return v !== 0 && v !== 0n;
    };
  }

  convertTo(c0: Compiled, t: HType, range: Range = c0.range): Compiled {
    const c = this.rvalue(c0);
    const ev = c.ev;
    if (t.k === 'void') return { t, ev, range };
    if (t.k === 'arith' && c.t.k === 'arith') {
      const from = c.t.t;
      const to = t.t;
      if (from === to) return { t, ev, range };
      if (to === 'double' && (from === 'float' || from === 'int' || from === 'unsigned int' || ARITH[from].bytes < 4)) return { t, ev, range };
      if (to === 'int' && ARITH[from].bytes < 4) return { t, ev, range };
      if (to === 'float' && (from === 'double' || (ARITH[from].bytes <= 4 && !ARITH[from].float))) return { t, ev: (f) => Math.fround(ev(f) as number), range };
      if ((to === 'long' || to === 'long long') && ARITH[from].bytes <= 4 && !ARITH[from].float) return { t, ev, range };
      if (to === 'unsigned int' && (from === 'int' || from === 'char' || from === 'signed char' || from === 'short')) return { t, ev: (f) => (ev(f) as number) >>> 0, range };
      if (to === 'unsigned int' && ARITH[from].bytes < 4) return { t, ev, range };
      if (to === 'int' && (from === 'float' || from === 'double')) {
        return { t, ev: (f) => { const x = ev(f) as number; return x > -2147483649 && x < 2147483648 ? x | 0 : -2147483648; }, range };
      }
      return { t, ev: (f) => convert(ev(f), from, to), range };
    }
    if (t.k === 'ptr' || (t.k === 'arith' && c.t.k === 'ptr')) {
      if (t.k === 'arith' && c.t.k === 'ptr') return { t, ev: t.t === 'bool' ? (f) => (ev(f) !== 0 ? 1 : 0) : ev, range };
      return { t, ev, range };
    }
    if (t.k === 'vector' && c.t.k === 'vector') return { t, ev, range };
    if (t.k === 'struct' && c.t.k === 'struct') return { ...c, t };
    if (t.k === 'arith' && c.t.k === 'vector') this.fail(`cannot convert 'std::vector' to '${t.t}'`, range);
    if (t.k === 'struct' && t.name === 'dim3' && c.t.k === 'arith') {
      // `dim3 g = n;` and launch configurations given as integers.
      const x = this.convertTo(c, arith('unsigned int')).ev;
      const mem = this.mem;
      const interp = this;
      return {
        t,
        ev: (f) => {
          const a = mem.allocate(12, { kind: 'stack', label: 'dim3', line: interp.at?.line ?? 0 });
          mem.store(a, 'u32', x(f));
          mem.store(a + 4, 'u32', 1);
          mem.store(a + 8, 'u32', 1);
          return a;
        },
        range,
      };
    }
    return { t, ev, range };
  }

  expr(e: Expr): Compiled {
    const interp = this;
    const range = e.range;
    switch (e.kind) {
      case 'num': {
        if (e.isFloat) {
          const v = e.floatSuffix ? Math.fround(e.value) : e.value;
          return { t: e.floatSuffix ? arith('float') : DOUBLE, ev: () => v, range };
        }
        const t = literalType(e.value, e.unsigned, e.long, /^0[xXbB0-7]/.test(e.text));
        const v = ARITH[t].bytes === 8 && !Number.isSafeInteger(e.value) ? BigInt(e.text.replace(/[uUlL]+$/, '')) : e.value;
        return { t: arith(t), ev: () => v, range };
      }
      case 'char':
        return { t: CHAR, ev: () => (e.value << 24) >> 24, range };
      case 'bool':
        return { t: BOOL, ev: () => (e.value ? 1 : 0), range };
      case 'str': {
        const a = this.stringLiteral(e.value, range);
        return { t: { k: 'array', of: CHAR, n: encodeBytes(e.value).length + 1 }, ev: () => a, range, literal: e.value };
      }
      case 'ident':
        return this.ident(e.name, range);
      case 'unary':
        return this.unaryExpr(e);
      case 'binary':
        return this.binaryExpr(e.op, this.expr(e.left), this.expr(e.right), range);
      case 'assign':
        return this.assign(e);
      case 'cond': {
        const test = this.truth(this.expr(e.test));
        const a = this.rvalue(this.expr(e.then));
        const b = this.rvalue(this.expr(e.else));
        const t = a.t.k === 'arith' && b.t.k === 'arith' ? arith(commonArith(a.t.t, b.t.t)) : a.t;
        const x = this.convertTo(a, t).ev;
        const y = this.convertTo(b, t).ev;
        return { t, ev: (f) => (test(f) ? x(f) : y(f)), range };
      }
      case 'comma': {
        const a = this.expr(e.left).ev;
        const b = this.expr(e.right);
        return { t: b.t, ev: (f) => (a(f), b.ev(f)), range };
      }
      case 'index':
        return this.index(e);
      case 'member':
        return this.member(e);
      case 'cast': {
        const t = this.typeOf(e.type);
        const c = this.expr(e.arg);
        if (t.k === 'arith' && c.t.k === 'arith') {
          const from = c.t.t;
          const to = t.t;
          const ev = c.ev;
          return { t, ev: from === to ? ev : (f) => convert(ev(f), from, to), range };
        }
        return this.convertTo(c, t, range);
      }
      case 'sizeof': {
        const n = e.type ? sizeOf(this.typeOf(e.type)) : sizeOf(this.expr(e.arg!).t);
        return { t: ULONG, ev: () => n, range };
      }
      case 'call':
        return this.call(e);
      case 'new':
        return this.newExpr(e);
      case 'delete': {
        const p = this.rvalue(this.expr(e.arg)).ev;
        const mem = this.mem;
        return { t: VOID, ev: (f) => (mem.free(p(f) as number, 'delete'), 0), range };
      }
      case 'launch': {
        const b = this.builtins['<<<>>>'];
        if (!b) this.fail('kernel launches are not available in this run', range);
        return b({ interp, range }, [], e);
      }
      case 'init':
        this.fail('a brace list is only allowed in a declaration here', range);
    }
  }

  private ident(name: string, range: Range): Compiled {
    const l = this.lookup(name);
    if (l && l.constValue !== undefined) {
      const cv = l.constValue;
      return { t: l.t, ev: () => cv, range };
    }
    if (name === '__LINE__') return { t: INT, ev: () => range.line, range };
    if (name === '__FILE__') return this.expr({ kind: 'str', value: range.file, range });
    if (l) {
      if (l.inMemory) return this.memLvalue(l.t, (f) => f[l.slot] as number, range);
      return { t: l.t, ev: (f) => f[l.slot]!, slot: l.slot, range };
    }
    const g = this.globals.get(name);
    if (g) {
      const a = g.addr;
      return this.memLvalue(g.t, () => a, range);
    }
    const b = this.builtins[name];
    if (b) return b({ interp: this, range }, [], { kind: 'call', callee: { kind: 'ident', name, range }, args: [], range });
    this.fail(`use of undeclared identifier '${name}'`, range);
  }

  private unaryExpr(e: Extract<Expr, { kind: 'unary' }>): Compiled {
    const range = e.range;
    switch (e.op) {
      case '&': {
        const c = this.expr(e.arg);
        if (!c.addr) this.fail('cannot take the address of this expression', range);
        const t = c.t.k === 'array' ? ptr(c.t) : ptr(c.t);
        return { t, ev: c.addr, range };
      }
      case '*': {
        const c = this.rvalue(this.expr(e.arg));
        if (c.t.k !== 'ptr') this.fail(`indirection requires a pointer operand ('${typeName(c.t)}' invalid)`, range);
        return this.memLvalue(c.t.to, c.ev, range);
      }
      case '++':
      case '--': {
        const c = this.expr(e.arg);
        const set = this.assigner(c);
        const one: Compiled = { t: INT, ev: () => 1, range };
        const next = this.binaryExpr(e.op === '++' ? '+' : '-', c, one, range);
        const nv = this.convertTo(next, c.t).ev;
        const get = c.ev;
        if (c.slot !== undefined && c.t.k === 'arith' && c.t.t === 'int') {
          const s = c.slot;
          const d = e.op === '++' ? 1 : -1;
          if (e.postfix) return { t: c.t, ev: (f) => { const old = f[s] as number; f[s] = (old + d) | 0; return old; }, range };
          return { t: c.t, ev: (f) => (f[s] = ((f[s] as number) + d) | 0), range };
        }
        if (c.slot === undefined && c.addr && scalarKind(c.t)) {
          // `a[i]++`, `*p++ = …`'s `p`: the lvalue is evaluated once.
          const { cur, enter, store } = this.once(c);
          const step = this.convertTo(this.binaryExpr(e.op === '++' ? '+' : '-', cur, one, range), c.t).ev;
          const load = cur.ev;
          if (e.postfix) return { t: c.t, ev: (f) => { enter(f); const old = load(f); store(f, step(f)); return old; }, range };
          return { t: c.t, ev: (f) => { enter(f); const v = step(f); store(f, v); return v; }, range };
        }
        if (e.postfix) return { t: c.t, ev: (f) => { const old = get(f); set(f, nv(f)); return old; }, range };
        return { t: c.t, ev: (f) => { const v = nv(f); set(f, v); return v; }, range };
      }
      default: {
        const c = this.rvalue(this.expr(e.arg));
        if (e.op === '!') {
          const t = this.truth(c);
          return { t: INT, ev: (f) => (t(f) ? 0 : 1), range };
        }
        if (c.t.k !== 'arith') this.fail(`invalid argument type '${typeName(c.t)}' to unary expression`, range);
        const from = c.t.t;
        const ev = c.ev;
        const rt = unary(e.op, from, 0).type;
        if (e.op === '-' && (rt === 'double' || rt === 'float')) return { t: arith(rt), ev: (f) => -(ev(f) as number), range };
        if (e.op === '-' && rt === 'int') return { t: INT, ev: (f) => -(ev(f) as number) | 0, range };
        return { t: arith(rt), ev: (f) => unary(e.op as UnaryOp, from, ev(f)).value, range };
      }
    }
  }

  binaryExpr(op: string, l0: Compiled, r0: Compiled, range: Range): Compiled {
    const l = this.rvalue(l0);
    const r = this.rvalue(r0);
    if (op === '&&' || op === '||') {
      const a = this.truth(l);
      const b = this.truth(r);
      return { t: INT, ev: op === '&&' ? (f) => (a(f) && b(f) ? 1 : 0) : (f) => (a(f) || b(f) ? 1 : 0), range };
    }
    if (op === '<<' && l.t.k === 'ostream') return this.streamOut(l, r0, range);
    // pointer arithmetic
    if (l.t.k === 'ptr' || r.t.k === 'ptr') return this.pointerOp(op, l, r, range);
    if (l.t.k !== 'arith' || r.t.k !== 'arith') this.fail(`invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`, range);
    const ta = l.t.t;
    const tb = r.t.t;
    const a = l.ev;
    const b = r.ev;
    const bop = op as BinaryOp;
    const rt = binary(bop, ta, 1, tb, 1).type;
    const common = commonArith(ta, tb);
    // Fast paths for the common cases; everything else goes through ctypes.binary.
    const small = (t: CArith) => ARITH[t].bytes <= 4 && !ARITH[t].float;
    if (small(ta) && small(tb) && common === 'int' && ta !== 'unsigned int' && tb !== 'unsigned int') {
      switch (op) {
        case '+': return { t: INT, ev: (f) => ((a(f) as number) + (b(f) as number)) | 0, range };
        case '-': return { t: INT, ev: (f) => ((a(f) as number) - (b(f) as number)) | 0, range };
        case '*': return { t: INT, ev: (f) => Math.imul(a(f) as number, b(f) as number), range };
        case '<': case '>': case '<=': case '>=': case '==': case '!=':
          return comparison(op, a, b, range);
        case '&': return { t: INT, ev: (f) => (a(f) as number) & (b(f) as number), range };
        case '|': return { t: INT, ev: (f) => (a(f) as number) | (b(f) as number), range };
        case '^': return { t: INT, ev: (f) => (a(f) as number) ^ (b(f) as number), range };
        case '/':
        case '%':
          return this.division(op, INT, a, b, range);
        default:
          break;
      }
    }
    if (small(ta) && small(tb) && common === 'unsigned int') {
      const x = this.convertTo(l, UINT).ev;
      const y = this.convertTo(r, UINT).ev;
      switch (op) {
        case '+': return { t: UINT, ev: (f) => ((x(f) as number) + (y(f) as number)) >>> 0, range };
        case '-': return { t: UINT, ev: (f) => ((x(f) as number) - (y(f) as number)) >>> 0, range };
        case '*': return { t: UINT, ev: (f) => Math.imul(x(f) as number, y(f) as number) >>> 0, range };
        case '&': return { t: UINT, ev: (f) => ((x(f) as number) & (y(f) as number)) >>> 0, range };
        case '|': return { t: UINT, ev: (f) => ((x(f) as number) | (y(f) as number)) >>> 0, range };
        case '^': return { t: UINT, ev: (f) => ((x(f) as number) ^ (y(f) as number)) >>> 0, range };
        case '<': case '>': case '<=': case '>=': case '==': case '!=':
          return comparison(op, x, y, range);
        case '/':
        case '%':
          return this.division(op, UINT, x, y, range);
        default:
          break;
      }
    }
    if ((op === '<<' || op === '>>') && small(ta) && small(tb)) {
      // The count is masked to 5 bits, as x86's shifts (and JavaScript's) do.
      if (rt === 'int') return { t: INT, ev: op === '<<' ? (f) => (a(f) as number) << (b(f) as number) : (f) => (a(f) as number) >> (b(f) as number), range };
      if (rt === 'unsigned int') return { t: UINT, ev: op === '<<' ? (f) => ((a(f) as number) << (b(f) as number)) >>> 0 : (f) => (a(f) as number) >>> (b(f) as number), range };
    }
    if ((common === 'double' || common === 'float') && op !== '%') {
      const x = this.convertTo(l, arith(common)).ev;
      const y = this.convertTo(r, arith(common)).ev;
      const fr = common === 'float' ? Math.fround : (v: number) => v;
      switch (op) {
        case '+': return { t: arith(common), ev: (f) => fr((x(f) as number) + (y(f) as number)), range };
        case '-': return { t: arith(common), ev: (f) => fr((x(f) as number) - (y(f) as number)), range };
        case '*': return { t: arith(common), ev: (f) => fr((x(f) as number) * (y(f) as number)), range };
        case '/': return { t: arith(common), ev: (f) => fr((x(f) as number) / (y(f) as number)), range };
        case '<': case '>': case '<=': case '>=': case '==': case '!=':
          return comparison(op, x, y, range);
        default:
          break;
      }
    }
    const interp = this;
    if ((rt === 'long' || rt === 'long long') && (op === '+' || op === '-' || op === '*')) {
      // Safe integers stay numbers; anything larger goes through BigInt (ctypes.binary).
      const slow = (x: V, y: V): V => binary(bop, ta, x, tb, y).value;
      const x = this.convertTo(l, arith(rt)).ev;
      const y = this.convertTo(r, arith(rt)).ev;
      const fast =
        op === '+'
          ? (f: Frame) => { const p = x(f); const q = y(f); if (typeof p === 'number' && typeof q === 'number') { const s = p + q; if (Number.isSafeInteger(s)) return s; } return slow(p, q); }
          : op === '-'
            ? (f: Frame) => { const p = x(f); const q = y(f); if (typeof p === 'number' && typeof q === 'number') { const s = p - q; if (Number.isSafeInteger(s)) return s; } return slow(p, q); }
            : (f: Frame) => { const p = x(f); const q = y(f); if (typeof p === 'number' && typeof q === 'number') { const s = p * q; if (Number.isSafeInteger(s)) return s; } return slow(p, q); };
      return { t: arith(rt), ev: fast, range };
    }
    return {
      t: arith(rt),
      ev: (f) => {
        try {
          return binary(bop, ta, a(f), tb, b(f)).value;
        } catch (err) {
          return interp.fail(`${(err as Error).message} (the program would stop with SIGFPE)`, interp.at, 136);
        }
      },
      range,
    };
  }

  /** `/` or `%` of two `int`s or two `unsigned int`s: truncating, and SIGFPE where x86 traps. */
  private division(op: '/' | '%', t: HType, a: Ev, b: Ev, range: Range): Compiled {
    const interp = this;
    const signed = t === INT;
    const div = op === '/';
    return {
      t,
      ev: (f) => {
        const x = a(f) as number;
        const y = b(f) as number;
        if (y === 0) interp.fail('integer division by zero (the program would stop with SIGFPE)', interp.at, 136);
        if (signed && x === -2147483648 && y === -1) interp.fail('INT_MIN / -1 overflows (the program would stop with SIGFPE)', interp.at, 136);
        return div ? (signed ? (x / y) | 0 : Math.floor(x / y)) : signed ? x % y | 0 : x % y;
      },
      range,
    };
  }

  private pointerOp(op: string, l: Compiled, r: Compiled, range: Range): Compiled {
    const a = l.ev;
    const b = r.ev;
    if (l.t.k === 'ptr' && r.t.k === 'ptr') {
      if (op === '-') {
        const el = Math.max(1, sizeOf(l.t.to));
        return { t: LONG, ev: (f) => Math.trunc(((a(f) as number) - (b(f) as number)) / el), range };
      }
      const cmp = this.binaryExpr(op, { t: ULONG, ev: a, range }, { t: ULONG, ev: b, range }, range);
      return cmp;
    }
    if ((op === '==' || op === '!=') && (l.t.k === 'ptr' || r.t.k === 'ptr')) {
      return this.binaryExpr(op, { t: ULONG, ev: a, range }, { t: ULONG, ev: b, range }, range);
    }
    if (l.t.k === 'ptr' && (op === '+' || op === '-')) {
      const el = Math.max(1, sizeOf(l.t.to));
      const n = this.convertTo(r, LONG).ev;
      const s = op === '+' ? el : -el;
      return { t: l.t, ev: (f) => (a(f) as number) + Number(n(f)) * s, range };
    }
    if (r.t.k === 'ptr' && op === '+') return this.pointerOp('+', r, l, range);
    if (op === '&&' || op === '||') return this.binaryExpr(op, l, r, range);
    this.fail(`invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`, range);
  }

  private assign(e: Extract<Expr, { kind: 'assign' }>): Compiled {
    const range = e.range;
    const target = this.expr(e.left);
    if (target.t.k === 'struct') {
      const copy = this.structCopy(target, this.expr(e.right));
      return { t: target.t, ev: (f) => (copy(f), 0), range };
    }
    if (target.t.k === 'vector' && e.op === '=') {
      const src = this.expr(e.right).ev;
      const set = this.assigner(target);
      const interp = this;
      return { t: target.t, ev: (f) => { const h = interp.vectorCopy(src(f) as number); set(f, h); return h; }, range };
    }
    if (e.op !== '=' && target.slot === undefined && target.addr && scalarKind(target.t)) {
      // `a[i++] += x`: the lvalue is evaluated once (its address kept in a frame slot).
      const { cur, enter, store } = this.once(target);
      const ev = this.convertTo(this.binaryExpr(e.op.slice(0, -1), cur, this.expr(e.right), range), target.t, range).ev;
      return { t: target.t, ev: (f) => { enter(f); const v = ev(f); store(f, v); return v; }, range };
    }
    const value = e.op === '=' ? this.expr(e.right) : this.binaryExpr(e.op.slice(0, -1), target, this.expr(e.right), range);
    const ev = this.convertTo(value, target.t, range).ev;
    if (target.slot !== undefined) {
      const s = target.slot;
      return { t: target.t, ev: (f) => (f[s] = ev(f)), range };
    }
    const set = this.assigner(target);
    return { t: target.t, ev: (f) => { const v = ev(f); set(f, v); return v; }, range };
  }

  /**
   * A memory lvalue evaluated once for a read-modify-write: `enter` computes its address into a
   * frame slot, `cur` reads and `store` writes the value there.
   */
  private once(target: Compiled): { cur: Compiled; enter: (f: Frame) => void; store: (f: Frame, v: V) => void } {
    const slot = this.nslots++;
    const addr = target.addr!;
    const at: Ev = (f) => f[slot]!;
    const cur = this.memLvalue(target.t, at, target.range);
    return { cur, enter: (f) => void (f[slot] = addr(f)), store: this.assigner(cur) };
  }

  private index(e: Extract<Expr, { kind: 'index' }>): Compiled {
    const range = e.range;
    const obj = this.expr(e.object);
    if (obj.t.k === 'vector') {
      const of = obj.t.of;
      const h = obj.ev;
      const i = this.convertTo(this.expr(e.index), LONG).ev;
      const el = sizeOf(of);
      const interp = this;
      return this.memLvalue(of, (f) => {
        const v = interp.vector(h(f) as number);
        const k = Number(i(f));
        if (k < 0 || k >= v.size) interp.fail(`std::vector index ${k} is out of range (size ${v.size})`, range, 139);
        return v.data + k * el;
      }, range);
    }
    const p = this.rvalue(obj);
    const idx = this.rvalue(this.expr(e.index));
    if (p.t.k !== 'ptr') {
      if (idx.t.k === 'ptr') return this.memLvalue(idx.t.to, this.pointerOp('+', idx, p, range).ev, range);
      this.fail(`subscripted value is not an array or pointer ('${typeName(p.t)}')`, range);
    }
    const of = p.t.to;
    const el = sizeOf(of);
    const a = p.ev;
    const i = idx.ev;
    let k: Ev = i;
    if (!(idx.t.k === 'arith' && ARITH[idx.t.t].bytes <= 4)) {
      const n = this.convertTo(idx, LONG).ev;
      k = (f) => Number(n(f));
    }
    const kind = scalarKind(of);
    if (kind && of.k !== 'vector') return indexed(this.mem, of, kind, a, k, el, range);
    return this.memLvalue(of, (f) => (a(f) as number) + (k(f) as number) * el, range);
  }

  private member(e: Extract<Expr, { kind: 'member' }>): Compiled {
    const range = e.range;
    let obj = this.expr(e.object);
    if (obj.t.k === 'vector' && !e.arrow) {
      return { t: { k: 'manip', name: `vector.${e.name}` }, ev: obj.ev, range };
    }
    if (e.arrow) {
      const p = this.rvalue(obj);
      if (p.t.k !== 'ptr') this.fail(`member reference type '${typeName(p.t)}' is not a pointer`, range);
      obj = this.memLvalue(p.t.to, p.ev, range);
    }
    if (obj.t.k !== 'struct') this.fail(`member reference base type '${typeName(obj.t)}' is not a structure`, range);
    const fd = obj.t.fields.get(e.name);
    if (!fd) this.fail(`no member named '${e.name}' in '${obj.t.name}'`, range);
    const base = obj.addr ?? obj.ev;
    const off = fd.offset;
    return this.memLvalue(fd.type, (f) => (base(f) as number) + off, range);
  }

  private call(e: Extract<Expr, { kind: 'call' }>): Compiled {
    const range = e.range;
    // Methods of std::vector: v.push_back(x), v.size(), v.data(), ...
    if (e.callee.kind === 'member') {
      const obj = this.expr(e.callee.object);
      if (obj.t.k === 'vector') return this.vectorMethod(obj, e.callee.name, e.args.map((a) => this.expr(a)), range);
    }
    const name = e.callee.kind === 'ident' ? e.callee.name.replace(/^std::/, '') : undefined;
    if (name === undefined) this.fail('calls through function pointers are not supported', range);
    if (name === 'vector' && e.templateArgs) {
      // A temporary `std::vector<T>(n, value)`.
      const arg = e.templateArgs[0];
      const t: HType = { k: 'vector', of: arg && arg.kind === 'type' ? this.typeOf(arg) : INT };
      const slot = this.nslots++;
      const init = this.initializer(t, { t, ev: (f) => f[slot]!, slot, range }, undefined, e.args, range);
      return { t, ev: (f) => (init(f), f[slot]!), range };
    }
    if (name === 'dim3' && !this.lookup(name)) {
      // A temporary `dim3(x, y, z)` (a launch configuration): a stack block, unset members 1.
      const xs = [0, 1, 2].map((i) => (e.args[i] ? this.convertTo(this.expr(e.args[i]), arith('unsigned int')).ev : () => 1));
      const mem = this.mem;
      const interp = this;
      return {
        t: DIM3,
        ev: (f) => {
          const a = mem.allocate(12, { kind: 'stack', label: 'dim3', line: interp.at?.line ?? 0 });
          for (let i = 0; i < 3; i++) mem.store(a + 4 * i, 'u32', xs[i]!(f));
          return a;
        },
        range,
      };
    }
    if (this.functions.has(name) && !this.lookup(name)) {
      const fn = this.functions.get(name)!;
      const args = e.args.map((a, i) => this.convertTo(this.expr(a), fn.params[i] ?? INT).ev);
      if (args.length !== fn.params.length) this.fail(`'${name}' takes ${fn.params.length} argument${fn.params.length === 1 ? '' : 's'}, not ${args.length}`, range);
      const target = this.callable(name, range);
      const interp = this;
      const n = args.length;
      return {
        t: fn.ret,
        ev: (f) => {
          const vs = new Array<V>(n);
          for (let i = 0; i < n; i++) vs[i] = args[i]!(f);
          const saved = interp.at;
          const r = target(vs);
          interp.at = saved;
          return r;
        },
        range,
      };
    }
    const b = this.builtins[name];
    if (!b) {
      const kernel = this.unit.items.find((i) => i.kind === 'function' && i.name === name);
      if (kernel && kernel.kind === 'function' && kernel.global) this.fail(`'${name}' is a __global__ kernel: launch it with ${name}<<<grid, block>>>(...)`, range);
      if (kernel && kernel.kind === 'function' && kernel.device) this.fail(`'${name}' is a __device__ function: host code cannot call it (mark it __host__ __device__)`, range);
      this.fail(`use of undeclared function '${name}'`, range);
    }
    return b({ interp: this, range }, e.args.map((a) => this.expr(a)), e);
  }

  private vectorMethod(obj: Compiled, name: string, args: Compiled[], range: Range): Compiled {
    if (obj.t.k !== 'vector') this.fail('not a vector', range);
    const of = obj.t.of;
    const h = obj.ev;
    const interp = this;
    const el = sizeOf(of);
    switch (name) {
      case 'size':
        return { t: ULONG, ev: (f) => interp.vector(h(f) as number).size, range };
      case 'empty':
        return { t: BOOL, ev: (f) => (interp.vector(h(f) as number).size === 0 ? 1 : 0), range };
      case 'data':
        return { t: ptr(of), ev: (f) => interp.vector(h(f) as number).data, range };
      case 'push_back':
      case 'emplace_back': {
        const v = this.convertTo(args[0]!, of).ev;
        return { t: VOID, ev: (f) => (interp.vectorPush(h(f) as number, of.k === 'vector' ? interp.vectorCopy(v(f) as number) : v(f)), 0), range };
      }
      case 'pop_back':
        return { t: VOID, ev: (f) => { const v = interp.vector(h(f) as number); if (v.size === 0) interp.fail('pop_back() on an empty std::vector', range); v.size--; return 0; }, range };
      case 'clear':
        return { t: VOID, ev: (f) => ((interp.vector(h(f) as number).size = 0), 0), range };
      case 'resize': {
        const n = this.convertTo(args[0]!, ULONG).ev;
        const fill = args[1] ? this.convertTo(args[1], of).ev : () => 0;
        return {
          t: VOID,
          ev: (f) => {
            const hv = h(f) as number;
            const v = interp.vector(hv);
            const want = Number(n(f));
            if (want < v.size) v.size = want;
            const x = fill(f);
            while (v.size < want) interp.vectorPush(hv, x);
            return 0;
          },
          range,
        };
      }
      case 'at':
      case 'front':
      case 'back': {
        const i = args[0] ? this.convertTo(args[0], LONG).ev : () => 0;
        return this.memLvalue(of, (f) => {
          const v = interp.vector(h(f) as number);
          const k = name === 'back' ? v.size - 1 : Number(i(f));
          if (k < 0 || k >= v.size) interp.fail(`std::vector::${name}: index ${k} is out of range (size ${v.size}); the program would terminate with std::out_of_range`, range, 134);
          return v.data + k * el;
        }, range);
      }
      default:
        this.fail(`std::vector::${name} is not supported`, range);
    }
  }

  private newExpr(e: Extract<Expr, { kind: 'new' }>): Compiled {
    const t = this.typeOf(e.type);
    const el = sizeOf(t);
    const count = e.count ? this.convertTo(this.expr(e.count), ULONG).ev : undefined;
    const init = e.args?.[0] ? this.convertTo(this.expr(e.args[0]), t).ev : undefined;
    const mem = this.mem;
    const interp = this;
    const kind = scalarKind(t);
    return {
      t: ptr(t),
      ev: (f) => {
        const n = count ? Number(count(f)) : 1;
        if (n * el > 2 ** 31) interp.fail(`new ${typeName(t)}[${n}] asks for ${n * el} bytes, more than this interpreter gives a program (2 GiB): std::bad_alloc`, interp.at, 134);
        const a = mem.allocate(n * el, { kind: 'new', label: `new ${typeName(t)}[${n}]`, line: interp.at?.line ?? 0, elementType: typeName(t), elementBytes: el });
        if (init && kind) mem.store(a, kind, init(f));
        return a;
      },
      range: e.range,
    };
  }

  // ---- std::cout ----
  private streamOut(l: Compiled, r0: Compiled, range: Range): Compiled {
    const sink = this.builtins['<<'];
    if (!sink) this.fail('std::cout is not available', range);
    return sink({ interp: this, range }, [l, r0], { kind: 'call', callee: { kind: 'ident', name: '<<', range }, args: [], range });
  }
}

// ---- helpers ----

/** A comparison of two numbers of one type: its 1/0 value and, for tests, its truth. */
function comparison(op: string, a: Ev, b: Ev, range: Range): Compiled {
  let test: (f: Frame) => boolean;
  switch (op) {
    case '<': test = (f) => a(f) < b(f); break;
    case '>': test = (f) => a(f) > b(f); break;
    case '<=': test = (f) => a(f) <= b(f); break;
    case '>=': test = (f) => a(f) >= b(f); break;
    case '==': test = (f) => a(f) === b(f); break;
    default: test = (f) => a(f) !== b(f);
  }
  return { t: INT, ev: (f) => (test(f) ? 1 : 0), test, range };
}

function elementInfo(t: HType): { elementType?: string; elementBytes?: number } {
  let e = t;
  while (e.k === 'array') e = e.of;
  return { elementType: typeName(e), elementBytes: sizeOf(e) };
}

function commonArith(a: CArith, b: CArith): CArith {
  return binary('+', a, 0, b, 0).type;
}

/** The type of an integer literal (C11 6.4.4.1 on LP64). */
function literalType(v: number, unsigned: boolean, longs: number, nonDecimal: boolean): CArith {
  const fitsInt = v <= 2147483647;
  const fitsUint = v <= 4294967295;
  const fitsLong = v < 2 ** 63;
  if (unsigned) return longs === 2 ? 'unsigned long long' : longs === 1 || !fitsUint ? 'unsigned long' : 'unsigned int';
  if (longs === 2) return fitsLong ? 'long long' : 'unsigned long long';
  if (longs === 1) return fitsLong ? 'long' : 'unsigned long';
  if (fitsInt) return 'int';
  if (nonDecimal && fitsUint) return 'unsigned int';
  return fitsLong ? 'long' : 'unsigned long';
}

/**
 * `p[k]` for an element of a scalar kind: the load and the store check the block that `p` points
 * into inline (live host memory, in bounds, aligned) and read its typed view; anything else takes
 * the checked path, which reports the fault as C would meet it.
 */
function indexed(mem: Memory, t: HType, kind: ScalarKind, base: Ev, k: Ev, el: number, range: Range): Compiled {
  const blocks = mem.blocks;
  const addr: Ev = (f) => (base(f) as number) + (k(f) as number) * el;
  const fault = (p: number, o: number, write: boolean): never => {
    const id = Math.floor(p / BLOCK_SPAN);
    const b = blocks[id];
    // Past its own block (however far): out of bounds of that block, never into a neighbour.
    if (b !== undefined && b.hostOk && (o < 0 || o + el > b.size)) mem.outOfBounds(b, o, el, write);
    return mem.check(id * BLOCK_SPAN + o, el, write) as never;
  };
  const slow = (p: number, o: number): V => {
    const id = Math.floor(p / BLOCK_SPAN);
    const b = blocks[id];
    if (b === undefined || !b.hostOk || o < 0 || o + el > b.size) fault(p, o, false);
    return mem.load(id * BLOCK_SPAN + o, kind);
  };
  const slowStore = (p: number, o: number, v: V): void => {
    const id = Math.floor(p / BLOCK_SPAN);
    const b = blocks[id];
    if (b === undefined || !b.hostOk || o < 0 || o + el > b.size) fault(p, o, true);
    mem.store(id * BLOCK_SPAN + o, kind, v);
  };
  if (kind !== 'i32' && kind !== 'u32' && kind !== 'f32' && kind !== 'f64' && kind !== 'u8' && kind !== 'i8') {
    return { t, ev: (f) => mem.load(addr(f) as number, kind), addr, store: (f, v) => mem.store(addr(f) as number, kind, v), range };
  }
  const shift = el === 8 ? 3 : el === 4 ? 2 : 0;
  const mask = el - 1;
  // The view of a block for this kind (one closure per kind keeps each load site monomorphic).
  const view: (b: Block) => { [i: number]: number } =
    kind === 'i32' ? (b) => b.i32! : kind === 'u32' ? (b) => b.u32! : kind === 'f32' ? (b) => b.f32! : kind === 'f64' ? (b) => b.f64! : kind === 'u8' ? (b) => b.u8 : (b) => b.i8;
  const ev: Ev = (f) => {
    const p = base(f) as number;
    const id = Math.floor(p / BLOCK_SPAN);
    const o = p - id * BLOCK_SPAN + (k(f) as number) * el;
    const b = blocks[id];
    if (b !== undefined && b.hostOk && o >= 0 && o + el <= b.size && (o & mask) === 0) return view(b)[o >> shift]!;
    return slow(p, o);
  };
  const store = (f: Frame, v: V): void => {
    const p = base(f) as number;
    const id = Math.floor(p / BLOCK_SPAN);
    const o = p - id * BLOCK_SPAN + (k(f) as number) * el;
    const b = blocks[id];
    if (b !== undefined && b.hostOk && o >= 0 && o + el <= b.size && (o & mask) === 0) view(b)[o >> shift] = v as number;
    else slowStore(p, o, v);
  };
  return { t, ev, addr, store, range };
}

function loader(mem: Memory, kind: ReturnType<typeof scalarKind> & string, addr: Ev): Ev {
  switch (kind) {
    case 'i32':
      return (f) => {
        const a = addr(f) as number;
        const b = mem.check(a, 4, false);
        const o = a - b.id * BLOCK_SPAN;
        return (o & 3) === 0 ? b.i32![o >> 2]! : b.dv.getInt32(o, true);
      };
    case 'f32':
      return (f) => {
        const a = addr(f) as number;
        const b = mem.check(a, 4, false);
        const o = a - b.id * BLOCK_SPAN;
        return (o & 3) === 0 ? b.f32![o >> 2]! : b.dv.getFloat32(o, true);
      };
    case 'f64':
      return (f) => {
        const a = addr(f) as number;
        const b = mem.check(a, 8, false);
        const o = a - b.id * BLOCK_SPAN;
        return (o & 7) === 0 ? b.f64![o >> 3]! : b.dv.getFloat64(o, true);
      };
    default:
      return (f) => mem.load(addr(f) as number, kind);
  }
}

function storer(mem: Memory, kind: ReturnType<typeof scalarKind> & string, addr: Ev): (f: Frame, v: V) => void {
  switch (kind) {
    case 'i32':
    case 'u32':
      return (f, v) => {
        const a = addr(f) as number;
        const b = mem.check(a, 4, true);
        const o = a - b.id * BLOCK_SPAN;
        if ((o & 3) === 0) b.i32![o >> 2] = v as number;
        else b.dv.setInt32(o, (v as number) | 0, true);
      };
    case 'f32':
      return (f, v) => {
        const a = addr(f) as number;
        const b = mem.check(a, 4, true);
        const o = a - b.id * BLOCK_SPAN;
        if ((o & 3) === 0) b.f32![o >> 2] = v as number;
        else b.dv.setFloat32(o, v as number, true);
      };
    default:
      return (f, v) => mem.store(addr(f) as number, kind, v);
  }
}

export function storeTo(mem: Memory, t: HType, addr: number, v: V): void {
  const kind = scalarKind(t);
  if (kind) mem.store(addr, kind, v);
}

export function loadFrom(mem: Memory, t: HType, addr: number): V {
  const kind = scalarKind(t);
  return kind ? mem.load(addr, kind) : addr;
}

/** Whether an initializer is a constant expression (no calls, no side effects). */
function isConstExpr(e: Expr): boolean {
  switch (e.kind) {
    case 'num':
    case 'char':
    case 'bool':
    case 'ident':
    case 'sizeof':
      return true;
    case 'unary':
      return e.op !== '++' && e.op !== '--' && e.op !== '*' && e.op !== '&' && isConstExpr(e.arg);
    case 'binary':
      return isConstExpr(e.left) && isConstExpr(e.right);
    case 'cond':
      return isConstExpr(e.test) && isConstExpr(e.then) && isConstExpr(e.else);
    case 'cast':
      return isConstExpr(e.arg);
    default:
      return false;
  }
}

/** Names whose address the function takes (`&x`), which must then live in memory. */
function collectAddressTaken(s: Stmt | Expr, out: Set<string>): void {
  const visit = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    const o = n as Record<string, unknown>;
    if (o.kind === 'unary' && o.op === '&') {
      const arg = o.arg as Expr;
      if (arg.kind === 'ident') out.add(arg.name);
    }
    for (const k of Object.keys(o)) if (k !== 'range' && k !== 'type') visit(o[k]);
  };
  visit(s);
}

export { HostFault, type CValue };
