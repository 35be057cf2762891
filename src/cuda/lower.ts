/**
 * The checker and the lowering: each `__global__` function (and the device functions it calls)
 * becomes readable WGSL that keeps the learner's identifiers and one statement per CUDA statement.
 * Types are checked on the way, in CUDA's terms and at CUDA positions; anything outside the
 * subset is a diagnostic that names the construct and says what to write instead.
 *
 * The shapes it produces (see docs/cuda.md):
 * - a pointer parameter is a storage buffer `array<T>` named after it; a pointer local or a
 *   pointer expression is that buffer plus an element offset (`int *row = a + r*n;` → `row` holds
 *   `r*n`, and `row[i]` reads `a[row + i]`);
 * - scalars and the grid size live in one uniform struct; `blockDim` comes from the overrides
 *   that also set `@workgroup_size`;
 * - `char`/`short` buffers are packed four (two) to a `u32` word;
 * - a buffer that any atomic touches is `atomic` throughout.
 */
import type { Declarator, ExplicitInstantiation, Expr, FunctionDecl, Range, Stmt, TemplateArg, TemplateParam, TranslationUnit, TypeRef } from './ast.ts';
import {
  BOOL, DIM3, FLOAT, INT, UINT, VOID, arithmetic, baseType, isInt, isWide, narrowed, promote, sizeOf, typeName, withPointers, wgslType, type CType,
  VECTOR_TYPES,
  vectorOf,
} from './ctypes.ts';
import { wideHelper, wideLiteral } from './wide.ts';
import { warpIdiom } from './warpIdioms.ts';
import { componentChain } from './componentChain.ts';
import { componentwise } from './componentwise.ts';
import { builtinRange, rangeOf, typeRange, union, within, type IntRange } from './ranges.ts';
import { readsAndWritesGlobal } from './globalSync.ts';
import { writtenNames, type Callees } from './writes.ts';
import { forChildren } from './syntaxWalk.ts';
import { uniformSharedReads } from './uniformRead.ts';
import type { CudaScalarType, Diagnostic } from './types.ts';

/** Where a pointer points: a buffer, a shared/constant/global array, or a local array. */
interface Base {
  /** WGSL name of the array (or of the `ptr<function, …>` parameter when `viaPointer`). */
  readonly name: string;
  readonly elem: CType;
  /** Identity for atomics and writes: `param:k:a`, `shared:sdata`, `local:…`. */
  readonly key: string;
  readonly space: 'storage' | 'workgroup' | 'function' | 'constant';
  readonly viaPointer?: boolean;
  /** The function-space array's WGSL type, for device-function parameters. */
  readonly arrayType?: string;
  /** A scalar (`__shared__ float s;`, a `__device__ int` counter): accessed without an index. */
  readonly scalar?: boolean;
}

/** A counted loop the lowering unrolls: its counter, the counter's values, the local array it indexes. */
interface UnrollPlan {
  readonly decl: Declarator;
  readonly t: Extract<CType, { k: 'int' }>;
  readonly values: readonly number[];
  readonly array: string;
}

type Sym =
  /** `constant`: a `const`/`constexpr` integer whose initializer is a constant expression (C++ [expr.const]: usable as an array size). */
  | {
      k: 'var'; name: string; t: CType; isConst: boolean; constant?: number;
      /** A parameter that is `constant` at every call of its function's instance: its reads are that constant. */
      specialized?: boolean;
      /** Its values wherever it is read (`ranges.ts`); `start`: its initial value's, for a loop counter. */
      range?: IntRange; start?: IntRange;
    }
  | { k: 'ptr'; base: Base; name: string; t: CType }
  | { k: 'value'; code: string; t: CType }
  | { k: 'array'; base: Base; name: string; t: CType }
  /** A reference parameter (`int& a`): the element it names, at an offset parameter (none for a local). */
  | { k: 'ref'; base: Base; off: string; t: CType };

interface Ptr {
  readonly base: Base;
  /** Element offset (i32 WGSL expression), '' for 0. */
  readonly off: string;
}

interface V {
  code: string;
  t: CType;
  /** WGSL precedence of `code` (100 primary, 90 unary, 80 mul, 70 add, 60 shift, 50 rel, 40 bit, 30 &&, 20 ||). */
  prec: number;
  ptr?: Ptr;
  lv?: LV;
  /** No loads, calls or side effects: safe to evaluate under `select`. */
  pure: boolean;
  /** A plain integer constant (for `sizeof`-style folding and messages). */
  constant?: number;
  /** Every value this integer expression can take (`ranges.ts`); a constant's is itself. */
  range?: IntRange;
}

type LV =
  | { kind: 'plain'; code: string; base?: Base }
  | { kind: 'atomic'; ref: string; base: Base }
  | { kind: 'packed'; base: Base; index: string }
  | { kind: 'ptrvar'; sym: Extract<Sym, { k: 'ptr' }> };

export interface GlobalInfo {
  readonly name: string;
  readonly wgslName: string;
  readonly kind: 'shared' | 'constant' | 'device' | 'managed';
  readonly type: CType;
  readonly length: number;
  readonly init?: number[];
}

export interface LoweredKernel {
  readonly name: string;
  readonly entryPoint: string;
  readonly line: number;
  readonly params: { name: string; index: number; t: CType; wgslName: string; binding?: number; baseKey?: string; bytes?: number }[];
  readonly uniformBinding: number;
  readonly printfBinding?: number;
  readonly staticSharedBytes: number;
  readonly dynamicShared?: { name: string; override: string; elemBytes: number };
  readonly usesWarpFunctions: boolean;
  readonly printfFormats: { format: string; args: CType[] }[];
  /** Globals (`__constant__`, `__device__`, `__managed__`) this kernel binds. */
  readonly globals: { info: GlobalInfo; binding: number; baseKey: string }[];
}

export interface MapEntry {
  readonly wgslLine: number;
  readonly cuda: Range;
}

export interface LowerResult {
  readonly wgsl: string;
  readonly kernels: LoweredKernel[];
  readonly diagnostics: Diagnostic[];
  readonly map: MapEntry[];
  /** Final facts per base key: written, atomic. */
  readonly written: ReadonlySet<string>;
  readonly atomic: ReadonlySet<string>;
  readonly packed: ReadonlySet<string>;
  /** Each launch of a template instance (`k<float><<<…>>>`), by `launchSite(range)`: the instance's name (`k<float>`). */
  readonly launchKernels: Readonly<Record<string, string>>;
}

/** The key of a launch in `LowerResult.launchKernels` and `CudaProgram.launchKernels`: where its `<<<` expression starts. */
export const launchSite = (r: { readonly file?: string; readonly line: number; readonly col: number }): string => `${r.file ?? ''}:${r.line}:${r.col}`;

const WGSL_RESERVED = new Set(
  ('alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if let loop ' +
    'override requires return struct switch true var while array atomic bool f16 f32 i32 mat2x2 mat3x3 mat4x4 ptr sampler ' +
    'texture_2d u32 vec2 vec3 vec4 NULL Self abstract active alignas alignof as asm async attribute auto await become ' +
    'cast catch class coherent column_major common compile constexpr constinit crate debugger decltype delete demote do ' +
    'dynamic_cast enum explicit export extends extern external fallthrough filter final finally friend from fxgroup get goto ' +
    'groupshared highp impl implements import inline instanceof interface layout lowp macro match mediump meta mod module ' +
    'move mut mutable namespace new nil noexcept noinline nointerpolation noperspective null nullptr of operator package ' +
    'packoffset partition pass patch pixelfragment precise precision premerge priv protected pub public readonly ref ' +
    'regardless register reinterpret_cast require resource restrict self set shared sizeof smooth snorm static static_assert ' +
    'static_cast std subroutine super target template this thread_local throw trait try type typedef typeid typename typeof ' +
    'union unless unorm unsafe unsized use using varying virtual volatile wgsl where with writeonly yield in out ' +
    'workgroupBarrier storageBarrier select min max abs all any bitcast')
    .split(' '),
);

/** The CUDA warp functions and what they become. */
const WARP = new Set(['__shfl_sync', '__shfl_up_sync', '__shfl_down_sync', '__shfl_xor_sync', '__ballot_sync', '__any_sync', '__all_sync', '__activemask', '__syncwarp']);
const ATOMICS = new Set(['atomicAdd', 'atomicSub', 'atomicMin', 'atomicMax', 'atomicExch', 'atomicCAS', 'atomicAnd', 'atomicOr', 'atomicXor', 'atomicInc', 'atomicDec']);
/** Float math: CUDA name → WGSL builtin, arity. */
const MATH: Record<string, [string, number]> = {
  sqrtf: ['sqrt', 1], rsqrtf: ['inverseSqrt', 1], expf: ['exp', 1], __expf: ['exp', 1], exp2f: ['exp2', 1], logf: ['log', 1], __logf: ['log', 1],
  log2f: ['log2', 1], powf: ['pow', 2], __powf: ['pow', 2], fabsf: ['abs', 1], fminf: ['min', 2], fmaxf: ['max', 2], floorf: ['floor', 1],
  ceilf: ['ceil', 1], truncf: ['trunc', 1], roundf: ['round', 1], sinf: ['sin', 1], cosf: ['cos', 1], tanf: ['tan', 1], __sinf: ['sin', 1],
  __cosf: ['cos', 1], tanhf: ['tanh', 1], atanf: ['atan', 1], atan2f: ['atan2', 2], fmaf: ['fma', 3],
  sqrt: ['sqrt', 1], exp: ['exp', 1], log: ['log', 1], pow: ['pow', 2], fabs: ['abs', 1], floor: ['floor', 1], ceil: ['ceil', 1],
  fmin: ['min', 2], fmax: ['max', 2], sin: ['sin', 1], cos: ['cos', 1], tanh: ['tanh', 1],
};
const HOST_ONLY = new Set(['malloc', 'calloc', 'free', 'cudaMalloc', 'cudaMemcpy', 'cudaFree', 'cudaMallocManaged', 'cudaDeviceSynchronize', 'scanf', 'fopen', 'rand', 'srand', 'exit', 'memcpy', 'memset', 'time', 'clock']);
const DEVICE_ONLY = new Set(['__syncthreads', '__syncwarp', '__threadfence', '__threadfence_block', ...ATOMICS, ...WARP]);

class Bail extends Error {}

/** What a loop's header leaves open: statements for its continuing block, and a block around its start. */
interface LoopTail {
  readonly continuing?: readonly { text: string; cuda?: Range }[];
  readonly block?: boolean;
}

interface FnCtx {
  readonly kernel: KernelCtx;
  readonly fn: FunctionDecl;
  readonly targs: ReadonlyMap<string, TemplateArg>;
  readonly scopes: Map<string, Sym>[];
  readonly returnType: CType;
  /** Set while lowering a kernel body whose early `return`s were turned into a flag. */
  exitFlag?: string;
  loopDepth: number;
}

interface KernelCtx {
  readonly name: string;
  readonly entry: string;
  warp: boolean;
  printf: { format: string; args: CType[] }[];
  readonly usedGlobals: Map<string, GlobalInfo>;
  /** The WGSL name of each global this kernel uses (its own where an earlier kernel declared the global already). */
  readonly globalNames: Map<string, string>;
  readonly builtinsUsed: Set<string>;
  /**
   * The kernel both writes and reads some global memory (not atomically): its barriers then
   * order global memory too, as `__syncthreads()` does in CUDA, with `storageBarrier()`.
   */
  globalSync: boolean;
  /** Bytes of static `__shared__` declared so far (CUDA's limit is 48 KB per block). */
  staticShared?: number;
}

export class Lowering {
  readonly diagnostics: Diagnostic[] = [];
  private out: { text: string; cuda?: Range }[] = [];
  private indent = 0;
  private readonly functions = new Map<string, FunctionDecl>();
  /** C++ overloads: every function of a name with a distinct parameter list (definitions over prototypes). */
  private readonly overloads = new Map<string, FunctionDecl[]>();
  private readonly structs = new Map<string, { name: string; t: CType }[]>();
  private readonly typedefs = new Map<string, CType>();
  private readonly globals = new Map<string, GlobalInfo>();
  private readonly sharedDecls: string[] = [];
  private readonly usedNames = new Set<string>();
  private readonly helpers = new Map<string, string>();
  private readonly instances = new Map<string, { name: string; lines: { text: string; cuda?: Range }[] }>();
  private tmp = 0;
  /** Pre-statements an expression needs (hoisted ternaries, atomics, `i++` inside expressions). */
  private pre: string[] = [];
  private preRange: Range | undefined;
  readonly written = new Set<string>();
  readonly packed = new Set<string>();
  private warned = new Set<string>();

  constructor(
    private readonly unit: TranslationUnit,
    private readonly fileName: string,
    /** Bases that some atomic touches (found by a first pass). */
    readonly atomic: Set<string>,
  ) {}

  // ---- diagnostics ----
  error(range: Range, message: string): never {
    this.report(range, message, 'error');
    throw new Bail(message);
  }
  report(range: Range, message: string, severity: 'error' | 'warning' = 'error'): void {
    const key = `${severity}:${range.line}:${range.col}:${message}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.diagnostics.push({
      severity,
      message,
      line: range.line,
      column: range.col,
      endLine: range.endLine,
      endColumn: range.endCol,
      ...(range.file !== this.fileName ? { file: range.file } : {}),
    });
  }
  private warnOnce(range: Range, message: string): void {
    const key = `line:${range.file}:${range.line}:${message.slice(0, 30)}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.report(range, message, 'warning');
  }

  // ---- output ----
  private emit(text: string, cuda?: Range): void {
    for (const p of this.pre) this.out.push({ text: '  '.repeat(this.indent) + p, ...(this.preRange ? { cuda: this.preRange } : {}) });
    this.pre = [];
    this.out.push({ text: '  '.repeat(this.indent) + text, ...(cuda ? { cuda } : {}) });
  }
  private fresh(hint: string): string {
    return `${hint}_${++this.tmp}`;
  }
  private ident(name: string): string {
    const clean = name.replace(/^_+(?=[0-9])/, 'n').replace(/^__/, 'u_');
    return WGSL_RESERVED.has(clean) || clean.startsWith('__') ? `${clean}_` : clean;
  }
  private unique(name: string): string {
    let n = this.ident(name);
    let k = 2;
    const base = n;
    while (this.usedNames.has(n)) n = `${base}_${k++}`;
    this.usedNames.add(n);
    return n;
  }
  private helper(name: string, code: string): string {
    if (!this.helpers.has(name)) this.helpers.set(name, code);
    return name;
  }
  /** A 64-bit integer helper of wide.ts (and those it calls), emitted once. */
  private wide(name: string): string {
    return wideHelper(name, (n, c) => this.helper(n, c));
  }

  // ---- the program ----
  run(): LowerResult {
    for (const [name, v] of VECTOR_TYPES) this.structs.set(name, ['x', 'y', 'z', 'w'].slice(0, v.n).map((f) => ({ name: f, t: v.of })));
    for (const item of this.unit.items) {
      if (item.kind === 'function') {
        const prev = this.functions.get(item.name);
        const list = this.overloads.get(item.name) ?? [];
        const same = list.findIndex((f) => signature(f) === signature(item));
        if (same < 0) list.push(item);
        else if (!list[same]!.body && item.body) list[same] = item;
        this.overloads.set(item.name, list);
        if (!prev || (signature(prev) === signature(item) && !prev.body && item.body)) this.functions.set(item.name, item);
      } else if (item.kind === 'struct') this.structs.set(item.name, []);
      else if (item.kind === 'typedef') {
        const t = this.tryType(item.type);
        if (t) this.typedefs.set(item.name, t);
      }
    }
    for (const item of this.unit.items) {
      if (item.kind === 'struct') {
        try {
          this.structs.set(item.name, item.fields.map((f) => ({ name: f.name, t: this.declType(f, f.type) })));
        } catch (e) {
          if (!(e instanceof Bail)) throw e;
        }
      }
      if (item.kind === 'var') this.globalVar(item.decl);
    }
    this.checkHostCode();
    const kernels: LoweredKernel[] = [];
    const bodies: { text: string; cuda?: Range }[][] = [];
    let binding = 0;
    for (const inst of this.kernelInstances()) {
      this.out = [];
      this.indent = 0;
      try {
        const k = this.kernel(inst.fn, inst.targs, inst.label, binding);
        binding = Math.max(binding, ...k.params.map((p) => (p.binding ?? -1) + 1), k.uniformBinding + 1, (k.printfBinding ?? -1) + 1, ...k.globals.map((g) => g.binding + 1));
        kernels.push(k);
        bodies.push(this.out);
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
      }
    }
    return this.assemble(kernels, bodies);
  }

  /** Every kernel to lower: plain ones, and template kernels once per distinct use. */
  private kernelInstances(): { fn: FunctionDecl; targs: Map<string, TemplateArg>; label: string }[] {
    const list: { fn: FunctionDecl; targs: Map<string, TemplateArg>; label: string }[] = [];
    const uses = new Map<string, TemplateArg[][]>();
    const sites = new Map<TemplateArg[], Range>();
    const addUse = (name: string, args: TemplateArg[]): void => {
      const l = uses.get(name) ?? [];
      l.push(args);
      uses.set(name, l);
    };
    // Inside a template, a use whose arguments name the template's own parameters (`f<T>`)
    // depends on them: it is no instance of its own (C++ [temp.dep]).
    const visit = (e: unknown, dependent: ReadonlySet<string>): void => {
      if (!e || typeof e !== 'object') return;
      if (Array.isArray(e)) {
        for (const x of e) visit(x, dependent);
        return;
      }
      const n = e as { kind?: string; callee?: Expr; templateArgs?: TemplateArg[] };
      if ((n.kind === 'launch' || n.kind === 'call') && n.callee?.kind === 'ident' && n.templateArgs && !mentions(n.templateArgs, dependent)) {
        addUse(n.callee.name, n.templateArgs);
        if (n.kind === 'launch') sites.set(n.templateArgs, (n as { range: Range }).range);
      }
      forChildren(e, (v) => { visit(v, dependent); return false; });
    };
    for (const item of this.unit.items) {
      if (item.kind === 'instantiation') {
        // `extern template` promises an instance made elsewhere: it makes none here.
        const args = this.explicitInstance(item);
        if (args && !item.isExtern) addUse(item.name, args);
      } else visit(item, new Set(item.kind === 'function' && item.template ? item.template.map((t) => t.name) : []));
    }
    for (const fn of this.functions.values()) {
      if (!fn.global || !fn.body) continue;
      if (!fn.template) {
        list.push({ fn, targs: new Map(), label: fn.name });
        continue;
      }
      const seen = new Set<string>();
      for (const args of uses.get(fn.name) ?? []) {
        const targs = new Map<string, TemplateArg>();
        fn.template.forEach((p, i) => {
          const a = args[i];
          if (a) targs.set(p.name, a);
        });
        const label = `${fn.name}<${args.map((a, i) => this.templateArgText(a, fn.template![i])).join(', ')}>`;
        const site = sites.get(args);
        if (site) this.launchKernels[launchSite(site)] = label;
        if (seen.has(label)) continue;
        seen.add(label);
        list.push({ fn, targs, label });
      }
    }
    return list;
  }

  /**
   * The template arguments of an explicit instantiation (C++ [temp.explicit]), those left out
   * deduced from its parameter types; undefined (with a diagnostic) when it names no template it
   * can instantiate.
   */
  private explicitInstance(item: ExplicitInstantiation): TemplateArg[] | undefined {
    const fns = (this.overloads.get(item.name) ?? []).filter((f) => f.template && f.params.length === item.paramTypes.length);
    const fn = fns.find((f) => f.body) ?? fns[0];
    const report = (message: string): undefined => {
      this.report(item.nameRange, message);
      return undefined;
    };
    if (!fn) return report(`explicit instantiation of '${item.name}' does not match its template: no template '${item.name}' takes ${item.paramTypes.length} parameter${item.paramTypes.length === 1 ? '' : 's'}`);
    const params = fn.template!;
    if (fn.global && !item.global) return report(`'${item.name}' is a __global__ function template: its explicit instantiation must say __global__ too (template __global__ void ${item.name}<…>(…);)`);
    if (!fn.global && item.global) return report(`'${item.name}' is not a __global__ function template: its explicit instantiation cannot say __global__`);
    if ((item.templateArgs?.length ?? 0) > params.length) return report(`too many template arguments for '${item.name}': it takes ${params.length}`);
    const args: TemplateArg[] = [];
    for (const [i, tp] of params.entries()) {
      const given = item.templateArgs?.[i];
      if (given) {
        if ((given.kind === 'type') !== (tp.kind === 'type')) return report(`template argument ${i + 1} of '${item.name}' must be ${tp.kind === 'type' ? 'a type' : 'a constant value'} ('${tp.name}')`);
        args.push(given);
        continue;
      }
      // Deduce `T` from a parameter declared `T`, `T*` or `const T*` (C++ [temp.deduct.call]).
      const at = tp.kind === 'type' ? fn.params.findIndex((p) => p.type.base === tp.name) : -1;
      const pt = item.paramTypes[at];
      if (at < 0 || !pt || pt.pointers.length < fn.params[at]!.type.pointers.length) return report(`cannot deduce template argument '${tp.name}' of '${item.name}' from this explicit instantiation: write ${item.name}<…>(…)`);
      args.push({ ...pt, pointers: pt.pointers.slice(0, pt.pointers.length - fn.params[at]!.type.pointers.length), isConst: false });
    }
    return args;
  }

  /**
   * A template argument written inside a template (`g<T>`, `g<N / 2>`) with the caller's own
   * arguments put in, so that the callee's arguments never refer back to names of the caller.
   */
  private substituted(a: TemplateArg, outer: ReadonlyMap<string, TemplateArg>): TemplateArg {
    if (a.kind === 'type') {
      const o = outer.get(a.base);
      return o && o.kind === 'type' ? { ...o, pointers: [...o.pointers, ...a.pointers], isConst: o.isConst || a.isConst } : a;
    }
    if (!outer.size) return a;
    const v = this.constValue(a, outer);
    return v === undefined ? a : { kind: 'num', text: String(v), value: v, isFloat: false, floatSuffix: false, unsigned: false, long: 0, range: a.range };
  }

  /** A template argument as C++ prints it in a name (`true` for a `bool` parameter). */
  private templateArgText(a: TemplateArg, param?: TemplateParam): string {
    if (a.kind === 'type') return a.base + '*'.repeat(a.pointers.length);
    const v = this.constValue(a);
    if (v !== undefined && param?.kind === 'value' && param.valueType?.base === 'bool') return v ? 'true' : 'false';
    return v === undefined ? '?' : String(v);
  }

  private tryType(t: TypeRef): CType | undefined {
    const b = baseType(t.base, this.typedefs, new Set(this.structs.keys()));
    return b ? withPointers(b, t) : undefined;
  }

  /** The CType of a declared entity, with template arguments substituted. */
  private resolveType(t: TypeRef, targs: ReadonlyMap<string, TemplateArg> = new Map()): CType {
    const ta = targs.get(t.base);
    if (ta && ta.kind === 'type') {
      // A template argument is already in the caller's terms: resolve it without the arguments.
      const inner = this.resolveType(ta);
      return withPointers(inner, t);
    }
    const b = baseType(t.base, this.typedefs, new Set(this.structs.keys()));
    if (!b) {
      if (t.base.startsWith('std::')) this.error(t.range, `'${t.base}' is host-only C++: device code cannot use it; pass a pointer to the data instead`);
      if (t.base === 'half' || t.base === '__half') this.error(t.range, `'${t.base}' (16-bit float, cuda_fp16.h) is outside the CUDA subset Warpscope runs: WebGPU's 16-bit floats are an optional feature that the simulator does not model; compute in 'float'`);
      this.error(t.range, `unknown type name '${t.base}'`);
    }
    if (b.k === 'float' && b.bits === 64) this.warnOnce(t.range, "'double' is computed as 32-bit float (f32) here: WebGPU has no 64-bit floats, so results can differ from a real GPU after about 7 significant digits; use 'float' to compute the same thing on both");
    if (isWide(b)) this.warnOnce(t.range, `'${t.base}' is 64 bits: WebGPU has no 64-bit integers, so its values are computed exactly here as two 32-bit words (vec2<u32>); in device memory (a kernel's pointer or scalar parameter, __shared__, __device__, __constant__) only the low 32 bits are kept`);
    else if (b.k === 'int' && b.bits === 64) this.warnOnce(t.range, `'${t.base}' is 64 bits in CUDA but computed in 32 bits here (WebGPU has no 64-bit integers): values beyond ${b.signed ? '±2^31' : '2^32'} wrap; use '${b.signed ? 'int' : 'unsigned int'}' to compute the same thing on both`);
    return withPointers(b, t);
  }

