/**
 * The CUDA syntax tree for a whole translation unit: kernels, device functions and host code.
 * Every node has a range in the learner's source (1-based lines and columns, end exclusive), so
 * the checker, the lowering and the host interpreter (`src/cuda/host/`) speak of CUDA positions.
 */

export interface Range {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly endLine: number;
  readonly endCol: number;
}

/** A type as written: `const unsigned int *__restrict__`, `std::vector<int>`, `T`. */
export interface TypeRef {
  readonly kind: 'type';
  /** Canonical base: `int`, `unsigned int`, `float`, `dim3`, `struct P` → `P`, `std::vector`, a template parameter. */
  readonly base: string;
  readonly isConst: boolean;
  /** One entry per `*`, outermost last: whether that pointer itself is `const`. */
  readonly pointers: readonly boolean[];
  readonly restrict: boolean;
  readonly reference: boolean;
  /** `volatile T …`: the object (for a pointer, what it points to) is volatile. */
  readonly isVolatile?: boolean;
  readonly templateArgs?: readonly TemplateArg[];
  readonly range: Range;
}

export type TemplateArg = TypeRef | Expr;

export type Expr =
  | { kind: 'ident'; name: string; range: Range }
  | { kind: 'num'; text: string; value: number; isFloat: boolean; floatSuffix: boolean; unsigned: boolean; long: number; range: Range }
  | { kind: 'str'; value: string; range: Range }
  | { kind: 'char'; value: number; range: Range }
  | { kind: 'bool'; value: boolean; range: Range }
  | { kind: 'unary'; op: '-' | '+' | '!' | '~' | '*' | '&' | '++' | '--'; postfix: boolean; arg: Expr; range: Range }
  | { kind: 'binary'; op: string; left: Expr; right: Expr; range: Range }
  | { kind: 'assign'; op: string; left: Expr; right: Expr; range: Range }
  | { kind: 'cond'; test: Expr; then: Expr; else: Expr; range: Range }
  | { kind: 'call'; callee: Expr; templateArgs?: TemplateArg[]; args: Expr[]; range: Range }
  | { kind: 'launch'; callee: Expr; templateArgs?: TemplateArg[]; config: Expr[]; args: Expr[]; range: Range }
  | { kind: 'index'; object: Expr; index: Expr; range: Range }
  | { kind: 'member'; object: Expr; name: string; arrow: boolean; range: Range }
  | { kind: 'cast'; type: TypeRef; arg: Expr; style: 'c' | 'functional' | 'static_cast' | 'reinterpret_cast' | 'const_cast'; range: Range }
  | { kind: 'sizeof'; type?: TypeRef; arg?: Expr; range: Range }
  | { kind: 'new'; type: TypeRef; count?: Expr; args?: Expr[]; range: Range }
  | { kind: 'delete'; arg: Expr; array: boolean; range: Range }
  | { kind: 'init'; items: Expr[]; range: Range }
  | { kind: 'comma'; left: Expr; right: Expr; range: Range };

export interface Declarator {
  readonly name: string;
  /** The declarator's full type (its own `*`s applied). */
  readonly type: TypeRef;
  /** Array dimensions, outermost first; `null` for `[]`. */
  readonly dims: readonly (Expr | null)[];
  readonly init?: Expr;
  /** `dim3 b(16, 16);` */
  readonly ctorArgs?: readonly Expr[];
  readonly range: Range;
}

export interface Storage {
  readonly shared: boolean;
  readonly constant: boolean;
  readonly device: boolean;
  readonly managed: boolean;
  readonly extern: boolean;
  readonly static: boolean;
}

export type Stmt =
  | { kind: 'block'; body: Stmt[]; range: Range }
  | { kind: 'decl'; storage: Storage; vars: Declarator[]; range: Range }
  | { kind: 'expr'; expr: Expr; range: Range }
  | { kind: 'if'; test: Expr; then: Stmt; else?: Stmt; range: Range }
  | { kind: 'for'; init?: Stmt; test?: Expr; update?: Expr; body: Stmt; range: Range }
  /** C++11's range-based `for (T x : range)`: `type` may be `auto` and a reference (`auto &x`). */
  | { kind: 'forRange'; name: string; type: TypeRef; nameRange: Range; over: Expr; body: Stmt; range: Range }
  | { kind: 'while'; test: Expr; body: Stmt; range: Range }
  | { kind: 'do'; body: Stmt; test: Expr; range: Range }
  | { kind: 'return'; arg?: Expr; range: Range }
  | { kind: 'break'; range: Range }
  | { kind: 'continue'; range: Range }
  | { kind: 'switch'; test: Expr; body: Stmt; range: Range }
  | { kind: 'case'; test: Expr; range: Range }
  | { kind: 'default'; range: Range }
  | { kind: 'empty'; range: Range }
  | { kind: 'unsupported'; what: string; range: Range };

export interface Param {
  readonly name: string;
  readonly type: TypeRef;
  /** `int a[]` / `int a[10]` parameters are pointers; kept for messages. */
  readonly array: boolean;
  /** `int k = 5`: the default argument, evaluated at each call that leaves it out. */
  readonly defaultValue?: Expr;
  readonly range: Range;
}

export interface TemplateParam {
  readonly kind: 'type' | 'value';
  readonly name: string;
  readonly valueType?: TypeRef;
  readonly range: Range;
}

export interface FunctionDecl {
  readonly kind: 'function';
  readonly name: string;
  readonly returnType: TypeRef;
  readonly params: Param[];
  readonly body?: Extract<Stmt, { kind: 'block' }>;
  readonly global: boolean;
  readonly device: boolean;
  readonly host: boolean;
  readonly template?: TemplateParam[];
  readonly range: Range;
  /** The name's own range (for messages about the function). */
  readonly nameRange: Range;
}

export interface StructDecl {
  readonly kind: 'struct';
  readonly name: string;
  readonly fields: Declarator[];
  readonly range: Range;
}

export type TopLevel =
  | FunctionDecl
  | StructDecl
  | { kind: 'var'; decl: Extract<Stmt, { kind: 'decl' }>; range: Range }
  | { kind: 'typedef'; name: string; type: TypeRef; range: Range }
  | { kind: 'using'; text: string; range: Range }
  | ExplicitInstantiation;

/**
 * C++ [temp.explicit]: `template __global__ void f<float>(float*, int);` instantiates `f` with
 * the given (or deduced) arguments; `extern template …` only declares that an instantiation
 * exists elsewhere.
 */
export interface ExplicitInstantiation {
  readonly kind: 'instantiation';
  readonly name: string;
  readonly nameRange: Range;
  readonly templateArgs?: readonly TemplateArg[];
  readonly paramTypes: readonly TypeRef[];
  readonly global: boolean;
  readonly isExtern: boolean;
  readonly range: Range;
}

export interface TranslationUnit {
  readonly items: TopLevel[];
}
