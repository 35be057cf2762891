/**
 * The simulator reads WGSL with the front end in `src/wgsl`; this keeps the older entry point,
 * which throws at the first syntax error.
 */
import type { Global } from './ast.ts';
import { WgslError } from './ast.ts';
import { parse } from '../wgsl/parser.ts';

/** Parses a WGSL module. Throws `WgslError` (with line and column) at the first syntax error. */
export function parseWgsl(src: string): Global[] {
  const { ast, diagnostics } = parse(src);
  const first = diagnostics.find((d) => d.severity === 'error');
  if (first) throw new WgslError(first.message, first.range.pos, 'syntax');
  return ast;
}
