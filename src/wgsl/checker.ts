/**
 * The WGSL checker: name resolution and scopes, types with abstract numerics and WGSL's automatic
 * conversions, constant evaluation with Tint's range and overflow errors, attribute and address
 * space rules, memory layout (with @size/@align), statement behaviours (missing return, loops that
 * never exit), then the uniformity analysis (`uniformity.ts`) and the pipeline-level checks against
 * WebGPU limits that browsers report without a line. Every diagnostic has a range and a severity;
 * all of them are reported, in source order.
 */
import {
  diag,
  span,
  type Attr,
  type Expr,
  type Global,
  type Range,
  type Stmt,
  type TypeExpr,
  type WgslDiagnostic,
} from './ast.ts';
import { builtinCall, BUILTIN_VALUES, type BuiltinArg } from './builtins.ts';
import { binaryFn } from './scalar.ts';
import { parse } from './parser.ts';
import {
  AF, AI, BOOL, F16, VOID,
  alignOf, concretize, constructible, containsAtomic, containsRuntimeArray, convertible, elemScalar,
  hostShareable, isFloat, isInt, roundUp, sameTy, scalar, sizeOf, tyName, unify,
  type ScalarName, type StructMember, type Ty,
} from './types.ts';
import { analyseUniformity } from './uniformity.ts';

/** WebGPU's default limits that a compute pipeline meets (GPUSupportedLimits names). */
export interface Limits {
  maxComputeWorkgroupSizeX: number;
  maxComputeWorkgroupSizeY: number;
  maxComputeWorkgroupSizeZ: number;
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupStorageSize: number;
  maxStorageBufferBindingSize?: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupSizeZ: 64,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupStorageSize: 16384,
};

export interface CheckOptions {
  /** Adapter or device limits; WebGPU's defaults where absent. */
  limits?: Partial<Limits>;
  /** Pipeline-overridable constants by name or numeric @id. */
  overrides?: Readonly<Record<string, number>>;
  /** Run the pipeline-level checks for this entry point (the only @compute one when absent). */
  entryPoint?: string;
}

/** A constant value: numbers (bigint for abstract-int), booleans, or a list for composites. */
export type CV = number | bigint | boolean | CV[];

/** Reflection of one resource variable. */
export interface ResourceInfo {
  readonly name: string;
  readonly group: number;
  readonly binding: number;
  readonly space: string;
  readonly access: string;
  readonly ty: Ty;
  /** Bytes; for a runtime-sized array the size with one element. */
  readonly size: number;
  readonly range: Range;
}

export interface OverrideInfo {
  readonly name: string;
  readonly id: number | null;
  readonly ty: Ty;
  readonly hasDefault: boolean;
  readonly range: Range;
}

export interface EntryInfo {
  readonly name: string;
  /** Evaluated with the given overrides; null when it could not be evaluated. */
  readonly workgroupSize: readonly [number, number, number] | null;
  readonly resources: readonly ResourceInfo[];
  readonly workgroupStorage: number;
  readonly range: Range;
}

export interface CheckedModule {
  readonly ast: Global[];
  readonly resources: readonly ResourceInfo[];
  readonly overrides: readonly OverrideInfo[];
  readonly entryPoints: readonly EntryInfo[];
  readonly structs: ReadonlyMap<string, Ty>;
}

export interface CheckResult {
  module: CheckedModule;
  diagnostics: WgslDiagnostic[];
}

/** Tint's message wherever an override-sized array is not the store type of a `var<workgroup>`. */
const OVERRIDE_ARRAY_PLACE = `'array' with an 'override' element count can only be used as the store type of a 'var<workgroup>'`;

/** 0: const-expression, 1: override-expression, 2: runtime. */
type Stage = 0 | 1 | 2;

interface V {
  ty: Ty;
  stage: Stage;
  c?: CV;
  /** Present for references: where the memory is and whether it may be written. */
  ref?: { space: string; access: string };
  /** For immutable named values: how Tint names them (`let a`, `const c`). */
  what?: string;
  whatRange?: Range;
}

type Sym =
  | { k: 'type'; ty: Ty }
  | { k: 'value'; v: V; decl: string; range: Range }
  | { k: 'fn'; g: Global & { k: 'fn' } };

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const F32_MAX = 3.4028234663852886e38;
const F16_MAX = 65504;

/** Marks a name whose declaration failed, so its uses are not reported again. */
const POISON = '<error>';
/** The type of something whose type could not be resolved (already reported). */
const ERROR_TY: Ty = { k: 'opaque', name: '<error>' };

