/**
 * The WGSL syntax tree the simulator's own parser builds. Every node keeps the 1-based line and
 * column where it starts, so every IR instruction compiled from it can point back into the source.
 */

/** A 1-based source position. */
export interface Pos {
  readonly line: number;
  readonly col: number;
}

/** `name<args>`: `u32`, `vec4<f32>`, `array<u32, 256>`, `ptr<workgroup, u32>`. */
export interface TypeExpr {
  readonly pos: Pos;
  readonly name: string;
  readonly args: readonly (TypeExpr | Expr)[];
}

export type LitKind = 'ai' | 'af' | 'u32' | 'i32' | 'f32' | 'bool';

export type Expr =
  | { readonly k: 'lit'; readonly pos: Pos; readonly v: number; readonly t: LitKind }
  | { readonly k: 'id'; readonly pos: Pos; readonly name: string }
  | { readonly k: 'bin'; readonly pos: Pos; readonly op: string; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'un'; readonly pos: Pos; readonly op: string; readonly e: Expr }
  | { readonly k: 'idx'; readonly pos: Pos; readonly e: Expr; readonly i: Expr }
  | { readonly k: 'mem'; readonly pos: Pos; readonly e: Expr; readonly name: string }
  | {
      readonly k: 'call';
      readonly pos: Pos;
      readonly name: string;
      /** Template arguments written after the callee: `vec3<f32>(…)`, `bitcast<u32>(…)`. */
      readonly tmpl: readonly (TypeExpr | Expr)[] | null;
      readonly args: readonly Expr[];
    };

export interface Attr {
  readonly pos: Pos;
  readonly name: string;
  readonly args: readonly Expr[];
}

export interface SwitchClause {
  readonly pos: Pos;
  /** `null` stands for `default`. */
  readonly sels: readonly (Expr | null)[];
  readonly body: readonly Stmt[];
}

export type Stmt =
  | { readonly k: 'block'; readonly pos: Pos; readonly body: readonly Stmt[] }
  | {
      readonly k: 'decl';
      readonly pos: Pos;
      readonly decl: 'var' | 'let' | 'const';
      readonly name: string;
      readonly ty: TypeExpr | null;
      readonly init: Expr | null;
    }
  | { readonly k: 'assign'; readonly pos: Pos; readonly lhs: Expr | null; readonly op: string; readonly rhs: Expr }
  | { readonly k: 'incdec'; readonly pos: Pos; readonly lhs: Expr; readonly op: '++' | '--' }
  | { readonly k: 'expr'; readonly pos: Pos; readonly e: Expr }
  | {
      readonly k: 'if';
      readonly pos: Pos;
      readonly cond: Expr;
      readonly then: readonly Stmt[];
      readonly else: readonly Stmt[] | null;
    }
  | { readonly k: 'switch'; readonly pos: Pos; readonly sel: Expr; readonly clauses: readonly SwitchClause[] }
  | {
      readonly k: 'loop';
      readonly pos: Pos;
      readonly body: readonly Stmt[];
      readonly continuing: readonly Stmt[] | null;
      readonly breakIf: Expr | null;
      readonly breakIfPos: Pos | null;
    }
  | {
      readonly k: 'for';
      readonly pos: Pos;
      readonly init: Stmt | null;
      readonly cond: Expr | null;
      readonly update: Stmt | null;
      readonly body: readonly Stmt[];
    }
  | { readonly k: 'while'; readonly pos: Pos; readonly cond: Expr; readonly body: readonly Stmt[] }
  | { readonly k: 'break'; readonly pos: Pos }
  | { readonly k: 'continue'; readonly pos: Pos }
  | { readonly k: 'return'; readonly pos: Pos; readonly e: Expr | null }
  | { readonly k: 'discard'; readonly pos: Pos }
  | { readonly k: 'nop'; readonly pos: Pos };

export interface Param {
  readonly pos: Pos;
  readonly name: string;
  readonly ty: TypeExpr;
  readonly attrs: readonly Attr[];
}

export type Global =
  | {
      readonly k: 'struct';
      readonly pos: Pos;
      readonly name: string;
      readonly members: readonly { pos: Pos; name: string; ty: TypeExpr; attrs: readonly Attr[] }[];
    }
  | { readonly k: 'alias'; readonly pos: Pos; readonly name: string; readonly ty: TypeExpr }
  | {
      readonly k: 'gvar';
      readonly pos: Pos;
      readonly name: string;
      readonly space: string;
      readonly access: string;
      readonly ty: TypeExpr | null;
      readonly init: Expr | null;
      readonly attrs: readonly Attr[];
    }
  | {
      readonly k: 'const' | 'override';
      readonly pos: Pos;
      readonly name: string;
      readonly ty: TypeExpr | null;
      readonly init: Expr | null;
      readonly attrs: readonly Attr[];
    }
  | {
      readonly k: 'fn';
      readonly pos: Pos;
      readonly name: string;
      readonly params: readonly Param[];
      readonly ret: TypeExpr | null;
      readonly attrs: readonly Attr[];
      readonly body: readonly Stmt[];
    }
  | { readonly k: 'other'; readonly pos: Pos };

/** Thrown by the parser and compiler; `simulate` turns it into an `unsupported` diagnostic. */
export class WgslError extends Error {
  constructor(
    message: string,
    readonly pos: Pos,
    readonly kind: 'syntax' | 'unsupported' | 'type' = 'unsupported',
  ) {
    super(message);
  }
}