  private declType(d: Declarator, t: TypeRef, targs: ReadonlyMap<string, TemplateArg> = new Map(), declared: (name: string) => boolean = () => false): CType {
    let ct = this.resolveType(t, targs);
    for (let i = d.dims.length - 1; i >= 0; i--) {
      const dim = d.dims[i];
      let n: number | null = null;
      if (dim) {
        const v = this.constValue(dim, targs);
        if (v === undefined && dim.kind === 'ident' && !targs.has(dim.name) && !this.globals.has(dim.name) && !declared(dim.name)) this.error(dim.range, `use of undeclared identifier '${dim.name}'`);
        if (v === undefined) this.error(dim.range, `the size of array '${d.name}' must be a constant known when compiling (a #define, a const int or a template value)${d.dims.length === 1 && dim.kind === 'ident' ? `; for a size set by the launch, write 'extern __shared__ ${typeName(this.tryType(t) ?? INT)} ${d.name}[];' and pass the bytes as the third launch parameter` : ''}`);
        if (v <= 0) this.error(dim.range, `array '${d.name}' has a size of ${v}: it must be at least 1`);
        n = v;
      }
      ct = { k: 'array', of: ct, n };
    }
    return ct;
  }

  /** Folds an integer constant expression (macros are already numbers; `const int` globals too). */
  constValue(e: Expr, targs: ReadonlyMap<string, TemplateArg> = new Map()): number | undefined {
    switch (e.kind) {
      case 'num':
        return e.isFloat ? undefined : e.value;
      case 'char':
        return e.value;
      case 'bool':
        return e.value ? 1 : 0;
      case 'ident': {
        const ta = targs.get(e.name);
        if (ta && ta.kind !== 'type') return this.constValue(ta);
        const g = this.constInts.get(e.name);
        return g;
      }
      case 'unary': {
        const v = this.constValue(e.arg, targs);
        if (v === undefined) return undefined;
        return e.op === '-' ? -v : e.op === '+' ? v : e.op === '~' ? ~v : e.op === '!' ? (v ? 0 : 1) : undefined;
      }
      case 'cast':
        return this.constValue(e.arg, targs);
      case 'sizeof': {
        if (e.type) {
          const t = this.tryType(e.type);
          return t ? sizeOf(t) : undefined;
        }
        return undefined;
      }
      case 'binary': {
        const a = this.constValue(e.left, targs);
        const b = this.constValue(e.right, targs);
        if (a === undefined || b === undefined) return undefined;
        switch (e.op) {
          case '+': return (a + b) | 0;
          case '-': return (a - b) | 0;
          case '*': return Math.imul(a, b);
          case '/': return b === 0 ? undefined : Math.trunc(a / b);
          case '%': return b === 0 ? undefined : a % b;
          case '<<': return a << b;
          case '>>': return a >> b;
          case '&': return a & b;
          case '|': return a | b;
          case '^': return a ^ b;
          case '<': return +(a < b);
          case '>': return +(a > b);
          case '<=': return +(a <= b);
          case '>=': return +(a >= b);
          case '==': return +(a === b);
          case '!=': return +(a !== b);
          case '&&': return +(a && b);
          case '||': return +(a || b);
          default: return undefined;
        }
      }
      case 'cond': {
        const c = this.constValue(e.test, targs);
        return c === undefined ? undefined : this.constValue(c ? e.then : e.else, targs);
      }
      default:
        return undefined;
    }
  }
  private readonly constInts = new Map<string, number>();

  private globalVar(decl: Extract<Stmt, { kind: 'decl' }>): void {
    const s = decl.storage;
    for (const v of decl.vars) {
      try {
        if (!s.shared && !s.constant && !s.device && !s.managed) {
          // A host global; `const int N = 1024;` is usable in device code as a constant.
          if (v.type.isConst && v.init && !v.dims.length && !v.type.pointers.length) {
            const c = this.constValue(v.init);
            if (c !== undefined) this.constInts.set(v.name, c);
          }
          continue;
        }
        if (s.shared) {
          this.report(v.range, `'__shared__' variable '${v.name}' at file scope: declare it inside the kernel that uses it`, 'warning');
        }
        const t = sizedByInit(v, narrowed(this.declType(v, v.type)));
        const elem = t.k === 'array' ? t.of : t;
        if (t.k === 'array' && t.n === null) this.error(v.range, `${s.constant ? '__constant__' : '__device__'} array '${v.name}' has no size: write a constant in the brackets, or give it an initializer { … }`);
        if (elem.k === 'array' || elem.k === 'ptr') this.error(v.range, `${s.constant ? '__constant__' : '__device__'} variable '${v.name}' must be a scalar or a 1-D array here: flatten it to one dimension`);
        const length = t.k === 'array' ? t.n ?? 1 : 1;
        let init: number[] | undefined;
        if (v.init) {
          const items = v.init.kind === 'init' ? v.init.items : [v.init];
          init = items.map((x) => {
            const n = this.numberValue(x);
            if (n === undefined) this.error(x.range, `the initializer of '${v.name}' must be constant numbers`);
            return n;
          });
        }
        const kind = s.shared ? 'shared' : s.constant ? 'constant' : s.managed ? 'managed' : 'device';
        this.globals.set(v.name, { name: v.name, wgslName: this.unique(v.name), kind, type: t, length, ...(init ? { init } : {}) });
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
      }
    }
  }

  private numberValue(e: Expr): number | undefined {
    if (e.kind === 'num') return e.value;
    if (e.kind === 'unary' && e.op === '-') {
      const v = this.numberValue(e.arg);
      return v === undefined ? undefined : -v;
    }
    return this.constValue(e);
  }