const MUTATING = new Set(['+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

function rangeOf(n: { start: Range['pos']; end: Range['pos'] }): Range {
  return { pos: n.start, end: n.end };
}

function cvText(c: CV): string {
  if (Array.isArray(c)) return c.map(cvText).join(', ');
  return String(c);
}

/** Whether `v` of scalar kind `s` fits; numbers in JS are f64. */
function representable(v: number | bigint | boolean, s: ScalarName): boolean {
  if (typeof v === 'boolean') return s === 'bool';
  const n = typeof v === 'bigint' ? v : v;
  switch (s) {
    case 'i32':
      return Number.isInteger(Number(n)) && Number(n) >= I32_MIN && Number(n) <= I32_MAX;
    case 'u32':
      return Number.isInteger(Number(n)) && Number(n) >= 0 && Number(n) <= 0xffffffff;
    case 'f32':
      return Number.isFinite(Number(n)) && Math.abs(Number(n)) <= F32_MAX;
    case 'f16':
      return Number.isFinite(Number(n)) && Math.abs(Number(n)) <= F16_MAX + 16;
    case 'ai':
      return typeof n === 'bigint' ? n >= I64_MIN && n <= I64_MAX : Number.isInteger(n);
    default:
      return true;
  }
}

function toScalar(v: number | bigint | boolean, s: ScalarName): number | bigint | boolean {
  if (s === 'bool') return typeof v === 'boolean' ? v : Number(v) !== 0;
  if (s === 'ai') return typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
  const n = typeof v === 'boolean' ? (v ? 1 : 0) : Number(v);
  if (s === 'f32') return Math.fround(n);
  return n;
}

export class Checker {
  readonly diagnostics: WgslDiagnostic[] = [];
  private readonly globals = new Map<string, Sym>();
  private readonly globalDecl = new Map<string, Global>();
  private readonly resolving = new Set<string>();
  private scopes: Map<string, Sym & { k: 'value' }>[] = [];
  private fn: (Global & { k: 'fn' }) | null = null;
  private fnRet: Ty = VOID;
  private loops = 0;
  private switches = 0;
  private inContinuing = 0;
  private readonly enabled = new Set<string>();
  readonly structs = new Map<string, Ty>();
  /** Module-scope names each function uses directly (for per-entry-point checks). */
  readonly uses = new Map<string, Set<string>>();
  readonly resources: ResourceInfo[] = [];
  readonly overrideInfo: OverrideInfo[] = [];

  constructor(private readonly ast: Global[]) {}

  private errorCount(): number {
    return this.diagnostics.reduce((n, d) => n + (d.severity === 'error' ? 1 : 0), 0);
  }

  private err(msg: string, r: Range, notes?: WgslDiagnostic['notes']): void {
    this.diagnostics.push(diag('error', 'check', msg, r, notes));
  }

  // ───────────────────────────── module ─────────────────────────────

  run(): void {
    for (const g of this.ast) {
      if (g.k === 'directive' && g.directive === 'enable') {
        for (const n of g.names) {
          if (!['f16', 'subgroups', 'clip_distances', 'dual_source_blending', 'primitive_index', 'subgroup_size_control', 'atomic_vec2u_min_max', 'view_instancing'].includes(n.name)) {
            this.err(`expected extension`, n.range);
          } else this.enabled.add(n.name);
        }
      }
    }
    for (const g of this.ast) {
      if (g.k === 'directive' || g.k === 'diagnostic' || g.k === 'const_assert') continue;
      const prev = this.globalDecl.get(g.name);
      if (prev && 'name' in prev) {
        this.err(`redeclaration of '${g.name}'`, rangeOf(g), [{ message: `'${g.name}' previously declared here`, range: rangeOf(prev) }]);
        continue;
      }
      this.globalDecl.set(g.name, g);
    }
    for (const g of this.ast) {
      if (g.k === 'directive' || g.k === 'diagnostic') continue;
      if (g.k === 'const_assert') {
        this.constAssert(g.e, rangeOf(g));
        continue;
      }
      if (this.globalDecl.get(g.name) !== g) continue;
      this.resolveGlobal(g.name);
    }
    for (const g of this.ast) if (g.k === 'fn' && this.globalDecl.get(g.name) === g) this.fnBody(g);
    this.cycles();
  }

  private resolveGlobal(name: string): Sym | undefined {
    const have = this.globals.get(name);
    if (have) return have;
    const g = this.globalDecl.get(name);
    if (!g || !('name' in g)) return undefined;
    if (this.resolving.has(name)) {
      this.err(`cyclic dependency found: '${name}' -> '${name}'`, rangeOf(g));
      return undefined;
    }
    this.resolving.add(name);
    const savedScopes = this.scopes;
    const savedFn = this.fn;
    this.scopes = [];
    this.fn = null;
    let sym: Sym | undefined;
    try {
      sym = this.declareGlobal(g);
    } finally {
      this.scopes = savedScopes;
      this.fn = savedFn;
      this.resolving.delete(name);
    }
    if (sym) this.globals.set(name, sym);
    return sym;
  }

  private declareGlobal(g: Global & { name: string }): Sym | undefined {
    switch (g.k) {
      case 'struct': {
        const members: StructMember[] = [];
        const seen = new Set<string>();
        let offset = 0;
        let align = 1;
        g.members.forEach((m, i) => {
          if (seen.has(m.name)) this.err(`redefinition of '${m.name}'`, m.nameRange);
          seen.add(m.name);
          const ty = this.type(m.ty);
          if (!ty) return;
          if (ty.k === 'array' && ty.count === null && i !== g.members.length - 1) {
            this.err(`runtime arrays may only appear as the last member of a struct`, rangeOf(m));
          }
          if (!ty || ty.k === 'ptr' || ty.k === 'void' || ty.k === 'opaque') {
            this.err(`${tyName(ty)} cannot be used as the type of a structure member`, rangeOf(m.ty));
          }
          if (ty.k === 'array' && ty.overrideCount) this.err(OVERRIDE_ARRAY_PLACE, rangeOf(m.ty));
          let a = alignOf(ty);
          let size = sizeOf(ty);
          for (const at of m.attrs) {
            if (at.name === 'align') {
              const v = this.attrInt(at);
              if (v === null) continue;
              if (v <= 0 || (v & (v - 1)) !== 0) this.err(`'@align' value must be a positive, power-of-two integer`, at.nameRange);
              else a = v;
            } else if (at.name === 'size') {
              const v = this.attrInt(at);
              if (v === null) continue;
              if (v < sizeOf(ty)) this.err(`'@size' must be at least as big as the type's size (${sizeOf(ty)})`, at.nameRange);
              else size = v;
            } else if (at.name === 'builtin') {
              const bn = at.args[0];
              const info = bn && bn.k === 'id' ? BUILTIN_VALUES[bn.name] : undefined;
              if (!info) this.err(`unresolved builtin value '${bn && bn.k === 'id' ? bn.name : ''}'`, bn ? rangeOf(bn) : at.nameRange);
              else if (info.ext && !this.enabled.has(info.ext)) {
                this.err(`use of '@builtin(${(bn as { name: string }).name})' attribute requires enabling extension '${info.ext}'`, at.nameRange);
              }
            } else if (!['location', 'interpolate', 'invariant', 'blend_src'].includes(at.name)) {
              this.err(`@${at.name} is not valid for structure members`, at.nameRange);
            }
          }
          offset = roundUp(a, offset);
          members.push({ name: m.name, ty, offset, align: a, size });
          offset += size;
          align = Math.max(align, a);
        });
        const ty: Ty = { k: 'struct', name: g.name, members, align, size: roundUp(align, offset) };
        if (!g.members.length) this.err(`structures must have at least one member`, rangeOf(g));
        this.structs.set(g.name, ty);
        return { k: 'type', ty };
      }
      case 'alias': {
        const ty = this.type(g.ty);
        return ty ? { k: 'type', ty } : undefined;
      }
      case 'const': {
        const v = this.initialised(g.ty, g.init, 'const', g, 0);
        if (!v) return undefined;
        return { k: 'value', v: { ...v, what: `const ${g.name}`, whatRange: rangeOf(g) }, decl: 'const', range: rangeOf(g) };
      }
      case 'override': {
        let id: number | null = null;
        for (const at of g.attrs) {
          if (at.name === 'id') id = this.attrInt(at);
          else this.err(`@${at.name} is not valid for module-scope 'override' declaration`, at.nameRange);
        }
        const v = this.initialised(g.ty, g.init, 'override', g, 1);
        if (!v) return undefined;
        const ty = concretize(v.ty);
        if (ty.k !== 'scalar') this.err(`override type must be a scalar`, rangeOf(g));
        this.overrideInfo.push({ name: g.name, id, ty, hasDefault: g.init !== null, range: rangeOf(g) });
        return { k: 'value', v: { ty, stage: 1, what: `override ${g.name}`, whatRange: rangeOf(g), ...(v.c !== undefined ? { c: v.c } : {}) }, decl: 'override', range: rangeOf(g) };
      }
      case 'gvar':
        return this.gvar(g);
      case 'fn':
        this.fnSignature(g);
        return { k: 'fn', g };
    }
  }

  private gvar(g: Global & { k: 'gvar' }): Sym | undefined {
    const space = g.spaceGiven ? g.space : '';
    let group: number | null = null;
    let binding: number | null = null;
    for (const at of g.attrs) {
      if (at.name === 'group') group = this.attrInt(at);
      else if (at.name === 'binding') binding = this.attrInt(at);
      else this.err(`@${at.name} is not valid for module-scope 'var'`, at.nameRange);
    }
    let ty = g.ty ? this.type(g.ty) : null;
    let init: V | null = null;
    if (g.init) {
      init = this.expr(g.init);
      if (init && init.stage === 2) this.err(`module-scope 'var' initializer must be a constant or override-expression`, rangeOf(g.init));
    }
    if (!ty && init) ty = concretize(init.ty);
    if (!ty) return undefined;
    const handle = ty.k === 'opaque';
    if (!space && !handle) {
      this.err(`module-scope 'var' declarations that are not of texture or sampler types must provide an address space`, rangeOf(g));
      return undefined;
    }
    if (space && !['private', 'workgroup', 'storage', 'uniform', 'function', 'handle'].includes(space)) {
      this.err(`unresolved address space '${space}'`, g.spaceRange ?? rangeOf(g));
      return undefined;
    }
    if (space === 'function') this.err(`module-scope 'var' must not use address space 'function'`, rangeOf(g));
    let access = g.access;
    if (access && space !== 'storage') this.err(`only variables in <storage> address space may specify an access mode`, rangeOf(g));
    if (access && !['read', 'write', 'read_write'].includes(access)) this.err(`unresolved access '${access}'`, rangeOf(g));
    if (!access) access = space === 'storage' || space === 'uniform' ? 'read' : 'read_write';
    if (space === 'storage' && access === 'write') this.err(`access mode 'write' is not valid for the 'storage' address space`, rangeOf(g));
    if (g.init && space !== 'private') {
      this.err(`var of address space '${space}' cannot have an initializer. var initializers are only supported for the address spaces 'private' and 'function'`, rangeOf(g));
    }
    if (init && g.ty && !convertible(init.ty, ty)) {
      this.err(`cannot initialize 'var' of type '${tyName(ty)}' with value of type '${tyName(init.ty)}'`, rangeOf(g));
    }
    const tyR = g.ty ? rangeOf(g.ty) : rangeOf(g);
    const inst = [{ message: `while instantiating 'var' ${g.name}`, range: g.nameRange }];
    if (space === 'storage' || space === 'uniform') {
      if (!hostShareable(ty)) this.err(`type '${tyName(ty)}' cannot be used in address space '${space}' as it is non-host-shareable`, tyR, inst);
      if (group === null || binding === null) this.err(`resource variables require '@group' and '@binding' attributes`, rangeOf(g));
    } else if (!handle && (group !== null || binding !== null)) {
      this.err(`non-resource variables must not have '@group' or '@binding' attributes`, rangeOf(g));
    }
    if (space === 'uniform' && containsRuntimeArray(ty)) this.err(`variables in 'uniform' address space must have a fixed footprint`, rangeOf(g));
    else if (space !== 'storage' && containsRuntimeArray(ty)) this.err(`runtime-sized arrays cannot be used in the <${space}> address space`, tyR, inst);
    if (containsAtomic(ty) && space !== 'storage' && space !== 'workgroup') {
      this.err(`'atomic' variables must have 'storage' or 'workgroup' address space`, rangeOf(g));
    } else if (containsAtomic(ty) && space === 'storage' && access !== 'read_write') {
      this.err(`atomic variables in <storage> address space must have read_write access mode`, rangeOf(g));
    }
    if (space === 'workgroup' && ty.k === 'array' && ty.overrideCount) {
      // Allowed: override-sized workgroup arrays.
    } else if (space !== 'workgroup' && ty.k === 'array' && ty.overrideCount) {
      this.err(OVERRIDE_ARRAY_PLACE, tyR);
    }
    if (g.spaceGiven && (space === 'storage' || space === 'uniform') && group !== null && binding !== null) {
      this.resources.push({ name: g.name, group, binding, space, access, ty, size: sizeOf(ty), range: rangeOf(g) });
    }
    const v: V = { ty, stage: 2, ref: { space: space || 'handle', access }, what: `var ${g.name}` };
    return { k: 'value', v, decl: 'var', range: rangeOf(g) };
  }

  private attrInt(at: Attr): number | null {
    const a = at.args[0];
    if (!a || at.args.length !== 1) {
      this.err(`@${at.name} expects 1 argument`, at.nameRange);
      return null;
    }
    const v = this.expr(a);
    if (!v) return null;
    if (v.stage !== 0 || v.c === undefined) {
      this.err(`@${at.name} requires a const-expression`, rangeOf(a));
      return null;
    }
    const s = elemScalar(v.ty);
    if (v.ty.k !== 'scalar' || !isInt(s)) {
      this.err(`@${at.name} must be an i32 or u32 value`, rangeOf(a));
      return null;
    }
    const n = Number(v.c);
    if ((at.name === 'group' || at.name === 'binding' || at.name === 'id') && n < 0) {
      this.err(`@${at.name} value must be non-negative`, rangeOf(a));
      return null;
    }
    return n;
  }

  /** `const`/`override`/`let`/`var` with an optional type and initializer. */
  private initialised(tyE: TypeExpr | null, init: Expr | null, what: string, node: Range | { start: Range['pos']; end: Range['pos'] }, maxStage: Stage): V | null {
    const declared = tyE ? this.type(tyE) : null;
    if (tyE && !declared) return null;
    // Tint places errors of let/const/override declarations at the name, of var at the keyword.
    const r = what !== 'var' && 'nameRange' in node ? (node as { nameRange: Range }).nameRange : 'start' in node ? rangeOf(node) : node;
    if (!init) {
      if (!declared) {
        this.err(`'${what}' declaration requires a type or initializer`, r);
        return null;
      }
      return { ty: declared, stage: maxStage === 0 ? 0 : maxStage };
    }
    const v = this.expr(init);
    if (!v) return declared ? { ty: declared, stage: 2 } : null;
    if (v.stage > maxStage) {
      this.err(
        maxStage === 0 ? `'const' initializer must be a const-expression` : `'override' initializer must be an override-expression`,
        rangeOf(init),
      );
    }
    if (v.ty.k === 'void') {
      this.err(`function '${init.k === 'call' ? init.name : '?'}' does not return a value`, rangeOf(init));
      return null;
    }
    if (!declared) {
      const ty = what === 'const' ? v.ty : concretize(v.ty);
      return { ...v, ty, ref: undefined as never, ...(v.c !== undefined ? { c: this.convertConst(v.c, v.ty, ty, init) } : {}) } as V;
    }
    if (!convertible(v.ty, declared)) {
      const vs = elemScalar(v.ty);
      if (v.c !== undefined && (vs === 'ai' || vs === 'af') && isAbstractConvertibleShape(v.ty, declared)) {
        this.err(`cannot convert value of type '${tyName(v.ty)}' to type '${tyName(declared)}'`, rangeOf(init));
      } else {
        this.err(`cannot initialize '${what}' of type '${tyName(declared)}' with value of type '${tyName(v.ty)}'`, r);
      }
      return { ty: declared, stage: v.stage };
    }
    const c = v.c !== undefined ? this.convertConst(v.c, v.ty, declared, init) : undefined;
    return { ty: declared, stage: v.stage, ...(c !== undefined ? { c } : {}) };
  }

  /** Converts a constant to a concrete type, reporting values that do not fit. */
  private convertConst(c: CV, from: Ty, to: Ty, at: Expr): CV | undefined {
    const fs = elemScalar(from);
    const ts = elemScalar(to);
    if (Array.isArray(c)) {
      if (to.k === 'array') return c.map((x) => this.convertConst(x, from.k === 'array' ? from.el : from, to.el, at) ?? 0);
      if (ts) {
        const out: CV[] = [];
        for (const x of c) {
          const y = this.convertConst(x, scalar(fs ?? ts), scalar(ts), at);
          if (y === undefined) return undefined;
          out.push(y);
        }
        return out;
      }
      return c;
    }
    if (!ts || fs === ts) return c;
    if (!representable(c, ts)) {
      this.err(`value ${cvText(c)} cannot be represented as '${tyName(scalar(ts))}'`, rangeOf(at));
      return undefined;
    }
    return toScalar(c, ts);
  }

  // ───────────────────────────── types ─────────────────────────────

  type(t: TypeExpr): Ty | null {
    const a = t.args;
    const sc = (): ScalarName | null => {
      const x = a[0];
      if (!x || !('name' in x) || 'k' in x) {
        this.err(`expected a scalar type for '${t.name}'`, rangeOf(t));
        return null;
      }
      const ty = this.type(x);
      if (!ty) return null;
      if (ty.k !== 'scalar') {
        this.err(`${t.name}<${tyName(ty)}> is not a valid type`, rangeOf(t));
        return null;
      }
      return ty.s;
    };
    const needArgs = (n: number): boolean => {
      if (a.length !== n) {
        this.err(`'${t.name}' requires ${n} template argument${n === 1 ? '' : 's'}`, rangeOf(t));
        return false;
      }
      return true;
    };
    const noArgs = (ty: Ty): Ty | null => {
      if (a.length) {
        this.err(`type '${t.name}' does not take template arguments`, rangeOf(t));
        return null;
      }
      return ty;
    };
    const f16 = (ty: Ty): Ty => {
      if (elemScalar(ty) === 'f16' && !this.enabled.has('f16')) this.err(`'f16' type used without 'f16' extension enabled`, rangeOf(t));
      return ty;
    };
    const shorthand = /^(vec[234]|mat[234]x[234])([iufh])$/.exec(t.name);
    if (shorthand) {
      const el = ({ i: 'i32', u: 'u32', f: 'f32', h: 'f16' } as const)[shorthand[2] as 'i' | 'u' | 'f' | 'h'];
      const base = shorthand[1]!;
      if (base.startsWith('mat') && (el === 'i32' || el === 'u32')) return null;
      const ty: Ty = base.startsWith('vec')
        ? { k: 'vec', n: Number(base[3]), el }
        : { k: 'mat', c: Number(base[3]), r: Number(base[5]), el };
      return f16(noArgs(ty) ?? ty);
    }
    switch (t.name) {
      case 'bool':
      case 'i32':
      case 'u32':
      case 'f32':
        return noArgs(scalar(t.name));
      case 'f16':
        return f16(noArgs(F16) ?? F16);
      case 'vec2':
      case 'vec3':
      case 'vec4': {
        if (!needArgs(1)) return null;
        const s = sc();
        return s ? { k: 'vec', n: Number(t.name[3]), el: s } : null;
      }
      case 'atomic': {
        if (!needArgs(1)) return null;
        const s = sc();
        if (!s) return null;
        if (s !== 'i32' && s !== 'u32') {
          this.err(`'atomic' only supports 'i32', 'u32' or 'vec2u' types`, rangeOf(a[0] as TypeExpr));
          return null;
        }
        return { k: 'atomic', el: s };
      }
      case 'array': {
        if (a.length < 1 || a.length > 2) {
          this.err(`'array' requires 1 or 2 template arguments`, rangeOf(t));
          return null;
        }
        const e = a[0]!;
        const el = 'k' in e ? null : this.type(e);
        if (!el) {
          if ('k' in e) this.err(`expected a type for the array element`, rangeOf(e));
          return null;
        }
        if (el.k === 'array' && el.count === null) this.err(`an array element type cannot contain a runtime-sized array`, rangeOf(e));
        if (el.k === 'array' && el.overrideCount) this.err(OVERRIDE_ARRAY_PLACE, rangeOf(e));
        if (el.k === 'void' || el.k === 'ptr' || el.k === 'opaque') this.err(`${tyName(el)} cannot be used as an element type of an array`, rangeOf(e));
        if (a.length === 1) return { k: 'array', el, count: null };
        const ce = a[1]!;
        const cx: Expr = 'k' in ce ? ce : { k: 'id', name: ce.name, pos: ce.pos, start: ce.start, end: ce.end };
        const v = this.expr(cx);
        if (!v) return null;
        const s = elemScalar(v.ty);
        if (v.ty.k !== 'scalar' || !isInt(s)) {
          this.err(`array count must evaluate to a constant integer expression or override variable`, rangeOf(cx));
          return null;
        }
        if (v.stage === 2) {
          this.err(`array count must evaluate to a constant integer expression or override variable`, rangeOf(cx));
          return null;
        }
        if (v.stage === 1) return { k: 'array', el, count: Number(v.c ?? 1), overrideCount: true };
        const n = Number(v.c);
        if (n <= 0) {
          this.err(`array count (${n}) must be greater than 0`, rangeOf(cx));
          return null;
        }
        const total = BigInt(n) * BigInt(roundUp(alignOf(el), sizeOf(el)));
        if (total > 0xffffffffn) {
          this.err(`array byte size (0x${total.toString(16)}) must not exceed 0xffffffff bytes`, rangeOf(t));
          return null;
        }
        return { k: 'array', el, count: n };
      }
      case 'ptr': {
        if (a.length < 2 || a.length > 3) {
          this.err(`'ptr' requires 2 or 3 template arguments`, rangeOf(t));
          return null;
        }
        const sp = a[0]!;
        const space = 'k' in sp ? '' : sp.name;
        if (!['function', 'private', 'workgroup', 'storage', 'uniform'].includes(space)) {
          this.err(`unresolved address space '${space}'`, rangeOf(sp));
          return null;
        }
        const e = a[1]!;
        const el = 'k' in e ? null : this.type(e);
        if (!el) return null;
        const ac = a[2];
        const access = ac && !('k' in ac) ? ac.name : space === 'storage' || space === 'uniform' ? 'read' : 'read_write';
        if (ac && space !== 'storage') this.err(`only pointers in <storage> address space may specify an access mode`, rangeOf(t));
        return { k: 'ptr', space, el, access };
      }
      case 'sampler':
      case 'sampler_comparison':
        return noArgs({ k: 'opaque', name: t.name });
      default:
        break;
    }
    if (/^mat[234]x[234]$/.test(t.name)) {
      if (!needArgs(1)) return null;
      const s = sc();
      if (!s) return null;
      if (!isFloat(s)) {
        this.err(`matrix element type must be 'f32' or 'f16'`, rangeOf(t));
        return null;
      }
      return { k: 'mat', c: Number(t.name[3]), r: Number(t.name[5]), el: s };
    }
    if (t.name.startsWith('texture_')) return this.textureType(t);
    const sym = this.lookup(t.name);
    if (sym && sym.k === 'type') return noArgs(sym.ty) ?? sym.ty;
    if (sym) {
      this.err(`cannot use ${sym.k === 'fn' ? `function '${t.name}'` : `'${t.name}'`} as type`, rangeOf(t));
      return null;
    }
    this.err(`unresolved type '${t.name}'`, rangeOf(t));
    return null;
  }

  /** Texture types: enough to type the texture builtins (the simulator does not run them). */
  private textureType(t: TypeExpr): Ty | null {
    const base = t.name;
    const known = /^texture_(1d|2d|2d_array|3d|cube|cube_array|multisampled_2d|depth_2d|depth_2d_array|depth_cube|depth_cube_array|depth_multisampled_2d|storage_1d|storage_2d|storage_2d_array|storage_3d|external)$/.exec(base);
    if (!known) {
      this.err(`unresolved type '${base}'`, rangeOf(t));
      return null;
    }
    const kind = known[1]!;
    const dims = kind.startsWith('1d') || kind === 'storage_1d' ? 1 : kind.endsWith('3d') ? 3 : 2;
    const text = (x: TypeExpr | Expr): string => ('k' in x ? (x.k === 'id' ? x.name : '?') : x.name);
    const name = t.args.length ? `${base}<${t.args.map(text).join(', ')}>` : base;
    let channel: ScalarName = 'f32';
    if (kind.startsWith('storage')) {
      const fmt = t.args[0] ? text(t.args[0]) : '';
      channel = fmt.endsWith('sint') ? 'i32' : fmt.endsWith('uint') ? 'u32' : 'f32';
    } else if (!kind.startsWith('depth') && kind !== 'external') {
      const a0 = t.args[0];
      const el = a0 && !('k' in a0) ? this.type(a0) : null;
      if (!el || el.k !== 'scalar' || !['f32', 'i32', 'u32'].includes(el.s)) {
        this.err(`texture_${kind} requires a sampled type of f32, i32 or u32`, rangeOf(t));
        return null;
      }
      channel = el.s;
    }
    return { k: 'opaque', name, channel, depth: kind.startsWith('depth'), dims };
  }

  // ───────────────────────────── names ─────────────────────────────

  private lookup(name: string): Sym | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (s) return s;
    }
    if (this.fn && this.globalDecl.has(name)) this.uses.get(this.fn.name)?.add(name);
    return this.resolveGlobal(name);
  }

  private declareLocal(name: string, nameRange: Range, sym: Sym & { k: 'value' }): void {
    const top = this.scopes[this.scopes.length - 1]!;
    const prev = top.get(name);
    if (prev) {
      this.err(`redeclaration of '${name}'`, nameRange, [{ message: `'${name}' previously declared here`, range: prev.range }]);
      return;
    }
    top.set(name, sym);
  }

  // ───────────────────────────── functions ─────────────────────────────

  private readonly signatures = new Map<string, { params: Ty[]; ret: Ty }>();

  private fnSignature(g: Global & { k: 'fn' }): { params: Ty[]; ret: Ty } {
    const have = this.signatures.get(g.name);
    if (have) return have;
    const params = g.params.map((p) => this.type(p.ty) ?? ERROR_TY);
    const ret = g.ret ? (this.type(g.ret) ?? ERROR_TY) : VOID;
    const sig = { params, ret };
    this.signatures.set(g.name, sig);
    return sig;
  }

  private fnBody(g: Global & { k: 'fn' }): void {
    const sig = this.fnSignature(g);
    this.fn = g;
    this.uses.set(g.name, new Set());
    this.fnRet = sig.ret;
    this.scopes = [new Map<string, Sym & { k: 'value' }>()];
    const compute = g.attrs.some((a) => a.name === 'compute');
    for (const a of g.attrs) {
      if (a.name === 'workgroup_size') {
        if (!compute) this.err(`@workgroup_size is only valid for compute stages`, a.nameRange);
        if (a.args.length < 1) this.err(`workgroup_size expects at least 1 argument`, a.nameRange);
        else if (a.args.length > 3) this.err(`workgroup_size expects at most 3 arguments`, a.nameRange);
        let kind: ScalarName | null = null;
        for (const x of a.args) {
          const v = this.expr(x);
          if (!v) continue;
          const s = elemScalar(v.ty);
          if (v.ty.k !== 'scalar' || !isInt(s) || v.stage === 2) {
            this.err(`workgroup_size argument must be a constant or override-expression of type abstract-integer, i32 or u32`, rangeOf(x));
            continue;
          }
          if (s !== 'ai') {
            if (kind && kind !== s) this.err(`'@workgroup_size' arguments must be of the same type, either 'i32' or 'u32'`, a.nameRange);
            kind = s;
          }
          if (v.stage === 0 && v.c !== undefined && Number(v.c) < 1) {
            this.err(`'@workgroup_size' argument must be at least 1`, rangeOf(x));
          }
        }
      } else if (a.name === 'diagnostic' || a.name === 'must_use') {
        // handled by the uniformity analysis / call checks
      } else if (!['compute', 'vertex', 'fragment'].includes(a.name)) {
        this.err(`@${a.name} is not valid for functions`, a.nameRange);
      }
    }
    if (compute && !g.attrs.some((a) => a.name === 'workgroup_size')) {
      this.err(`a compute shader must include '@workgroup_size' in its attributes`, rangeOf(g));
    }
    if (compute && g.ret) this.err(`a compute shader cannot return a value`, rangeOf(g.ret));
    // Tint validates entry-point parameter attributes after it has resolved the body, so an error
    // in the body is reported first (and alone); these wait for the body, as in Dawn.
    const afterBody: (() => void)[] = [];
    g.params.forEach((p, i) => {
      const ty = sig.params[i]!;
      if (ty === ERROR_TY) {
        this.declareLocal(p.name, p.nameRange, { k: 'value', v: { ty, stage: 2, what: POISON }, decl: 'param', range: p.nameRange });
        return;
      }
      for (const a of p.attrs) {
        if (a.name === 'builtin') {
          const bn = a.args[0];
          const name = bn && bn.k === 'id' ? bn.name : '';
          const info = BUILTIN_VALUES[name];
          if (!info) this.err(`unresolved builtin value '${name}'`, bn ? rangeOf(bn) : a.nameRange);
          else {
            if (info.ext && !this.enabled.has(info.ext)) {
              const ext = info.ext;
              afterBody.push(() => this.err(`use of '@builtin(${name})' attribute requires enabling extension '${ext}'`, a.nameRange));
            }
            if (!sameTy(ty, info.ty)) afterBody.push(() => this.err(`store type of '@builtin(${name})' must be '${tyName(info.ty)}'`, a.nameRange));
          }
        }
      }
      if (compute && !p.attrs.length && ty.k !== 'struct') afterBody.push(() => this.err(`missing entry point IO attribute on parameter`, rangeOf(p)));
      this.declareLocal(p.name, p.nameRange, {
        k: 'value', v: { ty, stage: 2, what: `parameter ${p.name}` }, decl: 'param', range: p.nameRange,
      });
    });
    const errorsBefore = this.errorCount();
    const b = this.stmts(g.body, false);
    if (sig.ret.k !== 'void' && sig.ret !== ERROR_TY && b.next) this.err(`missing return at end of function`, g.bodyEnd);
    if (this.errorCount() === errorsBefore) for (const report of afterBody) report();
    this.fn = null;
    this.scopes = [];
  }

  /** Behaviours of a statement list (§9.7): can it fall through, break, continue or return. */
  private stmts(list: readonly Stmt[], newScope = true): Behave {
    if (newScope) this.scopes.push(new Map());
    let b: Behave = { next: true, brk: false, cont: false, ret: false };
    for (const s of list) {
      const sb = this.stmt(s);
      if (!b.next) continue;
      b = { next: sb.next, brk: b.brk || sb.brk, cont: b.cont || sb.cont, ret: b.ret || sb.ret };
    }
    if (newScope) this.scopes.pop();
    return b;
  }

  private stmt(s: Stmt): Behave {
    const NEXT: Behave = { next: true, brk: false, cont: false, ret: false };
    switch (s.k) {
      case 'nop':
        return NEXT;
      case 'const_assert':
        this.constAssert(s.e, rangeOf(s));
        return NEXT;
      case 'block':
        return this.stmts(s.body);
      case 'decl': {
        if (s.space !== undefined && s.space !== 'function') {
          this.err(`function-scope 'var' declaration must use 'function' address space`, rangeOf(s));
        }
        const v = this.initialised(s.ty, s.init, s.decl, s, s.decl === 'const' ? 0 : 2);
        if (!v) {
          // Declared but poisoned: later uses report nothing more.
          this.declareLocal(s.name, s.nameRange, { k: 'value', v: { ty: VOID, stage: 2, what: POISON }, decl: s.decl, range: s.nameRange });
          return NEXT;
        }
        if (s.decl === 'var') {
          if (!constructible(v.ty)) {
            // Tint reports the declared type, and names a runtime-sized array as such.
            const runtimeArray = v.ty.k === 'array' && v.ty.count === null;
            this.err(
              runtimeArray ? `runtime-sized arrays cannot be used in the <function> address space` : `function-scope 'var' must have a constructible type`,
              s.ty ? rangeOf(s.ty) : rangeOf(s),
            );
          }
          const val: V = { ty: v.ty, stage: 2, ref: { space: 'function', access: 'read_write' }, what: `var ${s.name}` };
          this.declareLocal(s.name, rangeOf(s), { k: 'value', v: val, decl: 'var', range: rangeOf(s) });
        } else {
          const val: V = { ...v, what: `${s.decl} ${s.name}`, whatRange: rangeOf(s) };
          if (s.decl === 'let') val.stage = 2;
          if (s.decl === 'let' && v.ty.k !== 'ptr' && !constructible(v.ty)) {
            // Tint reports the name, and names a runtime-sized array as such.
            const runtimeArray = v.ty.k === 'array' && v.ty.count === null;
            this.err(runtimeArray ? `runtime-sized arrays must be used with an address space` : `${tyName(v.ty)} cannot be used as the type of a 'let'`, s.nameRange);
          }
          this.declareLocal(s.name, s.nameRange, { k: 'value', v: val, decl: s.decl, range: rangeOf(s) });
        }
        return NEXT;
      }
      case 'assign': {
        const rhs = this.expr(s.rhs);
        if (!s.lhs) {
          if (rhs && !constructible(rhs.ty) && rhs.ty.k !== 'ptr' && rhs.ty.k !== 'opaque') {
            if (rhs.ty.k === 'void') this.err(`function '${s.rhs.k === 'call' ? s.rhs.name : '?'}' does not return a value`, rangeOf(s.rhs));
          }
          return NEXT;
        }
        const lhs = this.expr(s.lhs);
        if (!lhs || !rhs) return NEXT;
        if (!lhs.ref) {
          if (lhs.what) {
            const kw = lhs.what.split(' ')[0]!;
            this.err(`cannot assign to '${lhs.what}'`, rangeOf(s.lhs), [
              { message: `'${kw}' variables are immutable`, range: rangeOf(s.lhs) },
              ...(lhs.whatRange ? [{ message: `'${lhs.what}' declared here`, range: lhs.whatRange }] : []),
            ]);
          } else this.err(`cannot assign to value of type '${tyName(lhs.ty)}'`, rangeOf(s.lhs));
          return NEXT;
        }
        if (lhs.ref.access === 'read') {
          this.err(`cannot store into a read-only type 'ref<${lhs.ref.space}, ${tyName(lhs.ty)}, read>'`, s.opRange ?? rangeOf(s));
          return NEXT;
        }
        if (lhs.ty.k === 'atomic' || !constructible(lhs.ty)) {
          this.err(`storage type of assignment must be constructible`, rangeOf(s));
          return NEXT;
        }
        if (s.op === '=') {
          const rs = elemScalar(rhs.ty);
          if (!convertible(rhs.ty, lhs.ty) && (rs === 'ai' || rs === 'af') && isAbstractConvertibleShape(rhs.ty, lhs.ty)) {
            this.err(`cannot convert value of type '${tyName(rhs.ty)}' to type '${tyName(lhs.ty)}'`, rangeOf(s.rhs));
          } else if (!convertible(rhs.ty, lhs.ty)) this.err(`cannot assign '${tyName(rhs.ty)}' to '${tyName(lhs.ty)}'`, s.opRange ?? rangeOf(s));
          else if (rhs.c !== undefined) this.convertConst(rhs.c, rhs.ty, lhs.ty, s.rhs);
        } else if (MUTATING.has(s.op)) {
          // Tint reports a compound assignment at its operator, named as written ('+=').
          const at = s.opRange ?? rangeOf(s);
          const r = this.binaryType(s.op.slice(0, -1), { ...lhs, ref: undefined as never, stage: 2 }, rhs, s.lhs, s.rhs, at, s.op);
          if (r && !convertible(r.ty, lhs.ty)) this.err(`cannot assign '${tyName(r.ty)}' to '${tyName(lhs.ty)}'`, at);
        }
        return NEXT;
      }
      case 'incdec': {
        const lhs = this.expr(s.lhs);
        if (!lhs) return NEXT;
        if (!lhs.ref) {
          const kw = lhs.what?.split(' ')[0];
          this.err(kw ? `cannot modify '${kw}'` : `cannot modify value of type '${tyName(lhs.ty)}'`, rangeOf(s.lhs), lhs.what && lhs.whatRange ? [{ message: `'${lhs.what}' declared here`, range: lhs.whatRange }] : undefined);
          return NEXT;
        }
        const sc = elemScalar(lhs.ty);
        if (lhs.ty.k !== 'scalar' || (sc !== 'i32' && sc !== 'u32')) {
          this.err(`increment and decrement statements are only supported on i32 and u32 scalars`, rangeOf(s.lhs));
        } else if (lhs.ref.access === 'read') this.err(`cannot modify read-only type 'ref<${lhs.ref.space}, ${tyName(lhs.ty)}, read>'`, rangeOf(s.lhs));
        return NEXT;
      }
      case 'expr': {
        const e = s.e;
        if (e.k === 'call') this.call(e, true);
        return NEXT;
      }
      case 'if': {
        this.condition(s.cond, 'if statement');
        const t = this.stmts(s.then);
        const e = s.else ? this.stmts(s.else) : NEXT;
        return { next: t.next || e.next, brk: t.brk || e.brk, cont: t.cont || e.cont, ret: t.ret || e.ret };
      }
      case 'switch': {
        const sel = this.expr(s.sel);
        let selTy: Ty | null = sel ? sel.ty : null;
        if (sel && (sel.ty.k !== 'scalar' || (sel.ty.s !== 'i32' && sel.ty.s !== 'u32' && sel.ty.s !== 'ai'))) {
          this.err(`switch statement selector expression must be of a scalar integer type`, rangeOf(s.sel));
          selTy = null;
        }
        let defaults = 0;
        const seen = new Map<string, Range>();
        let out: Behave = { next: false, brk: false, cont: false, ret: false };
        this.switches++;
        for (const c of s.clauses) {
          for (const x of c.sels) {
            if (x === null) {
              defaults++;
              if (defaults > 1) this.err(`switch statement must have exactly one default clause`, rangeOf(c));
              continue;
            }
            const v = this.expr(x);
            if (!v) continue;
            if (v.stage !== 0) this.err(`case selector must be a const-expression`, rangeOf(x));
            if (selTy && !unify(v.ty, selTy)) {
              this.err(`the case selector values must have the same type as the selector expression.`, rangeOf(x));
            } else if (v.c !== undefined) {
              const key = String(Number(v.c));
              const prev = seen.get(key);
              if (prev) this.err(`duplicate switch case '${key}'`, rangeOf(x), [{ message: `previous case declared here`, range: prev }]);
              else seen.set(key, rangeOf(x));
            }
          }
          const b = this.stmts(c.body);
          out = { next: out.next || b.next || b.brk, brk: false, cont: out.cont || b.cont, ret: out.ret || b.ret };
        }
        this.switches--;
        if (defaults === 0) this.err(`switch statement must have a default clause`, rangeOf(s));
        return out;
      }
      case 'loop': {
        this.loops++;
        this.scopes.push(new Map());
        const b = this.stmts(s.body, false);
        // The continuing block sees the body's declarations, and `break if` sees the continuing's.
        this.scopes.push(new Map());
        if (s.continuing) {
          this.inContinuing++;
          this.stmts(s.continuing, false);
          this.inContinuing--;
        }
        if (s.breakIf) this.condition(s.breakIf, 'break-if');
        this.scopes.pop();
        this.scopes.pop();
        this.loops--;
        const exits = b.brk || s.breakIf !== null;
        if (!exits && !b.ret) this.err(`loop does not exit`, rangeOf(s));
        return { next: exits, brk: false, cont: false, ret: b.ret };
      }
      case 'for': {
        this.scopes.push(new Map());
        if (s.init) this.stmt(s.init);
        if (s.cond) this.condition(s.cond, 'for-loop');
        this.loops++;
        const b = this.stmts(s.body);
        if (s.update) this.stmt(s.update);
        this.loops--;
        this.scopes.pop();
        const exits = s.cond !== null || b.brk;
        if (!exits && !b.ret) this.err(`loop does not exit`, rangeOf(s));
        return { next: exits, brk: false, cont: false, ret: b.ret };
      }
      case 'while': {
        this.condition(s.cond, 'while loop');
        this.loops++;
        const b = this.stmts(s.body);
        this.loops--;
        return { next: true, brk: false, cont: false, ret: b.ret };
      }
      case 'break':
        if (this.loops === 0 && this.switches === 0) this.err(`break statement must be in a loop or switch case`, rangeOf(s));
        if (this.inContinuing) this.err(`\`break\` must not be used to exit from a continuing block. Use \`break if\` instead.`, rangeOf(s));
        return { next: false, brk: true, cont: false, ret: false };
      case 'continue':
        if (this.loops === 0) this.err(`continue statement must be in a loop`, rangeOf(s));
        if (this.inContinuing) this.err(`continuing blocks must not contain a continue statement`, rangeOf(s));
        return { next: false, brk: false, cont: true, ret: false };
      case 'return': {
        if (this.inContinuing) this.err(`continuing blocks must not contain a return statement`, rangeOf(s));
        const want = this.fnRet;
        if (want === ERROR_TY) return { next: false, brk: false, cont: false, ret: true };
        if (s.e) {
          const v = this.expr(s.e);
          if (v) {
            if (want.k === 'void') this.err(`return statement type must match its function return type, returned '${tyName(v.ty)}', expected 'void'`, rangeOf(s));
            else if (!convertible(v.ty, want)) {
              this.err(`return statement type must match its function return type, returned '${tyName(v.ty)}', expected '${tyName(want)}'`, rangeOf(s));
            } else if (v.c !== undefined) this.convertConst(v.c, v.ty, want, s.e);
          }
        } else if (want.k !== 'void') {
          this.err(`return statement type must match its function return type, returned 'void', expected '${tyName(want)}'`, rangeOf(s));
        }
        return { next: false, brk: false, cont: false, ret: true };
      }
      case 'discard':
        return { next: false, brk: false, cont: false, ret: true };
    }
  }

  private condition(e: Expr, what: string): void {
    const v = this.expr(e);
    if (v && !(v.ty.k === 'scalar' && v.ty.s === 'bool')) {
      this.err(`${what} condition must be bool, got ${tyName(v.ty)}`, rangeOf(e));
    }
  }

  private constAssert(e: Expr, at: Range): void {
    const v = this.expr(e);
    if (!v) return;
    if (v.stage !== 0 || !(v.ty.k === 'scalar' && v.ty.s === 'bool')) {
      this.err(`const assertion requires a const-expression of type bool`, rangeOf(e));
      return;
    }
    if (v.c === false) this.err(`const assertion failed`, at);
  }

  // ───────────────────────────── expressions ─────────────────────────────

  expr(e: Expr): V | null {
    switch (e.k) {
      case 'lit':
        return this.literal(e);
      case 'id': {
        if (e.tmpl) {
          this.err(`cannot use type '${e.name}' as value`, rangeOf(e));
          return null;
        }
        const sym = this.lookup(e.name);
        if (!sym) {
          if (isTypeName(e.name)) this.err(`cannot use type '${e.name}' as value`, rangeOf(e));
          else this.err(`unresolved value '${e.name}'`, rangeOf(e));
          return null;
        }
        if (sym.k === 'type') {
          this.err(`cannot use type '${tyName(sym.ty)}' as value`, rangeOf(e));
          return null;
        }
        if (sym.k === 'fn') {
          this.err(`cannot use function '${e.name}' as value`, rangeOf(e));
          return null;
        }
        if (sym.v.what === POISON) return null;
        return sym.v;
      }
      case 'un':
        return this.unary(e);
      case 'bin': {
        const l = this.expr(e.l);
        const r = this.expr(e.r);
        if (!l || !r) return null;
        return this.binaryType(e.op, l, r, e.l, e.r, rangeOf(e));
      }
      case 'idx': {
        const base = this.expr(e.e);
        const i = this.expr(e.i);
        if (!base || !i) return null;
        let bt = base.ty;
        let ref = base.ref;
        if (bt.k === 'ptr') {
          ref = { space: bt.space, access: bt.access };
          bt = bt.el;
        }
        const is = elemScalar(i.ty);
        if (i.ty.k !== 'scalar' || (is !== 'i32' && is !== 'u32' && is !== 'ai')) {
          this.err(`index must be an integer scalar, got '${tyName(i.ty)}'`, rangeOf(e.i));
          return null;
        }
        let el: Ty;
        let n: number | null;
        if (bt.k === 'array') {
          el = bt.el;
          n = bt.overrideCount ? null : bt.count;
        } else if (bt.k === 'vec') {
          el = scalar(bt.el);
          n = bt.n;
        } else if (bt.k === 'mat') {
          el = { k: 'vec', n: bt.r, el: bt.el };
          n = bt.c;
        } else {
          this.err(`cannot index type '${tyName(bt)}'`, rangeOf(e));
          return null;
        }
        if (i.stage === 0 && i.c !== undefined) {
          const k = Number(i.c);
          if (k < 0 || (n !== null && k >= n)) {
            this.err(n === null ? `index ${k} out of bounds` : `index ${k} out of bounds [0..${n - 1}]`, rangeOf(e.i));
            return null;
          }
          if (base.c !== undefined && Array.isArray(base.c)) {
            return { ty: el, stage: Math.max(base.stage, i.stage) as Stage, c: base.c[k]! };
          }
        }
        if (!ref && i.stage === 2 && base.stage === 0 && base.ty.k === 'array') {
          // A runtime index into a constant array is a runtime value.
        }
        const stage = Math.max(base.stage, i.stage) as Stage;
        return ref ? { ty: el, stage: 2, ref } : { ty: el, stage };
      }
      case 'mem': {
        const base = this.expr(e.e);
        if (!base) return null;
        let bt = base.ty;
        let ref = base.ref;
        if (bt.k === 'ptr') {
          ref = { space: bt.space, access: bt.access };
          bt = bt.el;
        }
        if (bt.k === 'struct') {
          const m = bt.members.findIndex((x) => x.name === e.name);
          if (m < 0) {
            this.err(`struct member ${e.name} not found`, rangeOf(e));
            return null;
          }
          const ty = bt.members[m]!.ty;
          if (ref) return { ty, stage: 2, ref };
          const c = Array.isArray(base.c) ? base.c[m] : undefined;
          return { ty, stage: base.stage, ...(c !== undefined ? { c } : {}) };
        }
        if (bt.k === 'vec') {
          const sw = e.name;
          const sets = ['xyzw', 'rgba'];
          const set = sets.find((st) => [...sw].every((ch) => st.includes(ch)));
          if (!set || sw.length > 4) {
            this.err(`invalid vector swizzle character`, e.nameRange);
            return null;
          }
          const idx = [...sw].map((ch) => set.indexOf(ch));
          if (idx.some((k) => k >= bt.n)) {
            this.err(`invalid vector swizzle member`, e.nameRange);
            return null;
          }
          const ty: Ty = idx.length === 1 ? scalar(bt.el) : { k: 'vec', n: idx.length, el: bt.el };
          const c = Array.isArray(base.c) ? (idx.length === 1 ? base.c[idx[0]!] : idx.map((k) => (base.c as CV[])[k]!)) : undefined;
          if (ref && idx.length === 1) return { ty, stage: 2, ref };
          return { ty, stage: base.stage, ...(c !== undefined ? { c } : {}) };
        }
        this.err(`cannot index into expression of type '${tyName(bt)}'`, rangeOf(e.e));
        return null;
      }
      case 'call':
        return this.call(e, false);
    }
  }

  private literal(e: Expr & { k: 'lit' }): V | null {
    const r = rangeOf(e);
    switch (e.t) {
      case 'bool':
        return { ty: BOOL, stage: 0, c: e.v === 1 };
      case 'ai': {
        const body = e.text;
        const big = BigInt(body);
        if (big > I64_MAX) {
          this.err(`value cannot be represented as 'abstract-int'`, r);
          return null;
        }
        return { ty: AI, stage: 0, c: big };
      }
      case 'i32':
      case 'u32': {
        const big = BigInt(e.text.slice(0, -1));
        if (big > BigInt(e.t === 'i32' ? I32_MAX : 0xffffffff)) {
          this.err(`value cannot be represented as '${e.t}'`, r);
          return null;
        }
        return { ty: scalar(e.t), stage: 0, c: Number(big) };
      }
      case 'f32':
      case 'f16':
        if (e.t === 'f16' && !this.enabled.has('f16')) this.err(`f16 literal used without 'f16' extension enabled`, r);
        if (!representable(e.v, e.t)) {
          this.err(`value cannot be represented as '${e.t}'`, r);
          return null;
        }
        return { ty: scalar(e.t), stage: 0, c: e.v };
      case 'af':
        if (!Number.isFinite(e.v)) {
          this.err(`value cannot be represented as 'abstract-float'`, r);
          return null;
        }
        return { ty: AF, stage: 0, c: e.v };
    }
  }

  private unary(e: Expr & { k: 'un' }): V | null {
    const v = this.expr(e.e);
    if (!v) return null;
    const r = rangeOf(e);
    const s = elemScalar(v.ty);
    const noMatch = (): null => {
      this.err(`no matching overload for 'operator ${e.op} (${tyName(v.ty)})'`, r);
      return null;
    };
    switch (e.op) {
      case '&': {
        const inner = e.e.k === 'mem' || e.e.k === 'idx' ? this.expr(e.e.e) : null;
        const innerTy = inner?.ty.k === 'ptr' ? inner.ty.el : inner?.ty;
        if (innerTy?.k === 'vec') {
          this.err(`cannot take the address of a vector component`, rangeOf(e.e));
          return null;
        }
        if (!v.ref) {
          this.err(`cannot take the address of ${v.what ? `'${v.what}'` : 'a value'}`, rangeOf(e.e));
          return null;
        }
        if (v.ref.space === 'handle') {
          this.err(`cannot take the address of a var in the 'handle' address space`, r);
          return null;
        }
        return { ty: { k: 'ptr', space: v.ref.space, el: v.ty, access: v.ref.access }, stage: 2 };
      }
      case '*': {
        if (v.ty.k !== 'ptr') {
          this.err(`cannot dereference expression of type '${tyName(v.ty)}'`, r);
          return null;
        }
        return { ty: v.ty.el, stage: 2, ref: { space: v.ty.space, access: v.ty.access } };
      }
      case '-': {
        if (!s || s === 'bool' || s === 'u32' || v.ty.k === 'mat') return v.ty.k === 'mat' && isFloat(s) ? { ty: v.ty, stage: v.stage } : noMatch();
        return this.fold(v, r, (x) => (typeof x === 'bigint' ? -x : s === 'i32' ? (-(x as number)) | 0 : -(x as number)), v.ty);
      }
      case '!':
        if (s !== 'bool') return noMatch();
        return this.fold(v, r, (x) => !(x as boolean), v.ty);
      case '~':
        if (!isInt(s)) return noMatch();
        return this.fold(v, r, (x) => (typeof x === 'bigint' ? ~x : s === 'u32' ? ~(x as number) >>> 0 : ~(x as number)), v.ty);
      default:
        return noMatch();
    }
  }

  /** Applies `f` to every component of a constant, checking the result's range. */
  private fold(v: V, r: Range, f: (x: number | bigint | boolean) => number | bigint | boolean, ty: Ty): V {
    const out: V = { ty, stage: v.stage };
    if (v.c === undefined) return out;
    const s = elemScalar(ty);
    const map = (c: CV): CV | undefined => {
      if (Array.isArray(c)) {
        const xs: CV[] = [];
        for (const x of c) {
          const y = map(x);
          if (y === undefined) return undefined;
          xs.push(y);
        }
        return xs;
      }
      const y = f(c);
      if (s && !representable(y, s)) return undefined;
      return y;
    };
    const c = map(v.c);
    if (c !== undefined) out.c = c;
    return out;
  }

  binaryType(op: string, l: V, r: V, le: Expr, re: Expr, at: Range, shownOp: string = op): V | null {
    const lt = l.ty.k === 'ptr' ? l.ty : l.ty;
    const rt = r.ty;
    const stage = Math.max(l.stage, r.stage) as Stage;
    const noMatch = (): null => {
      this.err(`no matching overload for 'operator ${shownOp} (${tyName(lt)}, ${tyName(rt)})'`, at);
      return null;
    };
    const ls = elemScalar(lt);
    const rs = elemScalar(rt);
    if (!ls || !rs) return noMatch();
    if (op === '<<' || op === '>>') {
      if (!isInt(ls) || !isInt(rs) || rs === 'i32') return noMatch();
      if (lt.k !== rt.k || (lt.k === 'vec' && rt.k === 'vec' && lt.n !== rt.n)) return noMatch();
      const rc = r.c;
      if (r.stage === 0 && rc !== undefined) {
        const amounts = (Array.isArray(rc) ? rc : [rc]).map((x) => Number(x as number | bigint));
        if (ls !== 'ai' && amounts.some((a) => a >= 32)) {
          this.err(`shift ${op === '<<' ? 'left' : 'right'} value must be less than the bit width of the lhs, which is 32`, at);
          return null;
        }
      }
      const out: V = { ty: lt, stage };
      if (l.c !== undefined && r.c !== undefined && stage === 0) {
        const c = this.shiftConst(op, l.c, r.c, ls, at);
        if (c === null) return null;
        out.c = c;
      }
      return out;
    }
    if (op === '&&' || op === '||') {
      if (ls !== 'bool' || rs !== 'bool' || lt.k !== 'scalar' || rt.k !== 'scalar') return noMatch();
      const out: V = { ty: BOOL, stage };
      if (l.c !== undefined && r.c !== undefined) out.c = op === '&&' ? (l.c as boolean) && (r.c) : (l.c) || (r.c);
      return out;
    }
    // Scalar-vector and matrix arithmetic.
    let ty = unify(lt, rt);
    let lc = l.c;
    let rc = r.c;
    if (!ty) {
      if (['+', '-', '*', '/', '%'].includes(op) && (lt.k === 'scalar') !== (rt.k === 'scalar') && lt.k !== 'mat' && rt.k !== 'mat') {
        const vec = lt.k === 'vec' ? lt : rt;
        const us = unify(scalar(ls), scalar(rs));
        if (!us || us.k !== 'scalar' || vec.k !== 'vec') return noMatch();
        ty = { k: 'vec', n: vec.n, el: us.s };
        if (lt.k === 'scalar' && lc !== undefined) lc = Array.from({ length: vec.n }, () => lc!);
        if (rt.k === 'scalar' && rc !== undefined) rc = Array.from({ length: vec.n }, () => rc!);
      } else if (op === '*' && (lt.k === 'mat' || rt.k === 'mat')) {
        return this.matMul(lt, rt, stage) ?? noMatch();
      } else return noMatch();
    }
    const s = elemScalar(ty)!;
    // An abstract constant operand converts to the other side's concrete type, and must fit in it
    // (`x + 5000000000` with x: u32 is rejected at the literal, as Tint does).
    if (s !== 'ai' && s !== 'af') {
      if (lc !== undefined && (ls === 'ai' || ls === 'af') && this.convertConst(lc, lt, scalar(s), le) === undefined) return null;
      if (rc !== undefined && (rs === 'ai' || rs === 'af') && this.convertConst(rc, rt, scalar(s), re) === undefined) return null;
    }
    const cmp = ['==', '!=', '<', '>', '<=', '>='].includes(op);
    if (cmp) {
      if (s === 'bool' && op !== '==' && op !== '!=') return noMatch();
      if (ty.k !== 'scalar' && ty.k !== 'vec') return noMatch();
      const res: Ty = ty.k === 'vec' ? { k: 'vec', n: ty.n, el: 'bool' } : BOOL;
      const out: V = { ty: res, stage };
      if (lc !== undefined && rc !== undefined) out.c = zip(lc, rc, (a, b) => compare(op, a, b));
      return out;
    }
    if (['&', '|', '^'].includes(op)) {
      if (!(isInt(s) || s === 'bool') || ty.k === 'mat') return noMatch();
    } else if (s === 'bool' || (ty.k === 'mat' && (op === '/' || op === '%'))) return noMatch();
    const out: V = { ty, stage };
    if (lc !== undefined && rc !== undefined && stage === 0 && ty.k !== 'mat') {
      let bad: string | null = null;
      let divZero = false;
      const c = zip(lc, rc, (a, b) => {
        const y = arith(op, a, b, s);
        if (y === 'div0') {
          divZero = true;
          return 0;
        }
        if (y === null || !representable(y, s)) {
          bad ??= `'${fmt(a, s)} ${op} ${fmt(b, s)}' cannot be represented as '${tyName(scalar(s))}'`;
          return 0;
        }
        return y;
      });
      if (divZero) {
        this.err(`integer division by zero is invalid`, at);
        return null;
      }
      if (bad) {
        this.err(bad, at);
        return null;
      }
      out.c = c;
    } else if (rc !== undefined && r.stage === 0 && (op === '/' || op === '%') && isInt(s)) {
      const zs = (Array.isArray(rc) ? rc : [rc]).some((x) => Number(x) === 0);
      if (zs) {
        this.err(`integer division by zero is invalid`, at);
        return null;
      }
    }
    return out;
  }

  private matMul(lt: Ty, rt: Ty, stage: Stage): V | null {
    const ls = elemScalar(lt);
    const rs = elemScalar(rt);
    if (!isFloat(ls) || !isFloat(rs)) return null;
    const el = (unify(scalar(ls!), scalar(rs!)) as { s: ScalarName } | null)?.s;
    if (!el) return null;
    if (lt.k === 'mat' && rt.k === 'scalar') return { ty: { ...lt, el }, stage };
    if (lt.k === 'scalar' && rt.k === 'mat') return { ty: { ...rt, el }, stage };
    if (lt.k === 'mat' && rt.k === 'vec' && lt.c === rt.n) return { ty: { k: 'vec', n: lt.r, el }, stage };
    if (lt.k === 'vec' && rt.k === 'mat' && lt.n === rt.r) return { ty: { k: 'vec', n: rt.c, el }, stage };
    if (lt.k === 'mat' && rt.k === 'mat' && lt.c === rt.r) return { ty: { k: 'mat', c: rt.c, r: lt.r, el }, stage };
    return null;
  }

  private shiftConst(op: string, lc: CV, rc: CV, s: ScalarName, at: Range): CV | null {
    let bad: string | null = null;
    const c = zip(lc, rc, (a, b) => {
      const n = Number(b);
      if (s === 'ai') {
        const x = a as bigint;
        if (op === '>>') return x >> BigInt(Math.min(n, 63));
        if (n >= 64) {
          bad ??= `'${x} << ${n}' cannot be represented as 'abstract-int'`;
          return 0n;
        }
        const y = x << BigInt(n);
        if (y > I64_MAX || y < I64_MIN) bad ??= `shift left operation results in sign change`;
        return y;
      }
      const x = a as number;
      if (op === '>>') return s === 'u32' ? x >>> n : x >> n;
      if (s === 'i32') {
        // Tint: the bits shifted out, and the resulting sign bit, must all equal the original sign.
        const y = x << n;
        const mask = n === 0 ? 0 : (~0 << (31 - n)) | 0;
        const top = x & mask;
        if (top !== 0 && top !== mask) bad ??= `shift left operation results in sign change`;
        return y;
      }
      return (x << n) >>> 0;
    });
    if (bad) {
      this.err(bad, at);
      return null;
    }
    return c;
  }

  // ───────────────────────────── calls ─────────────────────────────

  private call(e: Expr & { k: 'call' }, statement: boolean): V | null {
    const sym = this.scopes.length || this.fn ? this.lookupCallee(e.name) : this.resolveGlobal(e.name);
    if (sym && sym.k === 'value') {
      this.err(`cannot call variable '${e.name}'`, rangeOf(e));
      return null;
    }
    const args: (V | null)[] = e.args.map((a) => this.expr(a));
    if (args.some((a) => !a)) return null;
    const vs = args as V[];
    if (sym && sym.k === 'fn') {
      const sig = this.fnSignature(sym.g);
      if (e.tmpl) this.err(`function '${e.name}' does not take template arguments`, rangeOf(e));
      if (vs.length !== sig.params.length) {
        this.err(
          `too ${vs.length < sig.params.length ? 'few' : 'many'} arguments in call to '${e.name}', expected ${sig.params.length}, got ${vs.length}`,
          rangeOf(e),
        );
        return null;
      }
      vs.forEach((v, i) => {
        const want = sig.params[i]!;
        if (want === ERROR_TY) return;
        if (!convertible(v.ty, want)) {
          if (isAbstractConvertibleShape(v.ty, want) && (elemScalar(v.ty) === 'ai' || elemScalar(v.ty) === 'af')) {
            this.err(`cannot convert value of type '${tyName(v.ty)}' to type '${tyName(want)}'`, rangeOf(e.args[i]!));
          } else {
            this.err(`type mismatch for argument ${i + 1} in call to '${e.name}', expected '${tyName(want)}', got '${tyName(v.ty)}'`, rangeOf(e.args[i]!));
          }
        } else if (v.c !== undefined) this.convertConst(v.c, v.ty, want, e.args[i]!);
      });
      if (sym.g.attrs.some((a) => a.name === 'compute' || a.name === 'vertex' || a.name === 'fragment')) {
        this.err(`entry point functions cannot be the target of a function call`, rangeOf(e));
      }
      if (statement && sig.ret.k !== 'void' && sym.g.attrs.some((a) => a.name === 'must_use')) {
        this.err(`ignoring return value of function '${e.name}' annotated with @must_use`, rangeOf(e));
      }
      if (sig.ret === ERROR_TY) return null;
      return { ty: sig.ret, stage: 2 };
    }
    if (sym && sym.k === 'type') return this.construct(sym.ty, vs, e);
    // Type constructors and conversions.
    if (isTypeName(e.name)) {
      const te: TypeExpr = { pos: e.pos, start: e.start, end: e.nameRange.end, name: e.name, args: e.tmpl ?? [] };
      const inferable = !e.tmpl && ['vec2', 'vec3', 'vec4', 'array'].includes(e.name) || (!e.tmpl && /^mat[234]x[234]$/.test(e.name));
      if (inferable) return this.constructInferred(e.name, vs, e);
      const ty = this.type(te);
      if (!ty) return null;
      return this.construct(ty, vs, e);
    }
    const bargs: BuiltinArg[] = vs.map((v, i) => ({ ty: v.ty, stage: v.stage, c: v.c, range: rangeOf(e.args[i]!), ref: v.ref }));
    let tmplTy: Ty | null = null;
    if (e.tmpl) {
      const t0 = e.tmpl[0];
      if (e.name !== 'bitcast' || !t0 || 'k' in t0) {
        this.err(`unresolved call target '${e.name}'`, rangeOf(e));
        return null;
      }
      tmplTy = this.type(t0);
      if (!tmplTy) return null;
    }
    const res = builtinCall(e.name, bargs, tmplTy);
    if (res === undefined) {
      this.err(`unresolved call target '${e.name}'`, rangeOf(e));
      return null;
    }
    if (typeof res === 'string') {
      this.err(res, rangeOf(e));
      return null;
    }
    if (res.ext && !this.enabled.has(res.ext)) {
      // Tint stops here: the call has no value, so an enclosing call reports nothing more.
      this.err(`cannot call built-in function '${e.name}' without extension '${res.ext}'`, rangeOf(e));
      return null;
    }
    if (statement && res.mustUse) this.err(`ignoring return value of builtin '${e.name}'`, rangeOf(e));
    if (res.error) {
      this.err(res.error.message, res.error.range ?? rangeOf(e));
      return null;
    }
    const out: V = { ty: res.ty, stage: res.stage };
    if (res.c !== undefined) out.c = res.c;
    return out;
  }

  private lookupCallee(name: string): Sym | undefined {
    return this.lookup(name);
  }

  private construct(ty: Ty, vs: V[], e: Expr & { k: 'call' }): V | null {
    const r = rangeOf(e);
    const stage = vs.reduce<Stage>((m, v) => Math.max(m, v.stage) as Stage, 0);
    if (!constructible(ty)) {
      this.err(`type is not constructible`, r);
      return null;
    }
    if (vs.length === 0) return { ty, stage: 0 };
    if (ty.k === 'scalar') {
      if (vs.length !== 1) {
        this.err(`too many arguments in call to '${tyName(ty)}'`, r);
        return null;
      }
      const v = vs[0]!;
      if (v.ty.k !== 'scalar') {
        this.err(`no matching constructor for '${tyName(ty)}(${tyName(v.ty)})'`, r);
        return null;
      }
      const out: V = { ty, stage };
      if (v.c !== undefined) {
        const from = v.ty.s;
        const x = v.c as number | bigint | boolean;
        if (ty.s !== from && (from === 'ai' || from === 'af') && ty.s !== 'bool' && !((from === 'af') && (ty.s === 'i32' || ty.s === 'u32'))) {
          const y = this.convertConst(x, v.ty, ty, e.args[0]!);
          if (y !== undefined) out.c = y;
          return out;
        }
        out.c = valueConvert(x, ty.s);
        if (out.c === null as unknown) delete out.c;
      }
      return out;
    }
    if (ty.k === 'vec') {
      let n = 0;
      const comps: CV[] = [];
      let known = true;
      for (const v of vs) {
        const s = elemScalar(v.ty);
        if (!s || v.ty.k === 'mat' || !(scalarConvertibleLoose(s, ty.el) || (vs.length === 1 && v.ty.k === 'vec'))) {
          this.err(`no matching constructor for '${tyName(ty)}(${vs.map((x) => tyName(x.ty)).join(', ')})'`, r);
          return null;
        }
        const cnt = v.ty.k === 'vec' ? v.ty.n : 1;
        n += cnt;
        if (v.c === undefined) known = false;
        else if (Array.isArray(v.c)) comps.push(...v.c);
        else comps.push(v.c);
      }
      if (!(n === ty.n || (vs.length === 1 && vs[0]!.ty.k === 'scalar'))) {
        this.err(`no matching constructor for '${tyName(ty)}(${vs.map((x) => tyName(x.ty)).join(', ')})'`, r);
        return null;
      }
      const out: V = { ty, stage };
      if (known) {
        const full = n === ty.n ? comps : Array.from({ length: ty.n }, () => comps[0]!);
        const conv: CV[] = [];
        for (const [i, c] of full.entries()) {
          const from = elemScalar(vs[Math.min(i, vs.length - 1)]!.ty)!;
          if ((from === 'ai' || from === 'af') && from !== ty.el) {
            const y = this.convertConst(c, scalar(from), scalar(ty.el), e.args[Math.min(i, e.args.length - 1)]!);
            if (y === undefined) return null;
            conv.push(y);
          } else conv.push(valueConvert(c, ty.el));
        }
        out.c = conv;
      }
      return out;
    }
    if (ty.k === 'array') {
      if (ty.count !== null && vs.length !== ty.count) {
        this.err(`array constructor has too ${vs.length < ty.count ? 'few' : 'many'} elements: expected ${ty.count}, found ${vs.length}`, r);
        return null;
      }
      for (const [i, v] of vs.entries()) {
        if (!convertible(v.ty, ty.el)) {
          this.err(`'${tyName(v.ty)}' cannot be used to construct an array of '${tyName(ty.el)}'`, rangeOf(e.args[i]!));
          return null;
        }
      }
      const out: V = { ty, stage };
      if (vs.every((v) => v.c !== undefined)) {
        const cs: CV[] = [];
        for (const [i, v] of vs.entries()) {
          const y = this.convertConst(v.c!, v.ty, ty.el, e.args[i]!);
          if (y === undefined) return null;
          cs.push(y);
        }
        out.c = cs;
      }
      return out;
    }
    if (ty.k === 'struct') {
      if (vs.length !== ty.members.length) {
        this.err(`structure constructor has too ${vs.length < ty.members.length ? 'few' : 'many'} inputs: expected ${ty.members.length}, found ${vs.length}`, r);
        return null;
      }
      for (const [i, v] of vs.entries()) {
        const m = ty.members[i]!;
        if (!convertible(v.ty, m.ty)) {
          this.err(`type in structure constructor does not match struct member type: expected '${tyName(m.ty)}', found '${tyName(v.ty)}'`, rangeOf(e.args[i]!));
          return null;
        }
      }
      const out: V = { ty, stage };
      if (vs.every((v) => v.c !== undefined)) out.c = vs.map((v, i) => this.convertConst(v.c!, v.ty, ty.members[i]!.ty, e.args[i]!) ?? 0);
      return out;
    }
    if (ty.k === 'mat') {
      const comps = vs.reduce((n, v) => n + (v.ty.k === 'vec' ? v.ty.n : v.ty.k === 'mat' ? v.ty.c * v.ty.r : 1), 0);
      if (comps !== ty.c * ty.r && !(vs.length === ty.c && vs.every((v) => v.ty.k === 'vec' && v.ty.n === ty.r))) {
        this.err(`no matching constructor for '${tyName(ty)}(${vs.map((x) => tyName(x.ty)).join(', ')})'`, r);
        return null;
      }
      return { ty, stage };
    }
    this.err(`type '${tyName(ty)}' is not constructible`, r);
    return null;
  }

  private constructInferred(name: string, vs: V[], e: Expr & { k: 'call' }): V | null {
    const r = rangeOf(e);
    if (name === 'array') {
      if (!vs.length) {
        this.err(`cannot infer array element type without any arguments`, r);
        return null;
      }
      let el: Ty | null = vs[0]!.ty;
      for (const v of vs) el = el && unify(el, v.ty);
      if (!el) {
        this.err(`cannot infer common array element type from constructor arguments`, r);
        return null;
      }
      return this.construct({ k: 'array', el, count: vs.length }, vs, e);
    }
    const n = Number(name[3]);
    if (name.startsWith('vec')) {
      if (!vs.length) return { ty: { k: 'vec', n, el: 'ai' }, stage: 0, c: Array.from({ length: n }, () => 0n) };
      let s: Ty | null = scalar(elemScalar(vs[0]!.ty) ?? 'bool');
      for (const v of vs) {
        const vsS = elemScalar(v.ty);
        s = s && vsS ? unify(s, scalar(vsS)) : null;
      }
      if (!s || s.k !== 'scalar') {
        this.err(`no matching constructor for '${name}(${vs.map((x) => tyName(x.ty)).join(', ')})'`, r);
        return null;
      }
      return this.construct({ k: 'vec', n, el: s.s }, vs, e);
    }
    let s: ScalarName = 'af';
    for (const v of vs) {
      const vsS = elemScalar(v.ty);
      if (vsS && vsS !== 'ai' && vsS !== 'af') s = vsS;
    }
    return this.construct({ k: 'mat', c: n, r: Number(name[5]), el: s }, vs, e);
  }

  // ───────────────────────────── module-level relations ─────────────────────────────

  private cycles(): void {
    const fns = new Map<string, Global & { k: 'fn' }>();
    for (const g of this.ast) if (g.k === 'fn') fns.set(g.name, g);
    const state = new Map<string, number>();
    const visit = (name: string): void => {
      state.set(name, 1);
      for (const u of this.uses.get(name) ?? []) {
        if (!fns.has(u)) continue;
        const s = state.get(u);
        if (s === 1) {
          const g = fns.get(name)!;
          this.err(`cyclic dependency found: '${name}' -> '${u}'`, rangeOf(g));
        } else if (s === undefined) visit(u);
      }
      state.set(name, 2);
    };
    for (const name of fns.keys()) if (!state.has(name)) visit(name);
  }

  /** Module-scope names an entry point reaches, through the functions it calls. */
  reachable(entry: string): Set<string> {
    const out = new Set<string>();
    const stack = [entry];
    while (stack.length) {
      const f = stack.pop()!;
      for (const u of this.uses.get(f) ?? []) {
        if (out.has(u)) continue;
        out.add(u);
        if (this.uses.has(u)) stack.push(u);
      }
    }
    return out;
  }

  /** Evaluates a const or override expression with the given override values. */
  evalOverride(e: Expr, values: Map<string, number | bigint | boolean>): number | null {
    const saved = this.globals;
    const patched = new Map(saved);
    for (const [name, v] of values) {
      const s = patched.get(name);
      if (s && s.k === 'value') patched.set(name, { ...s, v: { ...s.v, stage: 0, c: typeof v === 'boolean' ? v : s.v.ty.k === 'scalar' && s.v.ty.s === 'ai' ? BigInt(v) : Number(v) } });
    }
    (this as unknown as { globals: Map<string, Sym> }).globals = patched;
    const mark = this.diagnostics.length;
    try {
      const v = this.expr(e);
      if (!v || v.c === undefined || Array.isArray(v.c)) return null;
      return Number(v.c);
    } finally {
      this.diagnostics.length = mark;
      (this as unknown as { globals: Map<string, Sym> }).globals = saved;
    }
  }
}

