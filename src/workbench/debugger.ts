/**
 * cuda-gdb habits over the replay (seed 004), as a pure module over a trace: breakpoints on source
 * lines with optional conditions (`lid == 5u`), continue and reverse-continue to the next or
 * previous hit, the console's commands (`cuda block 1 thread 5`, `info cuda warps`,
 * `print sdata[3]`, `break 45 if lid == 0u`, `delete 1`, `continue`, `reverse-continue`, `step`),
 * and a warp watch that evaluates an expression in every lane of the focused warp at a step.
 *
 * Expressions see the builtins of each lane (`lid`, `lane`, `warp`, `workgroup`; `tid` and
 * `threadIdx.x` as cuda-gdb names them) and workgroup memory as the memory view shows it at that
 * step (`sdata[lid + 1u]`). Values come from the trace, which the simulator recorded in one
 * deterministic run. Expressions are WGSL, read, checked and computed by the front end
 * (`src/wgsl/evaluate.ts`) with the types of the names they read: `0u - 1u` is 4294967295.
 *
 * In CUDA mode (a `DebugSource`: the replay is of WGSL generated from the learner's CUDA) the
 * debugger speaks CUDA: breakpoints, stops and steps are on CUDA lines (a warp stops where it
 * enters the line, whichever generated WGSL lines the line became), expressions are C
 * (`cudaExpression.ts`) over CUDA's names (`threadIdx.x`, `blockIdx.x`, `blockDim.x`, `gridDim.x`,
 * `warpSize`, the kernel's variables as the generated WGSL keeps them), typed as C types them.
 */
import { traceStep, type Trace } from '../sim/index.ts';
import { warpsAt, type TraceIndex } from '../trace/index.ts';
import { sharedContentsAt } from '../trace/memory.ts';
import { ui } from '../i18n/ui.ts';
import { parse } from '../wgsl/parser.ts';
import type { Expr, Stmt } from '../wgsl/ast.ts';
import { evaluateExpression, ExpressionError, parseExpression as parseWgslExpression, type ArrayValue, type ParsedExpression, type ScalarValue, type Scope } from '../wgsl/evaluate.ts';
import { evaluateCudaExpression, parseCudaExpression, type CudaExpression } from './cudaExpression.ts';

export class DebugError extends Error {}

/**
 * How the replay reads in the learner's CUDA: the generated WGSL's positions as CUDA lines, and
 * the launch's shape for CUDA's built-in variables.
 */
export interface DebugSource {
  /** The CUDA line a trace position (a line and column of the generated WGSL) stands for; undefined in code the translator added. */
  readonly lineOf: (wgslLine: number, wgslColumn: number) => number | undefined;
  /** The CUDA lines that became code (where a breakpoint can stop), ascending. */
  readonly lines: readonly number[];
  /** The block's and the grid's sizes in x, y, z. */
  readonly block: readonly [number, number, number];
  readonly grid: readonly [number, number, number];
  /** The identifiers the CUDA source spells (to tell the learner's variables from the translator's). */
  readonly identifiers: ReadonlySet<string>;
}

/** An expression of the watch, `print` or a breakpoint condition: WGSL, or C in CUDA mode. */
export type Expression = (ParsedExpression & { readonly language?: 'wgsl' }) | (CudaExpression & { readonly language: 'cuda' });

/** The expression's error in the console's words. */
function debugError(e: unknown, text: string, cuda = false, inScope?: readonly string[]): unknown {
  if (!(e instanceof ExpressionError)) return e;
  switch (e.kind) {
    case 'empty':
      return new DebugError(ui('dbg.empty'));
    case 'unknown-name':
      if (cuda) return new DebugError(ui('dbg.cudaUnknownName', { name: e.subject ?? '', scope: scopeWords(inScope), names: ui('dbg.cudaNames') }));
      return new DebugError(ui('dbg.unknownName', { name: e.subject ?? '', names: names() }));
    case 'unknown-array':
      return new DebugError(ui('dbg.noMemory', { name: e.subject ?? '', names: cuda ? ui('dbg.cudaNames') : names() }));
    case 'outside':
      return new DebugError(ui('dbg.outside', { word: e.subject ?? '', last: e.last ?? 0 }));
    case 'syntax': {
      const rest = text.slice(e.column - 1).trim();
      return new DebugError(rest ? ui('dbg.cannotRead', { rest, column: e.column, text }) : ui('dbg.endsEarly', { text }));
    }
    default:
      return new DebugError(ui('dbg.wgsl', { message: e.message, column: e.column, text }));
  }
}

