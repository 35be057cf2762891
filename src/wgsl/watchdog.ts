/**
 * A watchdog for edited WGSL: a pure source transform that gives every `loop`, `for` and `while`
 * an iteration counter. Past a bound the loop raises a flag in an extra storage binding and
 * breaks, so a kernel that would never end returns, and the executor can say which loop it was.
 *
 * Only edited code is guarded; the teaching kernels under `shaders/` run as written.
 *
 * The transform inserts text only inside existing lines (a counter declaration before each loop
 * keyword, a check after the loop body's `{`) and appends the flag binding after the last line,
 * so every line keeps its number; `originalPosition` maps a compiler's column back.
 *
 * It reads loops with the front end's parser (`parseWgsl`, node positions), so code that cannot be
 * parsed cannot be guarded: `addWatchdog` throws a `WgslError` (with line and column).
 * `src/kernel/watchdog.ts` applies it to a `KernelRun` (the flag buffer in its bindings).
 */
import type { Expr, Global, Pos, Stmt } from './ast.ts';
import { parseWgsl } from './parser.ts';
import { blankComments, reflectBindings } from './reflect.ts';
import type { LoopKind, WatchdogBinding, WatchedLoop } from './watchdogReport.ts';

/** The guarded source and how to map its positions back. */
export interface GuardedSource {
  readonly code: string;
  /** Undefined when the code has no loops (nothing to guard, no binding added). */
  readonly watchdog: WatchdogBinding | undefined;
  /** Text inserted, by offset in the original source, for `originalPosition`. */
  readonly insertions: readonly { readonly line: number; readonly column: number; readonly length: number }[];
  /** Number of lines of the original source; lines past it are the appended binding. */
  readonly originalLines: number;
}

export interface WatchdogOptions {
  /**
   * Loop iterations one invocation may run in all (default 2^20). Nested loops share it: each
   * loop gets the budget's D-th root, D being the deepest loop nesting (through calls too), but
   * at least `MIN_LOOP_BOUND` (or the budget, if smaller).
   */
  readonly budget?: number;
  readonly file?: string;
}

/** The default per-invocation iteration budget. */
export const DEFAULT_LOOP_BUDGET = 2 ** 20;

/** The fewest iterations a loop is allowed when a nest shares the budget: the largest workgroup. */
export const MIN_LOOP_BOUND = 1024;

/**
 * A per-invocation budget from a total for the whole dispatch, so a stopped kernel ends in about
 * the same time at any size: `total / invocations`, clamped to [64, 2^20].
 */
export function iterationBudget(invocations: number, total = 2 ** 28): number {
  const per = Math.floor(total / Math.max(1, invocations));
  return Math.min(DEFAULT_LOOP_BUDGET, Math.max(64, per));
}

interface FoundLoop {
  readonly kind: LoopKind;
  readonly pos: Pos;
  /** Smallest and largest line of any node inside the loop (header and body). */
  readonly firstLine: number;
  readonly lastLine: number;
  readonly lastCol: number;
  readonly depth: number;
}

function exprChildren(e: Expr): Expr[] {
  switch (e.k) {
    case 'bin':
      return [e.l, e.r];
    case 'un':
      return [e.e];
    case 'idx':
      return [e.e, e.i];
    case 'mem':
      return [e.e];
    case 'call':
      return [...e.args];
    default:
      return [];
  }
}

/** Every expression directly held by a statement (not those of nested statements). */
function stmtExprs(s: Stmt): Expr[] {
  switch (s.k) {
    case 'decl':
      return s.init ? [s.init] : [];
    case 'assign':
      return s.lhs ? [s.lhs, s.rhs] : [s.rhs];
    case 'incdec':
      return [s.lhs];
    case 'expr':
      return [s.e];
    case 'if':
      return [s.cond];
    case 'switch':
      return [s.sel, ...s.clauses.flatMap((c) => c.sels.filter((x): x is Expr => x !== null))];
    case 'loop':
      return s.breakIf ? [s.breakIf] : [];
    case 'for':
      return s.cond ? [s.cond] : [];
    case 'while':
      return [s.cond];
    case 'return':
      return s.e ? [s.e] : [];
    default:
      return [];
  }
}