  /** Host code calling device-only functions, device code calling host functions. */
  private checkHostCode(): void {
    const walk = (node: unknown, fn: FunctionDecl): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const x of node) walk(x, fn);
        return;
      }
      const n = node as Expr;
      if (n.kind === 'call' && n.callee.kind === 'ident') {
        const name = n.callee.name;
        if (!fn.device && DEVICE_ONLY.has(name)) this.report(n.range, `${name}() is a device function: host code ('${fn.name}') cannot call it; call it inside a __global__ or __device__ function`);
        const target = this.functions.get(name);
        if (!fn.device && target?.global) this.report(n.range, `a __global__ function ('${name}') must be launched with <<<grid, block>>>, not called like a host function`);
      }
      forChildren(node, (v) => { walk(v, fn); return false; });
    };
    for (const fn of this.functions.values()) if (!fn.device && fn.body) walk(fn.body, fn);
  }

  // ---- one kernel ----
  private kernel(fn: FunctionDecl, targs: Map<string, TemplateArg>, label: string, firstBinding: number): LoweredKernel {
    // `k<-1>` → k_m1, `k<2.5f>` → k_2_5f: a WGSL identifier whatever the arguments' spelling.
    const entry = this.unique(label.replace(/-/g, 'm').replace(/[^A-Za-z0-9_]+/g, '_').replace(/_+$/, ''));
    const kctx: KernelCtx = { name: label, entry, warp: false, printf: [], usedGlobals: new Map(), globalNames: new Map(), builtinsUsed: new Set(), globalSync: readsAndWritesGlobal(fn, this.overloads, this.globals.values()) };
    if (fn.returnType.base !== 'void' || fn.returnType.pointers.length) this.error(fn.returnType.range, `a __global__ function must return void, not '${fn.returnType.base}'`);
    const ctx: FnCtx = { kernel: kctx, fn, targs, scopes: [new Map<string, Sym>()], returnType: VOID, loopDepth: 0 };
    let binding = firstBinding;
    const params: LoweredKernel['params'] = [];
    const scalars: { name: string; t: CType }[] = [];
    const uniformName = this.unique(`${entry}_params`);
    fn.params.forEach((p, index) => {
      const t = narrowed(this.resolveType(p.type, targs));
      if (!p.name) this.error(p.range, 'a kernel parameter needs a name');
      if (t.k === 'ptr') {
        if (t.to.k === 'ptr') this.error(p.range, `parameter '${p.name}' is a pointer to pointers: pass one flat array and index it as row * width + column`);
        const vec = vectorOf(t.to);
        if (vec?.n === 3) this.error(p.range, `parameter '${p.name}' points to '${typeName(t.to)}': a buffer of 3-component vectors is not supported (WGSL pads each to 16 bytes, CUDA packs 12); use ${typeName(t.to).slice(0, -1)}4 or a plain array of ${typeName(vec.of)}`);
        if (t.to.k === 'struct' && !vec) {
          // A buffer of structs: WGSL lays them out as C does when every field is a 32-bit number.
          const odd = (this.structs.get(t.to.name) ?? []).find((f) => !((f.t.k === 'int' && f.t.bits === 32) || (f.t.k === 'float' && f.t.bits === 32)));
          if (odd) this.error(p.range, `parameter '${p.name}' points to '${typeName(t.to)}', whose field '${odd.name}' is a '${typeName(odd.t)}': a buffer of structs is supported when every field is an int, unsigned int or float (WGSL would lay the others out differently from C)`);
          if (!(this.structs.get(t.to.name) ?? []).length) this.error(p.range, `parameter '${p.name}' points to '${typeName(t.to)}', which has no fields here: define the struct before the kernel`);
        }
        if (t.to.k === 'void' || t.to.k === 'dim3') this.error(p.range, `parameter '${p.name}' points to '${typeName(t.to)}': kernels here take pointers to numbers (int, unsigned, float, char, …) or to structs of them`);
        const wgslName = this.unique(p.name);
        const base: Base = { name: wgslName, elem: t.to, key: `param:${fn.name}:${p.name}`, space: 'storage' };
        if (t.isConst) this.constPointee.add(base.key);
        // A volatile buffer is atomic throughout (atomicRoots says why); a template's is known only here.
        if (p.type.isVolatile && !this.atomic.has(base.key)) {
          if ((t.to.k === 'int' || t.to.k === 'float') && t.to.bits === 32) {
            this.atomic.add(base.key);
            this.needsRerun = true;
          } else this.error(p.range, `parameter '${p.name}' points to volatile '${typeName(t.to)}': a volatile buffer is read and written with atomics here (every access a real memory access), and WebGPU's atomics are 32-bit: use int, unsigned int or float`);
        }
        ctx.scopes[0]!.set(p.name, { k: 'ptr', base, name: '', t });
        params.push({ name: p.name, index, t, wgslName, binding: binding++, baseKey: base.key, bytes: sizeOf(t.to, this.structFields) });
      } else {
        if (t.k === 'struct' || t.k === 'array') this.error(p.range, `parameter '${p.name}' of type '${typeName(t)}': pass its fields as separate parameters (struct parameters are not supported yet)`);
        scalars.push({ name: p.name, t });
        params.push({ name: p.name, index, t, wgslName: this.ident(p.name) });
        ctx.scopes[0]!.set(p.name, { k: 'var', name: this.ident(p.name), t, isConst: true });
      }
    });
    const uniformBinding = binding++;
    // The body first (it discovers shared memory, printf and the builtins it uses).
    const bodyOut = this.out;
    this.out = [];
    this.indent = 1;
    const sharedBefore = this.sharedDecls.length;
    let staticShared = 0;
    let dynamic: LoweredKernel['dynamicShared'];
    const onShared = (bytes: number, dyn?: LoweredKernel['dynamicShared']): void => {
      staticShared += bytes;
      if (dyn) dynamic = dyn;
    };
    this.sharedHook = onShared;
    this.kernelBody(ctx, fn.body!);
    const body = this.out;
    this.out = bodyOut;
    this.indent = 0;
    const printfBinding = kctx.printf.length ? binding++ : undefined;
    const globals: LoweredKernel['globals'] = [];
    for (const g of kctx.usedGlobals.values()) globals.push({ info: g, binding: binding++, baseKey: `global:${g.name}` });

    // Declarations: buffers, the uniform struct, then the entry point.
    this.emit(`// ${label}: CUDA line ${fn.range.line}`);
    for (const p of params) {
      if (p.binding === undefined || p.t.k !== 'ptr') continue;
      this.emit(this.bufferDecl(p.binding, p.wgslName, p.t.to, p.baseKey!, p.t.isConst), p.t.k === 'ptr' ? fn.params[p.index]!.range : undefined);
    }
    for (const g of globals) this.emit(this.bufferDecl(g.binding, kctx.globalNames.get(g.info.name) ?? g.info.wgslName, g.info.type.k === 'array' ? g.info.type.of : g.info.type, g.baseKey, g.info.kind === 'constant'));
    for (const d of this.sharedDecls.slice(sharedBefore)) this.emit(d);
    this.emit(`struct ${uniformName}_t {`);
    this.emit('  gridDim: vec3<u32>,');
    this.emit('  grid_folded: u32,');
    // Uniform members must be 4-byte host-shareable scalars: bool and sub-word integers travel widened.
    for (const s of scalars) this.emit(`  ${this.ident(s.name)}: ${s.t.k === 'bool' ? 'u32' : wgslType(s.t)},`);
    this.emit('}');
    this.emit(`@group(0) @binding(${uniformBinding}) var<uniform> ${uniformName}: ${uniformName}_t;`);
    if (printfBinding !== undefined) this.emit(`@group(0) @binding(${printfBinding}) var<storage, read_write> ${entry}_printf: array<atomic<u32>>;`);
    this.emit('@compute @workgroup_size(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)', fn.nameRange);
    const lane = kctx.warp ? ', @builtin(subgroup_invocation_id) warp_lane_: u32' : '';
    this.emit(`fn ${entry}(@builtin(local_invocation_id) threadIdx: vec3<u32>, @builtin(workgroup_id) workgroup: vec3<u32>, @builtin(num_workgroups) workgroups: vec3<u32>${lane}) {`, fn.nameRange);
    this.emit(`  let gridDim = ${uniformName}.gridDim;`);
    this.emit(`  let blockDim = vec3<u32>(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z);`);
    this.emit(`  // A grid of more than 65 535 blocks in x is dispatched folded into rows; spare blocks leave.`);
    this.emit(`  let blockIdx = select(workgroup, vec3<u32>(workgroup.x + workgroup.y * workgroups.x, 0u, 0u), ${uniformName}.grid_folded != 0u);`);
    this.emit(`  if (blockIdx.x >= gridDim.x) { return; }`);
    for (const s of scalars) this.emit(`  let ${this.ident(s.name)} = ${uniformName}.${this.ident(s.name)}${s.t.k === 'bool' ? ' != 0u' : ''};`);
    for (const l of body) this.out.push(l);
    this.emit('}');
    return {
      name: label,
      entryPoint: entry,
      line: fn.range.line,
      params,
      uniformBinding,
      ...(printfBinding !== undefined ? { printfBinding } : {}),
      staticSharedBytes: staticShared,
      ...(dynamic ? { dynamicShared: dynamic } : {}),
      usesWarpFunctions: kctx.warp,
      printfFormats: kctx.printf,
      globals,
    };
  }

  private sharedHook: (bytes: number, dyn?: LoweredKernel['dynamicShared']) => void = () => {};

  private bufferDecl(binding: number, name: string, elem: CType, key: string, isConst: boolean): string {
    const atomic = this.atomic.has(key);
    const packed = packedBits(elem) > 0;
    const wrote = this.written.has(key) || atomic;
    if (packed) this.packed.add(key);
    if (isConst && wrote && !atomic) {
      // Writing through a const pointer is rejected earlier; keep the declaration valid anyway.
    }
    let inner = packed || atomic ? 'u32' : wgslType(elem);
    if (atomic && elem.k === 'int' && elem.signed && !packed) inner = 'i32';
    if (atomic) inner = `atomic<${inner}>`;
    return `@group(0) @binding(${binding}) var<storage, ${wrote ? 'read_write' : 'read'}> ${name}: array<${inner}>;`;
  }

  // ---- statements ----
  private kernelBody(ctx: FnCtx, body: Extract<Stmt, { kind: 'block' }>): void {
    // An early `return` followed (anywhere later) by a barrier: keep the returned threads as
    // inactive lanes that still reach the barriers, as CUDA does.
    const stmts = body.body;
    const firstReturn = stmts.findIndex((s) => containsReturn(s));
    const barrierAfter = firstReturn >= 0 && stmts.slice(firstReturn).some((s, i) => (i > 0 || s.kind !== 'return') && containsBarrier(s));
    if (barrierAfter) {
      const flag = this.fresh('returned');
      ctx.exitFlag = flag;
      this.emit(`var ${flag} = false; // threads that returned in CUDA stay as inactive lanes until the end, so they still reach each __syncthreads()`);
      this.guarded(ctx, stmts, flag);
      return;
    }
    for (const s of stmts) this.stmtSafe(ctx, s);
  }

  /** Lowers `stmts` so that lanes with `flag` set do nothing but still reach every barrier. */
  private guarded(ctx: FnCtx, stmts: readonly Stmt[], flag: string): void {
    let run: Stmt[] = [];
    const flush = (): void => {
      if (!run.length) return;
      // Declarations stay outside the guard (later statements see them); their initialisers run inside.
      for (const s of run) if (s.kind === 'decl') this.declareOnly(ctx, s);
      this.emit(`if (!${flag}) {`);
      this.indent++;
      for (const s of run) {
        if (s.kind === 'decl') this.assignDeclInits(ctx, s);
        else this.stmtSafe(ctx, s);
      }
      this.indent--;
      this.emit('}');
      run = [];
    };
    for (const s of stmts) {
      // A __shared__ scalar read after the barrier (uniformRead.ts) is read by every lane, returned
      // ones too (a load, nothing else): workgroupUniformLoad must be reached by the whole workgroup.
      if ((s.kind === 'decl' && s.storage.shared) || uniformSharedReads(ctx.fn).has(s)) {
        flush();
        this.stmtSafe(ctx, s);
        continue;
      }
      if (!containsBarrier(s)) {
        run.push(s);
        continue;
      }
      flush();
      this.barrierStatement(ctx, s, flag);
    }
    flush();
  }

  private barrierStatement(ctx: FnCtx, s: Stmt, flag: string): void {
    const why = (_r: Range, what: string): never =>
      this.error(
        firstBarrier(s) ?? _r,
        `__syncthreads() inside ${what} that depends on the thread, after some threads returned early: in CUDA the threads that skip it never arrive (undefined behaviour: a hang or wrong results). Make the ${what} the same for every thread of the block, and guard only the work`,
      );
    switch (s.kind) {
      case 'expr':
        this.stmtSafe(ctx, s);
        return;
      case 'block':
        ctx.scopes.push(new Map());
        this.emit('{', s.range);
        this.indent++;
        this.guarded(ctx, s.body, flag);
        this.indent--;
        this.emit('}');
        ctx.scopes.pop();
        return;
      case 'if': {
        if (!this.isUniform(ctx, s.test)) why(s.test.range, 'a condition');
        const c = this.cond(ctx, s.test);
        this.emit(`if (${c}) {`, s.range);
        this.indent++;
        this.guarded(ctx, [s.then], flag);
        this.indent--;
        if (s.else) {
          this.emit('} else {');
          this.indent++;
          this.guarded(ctx, [s.else], flag);
          this.indent--;
        }
        this.emit('}');
        return;
      }
      case 'for':
      case 'while': {
        const test = s.test;
        if (test && !this.isUniform(ctx, test)) why(test.range, 'a loop condition');
        if (s.kind === 'for' && s.init && s.init.kind === 'decl' && s.init.vars.some((v) => v.init && !this.isUniform(ctx, v.init))) why(s.init.range, 'a loop start');
        if (containsBreakOrContinue(s.body)) this.error(s.range, "a loop with 'break' or 'continue' and a __syncthreads() after an early return: move the return after the loop or make the loop's exit the same for every thread");
        ctx.scopes.push(new Map());
        const tail = this.loopHeader(ctx, s);
        if (s.kind === 'for') this.counterRange(ctx, s);
        this.indent++;
        ctx.loopDepth++;
        this.guarded(ctx, s.body.kind === 'block' ? s.body.body : [s.body], flag);
        ctx.loopDepth--;
        this.indent--;
        this.loopEnd(tail);
        ctx.scopes.pop();
        return;
      }
      default:
        this.error(s.range, `a ${s.kind} statement containing __syncthreads() after an early return: restructure it as a loop or 'if' whose condition is the same for every thread`);
    }
  }

  /**
   * The template arguments, and the local `const int`s with constant initializers in scope (the
   * innermost declaration of a name wins), for folding array sizes and case labels.
   */
  private constArgs(ctx: FnCtx): ReadonlyMap<string, TemplateArg> {
    let out: Map<string, TemplateArg> | undefined;
    for (const scope of ctx.scopes) {
      for (const [name, sym] of scope) {
        const c = sym.k === 'var' ? sym.constant : undefined;
        if (c === undefined && !out?.has(name)) continue;
        out ??= new Map(ctx.targs);
        if (c === undefined) out.delete(name);
        else out.set(name, { kind: 'num', text: String(c), value: c, isFloat: false, floatSuffix: false, unsigned: false, long: 0, range: ctx.fn.range });
      }
    }
    return out ?? ctx.targs;
  }

  private declareOnly(ctx: FnCtx, s: Extract<Stmt, { kind: 'decl' }>): void {
    try {
      for (const v of s.vars) {
        const t = this.declType(v, v.type, this.constArgs(ctx), (n) => this.lookup(ctx, n) !== undefined);
        if (t.k === 'ptr') {
          const init = v.init ? this.expr(ctx, v.init) : undefined;
          if (!init?.ptr) this.error(v.range, `pointer '${v.name}' needs an initial value that points into an array`);
          const name = this.ident(v.name);
          this.emit(`var ${name}: i32; // '${v.name}' points into '${init.ptr.base.name}' (an element offset)`, v.range);
          ctx.scopes[ctx.scopes.length - 1]!.set(v.name, { k: 'ptr', base: init.ptr.base, name, t });
          continue;
        }
        const name = this.ident(v.name);
        this.emit(`var ${name}: ${wgslType(t)};`, v.range);
        ctx.scopes[ctx.scopes.length - 1]!.set(v.name, { k: 'var', name, t, isConst: false });
      }
    } catch (e) {
      if (!(e instanceof Bail)) throw e;
    }
  }

  private assignDeclInits(ctx: FnCtx, s: Extract<Stmt, { kind: 'decl' }>): void {
    for (const v of s.vars) {
      if (!v.init) continue;
      this.stmtSafe(ctx, { kind: 'expr', expr: { kind: 'assign', op: '=', left: { kind: 'ident', name: v.name, range: v.range }, right: v.init, range: v.range }, range: s.range });
    }
  }

  private stmtSafe(ctx: FnCtx, s: Stmt): void {
    try {
      this.pre = [];
      this.preRange = s.range;
      this.stmt(ctx, s);
    } catch (e) {
      if (!(e instanceof Bail)) throw e;
      this.pre = [];
    }
  }

  private block(ctx: FnCtx, s: Stmt): void {
    ctx.scopes.push(new Map());
    this.indent++;
    if (s.kind === 'block') for (const x of s.body) this.stmtSafe(ctx, x);
    else this.stmtSafe(ctx, s);
    this.indent--;
    ctx.scopes.pop();
  }

  private stmt(ctx: FnCtx, s: Stmt): void {
    switch (s.kind) {
      case 'empty':
        return;
      case 'block':
        this.emit('{', s.range);
        this.block(ctx, s);
        this.emit('}');
        return;
      case 'decl':
        this.localDecl(ctx, s);
        return;
      case 'expr':
        this.exprStatement(ctx, s.expr, s.range);
        return;
      case 'if': {
        if (this.componentStore(ctx, s)) return;
        this.barrierCheck(ctx, s.test, s);
        const c = this.cond(ctx, s.test);
        this.emit(`if (${c}) {`, s.range);
        this.block(ctx, s.then);
        let alt = s.else;
        while (alt) {
          if (alt.kind === 'if') {
            this.barrierCheck(ctx, alt.test, alt);
            const c2 = this.cond(ctx, alt.test);
            if (this.pre.length) this.error(alt.test.range, "this 'else if' condition needs work before it (an atomic, a ++ or a conditional): compute it into a variable before the 'if'");
            this.emit(`} else if (${c2}) {`, alt.range);
            this.block(ctx, alt.then);
            alt = alt.else;
          } else {
            this.emit('} else {', alt.range);
            this.block(ctx, alt);
            alt = undefined;
          }
        }
        this.emit('}');
        return;
      }
      case 'for':
      case 'while': {
        if (s.kind === 'for' && !this.asWritten.has(s) && this.warpIdiomLoop(ctx, s)) return;
        const unroll = s.kind === 'for' ? this.unrollPlan(ctx, s) : undefined;
        if (unroll && s.kind === 'for') {
          this.unrolled(ctx, s, unroll);
          return;
        }
        if (s.test) this.barrierCheck(ctx, s.test, s);
        ctx.scopes.push(new Map());
        const tail = this.loopHeader(ctx, s);
        if (s.kind === 'for') this.counterRange(ctx, s);
        ctx.loopDepth++;
        this.block(ctx, s.body);
        ctx.loopDepth--;
        this.loopEnd(tail);
        ctx.scopes.pop();
        return;
      }
      case 'do': {
        this.barrierCheck(ctx, s.test, s);
        this.emit('loop {', s.range);
        ctx.loopDepth++;
        this.block(ctx, s.body);
        ctx.loopDepth--;
        this.indent++;
        this.preRange = s.test.range;
        const c = this.cond(ctx, s.test);
        this.emit('continuing {', s.test.range);
        this.indent++;
        if (this.pre.length) this.error(s.test.range, "this 'do … while' condition needs work before it: compute it into a variable at the end of the body");
        this.emit(`break if !(${c});`, s.test.range);
        this.indent--;
        this.emit('}');
        this.indent--;
        this.emit('}');
        return;
      }
      case 'return': {
        if (ctx.exitFlag && ctx.fn.global) {
          this.emit(`${ctx.exitFlag} = true; // return`, s.range);
          if (ctx.loopDepth) this.error(s.range, "'return' inside a loop of a kernel that uses __syncthreads() after it: set a flag and 'break' instead");
          return;
        }
        if (s.arg) {
          if (ctx.returnType.k === 'void') this.error(s.arg.range, `void function '${ctx.fn.name}' should not return a value`);
          const v = this.convert(this.expr(ctx, s.arg), ctx.returnType, s.arg.range);
          this.emit(`return ${v.code};`, s.range);
        } else {
          if (ctx.returnType.k !== 'void') this.error(s.range, `non-void function '${ctx.fn.name}' should return a value`);
          this.emit('return;', s.range);
        }
        return;
      }
      case 'break':
      case 'continue':
        this.emit(`${s.kind};`, s.range);
        return;
      case 'switch':
        this.switchStmt(ctx, s);
        return;
      case 'case':
      case 'default':
        this.error(s.range, `'${s.kind}' outside a switch`);
        return;
      case 'unsupported':
        this.error(s.range, s.what);
        return;
      case 'forRange':
        this.error(s.range, "a range-based 'for' in device code is not supported here: write the loop with an index (for (int i = 0; i < n; i++))");
    }
  }

  private switchStmt(ctx: FnCtx, s: Extract<Stmt, { kind: 'switch' }>): void {
    const v = this.expr(ctx, s.test);
    if (!isInt(promote(v.t))) this.error(s.test.range, `switch on a value of type '${typeName(v.t)}': it must be an integer`);
    const t = promote(v.t);
    const body = s.body.kind === 'block' ? s.body.body : [s.body];
    // Group case labels with their statements; C's fall-through is only allowed where a group ends with break/return.
    const groups: { labels: (Expr | 'default')[]; stmts: Stmt[]; range: Range }[] = [];
    for (const x of body) {
      if (x.kind === 'case' || x.kind === 'default') {
        const label = x.kind === 'case' ? x.test : 'default';
        const last = groups[groups.length - 1];
        if (last && last.stmts.length === 0) last.labels.push(label);
        else groups.push({ labels: [label], stmts: [], range: x.range });
      } else {
        if (!groups.length) this.error(x.range, 'a statement before the first case label is never run');
        groups[groups.length - 1]!.stmts.push(x);
      }
    }
    this.emit(`switch (${this.convert(v, t, s.test.range).code}) {`, s.range);
    this.indent++;
    const ends = (stmts: readonly Stmt[]): boolean => {
      const tail = stmts[stmts.length - 1];
      return !!tail && (tail.kind === 'break' || tail.kind === 'return' || tail.kind === 'continue');
    };
    groups.forEach((g, gi) => {
      // C++ [stmt.switch]: control runs on into the next case until a break. WGSL has no
      // fall-through, so a case that falls through repeats the statements of the cases it runs
      // into (each repeated line still maps to its own CUDA line).
      let stmts = g.stmts;
      for (let j = gi; !ends(stmts) && j < groups.length - 1 && (stmts.length || j > gi); ) stmts = [...stmts, ...groups[++j]!.stmts];
      const tail = stmts[stmts.length - 1];
      const labels = g.labels.map((l) => {
        if (l === 'default') return 'default';
        const c = this.constValue(l, this.constArgs(ctx));
        if (c === undefined) this.error(l.range, 'a case label must be a constant');
        return t.k === 'int' && !t.signed ? `${c >>> 0}u` : String(c);
      });
      this.emit(`case ${labels.join(', ')}: {`.replace('case default:', 'default:'), g.range);
      ctx.scopes.push(new Map());
      this.indent++;
      for (const x of stmts) {
        if (x === tail && x.kind === 'break') continue;
        this.stmtSafe(ctx, x);
      }
      this.indent--;
      ctx.scopes.pop();
      this.emit('}');
    });
    if (!groups.some((g) => g.labels.includes('default'))) this.emit('default: {}');
    this.indent--;
    this.emit('}');
  }

  /** A barrier under a condition that varies per thread is a CUDA bug: say so before WGSL does. */
  private barrierCheck(ctx: FnCtx, test: Expr, s: Stmt): void {
    if (!containsBarrier(s)) return;
    if (this.isUniform(ctx, test)) return;
    this.error(
      firstBarrier(s) ?? test.range,
      `__syncthreads() inside a ${s.kind === 'if' ? 'branch' : 'loop'} whose condition depends on the thread: CUDA requires every thread of the block to reach the same __syncthreads() (threads that skip it make the block hang or read stale data). Move the barrier out of the ${s.kind === 'if' ? "'if'" : 'loop'} and guard only the work`,
    );
  }

  /** Closes what loopHeader opened: the continuing block (after the body), the loop, and a block around its start. */
  private loopEnd(tail: LoopTail): void {
    if (tail.continuing) {
      this.indent++;
      this.emit('continuing {');
      this.indent++;
      for (const l of tail.continuing) this.emit(l.text, l.cuda);
      this.indent--;
      this.emit('}');
      this.indent--;
    }
    this.emit('}');
    if (tail.block) {
      this.indent--;
      this.emit('}');
    }
  }

  /** Loops lowered as written, inside the fallback branch of a recognised warp idiom. */
  private readonly asWritten = new WeakSet<Stmt>();

  /**
   * `if (k == 0) v.x = e; else if (k == 1) v.y = e; … else v.w = e;` with `v` a vector in shared
   * or global memory: one store to `v[k]` (componentChain.ts), where the branches would make the
   * lanes of a warp that pick different components store one after another. Anything else (the
   * tested value not a pure integer, the vector in registers, where the branches cost no memory
   * access) is lowered as written.
   */
  private componentStore(ctx: FnCtx, s: Extract<Stmt, { kind: 'if' }>): boolean {
    const chain = componentChain(s);
    if (!chain) return false;
    const target = chain.write.left;
    const diagnostics = this.diagnostics.length;
    const k = this.expr(ctx, chain.key);
    const o = target.arrow ? this.pointee(ctx, target) : this.expr(ctx, target.object);
    const space = o.lv?.kind === 'plain' ? o.lv.base?.space : undefined;
    if (!k.pure || k.t.k !== 'int' || isWide(k.t) || k.constant !== undefined || !vectorOf(o.t) || (space !== 'workgroup' && space !== 'storage') || this.pre.length || this.diagnostics.length !== diagnostics) {
      this.pre = [];
      this.diagnostics.length = diagnostics;
      return false;
    }
    const n = chain.count;
    const index = asU32(k, this.convert(k, INT, chain.key.range), 0);
    const r = rangeOfV(k);
    const inRange = r !== undefined && r[0] >= 0 && r[1] < n;
    const names = `0 … ${n - 1}: ${'xyzw'.slice(0, n).split('').join(', ')}`;
    const what = chain.key.kind === 'ident' ? `on ${chain.key.name} picks component ${chain.key.name}` : 'picks the component its tests name';
    this.emit(`// the 'if' chain ${what} (${names}): one indexed store`, s.range);
    this.dynamicComponent.set(target, inRange || chain.guarded ? index : `min(${index}, ${n - 1}u)`);
    try {
      if (chain.guarded && !inRange) {
        this.emit(`if (${paren(index, 51)} < ${n}u) {`, s.range);
        this.indent++;
        this.exprStatement(ctx, chain.write, s.range);
        this.indent--;
        this.emit('}');
      } else this.exprStatement(ctx, chain.write, s.range);
    } finally {
      this.dynamicComponent.delete(target);
    }
    return true;
  }
  /**
   * `make_float4(f(a, b.x, c.x), f(a, b.y, c.y), …)` or `make_float4(p.x + q.x, …)`: the same
   * operation on every component, as one operation on whole vectors (componentwise.ts), for float
   * vectors and functions that WGSL applies component by component. Undefined (nothing emitted)
   * where the shape or the types do not fit: the constructor is then lowered as written.
   */
  private vectorOperation(ctx: FnCtx, e: Extract<Expr, { kind: 'call' }>, t: CType): V | undefined {
    const shape = componentwise(e.args);
    const vec = vectorOf(t);
    if (!shape || !vec || vec.of.k !== 'float') return undefined;
    const fn = shape.op.kind === 'call' ? MATH[shape.op.name] : undefined;
    if (shape.op.kind === 'call' && (!fn || fn[0] === 'pow' || fn[1] !== shape.operands.length || this.lookup(ctx, shape.op.name))) return undefined;
    const diagnostics = this.diagnostics.length;
    const pre = this.pre.length;
    const codes: string[] = [];
    let ok = true;
    for (const o of shape.operands) {
      const v = this.expr(ctx, o.e);
      const fits =
        v.pure &&
        (o.kind === 'vector'
          ? v.t.k === 'struct' && vectorOf(v.t)?.n === vec.n && vectorOf(v.t)?.of.k === 'float'
          : (v.t.k === 'float' && v.t.bits === 32) || (v.t.k === 'int' && !isWide(v.t)));
      if (!fits) {
        ok = false;
        break;
      }
      if (o.kind === 'vector') codes.push(v.code);
      else {
        const f = this.convert(v, FLOAT, o.e.range).code;
        codes.push(shape.op.kind === 'call' ? `${wgslType(t)}(${f})` : f);
      }
    }
    if (!ok || this.pre.length !== pre || this.diagnostics.length !== diagnostics) {
      this.pre.length = pre;
      this.diagnostics.length = diagnostics;
      return undefined;
    }
    if (shape.op.kind === 'call') return { code: `${fn![0]}(${codes.join(', ')})`, t, prec: 100, pure: true };
    const prec = shape.op.op === '+' || shape.op.op === '-' ? 70 : 80;
    return { code: `${paren(codes[0]!, prec)} ${shape.op.op} ${paren(codes[1]!, prec + 1)}`, t, prec, pure: true };
  }

  /** A member written as an index by `componentStore`: the member expression → the WGSL index. */
  private readonly dynamicComponent = new Map<Expr, string>();

  /**
   * A warp scan or warp sum written as a shuffle loop (`warpIdioms.ts`) on a 32-bit integer with
   * the full mask: emitted as `subgroupInclusiveAdd`/`subgroupAdd` where a run-time test shows the
   * built-in computes what the loop does (all 32 lanes of the warp active and, for the scan, the
   * loop's `lane` equal to each lane's place in the warp), and as the loop, lowered as written,
   * otherwise. Integer addition wraps, so the order of the additions cannot change the result;
   * float loops stay loops (the built-in may add in another order). False when `s` is not one.
   */
  private warpIdiomLoop(ctx: FnCtx, s: Extract<Stmt, { kind: 'for' }>): boolean {
    const args = this.constArgs(ctx);
    const idiom = warpIdiom(s, (e) => (e.kind === 'ident' && e.name === 'warpSize' && !this.lookup(ctx, e.name) ? 32 : this.constValue(e, args)));
    if (!idiom) return false;
    const typeOf = (t: TypeRef): CType | undefined => {
      const ta = ctx.targs.get(t.base);
      return ta?.kind === 'type' ? (t.pointers.length || t.reference ? undefined : this.tryType(ta)) : this.tryType(t);
    };
    const int32 = (t: CType | undefined): t is Extract<CType, { k: 'int' }> => t?.k === 'int' && t.bits === 32 && !isWide(t);
    const sym = this.lookup(ctx, idiom.value);
    const counter = typeOf(idiom.counter.vars[0]!.type);
    if (sym?.k !== 'var' || !int32(sym.t) || !int32(counter)) return false;
    if (idiom.temp) {
      const t = typeOf(idiom.temp.vars[0]!.type);
      if (!int32(t) || t.signed !== sym.t.signed) return false;
    }
    const [mask, , , width] = idiom.shuffle.args;
    if ((this.constValue(mask!, args) ?? 0) >>> 0 !== 0xffffffff || (width && this.constValue(width, args) !== 32)) return false;
    const diagnostics = this.diagnostics.length;
    let lane = '';
    if (idiom.lane) {
      const v = this.expr(ctx, idiom.lane);
      const pure = v.pure !== false && !this.pre.length && this.diagnostics.length === diagnostics && v.t.k === 'int' && !isWide(v.t);
      if (!pure) {
        this.pre = [];
        this.diagnostics.length = diagnostics;
        return false;
      }
      lane = this.convert(v, UINT, idiom.lane.range).code;
    }
    ctx.kernel.warp = true;
    const name = sym.name;
    const builtin = idiom.kind === 'scan' ? 'subgroupInclusiveAdd' : 'subgroupAdd';
    const what = idiom.kind === 'scan' ? 'shuffle scan' : 'butterfly sum';
    this.emit(`// the ${what} of '${idiom.value}' below is ${builtin} when all 32 lanes of the warp run it${idiom.lane ? ` and ${idiom.lane.kind === 'ident' ? `'${idiom.lane.name}'` : 'the value compared with the offset'} is each lane's place in the warp` : ''}; otherwise it runs as written`, s.range);
    const whole = 'all(subgroupBallot(true) == vec4<u32>(0xffffffffu, 0u, 0u, 0u))';
    if (idiom.lane) {
      const ok = this.fresh('lanes_in_place');
      this.emit(`let ${ok} = subgroupAll(${lane} == warp_lane_);`, s.range);
      this.emit(`if (${whole} && ${ok}) {`, s.range);
    } else this.emit(`if (${whole}) {`, s.range);
    this.indent++;
    this.emit(`${name} = ${builtin}(${name});`, s.range);
    this.indent--;
    this.emit('} else {', s.range);
    this.indent++;
    this.asWritten.add(s);
    try {
      this.stmt(ctx, s);
    } finally {
      this.asWritten.delete(s);
    }
    this.indent--;
    this.emit('}');
    return true;
  }

  /**
   * `#pragma unroll` done by the translator where it matters most: a counted loop (a start, a
   * bound and a step known when compiling; at most 16 trips) whose body indexes a local array by
   * the counter (`acc[r] += …`). Unrolled, each copy reads the counter as a WGSL `const`, so the
   * array is indexed by constants and stays in registers; indexed by a variable, a GPU compiler
   * may keep it in (slow) local memory. Loops that leave early or change their counter stay loops.
   */
  private unrollPlan(ctx: FnCtx, s: Extract<Stmt, { kind: 'for' }>): UnrollPlan | undefined {
    const init = s.init;
    if (!init || init.kind !== 'decl' || init.vars.length !== 1 || !s.test || !s.update) return undefined;
    const decl = init.vars[0]!;
    if (decl.dims.length || !decl.init || decl.init.kind === 'init' || decl.type.pointers.length || decl.type.reference || init.storage.static) return undefined;
    const t = this.tryType(decl.type);
    if (!t || t.k !== 'int' || t.bits !== 32) return undefined;
    const args = this.constArgs(ctx);
    const start = this.constValue(decl.init, args);
    const test = s.test;
    if (start === undefined || test.kind !== 'binary' || (test.op !== '<' && test.op !== '<=') || test.left.kind !== 'ident' || test.left.name !== decl.name) return undefined;
    const end = this.constValue(test.right, args);
    const u = s.update;
    const counter = (x: Expr): boolean => x.kind === 'ident' && x.name === decl.name;
    const step = u.kind === 'unary' && u.op === '++' && counter(u.arg) ? 1 : u.kind === 'assign' && u.op === '+=' && counter(u.left) ? this.constValue(u.right, args) : undefined;
    if (end === undefined || !step || step <= 0) return undefined;
    const values: number[] = [];
    for (let x = start; test.op === '<' ? x < end : x <= end; x += step) {
      if (values.length === 16 || (!t.signed && x < 0)) return undefined;
      values.push(x);
    }
    if (!values.length) return undefined;
    // The body: no early exit, no write to the counter, and a local array indexed by it.
    let ok = true;
    let array: string | undefined;
    const visit = (n: unknown): void => {
      if (!ok || !n || typeof n !== 'object') return;
      if (Array.isArray(n)) return n.forEach(visit);
      const x = n as Expr | Stmt;
      if (x.kind === 'break' || x.kind === 'continue' || x.kind === 'return' || x.kind === 'switch' || x.kind === 'unsupported') ok = false;
      else if ((x.kind === 'assign' && counter(x.left)) || (x.kind === 'unary' && (x.op === '++' || x.op === '--' || x.op === '&') && counter(x.arg))) ok = false;
      else if (x.kind === 'call' && x.callee.kind === 'ident' && /^__sync/.test(x.callee.name)) ok = false;
      else if (x.kind === 'decl' && x.vars.some((d) => d.name === decl.name)) ok = false;
      else if (x.kind === 'index' && !array && x.object.kind === 'ident' && mentions([x.index], new Set([decl.name]))) {
        const sym = this.lookup(ctx, x.object.name);
        // A local array, or a parameter that points to a whole one (its offset is 0).
        if ((sym?.k === 'array' || (sym?.k === 'ptr' && sym.name === '')) && sym.base.space === 'function') array = x.object.name;
      }
      if (ok) forChildren(n, (v) => { visit(v); return false; });
    };
    visit(s.body);
    return ok && array ? { decl, t, values, array } : undefined;
  }

  private unrolled(ctx: FnCtx, s: Extract<Stmt, { kind: 'for' }>, plan: UnrollPlan): void {
    const name = this.ident(plan.decl.name);
    this.emit(`// unrolled: ${plan.values.length} trip${plan.values.length === 1 ? '' : 's'} of '${plan.decl.name}' (so that '${plan.array}' is indexed by constants)`, s.range);
    for (const x of plan.values) {
      this.emit('{', s.range);
      ctx.scopes.push(new Map([[plan.decl.name, { k: 'var', name, t: plan.t, isConst: true, constant: x }]]));
      this.indent++;
      this.emit(`const ${name}: ${wgslType(plan.t)} = ${plan.t.signed ? x : `${x}u`};`, plan.decl.range);
      this.indent--;
      this.block(ctx, s.body);
      ctx.scopes.pop();
      this.emit('}');
    }
  }

  /**
   * The lines `emit` writes, at indent 0, without writing them; the output and the indent are
   * restored even when `write` bails out on an error (a for loop's start or step naming an
   * undeclared identifier), so the statements after it keep their place.
   */
  private captured(write: () => void): { text: string; cuda?: Range }[] {
    const saved = this.out;
    const savedIndent = this.indent;
    this.out = [];
    this.indent = 0;
    try {
      write();
      return this.out;
    } finally {
      this.out = saved;
      this.indent = savedIndent;
    }
  }

  private loopHeader(ctx: FnCtx, s: Extract<Stmt, { kind: 'for' | 'while' }>): LoopTail {
    if (s.kind === 'while') {
      const c = this.cond(ctx, s.test);
      if (this.pre.length) {
        this.pre = [];
        this.emit('loop {', s.range);
        this.indent++;
        const c2 = this.cond(ctx, s.test);
        this.emit(`if (!(${c2})) { break; }`, s.test.range);
        this.indent--;
        return {};
      }
      this.emit(`while (${c}) {`, s.range);
      return {};
    }
    let init = '';
    let initLines: { text: string; cuda?: Range }[] = [];
    if (s.init) {
      initLines = this.captured(() => this.stmt(ctx, s.init!));
      // One statement, without its ';' and without a trailing comment (it would hide the rest of the header).
      if (initLines.length === 1) init = initLines[0]!.text.replace(/;\s*\/\/.*$/, ';').replace(/;$/, '');
    }
    // A start of several statements (int lo = 0, hi = n) goes before the loop, in a block of its own (C++ [stmt.for]: its names end with the loop).
    const opened = initLines.length > 1;
    if (opened) {
      this.emit('{', s.init?.range);
      this.indent++;
      for (const l of initLines) this.emit(l.text, l.cuda);
    }
    const c = s.test ? this.cond(ctx, s.test) : 'true';
    const condPre = this.pre;
    this.pre = [];
    let update = '';
    if (s.update) {
      const lines = this.captured(() => this.exprStatement(ctx, s.update!, s.update!.range));
      if (lines.length === 1 && !condPre.length) update = lines[0]!.text.replace(/;$/, '');
      else {
        // Anything that does not fit a for header (++lo, --hi) becomes a loop whose continuing block, after the body, steps it.
        let block = opened;
        if (init) {
          this.emit('{', s.init?.range);
          this.indent++;
          this.emit(`${init};`, s.init?.range);
          block = true;
        }
        this.emit('loop {', s.range);
        this.indent++;
        for (const p of condPre) this.emit(p);
        this.emit(`if (!(${c})) { break; }`, s.test?.range);
        this.indent--;
        return { continuing: lines, block };
      }
    }
    if (condPre.length) this.error(s.test!.range, "this loop condition needs work before it (an atomic, a ++ or a call): compute it into a variable inside the loop and 'break'");
    this.emit(`for (${opened ? '' : init}; ${c}; ${update}) {`, s.range);
    return { block: opened };
  }

  private localDecl(ctx: FnCtx, s: Extract<Stmt, { kind: 'decl' }>): void {
    const scope = ctx.scopes[ctx.scopes.length - 1]!;
    for (const v of s.vars) {
      if (ctx.scopes.some((sc) => sc === scope && sc.has(v.name))) this.error(v.range, `redefinition of '${v.name}'`);
      if (s.storage.shared) {
        this.sharedDecl(ctx, v, s.storage.extern, s.range);
        continue;
      }
      if (s.storage.static) this.error(v.range, `static local variable '${v.name}' in device code: use a __shared__ or __device__ variable`);
      const t = sizedByInit(v, v.type.base === 'auto' ? this.autoType(ctx, v) : this.declType(v, v.type, this.constArgs(ctx), (n) => this.lookup(ctx, n) !== undefined));
      const name = this.ident(v.name);
      if (t.k === 'ptr') {
        if (!v.init) this.error(v.range, `pointer '${v.name}' needs an initial value that points into an array (e.g. 'int *row = a + r * n;')`);
        const init = this.expr(ctx, v.init);
        if (!init.ptr) this.error(v.init.range, `'${v.name}' is a pointer, but its initial value is a '${typeName(init.t)}'`);
        if (!this.samePointee(t.to, init.ptr.base.elem)) this.error(v.init.range, `cannot initialize a variable of type '${typeName(t)}' with a pointer to '${typeName(init.ptr.base.elem)}'`);
        scope.set(v.name, { k: 'ptr', base: init.ptr.base, name, t });
        this.emit(`${this.assignedNames(ctx.fn).has(v.name) ? 'var' : 'let'} ${name}: i32 = ${init.ptr.off || '0'}; // '${v.name}' points into '${init.ptr.base.name}' (an element offset)`, s.range);
        continue;
      }
      if (t.k === 'array') {
        if (t.n === null) this.error(v.range, `local array '${v.name}' needs a size: write a constant in the brackets, or give it an initializer { … }`);
        const base: Base = { name, elem: t.of, key: `local:${ctx.kernel.entry}:${name}:${v.range.line}`, space: 'function', arrayType: wgslType(t) };
        scope.set(v.name, { k: 'array', base, name, t });
        if (v.init) {
          if (v.init.kind !== 'init') this.error(v.init.range, `array '${v.name}' must be initialised with { … }`);
          const items = v.init.items.map((x) => this.convert(this.expr(ctx, x), t.of, x.range).code);
          while (items.length < (t.n ?? 0)) items.push(this.zero(t.of));
          this.emit(`var ${name} = ${wgslType(t)}(${items.join(', ')});`, s.range);
        } else this.emit(`var ${name}: ${wgslType(t)};`, s.range);
        continue;
      }
      if (t.k === 'dim3' && (v.ctorArgs || !v.init)) {
        // dim3's constructor: components left out are 1 (`dim3 b;` is (1, 1, 1)).
        const a = (v.ctorArgs ?? []).map((x) => this.convert(this.expr(ctx, x), UINT, x.range).code);
        while (a.length < 3) a.push('1u');
        this.emit(`var ${name} = vec3<u32>(${a.join(', ')});`, s.range);
        scope.set(v.name, { k: 'var', name, t, isConst: false });
        continue;
      }
      if (t.k === 'struct' && v.init?.kind === 'init') {
        // C++ [dcl.init.aggr]: `Range r = { 10, 20 };` gives the fields in order; the rest are zero.
        const fields = this.structs.get(t.name) ?? [];
        if (v.init.items.length > fields.length) this.error(v.init.items[fields.length]!.range, `excess elements in the initializer of '${v.name}': '${typeName(t)}' has ${fields.length} field${fields.length === 1 ? '' : 's'}`);
        const items = fields.map((f, k) => {
          const x = (v.init as Extract<Expr, { kind: 'init' }>).items[k];
          if (!x) return this.zero(f.t);
          if (f.t.k === 'array' || f.t.k === 'struct' && !vectorOf(f.t)) this.error(x.range, `initializing the field '${f.name}' of type '${typeName(f.t)}' from a braced list is not supported: assign it after the declaration`);
          return this.convert(this.expr(ctx, x), f.t, x.range).code;
        });
        this.emit(`var ${name} = ${wgslType(t)}(${items.join(', ')});`, s.range);
        scope.set(v.name, { k: 'var', name, t, isConst: false });
        continue;
      }
      if (t.k === 'struct' && !v.init) {
        this.emit(`var ${name}: ${wgslType(t)};`, s.range);
        scope.set(v.name, { k: 'var', name, t, isConst: false });
        continue;
      }
      const isConst = v.type.isConst;
      let init = '';
      let initV: V | undefined;
      if (v.init) {
        initV = this.convert(uniformSharedReads(ctx.fn).has(s) ? this.uniformLoad(ctx, v.init) : this.expr(ctx, v.init), t, v.init.range);
        init = ` = ${initV.code}`;
      }
      else if (isConst) this.error(v.range, `default initialization of an object of const type '${typeName(t)}'`);
      const constant = isConst && v.init && t.k === 'int' && !isWide(t) ? this.constValue(v.init, this.constArgs(ctx)) : undefined;
      // A variable that nothing assigns after its declaration keeps its initial value's range.
      const start = initV ? rangeOfV(initV) : undefined;
      const range = start && !this.assignedNames(ctx.fn).has(v.name) ? start : undefined;
      scope.set(v.name, { k: 'var', name, t, isConst, ...(constant === undefined ? {} : { constant }), ...(range ? { range } : {}), ...(start ? { start } : {}) });
      // A local nothing assigns after its declaration is a WGSL `let`, as a hand-written kernel
      // would have it: Tint then knows its value and drops the bounds clamp of an index it proves
      // in range (a `var` it cannot follow: 1.2× the hand-written tiled matmuls' time on the H100).
      const fixed = init && (isConst || !this.assignedNames(ctx.fn).has(v.name));
      this.emit(`${fixed ? 'let' : 'var'} ${name}: ${wgslType(t)}${init};`, s.range);
    }
  }

  /** `__syncthreads(); T x = s;` with `s` a `__shared__` scalar: every thread reads one value (uniformRead.ts). */
  private uniformLoad(ctx: FnCtx, e: Expr): V {
    const v = this.expr(ctx, e);
    const sym = e.kind === 'ident' ? this.lookup(ctx, e.name) : undefined;
    if (sym?.k !== 'array' || !sym.base.scalar || sym.base.space !== 'workgroup') return v;
    // The word as stored (plain, or an atomic's value); anything else (a narrow type's conversion) stays a plain read.
    if (v.code !== sym.base.name && v.code !== `atomicLoad(&${sym.base.name})`) return v;
    return { code: `workgroupUniformLoad(&${sym.base.name})`, t: v.t, prec: 100, pure: false };
  }

  /** C++ [dcl.spec.auto]: the type of the initializer (an array or pointer expression gives a pointer). */
  private autoType(ctx: FnCtx, v: Declarator): CType {
    if (!v.init || v.init.kind === 'init') return this.error(v.range, `'auto ${v.name}' needs an initial value to take its type from (auto ${v.name} = …;)`);
    if (v.dims.length) this.error(v.range, `'${v.name}' declared as an array of 'auto': give the element type`);
    if (v.type.reference) this.error(v.type.range, `'auto&' locals are not supported here: use a plain 'auto' copy, or a pointer (auto *p = &x;)`);
    const saved = this.pre;
    this.pre = [];
    const x = this.expr(ctx, v.init);
    this.pre = saved;
    if (x.ptr) return { k: 'ptr', to: x.ptr.base.elem, isConst: false };
    if (x.t.k === 'void' || x.t.k === 'str') this.error(v.init.range, `cannot deduce the type of '${v.name}' from a '${typeName(x.t)}'`);
    return x.t;
  }

  private zero(t: CType): string {
    if (isWide(t)) return 'vec2<u32>(0u, 0u)';
    return t.k === 'float' ? '0.0f' : t.k === 'bool' ? 'false' : t.k === 'int' && !t.signed ? '0u' : t.k === 'int' ? '0i' : `${wgslType(t)}()`;
  }

  private sharedDecl(ctx: FnCtx, v: Declarator, isExtern: boolean, at: Range = v.range): void {
    const name = this.unique(v.name);
    if (isExtern) {
      if (v.dims.length !== 1 || v.dims[0] !== null) this.error(v.range, `'extern __shared__' array '${v.name}' must be declared with empty brackets: 'extern __shared__ float ${v.name}[];'`);
      const elem = narrowed(this.resolveType(v.type, ctx.targs));
      if (elem.k === 'ptr') this.error(v.range, 'a shared array of pointers is not supported');
      const override = `${name}_LENGTH`;
      this.sharedDecls.push(`override ${override}: u32 = 1; // set from the launch's shared bytes / ${sizeOf(elem)}`);
      this.sharedDecls.push(`var<workgroup> ${name}: array<${this.atomicElem(`shared:${ctx.fn.name}:${v.name}`, elem)}, ${override}>;`);
      const base: Base = { name, elem, key: `shared:${ctx.fn.name}:${v.name}`, space: 'workgroup' };
      ctx.scopes[ctx.scopes.length - 1]!.set(v.name, { k: 'array', base, name, t: { k: 'array', of: elem, n: null } });
      this.sharedHook(0, { name: v.name, override, elemBytes: sizeOf(elem) });
      return;
    }
    if (v.init) this.error(v.init.range, `initialization is not supported for __shared__ variables: assign '${v.name}' in the kernel, then __syncthreads()`);
    // C++ [dcl.array]: `T a[];` needs a size or an initializer; for __shared__ that is `extern`.
    if (v.dims.some((d) => d === null)) this.error(v.range, `__shared__ array '${v.name}' has no size: give it a constant size, or write 'extern __shared__ ${typeName(this.tryType(v.type) ?? INT)} ${v.name}[];' and pass its bytes as the third launch parameter`);
    const t = narrowed(this.declType(v, v.type, this.constArgs(ctx), (n) => this.lookup(ctx, n) !== undefined));
    const elem = t.k === 'array' ? t.of : t;
    const key = `shared:${ctx.fn.name}:${v.name}`;
    const wt = t.k === 'array' ? (t.of.k === 'array' ? wgslType(t) : `array<${this.atomicElem(key, t.of)}, ${t.n}>`) : this.atomicElem(key, t);
    ctx.kernel.staticShared = (ctx.kernel.staticShared ?? 0) + sizeOf(t, this.structFields);
    if (ctx.kernel.staticShared > 49152) {
      this.error(at, `__shared__ '${v.name}' brings the static shared memory of '${ctx.kernel.name}' to ${ctx.kernel.staticShared} bytes: CUDA allows at most 48 KB (49152 bytes) per block (nvcc: "uses too much shared data"); use smaller tiles, or fewer or narrower elements`);
    }
    this.sharedDecls.push(`var<workgroup> ${name}: ${wt};`);
    this.sharedHook(sizeOf(t));
    if (elem.k === 'int' && elem.bits < 32) this.report(v.range, `__shared__ '${typeName(elem)}' array '${v.name}' is stored one element per 32-bit word here (WGSL has no 8- or 16-bit types): the values are the same, the bank picture differs`, 'warning');
    if (t.k === 'array') ctx.scopes[ctx.scopes.length - 1]!.set(v.name, { k: 'array', base: { name, elem: t.of, key, space: 'workgroup' }, name, t });
    else ctx.scopes[ctx.scopes.length - 1]!.set(v.name, { k: 'array', base: { name, elem: t, key, space: 'workgroup', scalar: true }, name, t });
  }

  private atomicElem(key: string, elem: CType): string {
    if (!this.atomic.has(key)) return wgslType(elem);
    return elem.k === 'int' && elem.signed ? 'atomic<i32>' : 'atomic<u32>';
  }

  private samePointee(a: CType, b: CType): boolean {
    if (a.k === 'void' || b.k === 'void') return true;
    return wgslType(a) === wgslType(b) && sizeOf(a) === sizeOf(b);
  }

  // ---- uniformity (for barriers) ----
  /** Whether `e` has the same value in every thread of the block (CUDA's rule for barriers). */
  isUniform(ctx: FnCtx, e: Expr): boolean {
    const varying = this.varyingLocals(ctx);
    const walk = (x: Expr): boolean => {
      switch (x.kind) {
        case 'ident': {
          if (x.name === 'threadIdx' || x.name === '__activemask') return false;
          if (varying.has(x.name)) return false;
          const sym = this.lookup(ctx, x.name);
          if (sym?.k === 'array' || sym?.k === 'ptr') return true;
          return true;
        }
        case 'index':
        case 'call':
          if (x.kind === 'call' && x.callee.kind === 'ident' && (MATH[x.callee.name] || ['min', 'max', 'abs'].includes(x.callee.name))) return x.args.every(walk);
          return false;
        case 'unary':
          return x.op !== '*' && walk(x.arg);
        case 'binary':
        case 'assign':
        case 'comma':
          return walk(x.left) && walk(x.right);
        case 'cond':
          return walk(x.test) && walk(x.then) && walk(x.else);
        case 'member':
          return walk(x.object);
        case 'cast':
          return walk(x.arg);
        default:
          return true;
      }
    };
    return walk(e);
  }

  /** Locals of the current function assigned from thread-dependent values (a fixed point). */
  private varyingLocals(ctx: FnCtx): Set<string> {
    const cached = this.varyingCache.get(ctx.fn);
    if (cached) return cached;
    const assigns: [string, Expr, boolean][] = [];
    const visit = (n: unknown, underVarying: boolean): void => {
      if (!n || typeof n !== 'object') return;
      if (Array.isArray(n)) {
        for (const x of n) visit(x, underVarying);
        return;
      }
      const s = n as Stmt | Expr;
      // A __shared__ scalar read right after __syncthreads() is the same in every thread (uniformRead.ts).
      if (s.kind === 'decl') for (const v of s.vars) if (v.init && (underVarying || !uniformSharedReads(ctx.fn).has(s))) assigns.push([v.name, v.init, underVarying]);
      if (s.kind === 'assign' && s.left.kind === 'ident') assigns.push([s.left.name, s.right, underVarying]);
      if (s.kind === 'unary' && (s.op === '++' || s.op === '--') && s.arg.kind === 'ident' && underVarying) assigns.push([s.arg.name, s.arg, true]);
      if (s.kind === 'if' || s.kind === 'while' || s.kind === 'for' || s.kind === 'do') {
        const test = s.kind === 'for' ? s.test : s.test;
        const cond = test ? { e: test } : undefined;
        pending.push({ s, ...(cond ? { cond } : {}), underVarying });
      }
      forChildren(n, (v) => { visit(v, underVarying); return false; });
    };
    const pending: { s: Stmt; cond?: { e: Expr }; underVarying: boolean }[] = [];
    visit(ctx.fn.body, false);
    const varying = new Set<string>();
    const exprVarying = (x: Expr): boolean => {
      let v = false;
      const w = (n: unknown): void => {
        if (v || !n || typeof n !== 'object') return;
        if (Array.isArray(n)) return n.forEach(w);
        const e = n as Expr;
        if (e.kind === 'ident' && (e.name === 'threadIdx' || varying.has(e.name))) v = true;
        if (e.kind === 'index' || (e.kind === 'unary' && e.op === '*')) v = true;
        if (e.kind === 'call' && e.callee.kind === 'ident' && !MATH[e.callee.name] && !['min', 'max', 'abs'].includes(e.callee.name)) v = true;
        forChildren(n, (val) => { w(val); return false; });
      };
      w(x);
      return v;
    };
    for (let round = 0; round < 8; round++) {
      const before = varying.size;
      for (const [name, e, under] of assigns) if (under || exprVarying(e)) varying.add(name);
      // Assignments under a varying condition make the target varying too.
      for (const p of pending) {
        if (p.cond && exprVarying(p.cond.e)) {
          const inner: [string, Expr, boolean][] = [];
          const collect = (n: unknown): void => {
            if (!n || typeof n !== 'object') return;
            if (Array.isArray(n)) return n.forEach(collect);
            const s = n as Stmt | Expr;
            if (s.kind === 'assign' && s.left.kind === 'ident') inner.push([s.left.name, s.right, true]);
            if (s.kind === 'unary' && (s.op === '++' || s.op === '--') && s.arg.kind === 'ident') inner.push([s.arg.name, s.arg, true]);
            forChildren(n, (v) => { collect(v); return false; });
          };
          collect(p.s.kind === 'if' ? [p.s.then, p.s.else] : (p.s as { body: Stmt }).body);
          for (const [name] of inner) varying.add(name);
        }
      }
      if (varying.size === before) break;
    }
    this.varyingCache.set(ctx.fn, varying);
    return varying;
  }
  private readonly varyingCache = new Map<FunctionDecl, Set<string>>();

  /** The names `fn` writes after their declaration, in any scope (`writes.ts`; ranges: a name in it has none). */
  private assignedNames(fn: FunctionDecl): ReadonlySet<string> {
    let names = this.assignedCache.get(fn);
    if (!names) {
      names = writtenNames(fn, this.callees);
      this.assignedCache.set(fn, names);
    }
    return names;
  }
  private readonly assignedCache = new Map<FunctionDecl, Set<string>>();
  /** The program's functions of a name (its overloads; none for a built-in). */
  private readonly callees: Callees = (name) => this.overloads.get(name) ?? [];
  private readonly launchKernels: Record<string, string> = {};

  /** The range of a loop bound or step that is a constant, a variable or a built-in's member, without lowering it again. */
  private quickRange(ctx: FnCtx, e: Expr): IntRange | undefined {
    const c = this.constValue(e, this.constArgs(ctx));
    if (c !== undefined) return [c, c];
    if (e.kind === 'ident') {
      const sym = this.lookup(ctx, e.name);
      return sym?.k === 'var' ? (sym.constant !== undefined ? [sym.constant, sym.constant] : sym.range ?? typeRange(sym.t)) : undefined;
    }
    if (e.kind === 'member' && e.object.kind === 'ident' && !this.lookup(ctx, e.object.name)) return builtinRange(e.object.name, e.name);
    return undefined;
  }

  /**
   * A counted loop `for (int v = a; v < b; ++v or v += c)` whose body leaves `v` alone: inside the
   * body `v` lies in [a, b − 1] (b for `<=`), when `a`, `b` and `c` have known ranges and no step
   * can leave `v`'s type (so the bound holds in every execution, overflow included).
   */
  private counterRange(ctx: FnCtx, s: Extract<Stmt, { kind: 'for' }>): void {
    const init = s.init;
    if (!init || init.kind !== 'decl' || init.vars.length !== 1 || !s.test || !s.update) return;
    const d = init.vars[0]!;
    const sym = this.lookup(ctx, d.name);
    const test = s.test;
    if (sym?.k !== 'var' || sym.t.k !== 'int' || sym.t.bits !== 32 || !d.init || d.init.kind === 'init') return;
    if (test.kind !== 'binary' || (test.op !== '<' && test.op !== '<=') || test.left.kind !== 'ident' || test.left.name !== d.name) return;
    const counter = (x: Expr): boolean => x.kind === 'ident' && x.name === d.name;
    const u = s.update;
    const stepExpr = u.kind === 'unary' && u.op === '++' && counter(u.arg) ? undefined : u.kind === 'assign' && u.op === '+=' && counter(u.left) ? u.right : null;
    const written = writtenNames(ctx.fn, this.callees, s.body);
    if (stepExpr === null || written.has(d.name) || mentions([test.right], written)) return;
    const start = sym.start;
    // The comparison is in the counter's type when the bound's values all fit it: an `int` bound
    // that may be negative converts to a huge `unsigned` (C's usual arithmetic conversions).
    const bound = within(this.quickRange(ctx, test.right), sym.t);
    const step = stepExpr ? this.quickRange(ctx, stepExpr) : ([1, 1] as const);
    if (!start || !bound || !step || step[0] <= 0) return;
    const last = test.op === '<' ? bound[1] - 1 : bound[1];
    const limit = sym.t.signed ? 2147483647 : 4294967295;
    if (last + step[1] > limit || last < start[0]) return;
    sym.range = [start[0], last];
  }

  // ---- expressions ----
  private lookup(ctx: FnCtx, name: string): Sym | undefined {
    for (let i = ctx.scopes.length - 1; i >= 0; i--) {
      const s = ctx.scopes[i]!.get(name);
      if (s) return s;
    }
    return undefined;
  }

  private exprStatement(ctx: FnCtx, e: Expr, range: Range): void {
    if (e.kind === 'assign') {
      this.emit(this.assignment(ctx, e), range);
      return;
    }
    if (e.kind === 'unary' && (e.op === '++' || e.op === '--')) {
      this.emit(this.increment(ctx, e), range);
      return;
    }
    if (e.kind === 'comma') {
      this.exprStatement(ctx, e.left, range);
      this.exprStatement(ctx, e.right, range);
      return;
    }
    if (e.kind === 'call') {
      const v = this.call(ctx, e, true);
      // A statement is complete when it ends with ';' or with a comment after its ';'.
      const complete = /;(\s*\/\/[^\n]*)?$/.test(v.code);
      if (v.code) this.emit(v.t.k === 'void' || complete ? (complete ? v.code : `${v.code};`) : `_ = ${v.code};`, range);
      else if (this.pre.length) this.emit('', range);
      this.out = this.out.filter((l) => l.text.trim() !== '');
      return;
    }
    const v = this.expr(ctx, e);
    if (!v.pure) this.emit(`_ = ${v.code};`, range);
    else this.report(range, 'expression result unused', 'warning');
  }

  /** `a = b`, `a += b`: one WGSL assignment statement (without the trailing newline). */
  private assignment(ctx: FnCtx, e: Extract<Expr, { kind: 'assign' }>): string {
    const left = this.expr(ctx, e.left);
    if (!left.lv) {
      const root = e.left.kind === 'member' && e.left.object.kind === 'ident' ? e.left.object.name : e.left.kind === 'ident' ? e.left.name : undefined;
      if (root && ['threadIdx', 'blockIdx', 'blockDim', 'gridDim', 'warpSize'].includes(root) && !this.lookup(ctx, root)) {
        this.error(e.left.range, `expression is not assignable: ${root} is a built-in variable, read-only in CUDA; copy it into a variable of your own (unsigned int t = ${root}${root === 'warpSize' ? '' : '.x'};) and change that`);
      }
      this.error(e.left.range, 'expression is not assignable');
    }
    this.checkWritable(ctx, left, e.left);
    const lt = left.t;
    if (left.lv.kind === 'ptrvar') {
      const r = this.expr(ctx, e.right);
      const sym = left.lv.sym;
      if (e.op === '=') {
        if (!r.ptr) this.error(e.right.range, `assigning '${typeName(r.t)}' to the pointer '${sym.name}'`);
        if (r.ptr.base.key !== sym.base.key) this.error(e.right.range, `pointer '${sym.name}' points into '${sym.base.name}' and cannot be moved to '${r.ptr.base.name}' in this translation: use a second pointer variable`);
        return `${sym.name} = ${r.ptr.off || '0'};`;
      }
      if (e.op === '+=' || e.op === '-=') return `${sym.name} ${e.op} ${this.convert(r, INT, e.right.range).code};`;
      this.error(e.range, `invalid operator '${e.op}' on a pointer`);
    }
    let value: V;
    if (e.op === '=') value = this.convert(this.expr(ctx, e.right), lt, e.right.range);
    else {
      const op = e.op.slice(0, -1);
      const r = this.expr(ctx, e.right);
      const combined = this.binaryOp(op, { ...left, code: this.load(left) }, r, e.range);
      value = this.convert(combined, lt, e.range);
      // Keep the learner's compound operator where WGSL has the same one with the same types.
      if (left.lv.kind === 'plain' && lt.k !== 'int' || (left.lv.kind === 'plain' && lt.k === 'int' && lt.bits === 32 && promote(r.t).k === 'int' && wgslType(promote(r.t)) === wgslType(lt) && !['<<', '>>'].includes(op))) {
        if (lt.k !== 'bool' && wgslType(arithmetic(lt, r.t)) === wgslType(lt) && lt.k !== 'struct') {
          return `${left.lv.code} ${e.op} ${this.convert(r, lt, e.right.range).code};`;
        }
      }
      if (left.lv.kind === 'plain' && lt.k === 'int' && lt.bits === 32 && (op === '<<' || op === '>>')) return `${left.lv.code} ${e.op} ${this.convert(r, UINT, e.right.range).code};`;
    }
    return this.store(left, value, e.range);
  }

  private checkWritable(ctx: FnCtx, left: V, e: Expr): void {
    const lv = left.lv!;
    if (lv.kind === 'plain' && !lv.base && e.kind === 'ident') {
      const sym = this.lookup(ctx, e.name);
      if (sym?.k === 'var' && sym.isConst) this.error(e.range, `cannot assign to variable '${e.name}' with const-qualified type '${typeName(sym.t)}'`);
    }
    const base = lv.kind === 'plain' ? lv.base : lv.kind === 'ptrvar' ? undefined : lv.base;
    if (base) {
      if (base.space === 'constant') this.error(e.range, `'${base.name}' is __constant__ memory: kernels can only read it (fill it from the host with cudaMemcpyToSymbol)`);
      if (left.ptr === undefined && this.constPointee.has(base.key)) this.error(e.range, `cannot write through '${base.name}': it points to const data ('const ${typeName(base.elem)} *'); drop the const if the kernel writes it`);
      this.written.add(base.key);
    }
  }
  readonly constPointee = new Set<string>();

  private store(left: V, value: V, range: Range): string {
    const lv = left.lv!;
    switch (lv.kind) {
      case 'plain': {
        const t = left.t;
        if (t.k === 'int' && t.bits < 32 && !lv.base) return `${lv.code} = ${this.wrapSmall(value.code, t)};`;
        return `${lv.code} = ${value.code};`;
      }
      case 'atomic': {
        const v = lv.base.elem.k === 'float' ? `bitcast<u32>(${value.code})` : value.code;
        return `atomicStore(&${lv.ref}, ${v});`;
      }
      case 'packed': {
        const bits = packedBits(lv.base.elem);
        if (!this.atomic.has(lv.base.key)) {
          this.atomic.add(lv.base.key);
          this.needsRerun = true;
        }
        const fn = this.helper(`cuda_store_${bits}_${lv.base.name}`, `fn cuda_store_${bits}_${lv.base.name}(i: i32, v: u32) {\n  // ${bits}-bit element i of a packed buffer: clear its bits, then set them (other lanes' bytes untouched)\n  let word = i / ${32 / bits};\n  let shift = u32(i % ${32 / bits}) * ${bits}u;\n  atomicAnd(&${lv.base.name}[word], ~(${bits === 8 ? '0xffu' : '0xffffu'} << shift));\n  atomicOr(&${lv.base.name}[word], (v & ${bits === 8 ? '0xffu' : '0xffffu'}) << shift);\n}`);
        return `${fn}(${lv.index}, u32(${value.code}));`;
      }
      default:
        this.error(range, 'cannot assign here');
    }
  }

  private wrapSmall(code: string, t: Extract<CType, { k: 'int' }>): string {
    const shift = 32 - t.bits;
    if (t.signed) return `(${paren(code, 90)} << ${shift}u) >> ${shift}u`;
    return `${paren(code, 90)} & ${t.bits === 8 ? '0xff' : '0xffff'}${wgslType(t) === 'u32' ? 'u' : ''}`;
  }

  private load(v: V): string {
    return v.code;
  }

  private increment(ctx: FnCtx, e: Extract<Expr, { kind: 'unary' }>): string {
    const target = this.expr(ctx, e.arg);
    if (!target.lv) this.error(e.arg.range, `expression is not assignable (the operand of '${e.op}')`);
    this.checkWritable(ctx, target, e.arg);
    if (target.lv.kind === 'ptrvar') return `${target.lv.sym.name}${e.op};`;
    if (target.lv.kind === 'plain' && target.t.k === 'int' && target.t.bits === 32) return `${target.lv.code}${e.op};`;
    const one: V = { code: '1', t: INT, prec: 100, pure: true };
    return this.store(target, this.convert(this.binaryOp(e.op[0]!, target, one, e.range), target.t, e.range), e.range);
  }

  expr(ctx: FnCtx, e: Expr): V {
    switch (e.kind) {
      case 'num':
        return this.number(e);
      case 'char':
        return { code: String(e.value), t: INT, prec: 100, pure: true, constant: e.value };
      case 'bool':
        return { code: String(e.value), t: BOOL, prec: 100, pure: true };
      case 'str':
        return { code: JSON.stringify(e.value), t: { k: 'str' }, prec: 100, pure: true };
      case 'ident':
        return this.identifier(ctx, e);
      case 'member':
        return this.member(ctx, e);
      case 'index':
        return this.index(ctx, e);
      case 'unary':
        return this.unary(ctx, e);
      case 'binary': {
        if (e.op === '&&' || e.op === '||') {
          const l = this.cond(ctx, e.left);
          const savedPre = this.pre;
          this.pre = [];
          const r = this.cond(ctx, e.right);
          if (this.pre.length) {
            // C++ [expr.log.and]/[expr.log.or]: the right side (and the work before it) runs only when the left does not decide.
            const rightPre = this.pre;
            this.pre = savedPre;
            const tmp = this.fresh(e.op === '&&' ? 'both' : 'either');
            this.pre.push(`var ${tmp} = ${l};`, `if (${e.op === '&&' ? tmp : `!${tmp}`}) {`, ...rightPre.map((p) => `  ${p}`), `  ${tmp} = ${r};`, '}');
            return { code: tmp, t: BOOL, prec: 100, pure: true };
          }
          this.pre = savedPre;
          const prec = e.op === '&&' ? 30 : 20;
          const side = (c: string, opPrec: number): string => (exprPrec(c) >= 50 || (exprPrec(c) === opPrec) ? c : `(${c})`);
          return { code: `${side(l, prec)} ${e.op} ${side(r, 50) === r && exprPrec(r) >= 50 ? r : `(${r})`}`, t: BOOL, prec, pure: true };
        }
        return this.binaryOp(e.op, this.expr(ctx, e.left), this.expr(ctx, e.right), e.range);
      }
      case 'assign': {
        // An assignment used as a value: do it first, then read the target.
        const stmt = this.assignment(ctx, e);
        this.pre.push(stmt);
        const v = this.expr(ctx, e.left);
        return { ...v, pure: false };
      }
      case 'cond':
        return this.conditional(ctx, e);
      case 'call':
        return this.call(ctx, e, false);
      case 'cast': {
        const t = this.resolveType(e.type, ctx.targs);
        const v = this.expr(ctx, e.arg);
        if (t.k === 'ptr') {
          if (!v.ptr) this.error(e.range, `cast of a '${typeName(v.t)}' to the pointer type '${typeName(t)}' is not supported`);
          if (!this.samePointee(t.to, v.ptr.base.elem)) this.error(e.range, `reinterpreting a pointer to '${typeName(v.ptr.base.elem)}' as '${typeName(t)}' is not supported: WGSL buffers have one element type`);
          return v;
        }
        return this.convert(v, t, e.range, true);
      }
      case 'sizeof':
        return this.sizeofExpr(ctx, e);
      case 'comma': {
        this.exprStatement(ctx, e.left, e.left.range);
        return this.expr(ctx, e.right);
      }
      case 'launch':
        return this.error(e.range, 'a kernel launch <<<…>>> inside device code (dynamic parallelism) is not supported: launch it from the host');
      case 'new':
      case 'delete':
        return this.error(e.range, `'${e.kind}' in device code: allocate on the host (cudaMalloc) and pass a pointer, or use a __shared__ or local array`);
      case 'init':
        return this.error(e.range, 'a braced list here is not supported: give each element a value');
    }
  }

  private number(e: Extract<Expr, { kind: 'num' }>): V {
    if (e.isFloat) {
      const t: CType = e.floatSuffix ? FLOAT : { k: 'float', bits: 64 };
      return { code: floatLit(e.value), t, prec: 100, pure: true };
    }
    if (e.long === 2 || e.value > 0xffffffff) {
      // C [lex.icon]: a constant of more than 32 bits (or with an ll suffix) is 64-bit, computed exactly.
      const digits = e.text.replace(/'/g, '').replace(/[uUlL]+$/, '');
      const big = BigInt(/^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits);
      const t: CType = { k: 'int', name: e.unsigned || (big > 0x7fffffffffffffffn) ? 'unsigned long long' : 'long long', bits: 64, signed: !(e.unsigned || big > 0x7fffffffffffffffn) };
      return { code: wideLiteral(big), t, prec: 100, pure: true };
    }
    let t: CType;
    if (e.unsigned) t = e.long ? { k: 'int', name: e.long === 2 ? 'unsigned long long' : 'unsigned long', bits: 64, signed: false } : UINT;
    else if (e.long) t = { k: 'int', name: e.long === 2 ? 'long long' : 'long', bits: 64, signed: true };
    else if (e.value > 0x7fffffff) t = e.text.startsWith('0x') || e.text.startsWith('0X') ? (e.value > 0xffffffff ? { k: 'int', name: 'long', bits: 64, signed: true } : UINT) : { k: 'int', name: 'long', bits: 64, signed: true };
    else t = INT;
    if (e.value > 0xffffffff) this.report(e.range, `the constant ${e.text} does not fit in 32 bits; it is computed modulo 2^32 here (WebGPU has no 64-bit integers)`, 'warning');
    const v = t.k === 'int' && !t.signed ? e.value >>> 0 : e.value | 0;
    return { code: t.k === 'int' && !t.signed ? `${v}u` : `${v}`, t, prec: v < 0 ? 90 : 100, pure: true, constant: v };
  }

  private identifier(ctx: FnCtx, e: Extract<Expr, { kind: 'ident' }>): V {
    const sym = this.lookup(ctx, e.name);
    if (sym) {
      switch (sym.k) {
        case 'var':
          return { code: sym.name, t: sym.t, prec: 100, pure: true, lv: { kind: 'plain', code: sym.name }, ...(sym.range ? { range: sym.range } : {}), ...(sym.specialized ? { constant: sym.constant } : {}) };
        case 'value':
          return { code: sym.code, t: sym.t, prec: 100, pure: true };
        case 'ptr':
          return { code: sym.name, t: sym.t, prec: 100, pure: true, ptr: { base: sym.base, off: sym.name }, ...(sym.name ? { lv: { kind: 'ptrvar', sym } } : {}) };
        case 'ref':
          return this.element(sym.base, sym.off || '0', e.range);
        case 'array':
          if (sym.base.scalar) return this.element(sym.base, '0', e.range);
          return { code: sym.base.viaPointer ? `(*${sym.name})` : sym.name, t: sym.t, prec: 100, pure: true, ptr: { base: sym.base, off: '' } };
      }
    }
    const ta = ctx.targs.get(e.name);
    if (ta && ta.kind !== 'type') {
      const c = this.constValue(ta, ctx.targs);
      if (c === undefined) this.error(e.range, `template argument '${e.name}' must be a constant`);
      return { code: String(c), t: INT, prec: c < 0 ? 90 : 100, pure: true, constant: c };
    }
    switch (e.name) {
      case 'threadIdx':
      case 'blockIdx':
      case 'blockDim':
      case 'gridDim':
        if (!ctx.fn.global) ctx.kernel.builtinsUsed.add(e.name);
        return { code: e.name, t: DIM3, prec: 100, pure: true };
      case 'warpSize':
        return { code: '32', t: INT, prec: 100, pure: true, constant: 32 };
    }
    const c = this.constInts.get(e.name);
    if (c !== undefined) return { code: String(c), t: INT, prec: c < 0 ? 90 : 100, pure: true, constant: c };
    const g = this.globals.get(e.name);
    if (g) {
      if (g.kind === 'shared') this.error(e.range, `file-scope __shared__ '${e.name}': declare it inside the kernel`);
      const name = this.useGlobal(ctx.kernel, g);
      const key = `global:${g.name}`;
      const elem = g.type.k === 'array' ? g.type.of : g.type;
      const base: Base = { name, elem, key, space: g.kind === 'constant' ? 'constant' : 'storage' };
      if (g.type.k === 'array') return { code: name, t: g.type, prec: 100, pure: true, ptr: { base, off: '' } };
      return this.element(base, '0', e.range);
    }
    if (this.functions.has(e.name)) this.error(e.range, `'${e.name}' is a function: call it with ()`);
    return this.error(e.range, `use of undeclared identifier '${e.name}'`);
  }

  /**
   * Marks a global as used by kernel `k` and gives its WGSL name there: every kernel binds the
   * global at a binding of its own, so a kernel after the first that uses it (another kernel, or
   * another template instance) declares it under a name of its own.
   */
  private readonly globalOwners = new Map<string, string>();
  private useGlobal(k: KernelCtx, g: GlobalInfo): string {
    k.usedGlobals.set(g.name, g);
    let name = k.globalNames.get(g.name);
    if (!name) {
      const owner = this.globalOwners.get(g.name) ?? k.entry;
      this.globalOwners.set(g.name, owner);
      name = owner === k.entry ? g.wgslName : this.unique(`${g.wgslName}_${k.entry}`);
      k.globalNames.set(g.name, name);
    }
    return name;
  }

  private member(ctx: FnCtx, e: Extract<Expr, { kind: 'member' }>): V {
    const o = e.arrow ? this.pointee(ctx, e) : this.expr(ctx, e.object);
    if (o.t.k === 'dim3') {
      if (!['x', 'y', 'z'].includes(e.name)) {
        // At the member's name, as clang points; threadIdx and blockIdx are uint3, the others dim3.
        const at: Range = { ...e.range, line: e.range.endLine, col: Math.max(1, e.range.endCol - e.name.length) };
        const tn = e.object.kind === 'ident' && (e.object.name === 'threadIdx' || e.object.name === 'blockIdx') ? 'uint3' : 'dim3';
        this.error(at, `no member named '${e.name}' in '${tn}' (it has x, y and z)`);
      }
      const lv = o.lv?.kind === 'plain' ? { lv: { kind: 'plain' as const, code: `${o.code}.${e.name}` } } : {};
      const range = e.object.kind === 'ident' && o.code === e.object.name && !this.lookup(ctx, e.object.name) ? builtinRange(e.object.name, e.name) : undefined;
      return { code: `${paren(o.code, 100)}.${e.name}`, t: UINT, prec: 100, pure: o.pure, ...lv, ...(range ? { range } : {}) };
    }
    if (o.t.k === 'struct') {
      const f = this.structs.get(o.t.name)?.find((x) => x.name === e.name);
      if (!f) this.error(e.range, `no member named '${e.name}' in 'struct ${o.t.name}'`);
      const field = this.dynamicComponent.has(e) ? `[${this.dynamicComponent.get(e)}]` : `.${this.ident(e.name)}`;
      const lv = o.lv?.kind === 'plain' ? { lv: { kind: 'plain' as const, code: `${o.code}${field}`, ...(o.lv.base ? { base: o.lv.base } : {}) } } : {};
      return { code: `${paren(o.code, 100)}${field}`, t: f.t, prec: 100, pure: o.pure, ...lv };
    }
    if (o.t.k === 'ptr') return this.error(e.range, `member reference type '${typeName(o.t)}' is a pointer; use '->${e.name}'`);
    return this.error(e.range, `member reference '${e.arrow ? '->' : '.'}${e.name}' on a value of type '${typeName(o.t)}'`);
  }

  /** The object of `p->m`: C++ defines `E1->E2` as `(*(E1)).E2` ([expr.ref]), so `*p`, the element `p` points to. */
  private pointee(ctx: FnCtx, e: Extract<Expr, { kind: 'member' }>): V {
    const v = this.expr(ctx, e.object);
    if (!v.ptr) return this.error(e.range, `member reference type '${typeName(v.t)}' is not a pointer; use '.${e.name}'`);
    return this.element(v.ptr.base, v.ptr.off || '0', e.range);
  }

  private index(ctx: FnCtx, e: Extract<Expr, { kind: 'index' }>): V {
    const o = this.expr(ctx, e.object);
    const i0 = this.expr(ctx, e.index);
    if (!isInt(promote(i0.t))) this.error(e.index.range, `array subscript is not an integer (it is a '${typeName(i0.t)}')`);
    const i = isWide(i0.t) ? this.convert(i0, INT, e.index.range) : i0;
    // A row of a 2-D array.
    if (o.t.k === 'array' && o.t.of.k === 'array') {
      const code = `${o.code}[${i.code}]`;
      return { code, t: o.t.of, prec: 100, pure: false, lv: { kind: 'plain', code, ...(o.ptr ? { base: o.ptr.base } : {}) }, ...(o.ptr ? { ptr: o.ptr } : {}) };
    }
    if (o.ptr && o.t.k === 'array' && o.t.of.k !== 'array' && o.code.includes('[')) {
      // The inner dimension of a 2-D array.
      const code = `${o.code}[${i.code}]`;
      const base = o.ptr.base;
      if (this.atomic.has(base.key)) return this.atomicRef(base, code);
      return { code, t: o.t.of, prec: 100, pure: false, lv: { kind: 'plain', code, base } };
    }
    if (!o.ptr) this.error(e.object.range, `subscripted value is not an array or pointer (it is a '${typeName(o.t)}')`);
    // An unsigned index indexes as it is (WGSL takes u32 indices), with no conversion to i32.
    if (!o.ptr.off && i.t.k === 'int' && !i.t.signed && i.t.bits === 32) return this.element(o.ptr.base, i.code, e.range, true);
    // Packed bytes at an index proven non-negative: its word and shift in u32 arithmetic too.
    if (!o.ptr.off && packedBits(o.ptr.base.elem) && o.ptr.base.space === 'storage' && (rangeOfV(i)?.[0] ?? -1) >= 0) return this.element(o.ptr.base, asU32(i, i, 100), e.range, true);
    return this.element(o.ptr.base, this.offsetPlus(o.ptr.off, i, e.index.range), e.range);
  }

  private offsetPlus(off: string, i: V, range: Range): string {
    if (!off) return this.convert(i, INT, range).code;
    return `${off} + ${paren(this.convert(i, INT, range).code, 71)}`;
  }

  /** `base[index]` as a value and a place; `unsigned`: the index is a u32 (else an i32). */
  private element(base: Base, index: string, range: Range, unsigned = false): V {
    void range;
    const arr = base.viaPointer ? `(*${base.name})` : base.name;
    const elem = base.elem;
    if (packedBits(elem) && base.space === 'storage') {
      this.packed.add(base.key);
      const bits = packedBits(elem);
      const per = 32 / bits;
      const at = /^(\w+|u32\(\w+\))$/.test(index) ? index : `(${index})`;
      const wordIndex = unsigned ? `${at} / ${per}u` : `${at} / ${per}`;
      const shift = unsigned ? `(${at} % ${per}u) * ${bits}u` : `u32(${at} % ${per}) * ${bits}u`;
      const word = this.atomic.has(base.key) ? `atomicLoad(&${arr}[${wordIndex}])` : `${arr}[${wordIndex}]`;
      // The shift is below 32 − bits, so a shift and a mask (a shift up and an arithmetic shift
      // down for a signed type) are exact: cheaper than extractBits, which Tint clamps first.
      const raw = `((${word} >> (${shift})) & ${bits === 8 ? '0xffu' : '0xffffu'})`;
      const code = elem.k === 'bool' ? `(${raw} != 0u)` : elem.k === 'int' && elem.signed ? `(bitcast<i32>(${word} << (${32 - bits}u - ${shift})) >> ${32 - bits}u)` : raw;
      return { code, t: elem, prec: 100, pure: false, lv: { kind: 'packed', base, index: unsigned ? `i32(${index})` : index } };
    }
    const code = base.scalar ? arr : `${arr}[${index}]`;
    if (this.atomic.has(base.key)) return this.atomicRef(base, code);
    return { code, t: elem, prec: 100, pure: false, lv: { kind: 'plain', code, base } };
  }

  private atomicRef(base: Base, ref: string): V {
    const load = `atomicLoad(&${ref})`;
    const code = base.elem.k === 'float' ? `bitcast<f32>(${load})` : load;
    return { code, t: base.elem, prec: 100, pure: false, lv: { kind: 'atomic', ref, base } };
  }

  private unary(ctx: FnCtx, e: Extract<Expr, { kind: 'unary' }>): V {
    if (e.op === '++' || e.op === '--') {
      const target = this.expr(ctx, e.arg);
      if (e.postfix) {
        const t = this.fresh(target.lv?.kind === 'plain' && /^[A-Za-z_]\w*$/.test(target.code) ? target.code : 'old');
        this.pre.push(`let ${t} = ${target.code};`);
        this.pre.push(this.increment(ctx, e));
        return { code: t, t: target.t, prec: 100, pure: true };
      }
      this.pre.push(this.increment(ctx, e));
      return { ...this.expr(ctx, e.arg), pure: false };
    }
    if (e.op === '&') {
      const v = this.expr(ctx, e.arg);
      if (v.lv?.kind === 'plain' && v.lv.base) {
        // &a[i] → a pointer into a's base at i.
        const m = /\[(.*)\]$/.exec(v.lv.code);
        if (e.arg.kind === 'index' && m && !v.lv.code.includes('][')) {
          const inner = this.expr(ctx, e.arg.object);
          if (inner.ptr) return { code: v.code, t: { k: 'ptr', to: v.t, isConst: false }, prec: 100, pure: true, ptr: { base: inner.ptr.base, off: this.offsetPlus(inner.ptr.off, this.expr(ctx, e.arg.index), e.range) } };
        }
      }
      if (v.lv?.kind === 'atomic' || v.lv?.kind === 'packed') {
        if (e.arg.kind === 'index') {
          const inner = this.expr(ctx, e.arg.object);
          if (inner.ptr) return { code: v.code, t: { k: 'ptr', to: v.t, isConst: false }, prec: 100, pure: true, ptr: { base: inner.ptr.base, off: this.offsetPlus(inner.ptr.off, this.expr(ctx, e.arg.index), e.range) } };
        }
        if (e.arg.kind === 'ident' && v.lv.kind === 'atomic') return { code: v.code, t: { k: 'ptr', to: v.t, isConst: false }, prec: 100, pure: true, ptr: { base: v.lv.base, off: '0' } };
      }
      if (v.lv?.kind === 'plain' && v.lv.base?.scalar) return { code: v.code, t: { k: 'ptr', to: v.t, isConst: false }, prec: 100, pure: true, ptr: { base: v.lv.base, off: '0' } };
      if (e.arg.kind === 'unary' && e.arg.op === '*') return this.expr(ctx, e.arg.arg);
      if (e.arg.kind === 'ident') {
        const g = this.globals.get(e.arg.name);
        if (g && !this.lookup(ctx, e.arg.name)) {
          const name = this.useGlobal(ctx.kernel, g);
          return { code: name, t: { k: 'ptr', to: g.type, isConst: false }, prec: 100, pure: true, ptr: { base: { name, elem: g.type, key: `global:${g.name}`, space: g.kind === 'constant' ? 'constant' : 'storage' }, off: '0' } };
        }
      }
      if (e.arg.kind === 'ident') {
        const sym = this.lookup(ctx, e.arg.name);
        if (sym?.k === 'ref') return { code: v.code, t: { k: 'ptr', to: v.t, isConst: false }, prec: 100, pure: true, ptr: { base: sym.base, off: sym.off } };
        if (sym?.k === 'var' && v.lv?.kind === 'plain' && v.lv.code === sym.name) {
          if (sym.isConst) this.error(e.range, `cannot take the address of '${e.arg.name}': it is a const value or a kernel parameter here; copy it into a local variable first (int copy = ${e.arg.name};) and pass &copy`);
          // &local: a pointer to one function-space value (WGSL ptr<function, T>).
          const base: Base = { name: sym.name, elem: sym.t, key: `local:${ctx.kernel.entry}:${sym.name}`, space: 'function', arrayType: wgslType(sym.t), scalar: true };
          return { code: v.code, t: { k: 'ptr', to: v.t, isConst: false }, prec: 100, pure: true, ptr: { base, off: '' } };
        }
      }
      return this.error(e.range, "taking the address of this expression is not supported in device code: pass a local variable (&x), an array element (&a[i]) or the value itself");
    }
    if (e.op === '*') {
      const v = this.expr(ctx, e.arg);
      if (!v.ptr) this.error(e.range, `indirection requires pointer operand ('${typeName(v.t)}' invalid)`);
      return this.element(v.ptr.base, v.ptr.off || '0', e.range);
    }
    const v = this.expr(ctx, e.arg);
    if (e.op === '!') return { code: `!${paren(this.truth(v, e.arg.range), 90)}`, t: BOOL, prec: 90, pure: v.pure };
    if (v.t.k === 'ptr' || v.ptr) this.error(e.range, `invalid argument type '${typeName(v.t)}' to unary expression`);
    const t = promote(v.t);
    const c = this.convert(v, t, e.range);
    if (e.op === '+') return c;
    if (isWide(t) && e.op === '-') return { code: `${this.wide('u64_neg')}(${c.code})`, t, prec: 100, pure: v.pure };
    if (e.op === '~') {
      if (t.k !== 'int') this.error(e.range, `invalid argument type '${typeName(t)}' to unary expression '~'`);
      return { code: `~${paren(c.code, 90)}`, t, prec: 90, pure: v.pure };
    }
    if (t.k === 'int' && !t.signed) return { code: `(0u - ${paren(c.code, 71)})`, t, prec: 100, pure: v.pure };
    if (v.constant !== undefined) return { code: String(-v.constant | 0), t, prec: 90, pure: true, constant: -v.constant | 0 };
    return { code: `-${paren(c.code, 90)}`, t, prec: 90, pure: v.pure };
  }

  /** A value as a WGSL bool (C: non-zero is true). */
  private truth(v: V, range: Range): string {
    if (v.t.k === 'bool') return v.code;
    if (isWide(v.t)) return `any(${v.code} != vec2<u32>(0u, 0u))`;
    if (v.t.k === 'int') return `${paren(v.code, 51)} != ${wgslType(v.t) === 'u32' ? '0u' : '0'}`;
    if (v.t.k === 'float') return `${paren(v.code, 51)} != 0.0f`;
    if (v.ptr) this.error(range, 'testing a pointer for null is not supported in device code: buffers are never null here');
    return this.error(range, `value of type '${typeName(v.t)}' is not contextually convertible to 'bool'`);
  }

  cond(ctx: FnCtx, e: Expr): string {
    return this.truth(this.expr(ctx, e), e.range);
  }

  binaryOp(op: string, l: V, r: V, range: Range): V {
    const pure = l.pure && r.pure;
    // Pointer arithmetic.
    if (l.ptr && (op === '+' || op === '-') && !r.ptr) {
      if (!isInt(promote(r.t))) this.error(range, `pointer arithmetic needs an integer, not '${typeName(r.t)}'`);
      const k = this.convert(r, INT, range).code;
      const off = l.ptr.off ? `${l.ptr.off} ${op} ${paren(k, 71)}` : op === '-' ? `-${paren(k, 90)}` : k;
      return { code: l.code, t: l.t.k === 'array' ? { k: 'ptr', to: l.t.of, isConst: false } : l.t, prec: 100, pure, ptr: { base: l.ptr.base, off } };
    }
    if (r.ptr && op === '+' && !l.ptr) return this.binaryOp(op, r, l, range);
    if (l.ptr && r.ptr && op === '-') {
      if (l.ptr.base.key !== r.ptr.base.key) this.error(range, 'subtracting pointers into different arrays');
      return { code: `(${l.ptr.off || '0'}) - (${r.ptr.off || '0'})`, t: INT, prec: 70, pure };
    }
    if (l.ptr && r.ptr && ['==', '!=', '<', '<=', '>', '>='].includes(op)) {
      // C [expr.rel]/[expr.eq]: pointers into one array compare as their element positions.
      if (l.ptr.base.key !== r.ptr.base.key) this.error(range, `comparing pointers into different arrays ('${l.ptr.base.name}' and '${r.ptr.base.name}'): C leaves the order undefined; compare indices instead`);
      return { code: `${paren(l.ptr.off || '0', 51)} ${op} ${paren(r.ptr.off || '0', 51)}`, t: BOOL, prec: 50, pure };
    }
    if (l.ptr || r.ptr || l.t.k === 'ptr' || r.t.k === 'ptr') this.error(range, `invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`);
    if (!(l.t.k === 'int' || l.t.k === 'float' || l.t.k === 'bool') || !(r.t.k === 'int' || r.t.k === 'float' || r.t.k === 'bool')) {
      this.error(range, `invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`);
    }
    // 64-bit integer variables are warned about where they are declared; doubles where they are computed.
    if ((l.t.k === 'float' && l.t.bits === 64) || (r.t.k === 'float' && r.t.bits === 64)) {
      this.warnOnce(range, 'this expression is computed in double precision in CUDA (a double constant or variable) but in 32-bit float here: the last bits can differ; write float constants with an f suffix (0.5f)');
    }
    const folded = this.foldConstant(op, l, r);
    if (folded) return folded;
    if ((op === '<<' || op === '>>') ? isWide(promote(l.t)) : isWide(arithmetic(l.t, r.t))) return this.wideOp(op, l, r, range);
    if (op === '<<' || op === '>>') {
      const lt = promote(l.t);
      if (lt.k !== 'int' || promote(r.t).k !== 'int') this.error(range, `invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`);
      if (r.constant !== undefined && (r.constant < 0 || r.constant >= 32)) this.report(range, `shift count ${r.constant} is ${r.constant < 0 ? 'negative' : '>= the width of the type (32 bits)'}: undefined in C; WGSL uses the count modulo 32`, 'warning');
      const av = this.convert(l, lt, range);
      const a = av.code;
      const b = r.constant !== undefined ? `${r.constant >>> 0}u` : this.convert(r, UINT, range).code;
      const shifted = rangeOf(op, rangeOfV(av), rangeOfV(r), lt);
      return { code: `${paren(a, 90)} ${op} ${paren(b, 90)}`, t: lt, prec: 60, pure, ...(shifted ? { range: shifted } : {}) };
    }
    if (['<', '>', '<=', '>=', '==', '!='].includes(op)) {
      const t = arithmetic(l.t, r.t);
      const a = this.convert(l, t, range).code;
      const b = this.convert(r, t, range).code;
      return { code: `${paren(a, 60)} ${op} ${paren(b, 60)}`, t: BOOL, prec: 50, pure };
    }
    const t = arithmetic(l.t, r.t);
    if (['&', '|', '^'].includes(op)) {
      if (t.k !== 'int') this.error(range, `invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`);
      const a = this.convert(l, t, range);
      const b = this.convert(r, t, range);
      const masked = rangeOf(op, rangeOfV(a), rangeOfV(b), t);
      return { code: `${a.prec === 40 && a.code.includes(` ${op} `) ? a.code : paren(a.code, 90)} ${op} ${paren(b.code, 90)}`, t, prec: 40, pure, ...(masked ? { range: masked } : {}) };
    }
    if (op === '%' && t.k === 'float') this.error(range, "invalid operands to binary expression: '%' needs integers; use fmodf for floats");
    const a = this.convert(l, t, range);
    const b = this.convert(r, t, range);
    if ((op === '/' || op === '%') && t.k === 'int' && b.constant === 0) this.report(range, `${op === '/' ? 'division' : 'remainder'} by zero is undefined`, 'warning');
    const prec = op === '*' || op === '/' || op === '%' ? 80 : 70;
    const ra = rangeOfV(a);
    const rb = rangeOfV(b);
    const result = rangeOf(op, ra, rb, t);
    const known = result ? { range: result } : {};
    if ((op === '/' || op === '%') && t.k === 'int' && t.signed && t.bits === 32 && ra && rb && ra[0] >= 0 && rb[0] > 0) {
      // Both operands proven non-negative (the divisor positive): the u32 quotient or remainder is
      // C's, without the sign corrections of a signed one (ranges.ts).
      return { code: `i32(${asU32(l, a, 80)} ${op} ${asU32(r, b, 81)})`, t, prec: 100, pure, ...known };
    }
    return { code: `${paren(a.code, prec)} ${op} ${paren(b.code, prec + 1)}`, t, prec, pure: pure && !(op === '/' || op === '%') || pure, ...known };
  }

  /** A binary operator on 64-bit integers (`vec2<u32>`): WGSL's own where it works per word, else a helper. */
  private wideOp(op: string, l: V, r: V, range: Range): V {
    const pure = l.pure && r.pure;
    if (op === '<<' || op === '>>') {
      const lt = promote(l.t) as Extract<CType, { k: 'int' }>;
      if (!isInt(promote(r.t))) this.error(range, `invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`);
      if (r.constant !== undefined && (r.constant < 0 || r.constant >= 64)) this.report(range, `shift count ${r.constant} is ${r.constant < 0 ? 'negative' : '>= the width of the type (64 bits)'}: undefined in C; here the count is taken modulo 64`, 'warning');
      const fn = op === '<<' ? 'u64_shl' : lt.signed ? 'i64_shr' : 'u64_shr';
      const b = r.constant !== undefined ? `${r.constant >>> 0}u` : this.convert(r, UINT, range).code;
      return { code: `${this.wide(fn)}(${l.code}, ${b})`, t: lt, prec: 100, pure };
    }
    const t = arithmetic(l.t, r.t) as Extract<CType, { k: 'int' }>;
    const a = this.convert(l, t, range).code;
    const b = this.convert(r, t, range).code;
    const lt = t.signed ? 'i64_lt' : 'u64_lt';
    switch (op) {
      case '==':
        return { code: `all(${a} == ${b})`, t: BOOL, prec: 100, pure };
      case '!=':
        return { code: `any(${a} != ${b})`, t: BOOL, prec: 100, pure };
      case '<':
        return { code: `${this.wide(lt)}(${a}, ${b})`, t: BOOL, prec: 100, pure };
      case '>':
        return { code: `${this.wide(lt)}(${b}, ${a})`, t: BOOL, prec: 100, pure };
      case '<=':
        return { code: `!${this.wide(lt)}(${b}, ${a})`, t: BOOL, prec: 90, pure };
      case '>=':
        return { code: `!${this.wide(lt)}(${a}, ${b})`, t: BOOL, prec: 90, pure };
      case '&':
      case '|':
      case '^':
        return { code: `${paren(a, 90)} ${op} ${paren(b, 90)}`, t, prec: 40, pure };
    }
    const fn = { '+': 'u64_add', '-': 'u64_sub', '*': 'u64_mul', '/': t.signed ? 'i64_div' : 'u64_div', '%': t.signed ? 'i64_rem' : 'u64_rem' }[op];
    if (!fn) return this.error(range, `invalid operands to binary expression ('${typeName(l.t)}' and '${typeName(r.t)}')`);
    if ((op === '/' || op === '%') && /^vec2<u32>\(0u, 0u\)$/.test(b)) this.report(range, `${op === '/' ? 'division' : 'remainder'} by zero is undefined`, 'warning');
    return { code: `${this.wide(fn)}(${a}, ${b})`, t, prec: 100, pure };
  }

  /** Integer operations on two constants, folded with C's 32-bit rules (WGSL would reject an overflow). */
  private foldConstant(op: string, l: V, r: V): V | undefined {
    if (l.constant === undefined || r.constant === undefined || l.t.k !== 'int' || r.t.k !== 'int') return undefined;
    const t = op === '<<' || op === '>>' ? promote(l.t) : arithmetic(l.t, r.t);
    if (t.k !== 'int') return undefined;
    const u = !t.signed;
    const a = u ? l.constant >>> 0 : l.constant | 0;
    const b = u ? r.constant >>> 0 : r.constant | 0;
    let v: number;
    switch (op) {
      case '+': v = a + b; break;
      case '-': v = a - b; break;
      case '*': v = u ? Math.imul(a, b) >>> 0 : Math.imul(a, b); break;
      case '/': if (b === 0) return undefined; v = Math.trunc(a / b); break;
      case '%': if (b === 0) return undefined; v = a % b; break;
      case '<<': v = a << (b & 31); break;
      case '>>': v = u ? a >>> (b & 31) : a >> (b & 31); break;
      case '&': v = a & b; break;
      case '|': v = a | b; break;
      case '^': v = a ^ b; break;
      default: return undefined;
    }
    v = u ? v >>> 0 : v | 0;
    return { code: u ? `${v}u` : v === -2147483648 ? '(-2147483647 - 1)' : String(v), t, prec: v < 0 ? 90 : 100, pure: true, constant: v };
  }

  /** C's implicit or explicit conversion of `v` to `t`, as WGSL. */
  convert(v: V, t: CType, range: Range, explicit = false): V {
    const from = v.t;
    if (t.k === 'ptr' || from.k === 'ptr') {
      if (t.k === 'ptr' && v.ptr) return v;
      this.error(range, `cannot convert '${typeName(from)}' to '${typeName(t)}'`);
    }
    if (t.k === 'void') return { ...v, t };
    if (t.k === 'struct' || from.k === 'struct') {
      if (t.k === 'struct' && from.k === 'struct' && t.name === from.name) return v;
      this.error(range, `cannot convert '${typeName(from)}' to '${typeName(t)}'`);
    }
    if (t.k === 'dim3' || from.k === 'dim3') {
      if (t.k === 'dim3' && from.k === 'dim3') return v;
      if (t.k === 'dim3' && (from.k === 'int')) return { code: `vec3<u32>(${this.convert(v, UINT, range).code}, 1u, 1u)`, t, prec: 100, pure: v.pure };
      this.error(range, `cannot convert '${typeName(from)}' to '${typeName(t)}'${from.k === 'dim3' ? ": use one of its members ('.x')" : ''}`);
    }
    if (from.k === 'str' || t.k === 'str' || from.k === 'array' || t.k === 'array' || from.k === 'void') this.error(range, `cannot convert '${typeName(from)}' to '${typeName(t)}'`);
    if (t.k === 'bool') return { code: this.truth(v, range), t, prec: 50, pure: v.pure };
    if (isWide(t) || isWide(from)) return this.convertWide(v, t, range);
    const fw = wgslType(from);
    const tw = wgslType(t);
    // Literals convert in place.
    if (v.constant !== undefined && from.k === 'int') {
      if (t.k === 'float') return { code: floatLit(v.constant), t, prec: 100, pure: true, constant: v.constant };
      if (t.k === 'int') {
        const c = wrap(v.constant, t);
        return { code: tw === 'u32' ? `${c >>> 0}u` : String(c), t, prec: c < 0 ? 90 : 100, pure: true, constant: c };
      }
    }
    if (from.k === 'float' && t.k === 'int' && !explicit) this.warnOnce(range, `implicit conversion from '${typeName(from)}' to '${typeName(t)}' drops the fraction`);
    let code = v.code;
    let prec = v.prec;
    if (fw !== tw) {
      if (from.k === 'bool') code = `${tw}(${code})`;
      else if (from.k === 'int' && t.k === 'int') code = `${tw}(${code})`; // WGSL's i32(u32)/u32(i32) keep the bits, as C's conversion does
      else code = `${tw}(${code})`;
      prec = 100;
    }
    if (t.k === 'int' && t.bits < 32 && !(from.k === 'int' && from.bits <= t.bits && from.signed === t.signed)) {
      code = this.wrapSmall(code, t);
      prec = 40;
    }
    const kept = t.k === 'int' && (from.k === 'int' || from.k === 'bool') ? within(from.k === 'bool' ? [0, 1] : rangeOfV(v), t) : undefined;
    return { code, t, prec, pure: v.pure, ...(kept ? { range: kept } : {}) };
  }

  /** Conversions to and from 64-bit integers (`vec2<u32>`, low word first). */
  private convertWide(v: V, t: CType, range: Range): V {
    const from = v.t;
    const out = (code: string): V => ({ code, t, prec: 100, pure: v.pure });
    if (t.k === 'int' && isWide(t)) {
      if (isWide(from)) return { ...v, t };
      if (from.k === 'float') return out(`${this.wide(t.signed ? 'i64_from_f32' : 'u64_from_f32')}(${v.code})`);
      if (v.constant !== undefined) return out(wideLiteral(BigInt(v.constant)));
      if (from.k === 'bool') return out(`vec2<u32>(u32(${v.code}), 0u)`);
      // C [conv.integral]: a signed value widens with its sign, an unsigned one with zeros.
      if (from.k === 'int' && from.signed) return out(`${this.wide('i64_from_i32')}(${this.convert(v, INT, range).code})`);
      return out(`vec2<u32>(${this.convert(v, UINT, range).code}, 0u)`);
    }
    if (from.k !== 'int' || !isWide(from)) return this.error(range, `cannot convert '${typeName(from)}' to '${typeName(t)}'`);
    if (t.k === 'float') {
      return out(`${this.wide(from.signed ? 'i64_to_f32' : 'u64_to_f32')}(${v.code})`);
    }
    if (t.k !== 'int') return this.error(range, `cannot convert '${typeName(from)}' to '${typeName(t)}'`);
    // C [conv.integral]: to a narrower integer, the value modulo 2^N: the low word.
    const low = `${paren(v.code, 100)}.x`;
    const word: V = { code: wgslType(t) === 'i32' ? `bitcast<i32>(${low})` : low, t: wgslType(t) === 'i32' ? INT : UINT, prec: 100, pure: v.pure };
    return this.convert(word, t, range, true);
  }

  private conditional(ctx: FnCtx, e: Extract<Expr, { kind: 'cond' }>): V {
    const c = this.cond(ctx, e.test);
    const saved = this.pre;
    this.pre = [];
    const a = this.expr(ctx, e.then);
    const preA = this.pre;
    this.pre = [];
    const b = this.expr(ctx, e.else);
    const preB = this.pre;
    this.pre = saved;
    if (a.ptr || b.ptr) this.error(e.range, 'a conditional that chooses between pointers is not supported: index the arrays in an if/else');
    // C++ [expr.cond]/7: two operands of the same class type (float4, a struct) give that type.
    const sameStruct = a.t.k === 'struct' && b.t.k === 'struct' && a.t.name === b.t.name;
    if ((a.t.k === 'struct' || b.t.k === 'struct') && !sameStruct) this.error(e.range, `the two sides of this conditional have different types, '${typeName(a.t)}' and '${typeName(b.t)}': convert one to the other`);
    const t = a.t.k === 'bool' && b.t.k === 'bool' ? BOOL : sameStruct ? a.t : arithmetic(a.t, b.t);
    const ca = this.convert(a, t, e.then.range);
    const cb = this.convert(b, t, e.else.range);
    const either = union(rangeOfV(ca), rangeOfV(cb));
    const known = either ? { range: either } : {};
    if (a.pure && b.pure && !preA.length && !preB.length) {
      return { code: `select(${cb.code}, ${ca.code}, ${c})`, t, prec: 100, pure: true, ...known };
    }
    // Either side reads memory or has effects: only the chosen side may run, as in C.
    const tmp = this.fresh('cond');
    this.pre.push(`var ${tmp}: ${wgslType(t)};`);
    this.pre.push(`if (${c}) {`, ...preA.map((p) => `  ${p}`), `  ${tmp} = ${ca.code};`, '} else {', ...preB.map((p) => `  ${p}`), `  ${tmp} = ${cb.code};`, '}');
    return { code: tmp, t, prec: 100, pure: true, ...known };
  }

  private readonly structFields = (name: string): CType[] | undefined => this.structs.get(name)?.map((f) => f.t);

  private sizeofExpr(ctx: FnCtx, e: Extract<Expr, { kind: 'sizeof' }>): V {
    let bytes: number;
    if (e.type) bytes = sizeOf(this.resolveType(e.type, ctx.targs), this.structFields);
    else {
      const arg = e.arg!;
      const name = arg.kind === 'ident' ? arg.name : undefined;
      const sym = name ? this.lookup(ctx, name) : undefined;
      if (sym?.k === 'ptr') {
        bytes = 8;
        this.report(
          e.range,
          `sizeof(${name}) is the size of the pointer '${name}' (8 bytes), not of the array it points to: the value is 8 whatever the array's length. Pass the length as a parameter`,
          'warning',
        );
      } else if (sym?.k === 'array' && sym.t.k === 'array') {
        bytes = sizeOf(sym.t, this.structFields);
        const n = sym.t.n ?? 0;
        this.report(e.range, `sizeof(${name}) is ${bytes} bytes, not the ${n} elements of '${name}': to count elements write sizeof(${name}) / sizeof(${name}[0])`, 'warning');
      } else {
        const v = this.expr(ctx, arg);
        bytes = sizeOf(v.t, this.structFields);
      }
    }
    return { code: `${bytes}u`, t: { k: 'int', name: 'unsigned long', bits: 64, signed: false }, prec: 100, pure: true, constant: bytes };
  }

  // ---- calls ----
  call(ctx: FnCtx, e: Extract<Expr, { kind: 'call' }>, statement: boolean): V {
    if (e.callee.kind !== 'ident') {
      if (e.callee.kind === 'member') this.error(e.range, `calling a member function ('${e.callee.name}') is not supported in device code`);
      return this.error(e.range, 'calling through a function pointer is not supported');
    }
    const name = e.callee.name;
    const args = (): V[] => e.args.map((a) => this.expr(ctx, a));
    const argc = (n: number | number[]): void => {
      const ok = Array.isArray(n) ? n.includes(e.args.length) : e.args.length === n;
      if (!ok) this.error(e.range, `${name}() takes ${Array.isArray(n) ? n.join(' or ') : n} argument${n === 1 ? '' : 's'}, but ${e.args.length} ${e.args.length === 1 ? 'was' : 'were'} given`);
    };
    if (name === '__syncthreads') {
      argc(0);
      // CUDA: "all global and shared memory accesses made by these threads prior to
      // __syncthreads() are visible to all threads in the block". WGSL's workgroupBarrier orders
      // workgroup memory only; storageBarrier adds global memory where the kernel needs it.
      const code = ctx.kernel.globalSync ? 'workgroupBarrier(); storageBarrier(); // __syncthreads orders global memory too' : 'workgroupBarrier();';
      return { code, t: VOID, prec: 100, pure: false };
    }
    if (name === '__syncwarp') {
      return { code: 'workgroupBarrier(); // __syncwarp: WGSL has no warp-wide barrier, so the whole block waits here', t: VOID, prec: 100, pure: false };
    }
    if (name === '__threadfence' || name === '__threadfence_block') return { code: `storageBarrier(); // ${name}: orders this thread's writes`, t: VOID, prec: 100, pure: false };
    if (name === 'printf') return this.printf(ctx, e);
    const removed = /^__(shfl(_up|_down|_xor)?|ballot|any|all)$/.exec(name);
    if (removed) this.error(e.callee.range, `${name}() was removed in CUDA 9 (Volta): write ${name}_sync(0xffffffff, …) with the mask of the lanes that take part`);
    if (name === 'assert') {
      this.report(e.range, 'assert() in a kernel is not checked here: WGSL cannot stop a kernel; print with printf instead', 'warning');
      return { code: '', t: VOID, prec: 100, pure: true };
    }
    if (ATOMICS.has(name)) return this.atomicCall(ctx, e, name);
    if (WARP.has(name)) return this.warpCall(ctx, e, name, args());
    if (name === 'dim3' && !this.lookup(ctx, name)) {
      // dim3(x, y, z) as an expression; components left out are 1.
      if (e.args.length > 3) this.error(e.range, `dim3() takes at most 3 arguments, but ${e.args.length} were given`);
      const vs = args();
      const cs = vs.map((v, i) => this.convert(v, UINT, e.args[i]!.range).code);
      while (cs.length < 3) cs.push('1u');
      return { code: `vec3<u32>(${cs.join(', ')})`, t: DIM3, prec: 100, pure: vs.every((v) => v.pure) };
    }
    const made = name.startsWith('make_') ? VECTOR_TYPES.get(name.slice(5)) : undefined;
    if (made) {
      // make_int4(a, b, c, d): each component converted to the element type, as its prototype does.
      argc(made.n);
      const t: CType = { k: 'struct', name: name.slice(5) };
      const whole = this.vectorOperation(ctx, e, t);
      if (whole) return whole;
      const vs = args();
      const cs = vs.map((v, i) => this.convert(v, made.of, e.args[i]!.range).code);
      return { code: `${wgslType(t)}(${cs.join(', ')})`, t, prec: 100, pure: vs.every((v) => v.pure) };
    }
    const m = MATH[name];
    if (m) {
      argc(m[1]);
      const vs = args();
      const double = !name.endsWith('f') && !name.startsWith('__') && vs.some((v) => v.t.k === 'float' && v.t.bits === 64);
      if (double) this.warnOnce(e.range, `${name}() on a double is computed in 32-bit float here (WebGPU has no doubles); use ${name}f`);
      const cs = vs.map((v, i) => this.convert(v, FLOAT, e.args[i]!.range).code);
      const callee = m[0] === 'pow' && !name.startsWith('__') ? this.powHelper() : m[0];
      return { code: `${callee}(${cs.join(', ')})`, t: FLOAT, prec: 100, pure: vs.every((v) => v.pure) };
    }
    switch (name) {
      case 'min':
      case 'max':
      case 'umin':
      case 'umax': {
        argc(2);
        const [a, b] = args() as [V, V];
        const t = arithmetic(a.t, b.t);
        if (isWide(t)) {
          // min/max of 64-bit values: compare whole values (WGSL's min would compare word by word).
          const [ca, cb] = [this.convert(a, t, e.args[0]!.range), this.convert(b, t, e.args[1]!.range)];
          if (!ca.pure || !cb.pure) this.error(e.range, `${name}() of 64-bit values with side effects or memory reads in its arguments: copy them into variables first`);
          const lt = this.wide(t.k === 'int' && t.signed && !name.startsWith('u') ? 'i64_lt' : 'u64_lt');
          return { code: name.endsWith('min') ? `select(${cb.code}, ${ca.code}, ${lt}(${ca.code}, ${cb.code}))` : `select(${cb.code}, ${ca.code}, ${lt}(${cb.code}, ${ca.code}))`, t, prec: 100, pure: true };
        }
        return { code: `${name.replace('u', '')}(${this.convert(a, t, e.args[0]!.range).code}, ${this.convert(b, t, e.args[1]!.range).code})`, t, prec: 100, pure: a.pure && b.pure };
      }
      case 'abs':
      case 'labs':
      case 'llabs': {
        argc(1);
        const [a] = args() as [V];
        const t = name === 'llabs' ? { k: 'int' as const, name: 'long long' as const, bits: 64 as const, signed: true } : promote(a.t);
        if (isWide(t)) return { code: `${this.wide('i64_abs')}(${this.convert(a, t, e.args[0]!.range).code})`, t, prec: 100, pure: a.pure };
        return { code: `abs(${this.convert(a, t, e.args[0]!.range).code})`, t, prec: 100, pure: a.pure };
      }
      case '__ldg':
      case '__ldcg':
      case '__ldca':
      case '__ldcs': {
        // CUDA Programming Guide, Read-Only Data Cache Load Function: `T __ldg(const T* address)` returns *address (a cache hint only).
        argc(1);
        const [p] = args() as [V];
        if (!p.ptr) this.error(e.args[0]!.range, `${name}() takes a pointer (e.g. ${name}(&in[i])), not a '${typeName(p.t)}'`);
        const v = this.element(p.ptr.base, p.ptr.off || '0', e.range);
        return { code: v.code, t: v.t, prec: v.prec, pure: false };
      }
      case '__fdividef':
      case 'fdividef': {
        argc(2);
        const [a, b] = args() as [V, V];
        return { code: `${paren(this.convert(a, FLOAT, e.range).code, 80)} / ${paren(this.convert(b, FLOAT, e.range).code, 81)}`, t: FLOAT, prec: 80, pure: true };
      }
      case '__popc':
      case '__clz':
      case '__brev':
      case '__ffs': {
        argc(1);
        const [a] = args() as [V];
        const u = this.convert(a, UINT, e.args[0]!.range).code;
        if (name === '__popc') return { code: `i32(countOneBits(${u}))`, t: INT, prec: 100, pure: a.pure };
        if (name === '__clz') return { code: `i32(countLeadingZeros(${u}))`, t: INT, prec: 100, pure: a.pure };
        if (name === '__brev') return { code: `reverseBits(${u})`, t: UINT, prec: 100, pure: a.pure };
        // __ffs: 1-based position of the lowest set bit, 0 when none.
        return { code: `select(0, i32(countTrailingZeros(${u})) + 1, ${u} != 0u)`, t: INT, prec: 100, pure: a.pure };
      }
      case '__float_as_int':
      case '__float_as_uint':
      case '__int_as_float':
      case '__uint_as_float': {
        argc(1);
        const [a] = args() as [V];
        const to = name.endsWith('float') ? FLOAT : name.endsWith('uint') ? UINT : INT;
        const from = name.startsWith('__float') ? FLOAT : name.startsWith('__uint') ? UINT : INT;
        return { code: `bitcast<${wgslType(to)}>(${this.convert(a, from, e.range).code})`, t: to, prec: 100, pure: a.pure };
      }
      case '__mul24':
      case '__umul24': {
        argc(2);
        const t = name === '__mul24' ? INT : UINT;
        const [a, b] = args() as [V, V];
        return { code: `${paren(this.convert(a, t, e.range).code, 80)} * ${paren(this.convert(b, t, e.range).code, 81)}`, t, prec: 80, pure: true };
      }
    }
    if (HOST_ONLY.has(name)) this.error(e.range, `${name}() is a host function: device code cannot call it${name === 'malloc' ? ' (allocate with cudaMalloc on the host and pass the pointer)' : ''}`);
    const fn = this.functions.get(name);
    if (!fn) {
      if (name.startsWith('cuda')) this.error(e.range, `${name}() is a CUDA runtime call for host code; a kernel cannot call it`);
      this.error(e.range, `use of undeclared identifier '${name}'`);
    }
    const list = this.overloads.get(name) ?? [];
    if (list.length > 1) return this.deviceCall(ctx, e, this.chooseOverload(ctx, e, list), statement, list);
    if (fn.global) this.error(e.range, `a __global__ function ('${name}') cannot be called from device code like a function: launch it from the host with <<<…>>>`);
    if (!fn.device) this.error(e.range, `calling a __host__ function('${name}') from a __global__ function('${ctx.kernel.name}') is not allowed: mark '${name}' as __device__ (or __host__ __device__)`);
    if (!fn.body) this.error(e.range, `device function '${name}' is declared but never defined in this file`);
    return this.deviceCall(ctx, e, fn, statement);
  }

  /**
   * C++ [over.match], simplified: each argument ranks 0 for the parameter's own type, 1 for a
   * promotion (char/short/bool to int, float to double), 2 for any other arithmetic conversion;
   * the candidate with the lowest total wins, and a tie between two is ambiguous, as g++ says.
   */
  private chooseOverload(ctx: FnCtx, e: Extract<Expr, { kind: 'call' }>, list: readonly FunctionDecl[]): FunctionDecl {
    const saved = this.pre;
    this.pre = [];
    const args = e.args.map((a) => this.expr(ctx, a));
    this.pre = saved;
    const rank = (fn: FunctionDecl): number => {
      if (!fn.device || fn.global || e.args.length > fn.params.length || fn.params.slice(e.args.length).some((p) => !p.defaultValue)) return Infinity;
      let total = 0;
      fn.params.slice(0, e.args.length).forEach((p, i) => {
        const a = args[i]!;
        if (fn.template?.some((t) => t.name === p.type.base)) return;
        const pt = this.tryType(p.type);
        if (!pt) return void (total = Infinity);
        if (pt.k === 'ptr' || a.ptr) {
          total += pt.k === 'ptr' && a.ptr && this.samePointee(pt.to, a.ptr.base.elem) ? 0 : Infinity;
          return;
        }
        if (pt.k === 'struct' || a.t.k === 'struct') {
          total += pt.k === 'struct' && a.t.k === 'struct' && pt.name === a.t.name ? 0 : Infinity;
          return;
        }
        if (!(a.t.k === 'int' || a.t.k === 'float' || a.t.k === 'bool') || !(pt.k === 'int' || pt.k === 'float' || pt.k === 'bool')) return void (total = Infinity);
        if (typeName(pt) === typeName(a.t)) return;
        const promotion = (pt.k === 'int' && pt.name === 'int' && typeName(promote(a.t)) === 'int') || (pt.k === 'float' && pt.bits === 64 && a.t.k === 'float');
        total += promotion ? 1 : 2;
      });
      return total;
    };
    const ranked = list.map((fn) => ({ fn, r: rank(fn) })).sort((x, y) => x.r - y.r);
    const best = ranked[0]!;
    const name = (e.callee as Extract<Expr, { kind: 'ident' }>).name;
    const argTypes = args.map((a) => typeName(a.t)).join(', ');
    if (best.r === Infinity) this.error(e.range, `no matching function for call to '${name}(${argTypes})': none of its ${list.length} overloads takes these arguments`);
    if (ranked[1] && ranked[1].r === best.r) this.error(e.range, `call to '${name}(${argTypes})' is ambiguous: two overloads match equally well; convert an argument to the parameter type you mean (a cast)`);
    return best.fn;
  }

  private deviceCall(ctx: FnCtx, call: Extract<Expr, { kind: 'call' }>, fn: FunctionDecl, statement: boolean, overloads?: readonly FunctionDecl[]): V {
    // C++ [dcl.fct.default]: trailing parameters with defaults may be left out; the default is
    // evaluated at the call.
    const required = fn.params.findIndex((p, i) => fn.params.slice(i).every((q) => q.defaultValue));
    const least = required < 0 ? fn.params.length : required;
    if (call.args.length < least || call.args.length > fn.params.length) {
      const takes = least === fn.params.length ? `${least}` : `${least} to ${fn.params.length}`;
      this.error(call.range, `no matching function for call to '${fn.name}': it takes ${takes} argument${fn.params.length === 1 ? '' : 's'}, ${call.args.length} given`);
    }
    const e = call.args.length === fn.params.length ? call : { ...call, args: [...call.args, ...fn.params.slice(call.args.length).map((p) => p.defaultValue!)] };
    const targs = new Map<string, TemplateArg>();
    if (fn.template) {
      fn.template.forEach((p, i) => {
        const a = e.templateArgs?.[i];
        if (a) targs.set(p.name, this.substituted(a, ctx.targs));
      });
    }
    const argVals = e.args.map((a) => this.expr(ctx, a));
    // Deduce type template arguments from the arguments.
    if (fn.template) {
      fn.params.forEach((p, i) => {
        const tp = fn.template!.find((t) => t.kind === 'type' && t.name === p.type.base);
        if (tp && !targs.has(tp.name)) {
          const v = argVals[i]!;
          const at = v.ptr ? v.ptr.base.elem : v.t;
          targs.set(tp.name, { kind: 'type', base: typeName(at), isConst: false, pointers: [], restrict: false, reference: false, range: p.range });
        }
      });
      for (const tp of fn.template) if (!targs.has(tp.name)) this.error(e.range, `cannot deduce template argument '${tp.name}' of '${fn.name}': write ${fn.name}<…>(…)`);
    }
    const ptrParams: { index: number; base: Base; whole?: boolean }[] = [];
    const constParams = new Map<number, string>();
    const callArgs: string[] = [];
    const paramTypes = fn.params.map((p) => this.resolveType(p.type, targs));
    paramTypes.forEach((pt0, i) => {
      let v = argVals[i]!;
      let pt = pt0;
      const ref = fn.params[i]!.type.reference;
      if (ref) {
        // C++ [dcl.init.ref]: a reference binds to the argument's object; a const reference to
        // a value that has none (a + 1) binds to a temporary, which is passing the value.
        const arg = e.args[i]!;
        const named = arg.kind === 'ident' || arg.kind === 'index' || (arg.kind === 'unary' && arg.op === '*');
        if (!named || !v.lv) {
          if (!fn.params[i]!.type.isConst) this.error(arg.range, `non-const reference parameter '${fn.params[i]!.name}' needs a variable or an array element to refer to, not a value`);
          callArgs.push(this.convert(v, pt, arg.range).code);
          return;
        }
        if (pt.k === 'struct' || pt.k === 'array') this.error(arg.range, `a reference to a '${typeName(pt)}' is not supported here: pass a pointer to it, or its fields`);
        v = this.unary(ctx, { kind: 'unary', op: '&', arg, postfix: false, range: arg.range });
        if (!this.samePointee(pt, v.ptr!.base.elem)) this.error(arg.range, `cannot bind reference parameter '${fn.params[i]!.name}' of type '${typeName(pt)}&' to a '${typeName(v.ptr!.base.elem)}'`);
        pt = { k: 'ptr', to: pt, isConst: fn.params[i]!.type.isConst };
      }
      if (pt.k === 'ptr') {
        if (!v.ptr) this.error(e.args[i]!.range, `cannot pass '${typeName(v.t)}' to parameter '${fn.params[i]!.name}' of type '${typeName(pt)}'`);
        if (!this.samePointee(pt.to, v.ptr.base.elem)) this.error(e.args[i]!.range, `cannot pass a pointer to '${typeName(v.ptr.base.elem)}' to parameter '${fn.params[i]!.name}' of type '${typeName(pt)}'`);
        // An array passed whole (`f(x)`, not `f(x + 1)`): the instance indexes the array (or, for
        // a local, the WGSL pointer) itself, with no offset parameter, so a local's index known
        // when compiling stays a constant and a buffer's index needs no conversion to i32.
        const whole = !ref && !v.ptr.base.scalar && (v.ptr.off === '' || v.ptr.off === '0');
        ptrParams.push({ index: i, base: v.ptr.base, ...(whole ? { whole } : {}) });
        if (v.ptr.base.space === 'function') callArgs.push(v.ptr.base.viaPointer ? v.ptr.base.name : `&${v.ptr.base.name}`);
        if (!(v.ptr.base.space === 'function' && v.ptr.base.scalar) && !whole) callArgs.push(v.ptr.off || '0');
      } else {
        const c = this.convert(v, pt, e.args[i]!.range);
        // A constant for a 32-bit integer or bool parameter the body never assigns (a template
        // argument passed on, `insert(lists, K)`): the instance gets it as a constant, so the
        // loops it bounds have a known trip count, as a C++ compiler that inlines the call sees.
        const constant = v.constant !== undefined && ((pt.k === 'int' && pt.bits <= 32) || pt.k === 'bool') && fn.body && !this.assignedNames(fn).has(fn.params[i]!.name);
        if (constant) constParams.set(i, pt.k === 'bool' ? String(v.constant !== 0) : c.code);
        else callArgs.push(c.code);
      }
    });
    const builtins = this.builtinsOf(fn);
    for (const b of builtins) callArgs.push(b === 'lane' ? 'warp_lane_' : b);
    // One WGSL function serves every local it is given (a ptr<function, T> parameter); buffers and shared arrays each get their own.
    const baseId = (b: Base): string => (b.space === 'function' ? `function:${b.arrayType}:${b.scalar ? 'scalar' : 'array'}` : b.key);
    const key = `${fn.name}${overloads ? `#${overloads.indexOf(fn)}` : ''}|${[...targs].map(([k, v]) => `${k}=${this.templateArgText(v)}`).join(',')}|${ptrParams.map((p) => `${p.index}:${baseId(p.base)}${p.whole ? ':whole' : ''}`).join(',')}|${[...constParams].map(([i, c]) => `${i}=${c}`).join(',')}|${ctx.kernel.entry}`;
    if (this.lowering.has(fn)) this.error(e.range, `'${fn.name}' calls itself (recursion): WGSL has no recursion, so device code here cannot recurse; rewrite it as a loop`);
    let inst = this.instances.get(key);
    if (!inst) {
      // An overload is named by its parameter types (halve_int, halve_float), as a C++ compiler mangles it.
      const stem = overloads ? `${fn.name}_${paramTypes.map((t) => typeName(t).replace(/\bunsigned int\b/, 'uint').replace(/[^A-Za-z0-9]+/g, '_').replace(/_+$/, '')).join('_') || 'void'}` : fn.name;
      const wname = this.unique(ptrParams.some((p) => p.base.space !== 'function') || fn.template ? `${stem}_${ctx.kernel.entry}` : stem);
      inst = { name: wname, lines: [] };
      this.instances.set(key, inst);
      this.lowering.add(fn);
      try {
        this.deviceFunction(ctx, fn, targs, paramTypes, ptrParams, constParams, wname, builtins, inst);
      } finally {
        this.lowering.delete(fn);
      }
    }
    const ret = this.resolveType(fn.returnType, targs);
    const code = `${inst.name}(${callArgs.join(', ')})`;
    if (ret.k === 'void') {
      if (!statement) this.error(e.range, `'${fn.name}' returns void: its result cannot be used`);
      return { code: `${code};`, t: VOID, prec: 100, pure: false };
    }
    return { code, t: ret, prec: 100, pure: false };
  }

  /** Builtins a device function reads (directly or through its callees): passed as parameters. */
  private builtinsOf(fn: FunctionDecl, seen = new Set<FunctionDecl>()): string[] {
    if (seen.has(fn)) return [];
    seen.add(fn);
    const used = new Set<string>();
    const walk = (n: unknown): void => {
      if (!n || typeof n !== 'object') return;
      if (Array.isArray(n)) return n.forEach(walk);
      const e = n as Expr;
      if (e.kind === 'ident' && ['threadIdx', 'blockIdx', 'blockDim', 'gridDim'].includes(e.name)) used.add(e.name);
      if (e.kind === 'call' && e.callee.kind === 'ident') {
        if (WARP.has(e.callee.name)) used.add('lane');
        for (const callee of this.overloads.get(e.callee.name) ?? []) {
          if (callee !== fn && callee.device && !callee.global) for (const b of this.builtinsOf(callee, seen)) used.add(b);
        }
      }
      forChildren(n, (v) => { walk(v); return false; });
    };
    walk(fn.body);
    return ['threadIdx', 'blockIdx', 'blockDim', 'gridDim', 'lane'].filter((b) => used.has(b));
  }

  private deviceFunction(
    caller: FnCtx, fn: FunctionDecl, targs: Map<string, TemplateArg>, paramTypes: CType[], ptrParams: { index: number; base: Base; whole?: boolean }[],
    constParams: ReadonlyMap<number, string>, wname: string, builtins: string[], inst: { name: string; lines: { text: string; cuda?: Range }[] },
  ): void {
    const ctx: FnCtx = { kernel: caller.kernel, fn, targs, scopes: [new Map<string, Sym>()], returnType: this.resolveType(fn.returnType, targs), loopDepth: 0 };
    const params: string[] = [];
    const consts: string[] = [];
    fn.params.forEach((p, i) => {
      const pt = paramTypes[i]!;
      const name = this.ident(p.name || `arg${i}`);
      const pp = ptrParams.find((x) => x.index === i);
      if (pp && pp.base.space === 'function' && pp.base.scalar) {
        // A pointer to (or a reference to) one local: the WGSL pointer itself.
        params.push(`${name}: ptr<function, ${pp.base.arrayType}>`);
        const base: Base = { ...pp.base, name, viaPointer: true, key: `${pp.base.key}@${wname}:${name}` };
        ctx.scopes[0]!.set(p.name, fn.params[i]!.type.reference ? { k: 'ref', base, off: '', t: base.elem } : { k: 'ptr', base, name: '', t: pt });
      } else if (pp) {
        let base = pp.base;
        if (base.space === 'function') {
          const pname = `${name}_array`;
          params.push(`${pname}: ptr<function, ${base.arrayType}>`);
          base = { ...base, name: pname, viaPointer: true };
        }
        if (pp.whole) {
          ctx.scopes[0]!.set(p.name, { k: 'ptr', base, name: '', t: pt });
          return;
        }
        // The offset may not take the array's own name (a pointer parameter named like the
        // __shared__ array it points into would hide that array inside the function).
        const off = name === base.name ? this.unique(`${name}_offset`) : name;
        params.push(`${off}: i32`);
        ctx.scopes[0]!.set(p.name, fn.params[i]!.type.reference ? { k: 'ref', base, off, t: base.elem } : { k: 'ptr', base, name: off, t: pt });
      } else if (constParams.has(i)) {
        const code = constParams.get(i)!;
        consts.push(`  const ${name}: ${wgslType(pt)} = ${code}; // '${p.name}' is this constant at every call of this instance`);
        ctx.scopes[0]!.set(p.name, { k: 'var', name, t: pt, isConst: true, constant: pt.k === 'bool' ? Number(code === 'true') : Number(code.replace(/u$/, '')), specialized: true });
      } else {
        params.push(`${name}: ${wgslType(pt)}`);
        ctx.scopes[0]!.set(p.name, { k: 'var', name, t: pt, isConst: true });
      }
    });
    for (const b of builtins) params.push(b === 'lane' ? 'warp_lane_: u32' : `${b}: vec3<u32>`);
    const ret = ctx.returnType.k === 'void' ? '' : ` -> ${wgslType(ctx.returnType)}`;
    const savedOut = this.out;
    const savedIndent = this.indent;
    const savedPre = this.pre;
    const savedPreRange = this.preRange;
    this.out = [];
    this.indent = 0;
    this.pre = [];
    // WGSL parameters are immutable: copy the ones the body assigns into locals of the same name.
    const assigned = this.assignedNames(fn);
    const copies: string[] = [];
    fn.params.forEach((p, i) => {
      if (!assigned.has(p.name)) return;
      const sym = ctx.scopes[0]!.get(p.name)!;
      if (sym.k === 'ref' || (sym.k === 'ptr' && !sym.name)) return;
      const pn = sym.k === 'ptr' ? sym.name : this.ident(p.name);
      params[params.findIndex((x) => x.startsWith(`${pn}:`))] = params.find((x) => x.startsWith(`${pn}:`))!.replace(`${pn}:`, `${pn}_in:`);
      copies.push(`  var ${pn} = ${pn}_in;`);
      if (sym.k === 'var') ctx.scopes[0]!.set(p.name, { ...sym, isConst: false });
      void i;
    });
    this.emit(`fn ${wname}(${params.join(', ')})${ret} {`, fn.nameRange);
    for (const c of consts) this.emit(c, fn.nameRange);
    for (const c of copies) this.emit(c);
    this.indent = 1;
    for (const s of fn.body!.body) this.stmtSafe(ctx, s);
    const last = fn.body!.body[fn.body!.body.length - 1];
    if (ctx.returnType.k !== 'void' && (!last || last.kind !== 'return')) {
      this.emit(`return ${this.zero(ctx.returnType)}; // C: flowing off the end of a non-void function returns garbage`);
      this.report(fn.body!.range, `non-void function '${fn.name}' does not return a value on every path`, 'warning');
    }
    this.indent = 0;
    this.emit('}');
    inst.lines = this.out;
    this.out = savedOut;
    this.indent = savedIndent;
    this.pre = savedPre;
    this.preRange = savedPreRange;
  }

  /**
   * powf as the CUDA Math API defines it: WGSL's pow is exp2(y · log2(x)), undefined for x < 0
   * and unspecified for the special cases C fixes (powf(x, ±0) = 1 and powf(1, y) = 1, NaN
   * included; a negative x with a whole y: |x|^y, negative when y is odd).
   */
  private powHelper(): string {
    return this.helper(
      'cuda_powf',
      [
        '// powf: C\'s special cases, which WGSL\'s pow (exp2(y * log2(x))) leaves undefined',
        'fn cuda_powf(x: f32, y: f32) -> f32 {',
        '  if (y == 0.0 || x == 1.0) { return 1.0; }',
        '  if (x < 0.0 && y == floor(y)) {',
        '    let r = pow(-x, y);',
        '    return select(r, -r, fract(y * 0.5) != 0.0);',
        '  }',
        '  return pow(x, y);',
        '}',
      ].join('\n'),
    );
  }

  private atomicCall(ctx: FnCtx, e: Extract<Expr, { kind: 'call' }>, name: string): V {
    const n = name === 'atomicCAS' ? 3 : 2;
    if (e.args.length !== n) this.error(e.range, `${name}() takes ${n} arguments, but ${e.args.length} ${e.args.length === 1 ? 'was' : 'were'} given`);
    const p = this.expr(ctx, e.args[0]!);
    if (!p.ptr) this.error(e.args[0]!.range, `the first argument of ${name}() must be an address, such as &histo[i]`);
    const base = p.ptr.base;
    if (base.space === 'function') this.error(e.args[0]!.range, `${name}() on a local variable: atomics work on global (__device__, buffers) or __shared__ memory`);
    if (base.space === 'constant') this.error(e.args[0]!.range, `${name}() on __constant__ memory, which kernels cannot write`);
    const elem = base.elem;
    const isFloat = elem.k === 'float';
    if (elem.k === 'int' && elem.bits !== 32) this.error(e.args[0]!.range, `${name}() on a '${typeName(elem)}' is not supported: WebGPU atomics are 32-bit; use int or unsigned int`);
    if (isFloat && name !== 'atomicAdd' && name !== 'atomicExch') this.error(e.range, `${name}() on a float does not exist in CUDA: use atomicAdd, or atomicCAS on __float_as_int`);
    if (isFloat && elem.bits === 64) this.error(e.range, `${name}() on a double is not supported here (WebGPU has no 64-bit atomics)`);
    this.written.add(base.key);
    if (!this.atomic.has(base.key)) {
      this.atomic.add(base.key);
      this.needsRerun = true;
    }
    const arr = base.viaPointer ? `(*${base.name})` : base.name;
    let ref = base.scalar ? `&${arr}` : `&${arr}[${p.ptr.off || '0'}]`;
    const val = this.convert(this.expr(ctx, e.args[1]!), elem, e.args[1]!.range);
    const wt = wgslType(elem);
    // A compare-and-swap loop, inline (WGSL functions cannot take storage pointers): `next` is the
    // new value from `old`; the loop ends when the swap succeeded (or `stop` holds). The element's
    // index is computed once, before the loop, as the address is in CUDA.
    const casLoop = (word: string, next: (old: string) => string): string => {
      if (!base.scalar && p.ptr!.off && !/^[\w.]+$/.test(p.ptr!.off)) {
        const at = this.fresh('at');
        this.pre.push(`let ${at} = ${p.ptr!.off};`);
        ref = `&${arr}[${at}]`;
      }
      const old = this.fresh('old');
      const r = this.fresh('swap');
      this.pre.push(`var ${old} = atomicLoad(${ref});`);
      this.pre.push(`loop { // ${name}: retry until no other thread changed the word in between`);
      this.pre.push(`  let ${r} = atomicCompareExchangeWeak(${ref}, ${old}, ${next(old)});`);
      this.pre.push(`  if (${r}.exchanged) { break; }`);
      this.pre.push(`  ${old} = ${r}.old_value;`);
      this.pre.push('}');
      return word === 'f32' ? `bitcast<f32>(${old})` : old;
    };
    if (isFloat) {
      if (name === 'atomicExch') return { code: `bitcast<f32>(atomicExchange(${ref}, bitcast<u32>(${val.code})))`, t: FLOAT, prec: 100, pure: false };
      const v = this.fresh('add');
      this.pre.push(`let ${v} = ${val.code};`);
      // CUDA adds floats atomically in one step; WGSL has only integer atomics.
      return { code: casLoop('f32', (old) => `bitcast<u32>(bitcast<f32>(${old}) + ${v})`), t: FLOAT, prec: 100, pure: false };
    }
    const direct: Record<string, string> = { atomicAdd: 'atomicAdd', atomicSub: 'atomicSub', atomicMin: 'atomicMin', atomicMax: 'atomicMax', atomicExch: 'atomicExchange', atomicAnd: 'atomicAnd', atomicOr: 'atomicOr', atomicXor: 'atomicXor' };
    const d = direct[name];
    if (d) return { code: `${d}(${ref}, ${val.code})`, t: elem, prec: 100, pure: false };
    if (name === 'atomicCAS') {
      const cmp = this.fresh('compare');
      const nv = this.fresh('value');
      this.pre.push(`let ${cmp} = ${val.code};`);
      this.pre.push(`let ${nv} = ${this.convert(this.expr(ctx, e.args[2]!), elem, e.args[2]!.range).code};`);
      // atomicCAS returns the old value; WGSL's weak compare-exchange may fail spuriously, so retry while it still matched.
      const res = this.fresh('cas');
      const r = this.fresh('swap');
      this.pre.push(`var ${res}: ${wt};`);
      this.pre.push(`loop { // atomicCAS`);
      this.pre.push(`  let ${r} = atomicCompareExchangeWeak(${ref}, ${cmp}, ${nv});`);
      this.pre.push(`  ${res} = ${r}.old_value;`);
      this.pre.push(`  if (${r}.exchanged || ${r}.old_value != ${cmp}) { break; }`);
      this.pre.push('}');
      return { code: res, t: elem, prec: 100, pure: false };
    }
    // atomicInc/atomicDec (unsigned): wrap at the limit, as CUDA defines them.
    if (elem.k !== 'int' || elem.signed) this.error(e.range, `${name}() takes an 'unsigned int *'`);
    const limit = this.fresh('limit');
    this.pre.push(`let ${limit} = ${val.code};`);
    const inc = name === 'atomicInc';
    return { code: casLoop('u32', (old) => (inc ? `select(${old} + 1u, 0u, ${old} >= ${limit})` : `select(${old} - 1u, ${limit}, ${old} == 0u || ${old} > ${limit})`)), t: elem, prec: 100, pure: false };
  }
  needsRerun = false;
  /** Device functions being lowered (a call to one of them is recursion). */
  private readonly lowering = new Set<FunctionDecl>();

  private warpCall(ctx: FnCtx, e: Extract<Expr, { kind: 'call' }>, name: string, vs: V[]): V {
    ctx.kernel.warp = true;
    const need = name === '__activemask' ? 0 : name === '__ballot_sync' || name === '__any_sync' || name === '__all_sync' ? 2 : 3;
    if (vs.length < need || vs.length > need + 1) this.error(e.range, `${name}() takes ${need} arguments, but ${vs.length} were given`);
    if (vs[0] && vs[0].constant !== undefined && vs.length && name !== '__activemask' && (vs[0].constant >>> 0) !== 0xffffffff) {
      this.report(e.args[0]!.range, `${name}() with a partial mask: Warpscope runs all 32 lanes of the warp together, so the lanes outside the mask take part too`, 'warning');
    }
    let width = 32;
    if (vs.length === need + 1) {
      const w = vs[need]!;
      if (w.constant === undefined || w.constant < 1 || w.constant > 32 || (w.constant & (w.constant - 1)) !== 0) this.error(e.args[need]!.range, `the width of ${name}() must be a constant power of two from 1 to 32`);
      width = w.constant;
    }
    const lane = 'warp_lane_';
    switch (name) {
      case '__activemask':
        return { code: 'subgroupBallot(true).x', t: UINT, prec: 100, pure: false };
      case '__ballot_sync':
        return { code: `subgroupBallot(${this.truth(vs[1]!, e.args[1]!.range)}).x`, t: UINT, prec: 100, pure: false };
      case '__any_sync':
        return { code: `i32(subgroupAny(${this.truth(vs[1]!, e.args[1]!.range)}))`, t: INT, prec: 100, pure: false };
      case '__all_sync':
        return { code: `i32(subgroupAll(${this.truth(vs[1]!, e.args[1]!.range)}))`, t: INT, prec: 100, pure: false };
    }
    const v = vs[1]!;
    const t = promote(v.t);
    if (t.k !== 'int' && t.k !== 'float') this.error(e.args[1]!.range, `${name}() of a '${typeName(v.t)}' is not supported`);
    const val = this.convert(v, t, e.args[1]!.range).code;
    const k = this.convert(vs[2]!, UINT, e.args[2]!.range).code;
    // Within segments of `width` lanes, as CUDA defines them; a source outside the segment keeps the caller's own value.
    const seg = width === 32 ? '' : `${lane} & ${32 - width === 0 ? 0 : (~(width - 1)) >>> 0}u`;
    const inSeg = width === 32 ? lane : `(${lane} & ${width - 1}u)`;
    const tmp = this.fresh('shfl');
    this.pre.push(`let ${tmp} = ${val};`);
    switch (name) {
      case '__shfl_sync':
        return { code: width === 32 ? `subgroupShuffle(${tmp}, ${paren(k, 90)} % 32u)` : `subgroupShuffle(${tmp}, (${seg}) + ${paren(k, 90)} % ${width}u)`, t, prec: 100, pure: false };
      case '__shfl_xor_sync':
        return { code: width === 32 ? `subgroupShuffleXor(${tmp}, ${k})` : `select(${tmp}, subgroupShuffleXor(${tmp}, ${k}), ((${lane} ^ ${paren(k, 90)}) & ${(~(width - 1)) >>> 0}u) == (${seg}))`, t, prec: 100, pure: false };
      case '__shfl_down_sync':
        return { code: `select(${tmp}, subgroupShuffleDown(${tmp}, ${k}), ${inSeg} + ${paren(k, 71)} < ${width}u)`, t, prec: 100, pure: false };
      default:
        return { code: `select(${tmp}, subgroupShuffleUp(${tmp}, ${k}), ${inSeg} >= ${paren(k, 60)})`, t, prec: 100, pure: false };
    }
  }

  private printf(ctx: FnCtx, e: Extract<Expr, { kind: 'call' }>): V {
    const fmt = e.args[0];
    if (!fmt || fmt.kind !== 'str') return this.error(fmt?.range ?? e.range, 'printf in a kernel needs a string literal as its format (the output is formatted from the format the translator sees)');
    const all = [...fmt.value.matchAll(/%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z)?([diuxXofeEgGcsp%])/g)];
    // `%s` of a string literal is written into the format here, padded and cut as printf would
    // (the kernel has no strings to read at run time).
    let format = '';
    let from = 0;
    let argAt = 1;
    const kept: Expr[] = [];
    for (const m of all) {
      if (m[5] === '%') continue;
      const a = e.args[argAt++];
      if (m[5] === 's' && a?.kind === 'str' && m[2] !== '*' && m[3] !== '*') {
        let text = m[3] !== undefined ? a.value.slice(0, Number(m[3])) : a.value;
        const width = Number(m[2] ?? 0);
        if (text.length < width) text = m[1]!.includes('-') ? text.padEnd(width) : text.padStart(width);
        format += fmt.value.slice(from, m.index) + text.replaceAll('%', '%%');
        from = m.index + m[0].length;
      } else if (a) kept.push(a);
    }
    format += fmt.value.slice(from);
    kept.push(...e.args.slice(argAt));
    const specs = [...format.matchAll(/%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z)?([diuxXofeEgGcsp%])/g)].filter((m) => m[4] !== '%');
    const args = kept;
    if (specs.length !== args.length) this.report(e.range, `printf format has ${specs.length} conversion${specs.length === 1 ? '' : 's'} but ${args.length} argument${args.length === 1 ? '' : 's'} follow`, 'warning');
    const types: CType[] = [];
    const words: string[] = [];
    args.forEach((a, i) => {
      const v = this.expr(ctx, a);
      const spec = specs[i]?.[4] ?? 'd';
      if (spec === 's') this.error(a.range, "printf '%s' in a kernel prints string literals only here (a kernel has no strings in memory to read): write the text into the format, or print numbers (%d, %u, %f, %x, %c)");
      if (spec === 'p') this.error(a.range, "printf '%p' in a kernel is not supported: print numbers (%d, %u, %f, %x, %c)");
      let t = v.t.k === 'float' ? FLOAT : v.t.k === 'bool' ? INT : promote(v.t);
      if (t.k !== 'int' && t.k !== 'float') this.error(a.range, `printf cannot print a '${typeName(v.t)}'`);
      if (isWide(t)) {
        this.report(a.range, `printf of a 64-bit value ('${typeName(v.t)}') prints its low 32 bits here (the kernel's output records 32-bit words); print (int)(x >> 32) and (unsigned)x to see both words`, 'warning');
        t = narrowed(t);
      }
      types.push(t);
      const c = this.convert(v, t, a.range).code;
      words.push(t.k === 'float' || (t.k === 'int' && t.signed) ? `bitcast<u32>(${c})` : c);
    });
    const id = ctx.kernel.printf.length;
    ctx.kernel.printf.push({ format, args: types });
    const n = words.length;
    const buf = `${ctx.kernel.entry}_printf`;
    const fn = this.helper(`cuda_printf_${ctx.kernel.entry}_${n}`, `// printf: one record (format id, ${n} argument word${n === 1 ? '' : 's'}) appended to the printf buffer; word 0 counts the words used\nfn cuda_printf_${ctx.kernel.entry}_${n}(format: u32${words.map((_, i) => `, a${i}: u32`).join('')}) {\n  let at = atomicAdd(&${buf}[0], ${n + 1}u) + 1u;\n  if (at + ${n + 1}u > arrayLength(&${buf})) { return; }\n  atomicStore(&${buf}[at], format);\n${words.map((_, i) => `  atomicStore(&${buf}[at + ${i + 1}u], a${i});\n`).join('')}}`);
    return { code: `${fn}(${id}u${words.map((w) => `, ${w}`).join('')});`, t: VOID, prec: 100, pure: false };
  }

  // ---- assembly ----
  private assemble(kernels: LoweredKernel[], bodies: { text: string; cuda?: Range }[][]): LowerResult {
    const lines: { text: string; cuda?: Range }[] = [];
    const warp = kernels.some((k) => k.usesWarpFunctions);
    lines.push({ text: `// Generated by Warpscope from ${this.fileName}: each WGSL line notes nothing, the source map links it to its CUDA line.` });
    if (warp) {
      lines.push({ text: 'enable subgroups;' });
      lines.push({ text: '// CUDA lets any lane of a warp call __shfl_*_sync; WGSL would require the whole subgroup, so that rule is off.' });
      lines.push({ text: 'diagnostic(off, subgroup_uniformity);' });
    }
    lines.push({ text: '// The block size, set by each launch (CUDA: blockDim).' });
    lines.push({ text: 'override BLOCK_DIM_X: u32 = 1;' }, { text: 'override BLOCK_DIM_Y: u32 = 1;' }, { text: 'override BLOCK_DIM_Z: u32 = 1;' });
    for (const [name, fields] of this.structs) {
      if (!fields.length || VECTOR_TYPES.has(name)) continue;
      lines.push({ text: `struct ${name} {` });
      for (const f of fields) lines.push({ text: `  ${this.ident(f.name)}: ${wgslType(f.t)},` });
      lines.push({ text: '}' });
    }
    for (const h of this.helpers.values()) for (const l of h.split('\n')) lines.push({ text: l });
    for (const inst of this.instances.values()) lines.push(...inst.lines);
    for (const b of bodies) lines.push({ text: '' }, ...b);
    const map: MapEntry[] = [];
    lines.forEach((l, i) => {
      if (l.cuda) map.push({ wgslLine: i + 1, cuda: l.cuda });
    });
    return { wgsl: lines.map((l) => l.text).join('\n') + '\n', kernels, diagnostics: this.diagnostics, map, written: this.written, atomic: this.atomic, packed: this.packed, launchKernels: this.launchKernels };
  }
}