interface Behave {
  next: boolean;
  brk: boolean;
  cont: boolean;
  ret: boolean;
}

function isTypeName(name: string): boolean {
  return (
    ['bool', 'i32', 'u32', 'f32', 'f16', 'vec2', 'vec3', 'vec4', 'array', 'atomic', 'ptr'].includes(name) ||
    /^(vec[234][iufh]|mat[234]x[234][fh]?)$/.test(name) ||
    /^mat[234]x[234]$/.test(name)
  );
}

function isAbstractConvertibleShape(from: Ty, to: Ty): boolean {
  if (from.k === 'scalar' && to.k === 'scalar') return true;
  if (from.k === 'vec' && to.k === 'vec') return from.n === to.n;
  return false;
}

function scalarConvertibleLoose(from: ScalarName, to: ScalarName): boolean {
  // Vector constructors also convert between concrete scalars only when written as a conversion of a whole vector.
  return from === to || from === 'ai' || (from === 'af' && isFloat(to));
}

function valueConvert(x: CV, to: ScalarName): CV {
  if (Array.isArray(x)) return x.map((y) => valueConvert(y, to));
  const n = typeof x === 'boolean' ? (x ? 1 : 0) : Number(x);
  switch (to) {
    case 'bool':
      return typeof x === 'boolean' ? x : n !== 0;
    case 'i32':
      return Number.isFinite(n) ? Math.max(I32_MIN, Math.min(I32_MAX, Math.trunc(n))) | 0 : 0;
    case 'u32':
      return Number.isFinite(n) ? (n < 0 && Number.isInteger(n) ? n >>> 0 : Math.max(0, Math.min(0xffffffff, Math.trunc(n)))) : 0;
    case 'f32':
      return Math.fround(n);
    case 'ai':
      return BigInt(Math.trunc(n));
    default:
      return n;
  }
}

