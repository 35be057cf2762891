/**
 * The WGSL syntax tree, now built by the front end in `src/wgsl` (see `src/wgsl/ast.ts`): the same
 * node shapes the simulator always used, plus full source ranges. Every node keeps the 1-based line
 * and column where it starts, so every IR instruction compiled from it can point back into the
 * source.
 */
export type {
  Attr,
  Expr,
  Global,
  LitKind,
  Member,
  Node,
  Param,
  Pos,
  Range,
  Stmt,
  SwitchClause,
  TypeExpr,
} from '../wgsl/ast.ts';
export { WgslError } from '../wgsl/ast.ts';