// ---- helpers ----
/** Bits per element of a buffer packed into u32 words: 8 for char and bool (one byte in CUDA), 16 for short, 0 otherwise. */
function packedBits(t: CType): number {
  if (t.k === 'bool') return 8;
  return t.k === 'int' && t.bits < 32 ? t.bits : 0;
}

function floatLit(v: number): string {
  if (!Number.isFinite(v)) return v > 0 ? 'bitcast<f32>(0x7f800000u)' : v < 0 ? 'bitcast<f32>(0xff800000u)' : 'bitcast<f32>(0x7fc00000u)';
  const f = Math.fround(v);
  let s = String(f === v ? v : f);
  if (Math.abs(f) > 3.4028234663852886e38) s = '3.4028234663852886e38';
  if (!/[.e]/.test(s)) s += '.0';
  return `${s}f`;
}

function wrap(v: number, t: Extract<CType, { k: 'int' }>): number {
  const bits = Math.min(t.bits, 32);
  if (bits === 32) return t.signed ? v | 0 : v >>> 0;
  const m = 2 ** bits;
  let r = ((v % m) + m) % m;
  if (t.signed && r >= m / 2) r -= m;
  return r;
}

/** Adds parentheses around `code` unless its precedence is at least `min`. */
/** What `v` is known to lie in: its constant, or its range (`ranges.ts`). */
function rangeOfV(v: V): IntRange | undefined {
  return v.constant !== undefined ? [v.constant, v.constant] : v.range;
}