function zip(a: CV, b: CV, f: (x: number | bigint | boolean, y: number | bigint | boolean) => CV): CV {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => zip(x, b[i]!, f));
  if (Array.isArray(a)) return a.map((x) => zip(x, b, f));
  if (Array.isArray(b)) return b.map((y) => zip(a, y, f));
  return f(a, b);
}

function compare(op: string, a: number | bigint | boolean, b: number | bigint | boolean): boolean {
  const x = typeof a === 'bigint' || typeof b === 'bigint' ? a : a;
  switch (op) {
    case '==':
      return x == b;
    case '!=':
      return x != b;
    case '<':
      return x < b;
    case '>':
      return x > b;
    case '<=':
      return x <= b;
    default:
      return x >= b;
  }
}

function fmt(v: number | bigint | boolean, s: ScalarName): string {
  if (s === 'af' || s === 'f32' || s === 'f16') return String(v);
  return String(v);
}

/** Constant arithmetic: abstract-int in i64 (overflow is an error); concrete types by `scalar.ts` (integers wrap, floats round to their type). */
function arith(op: string, a: number | bigint | boolean, b: number | bigint | boolean, s: ScalarName): number | bigint | boolean | null | 'div0' {
  if (s === 'bool') {
    const x = a as boolean;
    const y = b as boolean;
    return op === '&' ? x && y : op === '|' ? x || y : x !== y;
  }
  if (s === 'ai') {
    const x = typeof a === 'bigint' ? a : BigInt(a);
    const y = typeof b === 'bigint' ? b : BigInt(b);
    switch (op) {
      case '+': return x + y;
      case '-': return x - y;
      case '*': return x * y;
      case '/': return y === 0n ? 'div0' : x / y;
      case '%': return y === 0n ? 'div0' : x % y;
      case '&': return x & y;
      case '|': return x | y;
      case '^': return x ^ y;
      default: return null;
    }
  }
  const x = Number(a);
  const y = Number(b);
  // Concrete numbers as the simulator computes them (integers wrap, floats round to their type);
  // a constant integer division by zero is an error where the run-time value would be x.
  if ((s === 'i32' || s === 'u32') && (op === '/' || op === '%') && y === 0) return 'div0';
  if (!['+', '-', '*', '/', '%', '&', '|', '^'].includes(op)) return null;
  const f = binaryFn(op, s);
  if (!f) return null;
  const r = f(x, y);
  return Number.isFinite(r) ? r : null;
}