/** The kernel's variables in scope, as the console lists them. */
function scopeWords(inScope: readonly string[] | undefined): string {
  if (!inScope) return ui('dbg.scopeUnknown');
  return inScope.length > 0 ? ui('dbg.inScope', { names: inScope.join(', ') }) : ui('dbg.noneInScope');
}

/** Parses an expression of the watch or a breakpoint condition: C when `source` is given (CUDA mode), else WGSL. */
export function parseExpression(text: string, source?: DebugSource): Expression {
  try {
    return source ? { ...parseCudaExpression(text), language: 'cuda' } : parseWgslExpression(text);
  } catch (e) {
    throw debugError(e, text, source !== undefined);
  }
}

/** What an expression sees in one lane at one step. */
export interface LaneEnv {
  readonly lid: number;
  readonly lane: number;
  readonly warp: number;
  readonly workgroup: number;
  /** Workgroup memory by name at the step (its words and their WGSL type), or undefined when there is none of that name. */
  readonly memory: (name: string) => ArrayValue | undefined;
  /** The kernel's own scalar names in this lane, with their WGSL types (from the simulator's watch re-run), when known. */
  readonly local?: ((name: string) => ScalarValue | undefined) | undefined;
  /** The kernel's names in scope here (for the message when a name is not among them), when known. */
  readonly inScope?: readonly string[] | undefined;
  /** CUDA mode: the launch's shape, for `threadIdx`, `blockIdx`, `blockDim`, `gridDim`. */
  readonly source?: DebugSource | undefined;
}

const names = () => ui('dbg.names');

/** The lane's builtins, as u32 values (cuda-gdb's names too: `tid`, `threadIdx.x`, `blockIdx.x`). */
function builtinOf(name: string, env: LaneEnv): number | undefined {
  if (name === 'lid' || name === 'tid' || name === 'threadIdx.x' || name === 'local_invocation_index') return env.lid;
  if (name === 'lane') return env.lane;
  if (name === 'warp') return env.warp;
  if (name === 'workgroup' || name === 'wid' || name === 'blockIdx.x') return env.workgroup;
  return undefined;
}

const AXES = ['x', 'y', 'z'] as const;

/** `i` as x, y, z coordinates in a box of `size` (x fastest). */
function coordinates(i: number, size: readonly [number, number, number]): [number, number, number] {
  const x = i % size[0];
  const y = Math.floor(i / size[0]) % size[1];
  return [x, y, Math.floor(i / (size[0] * size[1]))];
}

/** CUDA's built-in variables in one lane (`threadIdx.x` … `gridDim.z` as unsigned int, `warpSize` as int). */
function cudaBuiltinOf(name: string, env: LaneEnv, source: DebugSource): ScalarValue | undefined {
  if (name === 'warpSize') return { type: 'i32', value: 32 };
  const m = /^(threadIdx|blockIdx|blockDim|gridDim)\.([xyz])$/.exec(name);
  if (!m) return undefined;
  const axis = AXES.indexOf(m[2] as 'x' | 'y' | 'z');
  const of = { threadIdx: () => coordinates(env.lid, source.block), blockIdx: () => coordinates(env.workgroup, source.grid), blockDim: () => source.block, gridDim: () => source.grid }[m[1] as 'threadIdx'];
  return { type: 'u32', value: of()[axis]! };
}

/** CUDA's built-in names, which never need the re-run. */
export const CUDA_BUILTINS: ReadonlySet<string> = new Set(['warpSize', ...['threadIdx', 'blockIdx', 'blockDim', 'gridDim'].flatMap((v) => AXES.map((a) => `${v}.${a}`))]);

/**
 * The generated WGSL's name for the learner's CUDA variable `name` among the names in scope: the
 * same name (the translator keeps identifiers), or the one it renamed to avoid a WGSL word
 * (`name_`) or a shadowed outer variable (`name_2`, the innermost the highest).
 */