/** Statements nested in a statement. */
function stmtChildren(s: Stmt): Stmt[] {
  switch (s.k) {
    case 'block':
      return [...s.body];
    case 'if':
      return [...s.then, ...(s.else ?? [])];
    case 'switch':
      return s.clauses.flatMap((c) => [...c.body]);
    case 'loop':
      return [...s.body, ...(s.continuing ?? [])];
    case 'for':
      return [...(s.init ? [s.init] : []), ...(s.update ? [s.update] : []), ...s.body];
    case 'while':
      return [...s.body];
    default:
      return [];
  }
}

interface Extent {
  firstLine: number;
  lastLine: number;
  lastCol: number;
}

function widen(x: Extent, p: Pos): void {
  if (p.line < x.firstLine) x.firstLine = p.line;
  if (p.line > x.lastLine || (p.line === x.lastLine && p.col > x.lastCol)) {
    x.lastLine = p.line;
    x.lastCol = p.col;
  }
}

function exprExtent(e: Expr, x: Extent, calls: string[]): void {
  widen(x, e.pos);
  if (e.k === 'call') calls.push(e.name);
  for (const c of exprChildren(e)) exprExtent(c, x, calls);
}

/**
 * Walks one function: its loops with their nesting depth and line extent, and the deepest loop
 * nesting reached, counting loops in the functions it calls (`depthOf`).
 */
function walkFunction(body: readonly Stmt[], depthOf: (fn: string) => number, loops: FoundLoop[]): number {
  let deepest = 0;
  const visit = (s: Stmt, depth: number, outer: Extent[]): void => {
    const isLoop = s.k === 'loop' || s.k === 'for' || s.k === 'while';
    const here: Extent | undefined = isLoop ? { firstLine: s.pos.line, lastLine: s.pos.line, lastCol: s.pos.col } : undefined;
    const extents = here ? [...outer, here] : outer;
    const d = isLoop ? depth + 1 : depth;
    if (d > deepest) deepest = d;
    for (const x of extents) widen(x, s.pos);
    const calls: string[] = [];
    for (const e of stmtExprs(s)) {
      const tmp: Extent = { firstLine: e.pos.line, lastLine: e.pos.line, lastCol: e.pos.col };
      exprExtent(e, tmp, calls);
      for (const x of extents) {
        widen(x, { line: tmp.firstLine, col: 1 });
        widen(x, { line: tmp.lastLine, col: tmp.lastCol });
      }
    }
    for (const c of calls) deepest = Math.max(deepest, d + depthOf(c));
    for (const child of stmtChildren(s)) visit(child, d, extents);
    if (here && (s.k === 'loop' || s.k === 'for' || s.k === 'while')) {
      loops.push({ kind: s.k, pos: s.pos, firstLine: here.firstLine, lastLine: here.lastLine, lastCol: here.lastCol, depth: d });
    }
  };
  for (const s of body) visit(s, 0, []);
  return deepest;
}

interface ModuleLoops {
  readonly loops: FoundLoop[];
  /** Deepest loop nesting of any function, through calls. */
  readonly depth: number;
}

function findLoops(module: readonly Global[]): ModuleLoops {
  const fns = new Map<string, readonly Stmt[]>();
  for (const g of module) if (g.k === 'fn') fns.set(g.name, g.body);
  const memo = new Map<string, number>();
  const depthOf = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const body = fns.get(name);
    if (!body) return 0; // a builtin
    memo.set(name, 0); // WGSL has no recursion; this only stops a malformed module from looping
    const d = walkFunction(body, depthOf, []);
    memo.set(name, d);
    return d;
  };
  const loops: FoundLoop[] = [];
  let depth = 0;
  for (const [name, body] of fns) {
    walkFunction(body, depthOf, loops);
    depth = Math.max(depth, depthOf(name));
  }
  loops.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
  return { loops, depth };
}

function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** A name prefix that occurs nowhere in `code`, so inserted names cannot collide. */
function freshPrefix(code: string): string {
  let prefix = 'warpscope_watchdog';
  for (let k = 2; code.includes(prefix); k++) prefix = `warpscope_watchdog${k}`;
  return prefix;
}

/** The group and binding for the flags: the last group in use, one past its highest binding. */
function freeBinding(code: string): { group: number; binding: number } {
  const used = reflectBindings(code);
  if (used.length === 0) return { group: 0, binding: 0 };
  const group = Math.max(...used.map((b) => b.group));
  const binding = Math.max(...used.filter((b) => b.group === group).map((b) => b.binding)) + 1;
  return { group, binding };
}

/**
 * Adds the watchdog to every loop of `code`.
 * @throws WgslError with line and column when the code cannot be read.
 */