/**
 * Parses and checks a WGSL module: every syntax, type, constant, layout, attribute and uniformity
 * error with its range, plus the pipeline-level checks for the entry point against `limits`.
 */
export function check(source: string, options: CheckOptions = {}): CheckResult {
  const { ast, diagnostics } = parse(source);
  return checkParsed(ast, diagnostics, options);
}

/**
 * {@link check} for a module already parsed (by {@link parse}): `parseDiagnostics` are the
 * parser's, so a module with syntax errors is not checked further, as `check` does.
 */
export function checkParsed(ast: Global[], parseDiagnostics: readonly WgslDiagnostic[] = [], options: CheckOptions = {}): CheckResult {
  const diagnostics = [...parseDiagnostics];
  const empty: CheckedModule = { ast, resources: [], overrides: [], entryPoints: [], structs: new Map() };
  if (diagnostics.some((d) => d.severity === 'error')) return { module: empty, diagnostics };
  const c = new Checker(ast);
  c.run();
  const all = [...diagnostics, ...c.diagnostics];
  if (!c.diagnostics.some((d) => d.severity === 'error')) all.push(...analyseUniformity(ast));
  const entries = pipeline(c, ast, options, all);
  all.sort((a, b) => (a.range.pos.offset ?? 0) - (b.range.pos.offset ?? 0) || a.range.pos.line - b.range.pos.line || a.range.pos.col - b.range.pos.col);
  return {
    module: { ast, resources: c.resources, overrides: c.overrideInfo, entryPoints: entries, structs: c.structs },
    diagnostics: all,
  };
}