export function wgslNameOf(name: string, inScope: readonly string[]): string | undefined {
  const base = name.replace(/^_+(?=[0-9])/, 'n').replace(/^__/, 'u_');
  const pattern = new RegExp(`^${base}_?(?:_(\\d+))?$`);
  let best: { name: string; k: number } | undefined;
  for (const n of inScope) {
    const m = pattern.exec(n);
    if (!m) continue;
    const k = m[1] ? Number(m[1]) : 1;
    if (!best || k > best.k) best = { name: n, k };
  }
  return best?.name;
}

/** What an expression's names mean in one lane. */
function scopeOf(env: LaneEnv): Scope {
  const source = env.source;
  if (!source) {
    return {
      scalar: (name) => {
        const b = builtinOf(name, env);
        return b !== undefined ? { type: 'u32', value: b } : env.local?.(name);
      },
      array: env.memory,
    };
  }
  return {
    scalar: (name) => {
      const b = cudaBuiltinOf(name, env, source);
      if (b) return b;
      const wgsl = env.inScope ? wgslNameOf(name, env.inScope) : name;
      const local = wgsl === undefined ? undefined : env.local?.(wgsl);
      if (local) return local;
      // The debugger's own names, where the kernel has none of that name.
      const own = name === 'lid' || name === 'lane' || name === 'warp' ? builtinOf(name, env) : undefined;
      return own === undefined ? undefined : { type: 'u32', value: own };
    },
    array: env.memory,
  };
}

/** A value as the console shows it and its type's name (C's in CUDA mode, WGSL's otherwise). */
export interface TypedValue {
  readonly value: number;
  readonly text: string;
  readonly type: string;
}

/**
 * The expression's value in one lane with its type: by WGSL's rules for the types of the names it
 * reads (a `u32` wraps, an `i32` wraps in two's complement, an `f32` rounds to f32), or by C's in
 * CUDA mode; a bool is 1 or 0.
 */
export function evaluateTyped(expression: Expression, env: LaneEnv): TypedValue {
  try {
    if (expression.language === 'cuda') {
      const v = evaluateCudaExpression(expression, scopeOf(env));
      return { value: Number(v.value), text: String(v.value), type: v.type };
    }
    const v = evaluateExpression(expression, scopeOf(env));
    return { value: v.value, text: String(v.value), type: v.type === 'ai' ? 'abstract-int' : v.type === 'af' ? 'abstract-float' : v.type };
  } catch (e) {
    throw debugError(e, expression.text, expression.language === 'cuda', env.inScope && env.source ? env.inScope.filter((n) => isLearners(n, env.source!)) : env.inScope);
  }
}

/** The expression's value in one lane (see `evaluateTyped`). */
export function evaluate(expression: Expression, env: LaneEnv): number {
  return evaluateTyped(expression, env).value;
}

/** Workgroup memory by name after `step`, as the memory view shows it, typed as the kernel declares it. */
function memoryAt(trace: Trace, step: number): (name: string) => ArrayValue | undefined {
  const cache = new Map<string, ArrayValue | undefined>();
  return (name) => {
    if (cache.has(name)) return cache.get(name);
    const m = trace.memories.find((x) => x.name === name && x.space === 'workgroup');
    const values = m && m.element ? { type: m.element, values: sharedContentsAt(trace, m.id, step).values.slice() } : undefined;
    cache.set(name, values);
    return values;
  };
}

export interface Breakpoint {
  readonly id: number;
  readonly line: number;
  readonly condition?: string;
}

/** The names a breakpoint condition may use: those every step knows without a re-run. */
const CONDITION_NAMES = new Set(['lid', 'tid', 'threadIdx.x', 'local_invocation_index', 'lane', 'warp', 'workgroup', 'wid', 'blockIdx.x']);

/**
 * Throws a `DebugError` when the condition cannot be read, names a variable of the kernel (known
 * only where a warp stands, after a re-run), or, in CUDA mode, when the line has no code.
 */
