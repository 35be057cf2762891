/**
 * The WGSL syntax tree of Warpscope's front end. Node shapes are a superset of the simulator's
 * older tree (same `k` tags and field names): every node keeps `pos` (where it starts) and adds
 * `end` (just past where it ends). Positions are 1-based lines and columns counted in UTF-16 code
 * units (what WebGPU's GPUCompilationMessage reports) plus a 0-based `offset` into the source.
 */

/** A source position: 1-based line and column, 0-based UTF-16 offset. */
export interface Pos {
  readonly line: number;
  readonly col: number;
  readonly offset?: number;
}

/** A half-open source range. */
export interface Range {
  readonly pos: Pos;
  readonly end: Pos;
}

/**
 * Every node: `start`…`end` is its full source range. `pos` keeps the older tree's anchor: the
 * first token for declarations, statements, names, calls and literals; the operator token for
 * `bin` and `un`, the `[` of `idx` and the `.` of `mem`.
 */
export interface Node {
  readonly pos: Pos;
  readonly start: Pos;
  readonly end: Pos;
}

/** The full range of a node. */
export function span(n: Node): Range {
  return { pos: n.start, end: n.end };
}

/** `name<args>`: `u32`, `vec4<f32>`, `array<u32, 256>`, `ptr<workgroup, u32>`. */
export interface TypeExpr extends Node {
  readonly name: string;
  /** Template arguments: a bare (possibly templated) name becomes a `TypeExpr`, anything else an `Expr`. */
  readonly args: readonly (TypeExpr | Expr)[];
}

/** `ai`/`af`: abstract int/float (no suffix); `u32`/`i32`/`f32`/`f16`: suffixed literals. */
export type LitKind = 'ai' | 'af' | 'u32' | 'i32' | 'f32' | 'f16' | 'bool';

export type Expr =
  | (Node & { readonly k: 'lit'; readonly v: number; readonly t: LitKind; readonly text: string })
  | (Node & {
      readonly k: 'id';
      readonly name: string;
      /** Template list written after a name that is not called (`array<u32, 4>` used as a value). */
      readonly tmpl?: readonly (TypeExpr | Expr)[];
    })
  | (Node & { readonly k: 'bin'; readonly op: string; readonly l: Expr; readonly r: Expr })
  | (Node & { readonly k: 'un'; readonly op: string; readonly e: Expr })
  | (Node & { readonly k: 'idx'; readonly e: Expr; readonly i: Expr })
  | (Node & { readonly k: 'mem'; readonly e: Expr; readonly name: string; readonly nameRange: Range })
  | (Node & {
      readonly k: 'call';
      readonly name: string;
      /** Range of the callee's name. */
      readonly nameRange: Range;
      /** Template arguments written after the callee: `vec3<f32>(…)`, `bitcast<u32>(…)`. */
      readonly tmpl: readonly (TypeExpr | Expr)[] | null;
      readonly args: readonly Expr[];
    });

export interface Attr extends Node {
  readonly name: string;
  readonly nameRange: Range;
  readonly args: readonly Expr[];
}

export interface SwitchClause extends Node {
  /** `null` stands for `default`. */
  readonly sels: readonly (Expr | null)[];
  readonly body: readonly Stmt[];
  readonly attrs?: readonly Attr[];
}

/** Attributes written before a statement (`@diagnostic(off, subgroup_uniformity) if …`). */
interface StmtAttrs {
  readonly attrs?: readonly Attr[];
}

