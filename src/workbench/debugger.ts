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
 */
import { traceStep, type Trace } from '../sim/index.ts';
import { warpsAt, type TraceIndex } from '../trace/index.ts';
import { sharedContentsAt } from '../trace/memory.ts';
import { ui } from '../i18n/ui.ts';
import { evaluateExpression, ExpressionError, parseExpression as parseWgslExpression, type ArrayValue, type ParsedExpression, type ScalarValue, type Scope } from '../wgsl/evaluate.ts';

export class DebugError extends Error {}

/** An expression of the watch or a breakpoint condition, read as WGSL (`src/wgsl/evaluate.ts`). */
export type Expression = ParsedExpression;

/** The expression's error in the console's words. */
function debugError(e: unknown, text: string): unknown {
  if (!(e instanceof ExpressionError)) return e;
  switch (e.kind) {
    case 'empty':
      return new DebugError(ui('dbg.empty'));
    case 'unknown-name':
      return new DebugError(ui('dbg.unknownName', { name: e.subject ?? '', names: names() }));
    case 'unknown-array':
      return new DebugError(ui('dbg.noMemory', { name: e.subject ?? '', names: names() }));
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

/** Parses an expression of the watch or a breakpoint condition. */
export function parseExpression(text: string): Expression {
  try {
    return parseWgslExpression(text);
  } catch (e) {
    throw debugError(e, text);
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

/**
 * The expression's value in one lane, by WGSL's rules for the types of the names it reads (a `u32`
 * wraps, an `i32` wraps in two's complement, an `f32` rounds to f32); a bool is 1 or 0.
 */
export function evaluate(expression: Expression, env: LaneEnv): number {
  const scope: Scope = {
    scalar: (name) => {
      const b = builtinOf(name, env);
      return b !== undefined ? { type: 'u32', value: b } : env.local?.(name);
    },
    array: env.memory,
  };
  try {
    return evaluateExpression(expression, scope).value;
  } catch (e) {
    throw debugError(e, expression.text);
  }
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

/** Throws a `DebugError` when the condition cannot be read. */
export function makeBreakpoint(id: number, line: number, condition?: string): Breakpoint {
  if (!Number.isInteger(line) || line < 1) throw new DebugError(ui('dbg.notLine', { line }));
  const c = condition?.trim();
  if (c) parseExpression(c);
  return c ? { id, line, condition: c } : { id, line };
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
 * another line) and the condition holds in at least one active lane.
 */
export function hitsBreakpoint(index: TraceIndex, bp: Breakpoint, step: number, condition = bp.condition ? parseExpression(bp.condition) : undefined): boolean {
  const trace = index.trace;
  const view = traceStep(trace, step);
  if (view.line !== bp.line) return false;
  const prev = previousOfWarp(index, step);
  if (prev >= 0 && traceStep(trace, prev).line === bp.line) return false;
  if (!condition) return true;
  const memory = memoryAt(trace, Math.max(0, step - 1));
  for (let lane = 0; lane < trace.warpSize; lane++) {
    if (!view.isActive(lane)) continue;
    const env: LaneEnv = { lid: view.warp * trace.warpSize + lane, lane, warp: view.warp, workgroup: view.workgroup, memory };
    try {
      if (evaluate(condition, env) !== 0) return true;
    } catch {
      return false;
    }
  }
  return false;
}

/** The next (`direction` 1) or previous (-1) step after `from` that stops at a breakpoint, or -1. */
export function findHit(index: TraceIndex, breakpoints: readonly Breakpoint[], from: number, direction: 1 | -1): { step: number; breakpoint: Breakpoint } | undefined {
  if (breakpoints.length === 0) return undefined;
  const compiled = breakpoints.map((bp) => ({ bp, condition: bp.condition ? parseExpression(bp.condition) : undefined }));
  const lines = new Set(breakpoints.map((b) => b.line));
  const trace = index.trace;
  for (let s = from + direction; s >= 0 && s < trace.stepCount; s += direction) {
    if (!lines.has(trace.opLine[trace.stepOp[s]!]!)) continue;
    for (const { bp, condition } of compiled) if (hitsBreakpoint(index, bp, s, condition)) return { step: s, breakpoint: bp };
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

/** Whether an expression names anything beyond the builtins and workgroup memory (it then needs the watch re-run). */
export function needsLocals(trace: Trace, expression: string): boolean {
  const known = new Set(['lid', 'tid', 'threadIdx.x', 'local_invocation_index', 'lane', 'warp', 'workgroup', 'wid', 'blockIdx.x']);
  const e = parseExpression(expression);
  return [...e.names].some((n) => !known.has(n)) || [...e.arrays].some((a) => !trace.memories.some((m) => m.name === a && m.space === 'workgroup'));
}

/**
 * `expression` in every lane of `warp` after `step` (inactive lanes are evaluated too and marked).
 * `locals`, captured at the same step and warp, lets it name the kernel's own variables (`s`, `v`).
 */
export function warpWatch(index: TraceIndex, step: number, warp: number, expression: string, locals?: WatchLocals): WatchCell[] {
  const node = parseExpression(expression);
  const trace = index.trace;
  const memory = memoryAt(trace, step);
  const workgroup = trace.stepCount > 0 ? trace.stepWorkgroup[step]! : 0;
  const snapshot = warpsAt(index, step)[warp];
  const mine = locals && locals.step === step && locals.warp === warp ? locals : undefined;
  const localOf = (lane: number) =>
    mine
      ? (name: string): ScalarValue | undefined => {
          const v = mine.values.find((x) => x.name === name);
          return v && v.lanes[lane] !== undefined ? { type: v.type, value: v.lanes[lane] } : undefined;
        }
      : undefined;
  const out: WatchCell[] = [];
  for (let lane = 0; lane < trace.warpSize; lane++) {
    const active = snapshot ? snapshot.lanes[lane] !== 0 : false;
    try {
      out.push({ lane, active, value: evaluate(node, { lid: warp * trace.warpSize + lane, lane, warp, workgroup, memory, local: localOf(lane) }) });
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
  readonly breakpoints: readonly Breakpoint[];
}

/** The console's `help`: each command's syntax (cuda-gdb's, never translated) and what it does. */
export function consoleHelp(): string[] {
  return [
    `cuda block B thread T — ${ui('dbg.help.focus')}`,
    `info cuda warps — ${ui('dbg.help.warps')}`,
    `print EXPR — ${ui('dbg.help.print')}`,
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
      const where = last >= 0 ? ui('dbg.atLine', { line: traceStep(trace, last).line }) : ui('dbg.notStarted');
      out.push(
        `${w.current ? '*' : ' '} ${ui('dbg.warpLine', { warp: w.id, where, active, size: W })}${w.divergent ? ui('dbg.divergent') : ''}${w.id === state.focusWarp ? ui('dbg.focusMark') : ''}`,
      );
    }
    return { output: out };
  }
  if ((m = /^(?:print|p)\s+(.+)$/.exec(line))) {
    const node = parseExpression(m[1]!);
    const env: LaneEnv = {
      lid: state.focusWarp * W + state.focusLane,
      lane: state.focusLane,
      warp: state.focusWarp,
      workgroup: state.workgroup,
      memory: memoryAt(trace, step),
    };
    return { output: [ui('dbg.print', { value: evaluate(node, env), expr: m[1]!.trim(), step: step + 1 })] };
  }
  if ((m = /^(?:break|b)\s+(\d+)(?:\s+if\s+(.+))?$/.exec(line))) {
    const id = state.breakpoints.reduce((mx, b) => Math.max(mx, b.id), 0) + 1;
    const bp = makeBreakpoint(id, Number(m[1]), m[2]);
    return { output: [bp.condition ? ui('dbg.breakIf', { id, line: bp.line, condition: bp.condition }) : ui('dbg.break', { id, line: bp.line })], breakpoints: [...state.breakpoints, bp] };
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
    const hit = findHit(index, state.breakpoints, step, back ? -1 : 1);
    if (!hit) return { output: [back ? ui('dbg.noEarlier') : ui('dbg.noLater')] };
    const v = traceStep(trace, hit.step);
    return {
      output: [ui('dbg.hit', { id: hit.breakpoint.id, warp: v.warp, line: v.line, step: hit.step + 1 })],
      step: hit.step,
      focus: { warp: v.warp, lane: firstActive(v, W, state.focusWarp === v.warp ? state.focusLane : 0) },
    };
  }
  if (/^(step|s|next|n)$/.test(line)) {
    const steps = index.warpSteps[state.focusWarp];
    if (!steps) throw new DebugError(ui('dbg.noSteps', { warp: state.focusWarp }));
    const here = step < trace.stepCount ? traceStep(trace, step).line : -1;
    for (const s of steps) {
      if (s <= step) continue;
      const l = traceStep(trace, s).line;
      if (l !== here) return { output: [ui('dbg.stepped', { warp: state.focusWarp, line: l, step: s + 1 })], step: s };
    }
    return { output: [ui('dbg.noLaterStatement', { warp: state.focusWarp })] };
  }
  if ((m = /^watch\s+(.+)$/.exec(line))) {
    parseExpression(m[1]!);
    return { output: [ui('dbg.watching', { expr: m[1]!.trim(), warp: state.focusWarp })], watch: m[1]!.trim() };
  }
  throw new DebugError(ui('dbg.unknownCommand', { line }));
}

function firstActive(view: { isActive(lane: number): boolean }, W: number, prefer: number): number {
  if (view.isActive(prefer)) return prefer;
  for (let l = 0; l < W; l++) if (view.isActive(l)) return l;
  return prefer;
}