/**
 * A non-negative integer value as a WGSL `u32`: `original` as written when it is already one (an
 * `unsigned` before C's conversion to `int`), else `converted` (its `i32`) reinterpreted.
 */
function asU32(original: V, converted: V, prec: number): string {
  if (converted.constant !== undefined) return `${converted.constant >>> 0}u`;
  if (original.t.k === 'int' && !isWide(original.t) && wgslType(original.t) === 'u32' && !original.ptr) return paren(original.code, prec);
  return `u32(${converted.code})`;
}

function paren(code: string, min: number): string {
  return exprPrec(code) >= min ? code : `(${code})`;
}

/** A conservative precedence of a WGSL expression string (100 for atoms and calls). */
function exprPrec(code: string): number {
  let depth = 0;
  let lowest = 100;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '(' || c === '[' || c === '<' && /[a-z0-9]$/i.test(code.slice(0, i)) && /^<(u32|i32|f32|bool|vec|array|atomic)/.test(code.slice(i))) {
      if (c === '<') {
        const close = code.indexOf('>', i);
        if (close > i) {
          i = close;
          continue;
        }
      }
      depth++;
      continue;
    }
    if (c === ')' || c === ']') {
      depth--;
      continue;
    }
    if (depth) continue;
    const two = code.slice(i, i + 2);
    if (c === ' ') {
      const op = /^ (\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%<>&|^]) /.exec(code.slice(i));
      if (op) {
        const o = op[1]!;
        const p = o === '||' ? 20 : o === '&&' ? 30 : ['&', '|', '^'].includes(o) ? 40 : ['==', '!=', '<', '>', '<=', '>='].includes(o) ? 50 : ['<<', '>>'].includes(o) ? 60 : ['+', '-'].includes(o) ? 70 : 80;
        lowest = Math.min(lowest, p);
        i += o.length + 1;
      }
      continue;
    }
    if (i === 0 && (c === '-' || c === '!' || c === '~' || c === '*' || c === '&') && two !== '--') lowest = Math.min(lowest, 90);
  }
  return lowest;
}