export function makeBreakpoint(id: number, line: number, condition?: string, source?: DebugSource): Breakpoint {
  if (!Number.isInteger(line) || line < 1) throw new DebugError(ui('dbg.notLine', { line }));
  if (source && !source.lines.includes(line)) throw new DebugError(ui('dbg.notCudaLine', { line, lines: codeLines(source.lines) }));
  const c = condition?.trim();
  if (c) {
    const e = parseExpression(c, source);
    const known = source ? new Set([...CUDA_BUILTINS, 'lid', 'lane', 'warp']) : CONDITION_NAMES;
    const local = [...e.names].find((n) => !known.has(n));
    if (local !== undefined) throw new DebugError(ui(source ? 'dbg.conditionCuda' : 'dbg.conditionWgsl', { name: local }));
  }
  return c ? { id, line, condition: c } : { id, line };
}

/** `1, 2, 5–9, 12`: lines as ranges. */
function codeLines(lines: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j++;
    out.push(j > i ? `${lines[i]}–${lines[j]}` : String(lines[i]));
    i = j + 1;
  }
  return out.join(', ');
}

/** Each instruction's line as the debugger speaks it: the trace's own (WGSL) line, or its CUDA line (0 for code the translator added). */
const opLinesCache = new WeakMap<Trace, { source: DebugSource; lines: Int32Array }>();
export function opLines(trace: Trace, source?: DebugSource): Int32Array {
  if (!source) return trace.opLine;
  const hit = opLinesCache.get(trace);
  if (hit && hit.source === source) return hit.lines;
  const lines = new Int32Array(trace.opLine.length);
  for (let op = 0; op < lines.length; op++) lines[op] = source.lineOf(trace.opLine[op]!, trace.opColumn[op]!) ?? 0;
  opLinesCache.set(trace, { source, lines });
  return lines;
}

/** The line (WGSL, or CUDA in CUDA mode) of `step`. */
export function lineOfStep(trace: Trace, step: number, source?: DebugSource): number {
  return opLines(trace, source)[trace.stepOp[step]!]!;
}

/** The step of the same warp before `step`, or -1 (for telling a statement's first step from the rest). */
function previousOfWarp(index: TraceIndex, step: number): number {
  const steps = index.warpSteps[index.trace.stepWarp[step]!]!;
  let lo = 0;
  let hi = steps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid]! < step) lo = mid + 1;
    else hi = mid - 1;
  }
  return lo > 0 ? steps[lo - 1]! : -1;
}

/**
 * Whether `step` stops at `bp`: the warp enters the breakpoint's line here (its step before was on
 * another line) and the condition holds in at least one active lane. In CUDA mode the lines are
 * CUDA lines, and the translator's own code in between (line 0) does not count as leaving.
 */
export function hitsBreakpoint(index: TraceIndex, bp: Breakpoint, step: number, condition = bp.condition ? parseExpression(bp.condition, undefined) : undefined, source?: DebugSource): boolean {
  const trace = index.trace;
  const lines = opLines(trace, source);
  if (lines[trace.stepOp[step]!] !== bp.line) return false;
  for (let prev = previousOfWarp(index, step); prev >= 0; prev = previousOfWarp(index, prev)) {
    const l = lines[trace.stepOp[prev]!]!;
    if (l === bp.line) return false;
    if (l !== 0) break;
  }
  if (!condition) return true;
  const view = traceStep(trace, step);
  const memory = memoryAt(trace, Math.max(0, step - 1));
  for (let lane = 0; lane < trace.warpSize; lane++) {
    if (!view.isActive(lane)) continue;
    const env: LaneEnv = { lid: view.warp * trace.warpSize + lane, lane, warp: view.warp, workgroup: view.workgroup, memory, source };
    try {
      if (evaluate(condition, env) !== 0) return true;
    } catch {
      return false;
    }
  }
  return false;
}