export function addWatchdog(code: string, options: WatchdogOptions = {}): GuardedSource {
  const module = parseWgsl(code);
  const { loops, depth } = findLoops(module);
  const starts = lineStarts(code);
  const originalLines = starts.length;
  if (loops.length === 0) return { code, watchdog: undefined, insertions: [], originalLines };

  const budget = Math.max(2, Math.floor(options.budget ?? DEFAULT_LOOP_BUDGET));
  // Nested loops multiply: give each the D-th root so a whole nest stays within the budget, but
  // never fewer than MIN_LOOP_BOUND (or the whole budget, when that is smaller): a correct kernel
  // three deep loops over a workgroup or a list of 64 (top-k), and stopping it would call it
  // endless. A deep nest that really never ends may then run longer; the executor's timeout ends it.
  const root = Math.floor(Math.pow(budget, 1 / Math.max(1, depth)) + 1e-9);
  const bound = Math.max(2, root, Math.min(budget, MIN_LOOP_BOUND));
  const prefix = freshPrefix(code);
  const flags = `${prefix}_flags`;
  const { group, binding } = freeBinding(code);
  const blank = blankComments(code);

  const edits: { offset: number; text: string }[] = [];
  const watched: WatchedLoop[] = [];
  loops.forEach((loop, index) => {
    const at = starts[loop.pos.line - 1]! + loop.pos.col - 1;
    const open = blank.indexOf('{', at);
    if (open < 0) throw new Error(`watchdog: no '{' after the ${loop.kind} at ${loop.pos.line}:${loop.pos.col}`);
    const counter = `${prefix}_n${index}`;
    edits.push({ offset: at, text: `var ${counter}: u32 = 0u; ` });
    edits.push({
      offset: open + 1,
      text: ` if (${counter} >= ${bound}u) { ${flags}[${index}] = 1u; break; } ${counter} = ${counter} + 1u;`,
    });
    watched.push({ index, kind: loop.kind, line: loop.pos.line, column: loop.pos.col });
  });
  edits.sort((a, b) => a.offset - b.offset);

  let out = '';
  let last = 0;
  const insertions: { line: number; column: number; length: number }[] = [];
  for (const e of edits) {
    out += code.slice(last, e.offset) + e.text;
    last = e.offset;
    let line = 1;
    while (line < starts.length && starts[line]! <= e.offset) line++;
    insertions.push({ line, column: e.offset - starts[line - 1]! + 1, length: e.text.length });
  }
  out += code.slice(last);
  out += `\n// Added by Warpscope's watchdog: one flag per loop, set when that loop is stopped.\n`;
  out += `@group(${group}) @binding(${binding}) var<storage, read_write> ${flags}: array<u32, ${loops.length}>;\n`;

  return {
    code: out,
    watchdog: { group, binding, bound, loops: watched, ...(options.file ? { file: options.file } : {}) },
    insertions,
    originalLines,
  };
}

/**
 * Maps a 1-based position in the guarded code back to the original source: the same line, the
 * column less the text inserted before it (a position inside inserted text maps to where it was
 * inserted). Positions in the appended binding map to the end of the last original line.
 */
export function originalPosition(guarded: GuardedSource, line: number, column: number): { line: number; column: number } {
  if (line > guarded.originalLines) return { line: guarded.originalLines, column: 1 };
  let col = column;
  // Insertions on this line, left to right, in guarded-code columns as we go.
  let shift = 0;
  for (const ins of guarded.insertions) {
    if (ins.line !== line) continue;
    const start = ins.column + shift;
    if (column >= start + ins.length) col -= ins.length;
    else if (column >= start) col = ins.column;
    shift += ins.length;
  }
  return { line, column: Math.max(1, col) };
}

/**
 * The innermost loop of `code` that holds `line` (header or body), for saying where a kernel
 * that never finished was looping. Undefined when no loop spans that line or the code does not parse.
 */
export function loopAround(code: string, line: number): { kind: LoopKind; line: number; column: number } | undefined {
  let module: Global[];
  try {
    module = parseWgsl(code);
  } catch {
    return undefined;
  }
  const { loops } = findLoops(module);
  let best: FoundLoop | undefined;
  for (const l of loops) {
    if (line < l.firstLine || line > l.lastLine) continue;
    if (!best || l.depth > best.depth || (l.depth === best.depth && l.firstLine >= best.firstLine)) best = l;
  }
  return best ? { kind: best.kind, line: best.pos.line, column: best.pos.col } : undefined;
}