/** Statements whose answers are remembered: the ones that nest others. */
const COMPOUND = new Set(['block', 'if', 'for', 'while', 'do', 'switch']);

/**
 * A memoised "does this subtree contain …" over the syntax tree (trees are immutable). Only
 * compound statements are remembered: they are what the lowering asks about again at each level
 * of nesting, and a WeakMap entry per expression node cost more than the walks it saved (the
 * lowering of a 300-line file went from 6.4 to 2.5 ms without them).
 */
function containsOf(test: (n: Stmt | Expr) => boolean): (n: unknown) => boolean {
  const memo = new WeakMap<object, boolean>();
  const has = (n: unknown): boolean => {
    if (!n || typeof n !== 'object') return false;
    if (Array.isArray(n)) return n.some(has);
    const node = n as Stmt | Expr;
    if (!COMPOUND.has(node.kind)) return test(node) || forChildren(n, has);
    const known = memo.get(n);
    if (known !== undefined) return known;
    const r = test(node) || forChildren(n, has);
    memo.set(n, r);
    return r;
  };
  return has;
}

const containsBarrier = containsOf((e) => e.kind === 'call' && e.callee.kind === 'ident' && (e.callee.name === '__syncthreads' || e.callee.name === '__syncwarp'));
/** The range of the first `__syncthreads()`/`__syncwarp()` call in a subtree. */
function firstBarrier(n: unknown): Range | undefined {
  if (!n || typeof n !== 'object') return undefined;
  if (Array.isArray(n)) {
    for (const x of n) {
      const r = firstBarrier(x);
      if (r) return r;
    }
    return undefined;
  }
  const e = n as Expr;
  if (e.kind === 'call' && e.callee.kind === 'ident' && (e.callee.name === '__syncthreads' || e.callee.name === '__syncwarp')) return e.range;
  let found: Range | undefined;
  forChildren(n, (c) => !!(found = firstBarrier(c)));
  return found;
}