/** The next (`direction` 1) or previous (-1) step after `from` that stops at a breakpoint, or -1. */
export function findHit(index: TraceIndex, breakpoints: readonly Breakpoint[], from: number, direction: 1 | -1, source?: DebugSource): { step: number; breakpoint: Breakpoint } | undefined {
  if (breakpoints.length === 0) return undefined;
  const compiled = breakpoints.map((bp) => ({ bp, condition: bp.condition ? parseExpression(bp.condition, source) : undefined }));
  const lines = new Set(breakpoints.map((b) => b.line));
  const trace = index.trace;
  const ops = opLines(trace, source);
  for (let s = from + direction; s >= 0 && s < trace.stepCount; s += direction) {
    if (!lines.has(ops[trace.stepOp[s]!]!)) continue;
    for (const { bp, condition } of compiled) if (hitsBreakpoint(index, bp, s, condition, source)) return { step: s, breakpoint: bp };
  }
  return undefined;
}

/** One lane's value in the warp watch. */
export interface WatchCell {
  readonly lane: number;
  readonly active: boolean;
  readonly value: number | undefined;
  readonly error?: string;
}

/**
 * The kernel's scalar names where a warp stands after a step, lane by lane: what the simulator's
 * watch re-run captured (`SimResult.watch`).
 */
export interface WatchLocals {
  readonly step: number;
  readonly warp: number;
  readonly values: readonly { readonly name: string; readonly type: ScalarValue['type']; readonly lanes: readonly number[] }[];
}

/**
 * Whether an expression names anything beyond the builtins and workgroup memory (it then needs the
 * watch re-run). In CUDA mode every name but CUDA's built-in variables may be the kernel's own.
 */
export function needsLocals(trace: Trace, expression: string, source?: DebugSource): boolean {
  const known = source ? CUDA_BUILTINS : CONDITION_NAMES;
  const e = parseExpression(expression, source);
  return [...e.names].some((n) => !known.has(n)) || [...e.arrays].some((a) => !trace.memories.some((m) => m.name === a && m.space === 'workgroup'));
}

/** The learner's names among those the re-run captured (in CUDA mode, not the translator's helpers). */
export function learnerNames(locals: WatchLocals | undefined, source?: DebugSource): string[] | undefined {
  if (!locals) return undefined;
  const names = locals.values.map((v) => v.name);
  return source ? names.filter((n) => isLearners(n, source)) : names;
}

/** Whether a generated WGSL name is one of the learner's CUDA variables (kept, or renamed `x_`, `x_2`). */
function isLearners(name: string, source: DebugSource): boolean {
  return source.identifiers.has(name) || source.identifiers.has(name.replace(/(?:_\d+|_)$/, ''));
}

/** One lane's view of the kernel's names captured at the same step and warp. */
function localsOf(locals: WatchLocals | undefined, lane: number): ((name: string) => ScalarValue | undefined) | undefined {
  if (!locals) return undefined;
  return (name) => {
    const v = locals.values.find((x) => x.name === name);
    return v && v.lanes[lane] !== undefined ? { type: v.type, value: v.lanes[lane] } : undefined;
  };
}

/**
 * `expression` in every lane of `warp` after `step` (inactive lanes are evaluated too and marked).
 * `locals`, captured at the same step and warp, lets it name the kernel's own variables (`s`, `v`).
 */