export type Stmt =
  | (Node & StmtAttrs & { readonly k: 'block'; readonly body: readonly Stmt[] })
  | (Node & {
      readonly k: 'decl';
      readonly decl: 'var' | 'let' | 'const';
      readonly name: string;
      readonly nameRange: Range;
      /** `function` unless written otherwise (`var<function>`). */
      readonly space?: string;
      readonly ty: TypeExpr | null;
      readonly init: Expr | null;
    })
  | (Node & {
      readonly k: 'assign';
      readonly lhs: Expr | null;
      readonly op: string;
      /** Range of the assignment operator (absent for `_ = e`). */
      readonly opRange?: Range;
      readonly rhs: Expr;
    })
  | (Node & { readonly k: 'incdec'; readonly lhs: Expr; readonly op: '++' | '--' })
  | (Node & { readonly k: 'expr'; readonly e: Expr })
  | (Node &
      StmtAttrs & {
        readonly k: 'if';
        readonly cond: Expr;
        readonly then: readonly Stmt[];
        readonly else: readonly Stmt[] | null;
      })
  | (Node & StmtAttrs & { readonly k: 'switch'; readonly sel: Expr; readonly clauses: readonly SwitchClause[] })
  | (Node &
      StmtAttrs & {
        readonly k: 'loop';
        readonly body: readonly Stmt[];
        readonly continuing: readonly Stmt[] | null;
        readonly breakIf: Expr | null;
        readonly breakIfPos: Pos | null;
      })
  | (Node &
      StmtAttrs & {
        readonly k: 'for';
        readonly init: Stmt | null;
        readonly cond: Expr | null;
        readonly update: Stmt | null;
        readonly body: readonly Stmt[];
      })
  | (Node & StmtAttrs & { readonly k: 'while'; readonly cond: Expr; readonly body: readonly Stmt[] })
  | (Node & { readonly k: 'break' })
  | (Node & { readonly k: 'continue' })
  | (Node & { readonly k: 'return'; readonly e: Expr | null })
  | (Node & { readonly k: 'discard' })
  | (Node & { readonly k: 'nop' })
  | (Node & { readonly k: 'const_assert'; readonly e: Expr });

export interface Param extends Node {
  readonly name: string;
  readonly nameRange: Range;
  readonly ty: TypeExpr;
  readonly attrs: readonly Attr[];
}

export interface Member extends Node {
  readonly name: string;
  readonly nameRange: Range;
  readonly ty: TypeExpr;
  readonly attrs: readonly Attr[];
}

export type Global =
  | (Node & {
      readonly k: 'struct';
      readonly name: string;
      readonly nameRange: Range;
      readonly members: readonly Member[];
    })
  | (Node & { readonly k: 'alias'; readonly name: string; readonly nameRange: Range; readonly ty: TypeExpr })
  | (Node & {
      readonly k: 'gvar';
      readonly name: string;
      readonly nameRange: Range;
      /** `private` when no address space is written (`spaceGiven` false). */
      readonly space: string;
      readonly spaceGiven: boolean;
      /** Range of the address space name, when written. */
      readonly spaceRange?: Range;
      readonly access: string;
      readonly ty: TypeExpr | null;
      readonly init: Expr | null;
      readonly attrs: readonly Attr[];
    })
  | (Node & {
      readonly k: 'const' | 'override';
      readonly name: string;
      readonly nameRange: Range;
      readonly ty: TypeExpr | null;
      readonly init: Expr | null;
      readonly attrs: readonly Attr[];
    })
  | (Node & {
      readonly k: 'fn';
      readonly name: string;
      readonly nameRange: Range;
      readonly params: readonly Param[];
      readonly ret: TypeExpr | null;
      readonly retAttrs: readonly Attr[];
      readonly attrs: readonly Attr[];
      readonly body: readonly Stmt[];
      /** Range of the body's closing brace. */
      readonly bodyEnd: Range;
    })
  | (Node & { readonly k: 'const_assert'; readonly e: Expr })
  | (Node & {
      readonly k: 'directive';
      readonly directive: 'enable' | 'requires';
      readonly names: readonly { readonly name: string; readonly range: Range }[];
    })
  | (Node & {
      readonly k: 'diagnostic';
      readonly severity: string;
      readonly rule: string;
      readonly ruleRange: Range;
      readonly severityRange: Range;
    });

/** A diagnostic of the front end: severity, message, source range. */
export interface WgslDiagnostic {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly range: Range;
  /** Shorthands of `range.pos`. */
  readonly line: number;
  readonly col: number;
  /** Which stage found it. */
  readonly stage: 'lex' | 'parse' | 'check' | 'uniformity' | 'pipeline';
  /** Extra lines that explain it (where a non-uniform value comes from, the earlier declaration…). */
  readonly notes?: readonly { readonly message: string; readonly range: Range }[];
}

export function diag(
  severity: WgslDiagnostic['severity'],
  stage: WgslDiagnostic['stage'],
  message: string,
  range: Range,
  notes?: WgslDiagnostic['notes'],
): WgslDiagnostic {
  const d = { severity, stage, message, range, line: range.pos.line, col: range.pos.col };
  return notes && notes.length ? { ...d, notes } : d;
}

/** Thrown by `parseWgsl`, the watchdog and the simulator's compiler: a message at a position. */
export class WgslError extends Error {
  constructor(
    message: string,
    readonly pos: Pos,
    readonly kind: 'syntax' | 'unsupported' | 'type' = 'unsupported',
  ) {
    super(message);
  }
}