const containsReturn = containsOf((s) => s.kind === 'return');

function containsBreakOrContinue(n: unknown, depth = 0): boolean {
  if (!n || typeof n !== 'object') return false;
  if (Array.isArray(n)) return n.some((x) => containsBreakOrContinue(x, depth));
  const s = n as Stmt;
  if ((s.kind === 'break' || s.kind === 'continue') && depth === 0) return true;
  const inner = s.kind === 'for' || s.kind === 'while' || s.kind === 'do' || s.kind === 'switch' ? depth + 1 : depth;
  return forChildren(n, (v) => containsBreakOrContinue(v, inner));
}

/** A function's parameter list as overloading sees it (types, pointers, references; no names). */
/** C++ [dcl.init.aggr]: `T a[] = { … }` takes its size from the initializer's elements. */
function sizedByInit(v: Declarator, t: CType): CType {
  return t.k === 'array' && t.n === null && v.init?.kind === 'init' ? { ...t, n: v.init.items.length } : t;
}

/** Whether template arguments name any of `names` (a dependent use inside a template). */
function mentions(args: readonly TemplateArg[], names: ReadonlySet<string>): boolean {
  if (!names.size) return false;
  let found = false;
  const visit = (n: unknown): void => {
    if (found || !n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(visit);
    const x = n as { kind?: string; name?: string; base?: string };
    if ((x.kind === 'ident' && names.has(x.name!)) || (x.kind === 'type' && names.has(x.base!))) found = true;
    else forChildren(n, (v) => { visit(v); return false; });
  };
  visit(args);
  return found;
}

function signature(f: FunctionDecl): string {
  return f.params.map((p) => `${p.type.base}${'*'.repeat(p.type.pointers.length)}${p.type.reference ? '&' : ''}${p.type.pointers.length && p.type.isConst ? ' const' : ''}`).join(',');
}

/** `param:k:a`, `shared:k:s`, `global:g` for each atomic whose address names them directly. */
function atomicRoots(unit: TranslationUnit): Set<string> {
  const roots = new Set<string>();
  for (const fn of unit.items) {
    if (fn.kind !== 'function' || !fn.body || !fn.device) continue;
    const shared = new Set<string>();
    const walk = (n: unknown): boolean => {
      if (!n || typeof n !== 'object') return false;
      const x = n as Stmt | Expr;
      if (x.kind === 'decl' && x.storage.shared) for (const v of x.vars) shared.add(v.name);
      if (x.kind === 'call' && x.callee.kind === 'ident' && ATOMICS.has(x.callee.name) && x.args[0]) {
        let r: Expr = x.args[0];
        for (;;) {
          if (r.kind === 'unary' && (r.op === '&' || r.op === '*')) r = r.arg;
          else if (r.kind === 'index') r = r.object;
          else if (r.kind === 'binary' && (r.op === '+' || r.op === '-')) r = r.left;
          else if (r.kind === 'cast') r = r.arg;
          else break;
        }
        if (r.kind === 'ident') {
          const name = r.name;
          if (fn.global && fn.params.some((p) => p.name === name)) roots.add(`param:${fn.name}:${name}`);
          else if (shared.has(name)) roots.add(`shared:${fn.name}:${name}`);
          else roots.add(`global:${name}`);
        }
      }
      return Array.isArray(n) ? (n.forEach(walk), false) : forChildren(n, walk);
    };
    walk(fn.body);
    // CUDA Programming Guide, "Volatile Qualifier": every access through a volatile pointer is a
    // real memory access, never kept in a register or merged with another (a flag another block
    // sets, read in a loop). WGSL gives no such promise for plain storage accesses, so a kernel's
    // volatile 32-bit buffer becomes atomic throughout: each load an atomicLoad, each store an
    // atomicStore, which every invocation sees as they happen.
    if (fn.global)
      for (const p of fn.params) if (p.type.isVolatile && p.type.pointers.length === 1 && VOLATILE_WORDS.has(p.type.base)) roots.add(`param:${fn.name}:${p.name}`);
  }
  return roots;
}

/** The element types of a volatile buffer that become atomic words (WebGPU's atomics are 32-bit). */
const VOLATILE_WORDS = new Set(['int', 'unsigned int', 'float']);

/** Runs the lowering, twice when atomics found in the first pass change how buffers are declared. */
export function lower(unit: TranslationUnit, fileName: string): LowerResult {
  // Most atomics name a kernel parameter, a __shared__ array or a global directly: find those
  // first, so one pass usually suffices (a second runs when an atomic reaches a buffer otherwise).
  let atomic = atomicRoots(unit);
  for (let pass = 0; pass < 3; pass++) {
    const l = new Lowering(unit, fileName, new Set(atomic));
    const r = l.run();
    if (!l.needsRerun || pass === 2) return r;
    atomic = new Set(l.atomic);
  }
  throw new Error('unreachable');
}

export type { CudaScalarType };