function pipeline(c: Checker, ast: Global[], options: CheckOptions, out: WgslDiagnostic[]): EntryInfo[] {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const given = options.overrides ?? {};
  const computeFns = ast.filter((g): g is Global & { k: 'fn' } => g.k === 'fn' && g.attrs.some((a) => a.name === 'compute'));
  const errors = out.some((d) => d.severity === 'error');
  const entries: EntryInfo[] = [];
  // Override values: given ones first, then defaults, in declaration order.
  const values = new Map<string, number | bigint | boolean>();
  const missing: (Global & { k: 'const' | 'override' })[] = [];
  for (const g of ast) {
    if (g.k !== 'override') continue;
    const info = c.overrideInfo.find((o) => o.name === g.name);
    const byId = info && info.id !== null ? given[String(info.id)] : undefined;
    const v = given[g.name] ?? byId;
    if (v !== undefined) values.set(g.name, info?.ty.k === 'scalar' && info.ty.s === 'bool' ? v !== 0 : v);
    else if (g.init) {
      const d = c.evalOverride(g.init, values);
      if (d !== null) values.set(g.name, d);
    } else missing.push(g);
  }
  const wanted = options.entryPoint;
  if (wanted !== undefined && !computeFns.some((f) => f.name === wanted)) {
    const fn = ast.find((g) => g.k === 'fn' && g.name === wanted);
    const r = fn ? span(fn) : { pos: { line: 1, col: 1, offset: 0 }, end: { line: 1, col: 1, offset: 0 } };
    out.push(diag('error', 'pipeline', fn ? `'${wanted}' is not a @compute entry point` : `entry point '${wanted}' not found: the module has no @compute function named '${wanted}'`, r));
    return entries;
  }
  if (wanted === undefined && computeFns.length === 0 && !errors) return entries;
  for (const f of computeFns) {
    if (wanted !== undefined && f.name !== wanted) continue;
    const used = c.reachable(f.name);
    const resources = c.resources.filter((r) => used.has(r.name));
    let wgBytes = 0;
    for (const g of ast) {
      if (g.k !== 'gvar' || g.space !== 'workgroup' || !used.has(g.name)) continue;
      let ty = g.ty ? c.type(g.ty) : null;
      if (ty && ty.k === 'array' && ty.overrideCount && g.ty) {
        const ce = g.ty.args[1];
        if (ce) {
          const cx: Expr = 'k' in ce ? ce : { k: 'id', name: ce.name, pos: ce.pos, start: ce.start, end: ce.end };
          const n = c.evalOverride(cx, values);
          if (n !== null) ty = { ...ty, count: n };
        }
      }
      if (ty) wgBytes += roundUp(16, sizeOf(ty));
    }
    let size: [number, number, number] | null = [1, 1, 1];
    const ws = f.attrs.find((a) => a.name === 'workgroup_size');
    if (ws) {
      ws.args.forEach((a, i) => {
        const v = c.evalOverride(a, values);
        if (v === null || !size) size = null;
        else size[i] = v;
      });
    }
    entries.push({ name: f.name, workgroupSize: size, resources, workgroupStorage: wgBytes, range: span(f) });
    if (errors) continue;
    for (const g of missing) {
      if (!used.has(g.name)) continue;
      out.push(diag('error', 'pipeline', `override '${g.name}' has no initializer and no value was provided for it: the pipeline cannot be created; give it a default (override ${g.name}: … = …;) or pass a value`, span(g)));
    }
    // Duplicate bindings among the resources this entry point uses.
    const seen = new Map<string, ResourceInfo>();
    for (const r of resources) {
      const key = `${r.group}:${r.binding}`;
      const prev = seen.get(key);
      if (prev) {
        out.push(diag('error', 'check', `entry point '${f.name}' references multiple variables that use the same resource binding '@group(${r.group})', '@binding(${r.binding})'`, r.range, [{ message: 'first resource binding usage declared here', range: prev.range }]));
      } else seen.set(key, r);
    }
    if (ws && size) {
      const [x, y, z] = size;
      const lim = [limits.maxComputeWorkgroupSizeX, limits.maxComputeWorkgroupSizeY, limits.maxComputeWorkgroupSizeZ];
      const dims = ['x', 'y', 'z'];
      [x, y, z].forEach((v, i) => {
        if (v > lim[i]!) {
          const a = ws.args[i]!;
          out.push(diag('error', 'pipeline', `workgroup size ${dims[i]} = ${v} exceeds the device limit maxComputeWorkgroupSize${dims[i]!.toUpperCase()} (${lim[i]}): the pipeline cannot be created; use a smaller @workgroup_size`, span(a)));
        } else if (v < 1) {
          out.push(diag('error', 'pipeline', `workgroup size ${dims[i]} = ${v} must be at least 1`, span(ws.args[i]!)));
        }
      });
      const total = x * y * z;
      if (total > limits.maxComputeInvocationsPerWorkgroup && [x, y, z].every((v, i) => v <= lim[i]! && v >= 1)) {
        out.push(diag('error', 'pipeline', `workgroup size ${x}×${y}×${z} = ${total} invocations exceeds the device limit maxComputeInvocationsPerWorkgroup (${limits.maxComputeInvocationsPerWorkgroup}): the pipeline cannot be created; use fewer invocations per workgroup`, { pos: ws.nameRange.pos, end: ws.end }));
      }
    }
    if (wgBytes > limits.maxComputeWorkgroupStorageSize) {
      const first = ast.find((g) => g.k === 'gvar' && g.space === 'workgroup' && used.has(g.name))!;
      out.push(diag('error', 'pipeline', `workgroup storage of entry point '${f.name}' is ${wgBytes} bytes, over the device limit maxComputeWorkgroupStorageSize (${limits.maxComputeWorkgroupStorageSize} bytes): the pipeline cannot be created; make the var<workgroup> arrays smaller`, span(first)));
    }
  }
  return entries;
}
