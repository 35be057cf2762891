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
import type { Pos } from '../wgsl/ast.ts';

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