export function warpWatch(index: TraceIndex, step: number, warp: number, expression: string, locals?: WatchLocals, source?: DebugSource): WatchCell[] {
  const node = parseExpression(expression, source);
  const trace = index.trace;
  const memory = memoryAt(trace, step);
  const workgroup = trace.stepCount > 0 ? trace.stepWorkgroup[step]! : 0;
  const snapshot = warpsAt(index, step)[warp];
  const mine = locals && locals.step === step && locals.warp === warp ? locals : undefined;
  const inScope = mine ? mine.values.map((v) => v.name) : undefined;
  const out: WatchCell[] = [];
  for (let lane = 0; lane < trace.warpSize; lane++) {
    const active = snapshot ? snapshot.lanes[lane] !== 0 : false;
    try {
      out.push({ lane, active, value: evaluate(node, { lid: warp * trace.warpSize + lane, lane, warp, workgroup, memory, local: localsOf(mine, lane), inScope, source }) });
    } catch (e) {
      out.push({ lane, active, value: undefined, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/** What a console command asks of the page. */
export interface CommandEffect {
  readonly output: readonly string[];
  readonly step?: number;
  readonly focus?: { readonly warp: number; readonly lane: number };
  readonly workgroup?: number;
  readonly breakpoints?: readonly Breakpoint[];
  readonly watch?: string;
}

export interface DebugState {
  readonly index: TraceIndex;
  readonly step: number;
  readonly workgroup: number;
  readonly workgroupCount: number;
  readonly focusWarp: number;
  readonly focusLane: number;
  /** In the debugger's lines: CUDA lines in CUDA mode. */
  readonly breakpoints: readonly Breakpoint[];
  /** CUDA mode: the replay read through the learner's CUDA. */
  readonly source?: DebugSource | undefined;
  /** The kernel's names where the focused warp stands (the watch re-run), for `print`. */
  readonly locals?: WatchLocals | undefined;
}

/** Where a line is, in the console's words: `line 30`, or `CUDA line 18`. */
function where(line: number, source: DebugSource | undefined): string {
  return source ? ui('dbg.atCudaLine', { line }) : ui('dbg.atLine', { line });
}

/**
 * Whether `text` is a `print`/`ptype` that needs the kernel's own names where the focused warp
 * stands (the panel then re-runs the simulator to this step first). False when it cannot be read.
 */
export function commandNeedsLocals(state: DebugState, text: string): boolean {
  const m = /^(?:print|p|ptype|whatis)\s+(.+)$/.exec(text.trim());
  if (!m) return false;
  try {
    return needsLocals(state.index.trace, m[1]!, state.source);
  } catch {
    return false;
  }
}

/** The console's `help`: each command's syntax (cuda-gdb's, never translated) and what it does. */
export function consoleHelp(): string[] {
  return [
    `cuda block B thread T — ${ui('dbg.help.focus')}`,
    `info cuda warps — ${ui('dbg.help.warps')}`,
    `print EXPR — ${ui('dbg.help.print')}`,
    `ptype EXPR — ${ui('dbg.help.ptype')}`,
    `break LINE [if COND] — ${ui('dbg.help.break')}`,
    `delete [N] — ${ui('dbg.help.delete')}`,
    `continue / reverse-continue — ${ui('dbg.help.continue')}`,
    `step — ${ui('dbg.help.step')}`,
    `watch EXPR — ${ui('dbg.help.watch')}`,
  ];
}

/** Runs one console command against the replay. Never throws: errors come back as output. */
export function runCommand(state: DebugState, text: string): CommandEffect {
  const line = text.trim();
  try {
    return command(state, line);
  } catch (e) {
    return { output: [e instanceof DebugError ? ui('dbg.error', { message: e.message }) : ui('dbg.errorRaw', { message: String(e) })] };
  }
}

function command(state: DebugState, line: string): CommandEffect {
  const { index, step } = state;
  const trace = index.trace;
  const W = trace.warpSize;
  let m: RegExpExecArray | null;
  if (line === '' || line === 'help') return { output: consoleHelp() };
  if ((m = /^cuda\s+(?:block\s+(\d+)\s*)?(?:thread\s+(\d+))?$/.exec(line)) && (m[1] !== undefined || m[2] !== undefined)) {
    const out: string[] = [];
    let workgroup: number | undefined;
    if (m[1] !== undefined) {
      workgroup = Number(m[1]);
      if (workgroup >= state.workgroupCount) throw new DebugError(ui('dbg.noBlock', { block: workgroup, count: state.workgroupCount }));
    }
    let focus: { warp: number; lane: number } | undefined;
    if (m[2] !== undefined) {
      const t = Number(m[2]);
      if (t >= index.invocations) throw new DebugError(ui('dbg.noThread', { thread: t, count: index.invocations }));
      focus = { warp: Math.floor(t / W), lane: t % W };
    }
    const f = focus ?? { warp: state.focusWarp, lane: state.focusLane };
    out.push(ui('dbg.focus', { block: workgroup ?? state.workgroup, thread: f.warp * W + f.lane, warp: f.warp, lane: f.lane }));
    return { output: out, ...(focus ? { focus } : {}), ...(workgroup !== undefined && workgroup !== state.workgroup ? { workgroup } : {}) };
  }
  if (/^info\s+cuda\s+warps$/.test(line)) {
    const warps = warpsAt(index, step);
    const out = [ui('dbg.warpsOf', { block: state.workgroup, step: step + 1 })];
    for (const w of warps) {
      const steps = index.warpSteps[w.id]!;
      let last = -1;
      for (let k = steps.length - 1; k >= 0; k--) {
        if (steps[k]! <= step) {
          last = steps[k]!;
          break;
        }
      }
      const active = [...w.lanes].filter((x) => x !== 0).length;
      const at = last >= 0 ? where(lineOfStep(trace, last, state.source), state.source) : ui('dbg.notStarted');
      out.push(
        `${w.current ? '*' : ' '} ${ui('dbg.warpLine', { warp: w.id, where: at, active, size: W })}${w.divergent ? ui('dbg.divergent') : ''}${w.id === state.focusWarp ? ui('dbg.focusMark') : ''}`,
      );
    }
    return { output: out };
  }
  if ((m = /^(print|p|ptype|whatis)\s+(.+)$/.exec(line))) {
    const node = parseExpression(m[2]!, state.source);
    const locals = state.locals && state.locals.step === step && state.locals.warp === state.focusWarp ? state.locals : undefined;
    const env: LaneEnv = {
      lid: state.focusWarp * W + state.focusLane,
      lane: state.focusLane,
      warp: state.focusWarp,
      workgroup: state.workgroup,
      memory: memoryAt(trace, step),
      local: localsOf(locals, state.focusLane),
      inScope: locals?.values.map((v) => v.name),
      source: state.source,
    };
    const v = evaluateTyped(node, env);
    if (m[1] === 'ptype' || m[1] === 'whatis') return { output: [ui('dbg.ptype', { type: v.type })] };
    return { output: [ui('dbg.print', { value: v.text, type: v.type, expr: m[2]!.trim(), step: step + 1 })] };
  }
  if ((m = /^(?:break|b)\s+(\d+)(?:\s+if\s+(.+))?$/.exec(line))) {
    const id = state.breakpoints.reduce((mx, b) => Math.max(mx, b.id), 0) + 1;
    const bp = makeBreakpoint(id, Number(m[1]), m[2], state.source);
    const at = where(bp.line, state.source);
    return { output: [bp.condition ? ui('dbg.breakIf', { id, where: at, condition: bp.condition }) : ui('dbg.break', { id, where: at })], breakpoints: [...state.breakpoints, bp] };
  }
  if ((m = /^(?:delete|d)(?:\s+(\d+))?$/.exec(line))) {
    if (m[1] === undefined) return { output: [ui('dbg.deletedAll')], breakpoints: [] };
    const id = Number(m[1]);
    if (!state.breakpoints.some((b) => b.id === id)) throw new DebugError(ui('dbg.noBreakpoint', { id }));
    return { output: [ui('dbg.deleted', { id })], breakpoints: state.breakpoints.filter((b) => b.id !== id) };
  }
  if (/^(continue|c|reverse-continue|rc)$/.test(line)) {
    const back = line.startsWith('r');
    if (state.breakpoints.length === 0) throw new DebugError(ui('dbg.noBreakpoints'));
    const hit = findHit(index, state.breakpoints, step, back ? -1 : 1, state.source);
    if (!hit) return { output: [back ? ui('dbg.noEarlier') : ui('dbg.noLater')] };
    const v = traceStep(trace, hit.step);
    return {
      output: [ui('dbg.hit', { id: hit.breakpoint.id, warp: v.warp, where: where(hit.breakpoint.line, state.source), step: hit.step + 1 })],
      step: hit.step,
      focus: { warp: v.warp, lane: firstActive(v, W, state.focusWarp === v.warp ? state.focusLane : 0) },
    };
  }
  if (/^(step|s|next|n)$/.test(line)) {
    const steps = index.warpSteps[state.focusWarp];
    if (!steps) throw new DebugError(ui('dbg.noSteps', { warp: state.focusWarp }));
    const here = step < trace.stepCount ? lineOfStep(trace, step, state.source) : -1;
    for (const s of steps) {
      if (s <= step) continue;
      const l = lineOfStep(trace, s, state.source);
      // In CUDA mode the translator's own code (line 0) is stepped over.
      if (l !== here && (l !== 0 || !state.source)) return { output: [ui('dbg.stepped', { warp: state.focusWarp, where: where(l, state.source), step: s + 1 })], step: s };
    }
    return { output: [ui('dbg.noLaterStatement', { warp: state.focusWarp })] };
  }
  if ((m = /^watch\s+(.+)$/.exec(line))) {
    parseExpression(m[1]!, state.source);
    return { output: [ui('dbg.watching', { expr: m[1]!.trim(), warp: state.focusWarp })], watch: m[1]!.trim() };
  }
  throw new DebugError(ui('dbg.unknownCommand', { line }));
}

function firstActive(view: { isActive(lane: number): boolean }, W: number, prefer: number): number {
  if (view.isActive(prefer)) return prefer;
  for (let l = 0; l < W; l++) if (view.isActive(l)) return l;
  return prefer;
}

/** The builtins whose value differs from one invocation of a workgroup to the next. */
const PER_INVOCATION = new Set(['local_invocation_id', 'local_invocation_index', 'global_invocation_id', 'subgroup_invocation_id']);

/** The names an expression reads. */
function namesIn(e: Expr | null): string[] {
  if (!e) return [];
  if (e.k === 'id') return [e.name];
  const parts: (Expr | null)[] = e.k === 'bin' ? [e.l, e.r] : e.k === 'un' || e.k === 'mem' ? [e.e] : e.k === 'idx' ? [e.e, e.i] : e.k === 'call' ? [...e.args] : [];
  return parts.flatMap(namesIn);
}

/**
 * The first variable the entry point declares whose value differs from lane to lane (it is made
 * from the invocation's id, or from such a variable): `i` of `var i = gid.x`, `row` of naive
 * matmul. Undefined when the code cannot be read or declares none.
 */
export function firstPerLaneVariable(code: string, entryPoint: string, keep: (name: string) => boolean = () => true): string | undefined {
  let globals;
  try {
    globals = parse(code).ast;
  } catch {
    return undefined;
  }
  const entry = globals.find((g) => g.k === 'fn' && g.name === entryPoint);
  if (!entry || entry.k !== 'fn') return undefined;
  const varying = new Set(entry.params.filter((p) => p.attrs.some((a) => a.name === 'builtin' && a.args.some((x) => x.k === 'id' && PER_INVOCATION.has(x.name)))).map((p) => p.name));
  const visit = (list: readonly (Stmt | null)[]): string | undefined => {
    for (const st of list) {
      if (!st) continue;
      if (st.k === 'decl') {
        if (st.decl !== 'const' && namesIn(st.init).some((n) => varying.has(n))) {
          varying.add(st.name);
          if (keep(st.name)) return st.name;
        }
        continue;
      }
      const inner = st.k === 'block' || st.k === 'while' ? st.body : st.k === 'if' ? [...st.then, ...(st.else ?? [])] : st.k === 'loop' ? st.body : st.k === 'for' ? [st.init, ...st.body] : [];
      const found = visit(inner);
      if (found) return found;
    }
    return undefined;
  };
  return visit(entry.body);
}

/**
 * The warp watch's first expression for the kernel loaded, from its trace and its code: its first
 * workgroup array at the lane's own word (`sdata[lid]`; `bins[lid % 7u]` for an array shorter than
 * the workgroup), or, for a kernel with no workgroup memory, its first per-lane variable (`i`), or
 * the lane's index. In CUDA mode (`source`) it is C over the CUDA names (`threadIdx.x` in a
 * one-dimensional block).
 */
export function defaultWatch(trace: Trace | undefined, code: { readonly code: string; readonly entryPoint: string } | undefined, source?: DebugSource): string {
  const lid = source && source.block[1] === 1 && source.block[2] === 1 ? 'threadIdx.x' : 'lid';
  if (!trace) return lid;
  const arrays = trace.memories.filter((m) => m.space === 'workgroup' && m.element);
  const whole = arrays.find((m) => m.words >= trace.invocations);
  if (whole) return `${whole.name}[${lid}]`;
  const part = arrays[0];
  if (part) return `${part.name}[${lid} % ${part.words}${source ? '' : 'u'}]`;
  const local = code && firstPerLaneVariable(code.code, code.entryPoint, source ? (n) => isLearners(n, source) : undefined);
  return local ?? lid;
}
