/**
 * `instantiate(program, bindings, observers)`: one run of a compiled program on concrete buffers.
 * The instance owns its memories (copies of the bindings), warps, counters and diagnostics; the
 * program stays untouched, so one program serves any number of instances.
 */
import type { Bindings, BindingData, KernelRun } from '../kernel/types.ts';
import { dispatchSize } from '../kernel/types.ts';
import type { Program } from './compile.ts';
import { DONE, Machine, Mem, propagateTaint, RUN, StopRun, WAIT, Warp, type Diagnostic, type Metrics } from './machine.ts';
import { defaultObservers, type MemoryObserver } from './observers.ts';
import { DEFAULT_TRACE_BYTES, TAINT_SLOTS, TraceBuilder, withRequestCounters, type Trace, type TraceMemory } from './trace.ts';

/** Options of one run. */
export interface RunOptions {
  /** `'summary'` keeps counters only (big runs); default `'full'`. */
  trace?: 'full' | 'summary';
  /**
   * The warp watch: stop after trace step `step` (counted as a full trace with the same
   * `traceWorkgroups` counts them, also when `trace` is `'summary'`) and capture every scalar name
   * in scope where warp `warp` of that workgroup stands, in each of its lanes (`SimResult.watch`).
   */
  watch?: { readonly step: number; readonly warp: number };
  /**
   * Checkpoints for the watch: at the start of the `checkpointAt`-th workgroup in running order,
   * keep the buffers as they stand (`SimResult.checkpoint`). Workgroup memory and registers start
   * afresh in every workgroup, so those buffers are the whole state a later run needs.
   */
  checkpointAt?: number;
  /**
   * Resume from a checkpoint: skip the first `resumeAt` workgroups in running order; the bindings
   * must be the checkpoint's buffers. Trace steps and the watch count from there.
   */
  resumeAt?: number;
  /** Keep the full trace only for these linear workgroup ids. */
  traceWorkgroups?: number[];
  /** Stop after this many warp instructions (guards endless loops). Default 200 000 000. */
  maxSteps?: number;
  /**
   * Stop when one workgroup runs this many warp instructions without finishing (guards an endless
   * loop in a launch of many workgroups, where `maxSteps` must be large). Default: no such limit.
   */
  maxWorkgroupSteps?: number;
  /**
   * Bytes the full trace may hold (default `DEFAULT_TRACE_BYTES`, 256 MiB; a step costs about
   * 160 bytes at 32 lanes). Past it the trace stops with a `trace-limit` diagnostic at the line
   * reached, and the run goes on with counters only (metrics, buffers, other diagnostics).
   */
  maxTraceBytes?: number;
  /** Called with the fraction of workgroups done (0…1), at most about 100 times. */
  onProgress?: (fraction: number) => void;
  /** Polled between workgroups and every 65 536 warp instructions; true stops early (the worker's cancel). */
  shouldStop?: () => boolean;
  /** The kernel's file name, for the `trace-limit` message. */
  file?: string;
  /**
   * The order workgroups run in, one after another: `'linear'` (default: by linear id),
   * `'reverse'`, or a permutation of the linear ids. WebGPU promises no order, so a kernel that is
   * right in one order only has a bug this exposes.
   */
  workgroupOrder?: 'linear' | 'reverse' | readonly number[];
}

/** What a run returns. */
export interface SimResult {
  /** Same shape as the bindings: contents after the dispatch. Inputs are not modified. */
  buffers: Bindings;
  metrics: Metrics;
  diagnostics: Diagnostic[];
  /** Present when `trace` is `'full'` (possibly limited to `traceWorkgroups`). */
  trace?: Trace;
  /** True when the run stopped early (step limit, cancel) or never ran (unsupported WGSL). */
  incomplete?: boolean;
  /** What `RunOptions.watch` asked for, when the run reached that step. */
  watch?: WatchCapture;
  /** What `RunOptions.checkpointAt` asked for, when the run reached that workgroup. */
  checkpoint?: { readonly at: number; readonly buffers: Bindings };
}

/** The scalar names in scope where one warp stands after one trace step, each in every lane. */
export interface WatchCapture {
  readonly step: number;
  readonly warp: number;
  readonly workgroup: number;
  /** The source line of the instruction the warp last ran (0 when it has not started in this workgroup). */
  readonly line: number;
  readonly values: readonly WatchValue[];
}

export interface WatchValue {
  readonly name: string;
  readonly type: 'u32' | 'i32' | 'f32' | 'bool';
  /** One value per lane of the warp, as the lane's register holds it. */
  readonly lanes: readonly number[];
}

/**
 * The names of `program` in scope at instruction `at` (the last one warp `w` counted; -1 when it has
 * not started), the innermost one of each name, in every lane of `w`.
 */
export function captureLocals(program: Program, w: Warp, at: number): { line: number; values: WatchValue[] } {
  if (at < 0) return { line: 0, values: [] };
  const W = w.W;
  const chosen = new Map<string, (typeof program.locals)[number]>();
  for (const sym of program.locals) {
    if (sym.from > at || at >= sym.to) continue;
    const prev = chosen.get(sym.name);
    if (!prev || sym.from >= prev.from) chosen.set(sym.name, sym);
  }
  const values = [...chosen.values()].map((sym) => ({
    name: sym.name,
    type: sym.type,
    lanes: Array.from({ length: W }, (_, l) => (sym.reg < 0 ? (sym.constant ?? 0) : w.R[sym.reg * W + l]!)),
  }));
  return { line: program.opLine[at] ?? 0, values };
}

export type InstantiateResult =
  | { readonly ok: true; readonly instance: Instance }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const DEFAULT_MAX_STEPS = 200_000_000;
/** `shouldStop` is polled every 65 536 counted warp instructions (and between workgroups). */
const STOP_POLL_MASK = 0xffff;

/** A run that cannot start: `message` at the declaration of the buffer it is about. */
function unbindable(info: Program['mems'][number], message: string): InstantiateResult {
  return { ok: false, diagnostics: [{ kind: 'unsupported', line: info.pos.line, column: info.pos.col, message }] };
}

/**
 * Binds `program` to `bindings` (copied: the inputs are never modified). `observers` watch every
 * memory request in addition to the built-in ones (banks, coalescing, races). A buffer the
 * program declares but the bindings lack is an `unsupported` diagnostic at its declaration.
 */
export function instantiate(
  program: Program,
  bindings: Bindings,
  observers: readonly MemoryObserver[] = [],
): InstantiateResult {
  const mems: Mem[] = [];
  const outputs: { group: number; binding: number; mem: Mem; like: BindingData }[] = [];
  for (const info of program.mems) {
    if (info.space === 'workgroup') {
      const wg = new Mem(info.id, info.name, 'workgroup', info.words, -1, -1, false);
      wg.halves = !!info.halves;
      wg.element = info.element;
      mems.push(wg);
      continue;
    }
    const data = bindings[info.group]?.[info.binding];
    if (!data) {
      return unbindable(info, `no buffer bound at @group(${info.group}) @binding(${info.binding}) for '${info.name}': add one to the run's bindings`);
    }
    // As the GPU executor binds it: a uniform block padded to 16 bytes, a storage buffer at its
    // length (an empty one as 16 bytes). Below the type's minimum the browser refuses the binding.
    const bound = info.space === 'uniform' || data.length === 0 ? Math.max(4, Math.ceil(data.length / 4) * 4) : data.length;
    if (info.minWords !== undefined && bound < info.minWords) {
      return unbindable(
        info,
        `the buffer bound at @group(${info.group}) @binding(${info.binding}) for '${info.name}' holds ${bound * 4} bytes, but its type needs at least ${info.minWords * 4}: the browser refuses this binding; pass a buffer of at least ${info.minWords * 4} bytes`,
      );
    }
    const mem = new Mem(info.id, info.name, info.space, data.length, info.group, info.binding, info.readOnly);
    mem.halves = !!info.halves;
    if (data instanceof Float32Array) mem.f32.set(data);
    else if (data instanceof Int32Array) mem.i32.set(data);
    else mem.u32.set(data);
    mems.push(mem);
    outputs.push({ group: info.group, binding: info.binding, mem, like: data });
  }
  return { ok: true, instance: new Instance(program, bindings, mems, outputs, [...defaultObservers(), ...observers]) };
}

/** Linear workgroup ids in running order, or undefined for the linear order. */
function workgroupOrder(order: RunOptions['workgroupOrder'], total: number): Uint32Array | undefined {
  if (order === undefined || order === 'linear') return undefined;
  if (order === 'reverse') return Uint32Array.from({ length: total }, (_, i) => total - 1 - i);
  const seen = new Uint8Array(total);
  for (const id of order) {
    if (!Number.isInteger(id) || id < 0 || id >= total || seen[id]) {
      throw new RangeError(
        `workgroupOrder must be a permutation of 0 … ${total - 1}; ${id} is out of range or repeated`,
      );
    }
    seen[id] = 1;
  }
  if (order.length !== total)
    throw new RangeError(`workgroupOrder names ${order.length} workgroups; the dispatch has ${total}`);
  return Uint32Array.from(order);
}

export function copyBindings(b: Bindings): Bindings {
  const out: Bindings = {};
  for (const [g, rec] of Object.entries(b)) {
    const o: Record<number, BindingData> = {};
    for (const [k, v] of Object.entries(rec)) o[Number(k)] = v.slice();
    out[Number(g)] = o;
  }
  return out;
}

export class Instance {
  private ran = false;

  constructor(
    readonly program: Program,
    private readonly bindings: Bindings,
    private readonly mems: Mem[],
    private readonly outputs: readonly { group: number; binding: number; mem: Mem; like: BindingData }[],
    private readonly observers: readonly MemoryObserver[],
  ) {}

  /** The buffers as they stand now, in the bindings' shape (copies). */
  private snapshot(): Bindings {
    const out = copyBindings(this.bindings);
    for (const o of this.outputs) {
      const like = o.like;
      const view = like instanceof Float32Array ? o.mem.f32 : like instanceof Int32Array ? o.mem.i32 : o.mem.u32;
      (out[o.group] ??= {})[o.binding] = view.slice(0, like.length);
    }
    return out;
  }

  /**
   * Runs the dispatch warp by warp, synchronously; see `machine.ts` for the fixed schedule. An
   * instance runs once (its memories hold the results): instantiate again for another run.
   */
  run(workgroups: KernelRun['workgroups'], options: RunOptions = {}): SimResult {
    if (this.ran) throw new Error('this instance has already run: call instantiate() again for another run');
    this.ran = true;
    const prog = this.program;
    const W = prog.warpSize;
    const M = new Machine(W);
    M.mems = this.mems;
    M.observers = this.observers;
    M.opPos = Array.from(prog.opLine, (line, i) => ({ line, col: prog.opColumn[i]! }));
    const sharedMems = this.mems.filter((m) => m.space === 'workgroup');

    const full = (options.trace ?? 'full') === 'full';
    const traceSet = options.traceWorkgroups ? new Set(options.traceWorkgroups) : null;
    const maxTraceBytes = options.maxTraceBytes ?? DEFAULT_TRACE_BYTES;
    if (!(maxTraceBytes > 0)) throw new RangeError(`maxTraceBytes must be positive, got ${maxTraceBytes}`);
    const tb = full ? new TraceBuilder(W, Math.ceil(W / 32), maxTraceBytes) : null;
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    const maxWorkgroupSteps = options.maxWorkgroupSteps ?? Infinity;
    // The step count at which the current workgroup stops: the run's limit or the workgroup's.
    let limit = maxSteps;

    const [wx, wy, wz] = prog.workgroupSize;
    const wgSize = wx * wy * wz;
    const nWarps = Math.ceil(wgSize / W);
    const warps: Warp[] = [];
    for (let k = 0; k < nWarps; k++) {
      const w = new Warp(M, k, W, prog.nregs);
      for (const [r, v] of prog.constInit) w.R.fill(v, r * W, (r + 1) * W);
      warps.push(w);
    }
    const B = prog.builtins;
    const [nx, ny, nz] = dispatchSize(workgroups);
    for (const w of warps) {
      const R = w.R;
      let ne = 0;
      for (let l = 0; l < W; l++) {
        const li = w.id * W + l;
        const exists = li < wgSize;
        w.exist[l] = exists ? 1 : 0;
        if (exists) ne++;
        R[B.lid * W + l] = li % wx;
        R[(B.lid + 1) * W + l] = Math.floor(li / wx) % wy;
        R[(B.lid + 2) * W + l] = Math.floor(li / (wx * wy));
        R[B.lidx * W + l] = li;
        R[B.nwg * W + l] = nx;
        R[(B.nwg + 1) * W + l] = ny;
        R[(B.nwg + 2) * W + l] = nz;
        R[B.sgid * W + l] = l;
        R[B.sgsize * W + l] = W;
        R[B.sgIndex * W + l] = w.id;
        R[B.nsg * W + l] = nWarps;
      }
      w.nExist = ne;
    }
    const total = nx * ny * nz;
    const ops = prog.ops;
    const counted = prog.counted;
    const taint = prog.taint;
    let steps = 0;
    let incomplete = false;
    // The warp watch: trace steps counted in the workgroups a trace keeps, and the capture once
    // the asked step (with the instructions that follow it up to the next step) has run.
    const watch = options.watch;
    let watchStep = 0;
    let watchCounts = false;
    let watchDue = false;
    let watchWorkgroup = 0;
    let captured: WatchCapture | undefined;
    let checkpoint: SimResult['checkpoint'];
    const lastCounted = new Int32Array(nWarps).fill(-1);
    const takeWatch = (): void => {
      const w = warps[watch!.warp];
      const c = w ? captureLocals(prog, w, lastCounted[w.id]!) : { line: 0, values: [] };
      captured = { step: watch!.step, warp: watch!.warp, workgroup: watchWorkgroup, ...c };
      throw new StopRun();
    };
    let lastProgress = -1;

    /** The trace reached its budget at instruction `pc`: say where, and go on counting only. */
    const traceFull = (pc: number): void => {
      const p = M.opPos[pc] ?? { line: 0, col: 0 };
      const mib = (maxTraceBytes / 2 ** 20).toLocaleString('en', { maximumFractionDigits: 1 });
      M.diag(
        'trace-limit',
        p,
        `trace too large at line ${p.line}${options.file ? ` of ${options.file}` : ''}: the trace reached its ` +
          `${mib} MiB budget after ${tb!.steps.toLocaleString('en')} steps (workgroup ${M.wgLinear}). The steps before ` +
          `are kept; the run went on with counters only. Trace fewer workgroups, a smaller input, or raise maxTraceBytes.`,
      );
      M.tr = null;
      for (const w of warps) w.T = null;
    };

    /** Warp `w` went past maxSteps at instruction `pc`: say where, and stop the run. */
    const stepLimit = (w: Warp, pc: number): never => {
      const p = M.opPos[pc] ?? { line: 0, col: 0 };
      M.diag(
        'step-limit',
        p,
        limit < maxSteps
          ? `stopped after workgroup ${M.wgLinear} ran ${maxWorkgroupSteps} warp instructions without finishing (warp ${w.id} at line ${p.line}): the kernel may loop forever.`
          : `stopped after ${maxSteps} warp instructions (workgroup ${M.wgLinear}, warp ${w.id} at line ` +
              `${p.line}): the kernel may loop forever. Raise maxSteps if it is just big.`,
      );
      throw new StopRun();
    };

    const runWarp = (w: Warp): void => {
      let tr = M.tr;
      while (w.status === RUN) {
        const pc = w.pc++;
        if (counted[pc]) {
          if (watchDue) takeWatch();
          if (watch) lastCounted[w.id] = pc;
          if (watchCounts && watchStep++ === watch!.step) {
            watchDue = true;
            watchWorkgroup = M.wgLinear;
          }
          M.warpInstructions++;
          M.laneInstructions += w.n;
          // Cancel is polled inside long workgroups too: one that never ends would otherwise keep
          // the worker busy until maxSteps.
          if ((steps & STOP_POLL_MASK) === STOP_POLL_MASK && options.shouldStop?.()) throw new StopRun();
          if (++steps > limit) stepLimit(w, pc);
          if (tr && !tr.beginStep(M.wgLinear, w.id, pc, w.mask)) {
            traceFull(pc);
            tr = null;
          }
        }
        ops[pc]!(w);
        if (tr) {
          const t = taint[pc];
          if (t) for (const f of t) propagateTaint(w, f.src, f.dst);
        }
      }
    };

    /**
     * One round of `runWarp` over the workgroup's warps without the trace and the watch (every big
     * summary run): the counters live in locals while the warps run and reach the machine when the
     * round ends (every warp at a barrier or done) or stops (StopRun), so each instruction costs one
     * table lookup, two additions and the step checks.
     */
    const shouldStop = options.shouldStop;
    const runRoundLean = (): void => {
      let s = steps;
      let wi = 0;
      let li = 0;
      try {
        for (let k = 0; k < nWarps; k++) {
          const w = warps[k]!;
          while (w.status === RUN) {
            const pc = w.pc++;
            if (counted[pc]) {
              wi++;
              li += w.n;
              if ((s & STOP_POLL_MASK) === STOP_POLL_MASK && shouldStop?.()) throw new StopRun();
              if (++s > limit) stepLimit(w, pc);
            }
            ops[pc]!(w);
          }
        }
      } finally {
        steps = s;
        M.warpInstructions += wi;
        M.laneInstructions += li;
      }
    };

    const order = workgroupOrder(options.workgroupOrder, total);
    try {
      for (let done = options.resumeAt ?? 0; done < total; done++) {
        if (done === options.checkpointAt) checkpoint = { at: done, buffers: this.snapshot() };
        const linear = order ? order[done]! : done;
        const wx_ = linear % nx;
        const wy_ = Math.floor(linear / nx) % ny;
        const wz_ = Math.floor(linear / (nx * ny));
        M.wgLinear = linear;
        limit = Math.min(maxSteps, steps + maxWorkgroupSteps);
        if (options.shouldStop?.()) {
          incomplete = true;
          throw new StopRun();
        }
        if (watchDue) takeWatch();
        watchCounts = !!watch && (!traceSet || traceSet.has(linear));
        lastCounted.fill(-1);
        const traced = !!tb && !tb.full && (!traceSet || traceSet.has(linear));
        M.tr = traced ? tb : null;
        if (traced) tb.workgroups.push(linear);
        for (const m of sharedMems) {
          m.u32.fill(0);
          m.lastWrite!.fill(-1);
        }
        M.epoch++;
        for (const w of warps) {
          const R = w.R;
          // Lane-constant builtins were set once; per workgroup only the ids change.
          R.fill(wx_, B.wgid * W, (B.wgid + 1) * W);
          R.fill(wy_, (B.wgid + 1) * W, (B.wgid + 2) * W);
          R.fill(wz_, (B.wgid + 2) * W, (B.wgid + 3) * W);
          const gx = wx_ * wx;
          const gy = wy_ * wy;
          const gz = wz_ * wz;
          const lid0 = B.lid * W;
          const gid0 = B.gid * W;
          for (let l = 0; l < W; l++) {
            R[gid0 + l] = gx + R[lid0 + l]!;
            R[gid0 + W + l] = gy + R[lid0 + W + l]!;
            R[gid0 + 2 * W + l] = gz + R[lid0 + 2 * W + l]!;
          }
          w.mask.set(w.exist);
          w.park.fill(0);
          w.parkCount = 0;
          const ne = w.nExist;
          w.relanes();
          w.pc = 0;
          w.sp = 0;
          w.status = ne > 0 ? RUN : DONE;
          if (traced) {
            if (!w.T || w.T.length !== prog.nregs * W * TAINT_SLOTS)
              w.T = new Int32Array(prog.nregs * W * TAINT_SLOTS);
            w.T.fill(-1);
          } else w.T = null;
        }
        // Round-robin: each warp runs to its next barrier or its end.
        for (;;) {
          if (!M.tr && !watch) runRoundLean();
          else for (const w of warps) if (w.status === RUN) runWarp(w);
          let waiting = 0;
          let finished = 0;
          let pc0 = -1;
          let samePc = true;
          for (const w of warps) {
            if (w.status === WAIT) {
              waiting++;
              if (pc0 < 0) pc0 = w.pc;
              else if (w.pc !== pc0) samePc = false;
            } else finished++;
          }
          if (waiting === 0) break;
          const bpos = M.opPos[pc0 - 1] ?? { line: 0, col: 0 };
          if (finished > 0) {
            M.diag(
              'barrier-divergence',
              bpos,
              `only ${waiting} of ${nWarps} warps of workgroup ${linear} reach this barrier; the others ` +
                `finished without it. On a GPU the waiting warps may hang. WGSL compilers reject barriers ` +
                `in non-uniform control flow; CUDA leaves it undefined.`,
            );
          }
          if (!samePc) {
            const lines = [
              ...new Set(warps.filter((w) => w.status === WAIT).map((w) => M.opPos[w.pc - 1]?.line ?? 0)),
            ];
            M.diag(
              'barrier-divergence',
              bpos,
              `warps of workgroup ${linear} wait at different barriers (lines ${lines.join(', ')}): the ` +
                `barrier is in non-uniform control flow. WGSL compilers reject this; CUDA leaves it undefined.`,
            );
          }
          M.barriers++;
          M.epoch++;
          for (const w of warps) if (w.status === WAIT) w.status = RUN;
        }
        if (options.onProgress) {
          const pct = Math.floor(((done + 1) * 100) / total);
          if (pct !== lastProgress) {
            lastProgress = pct;
            options.onProgress((done + 1) / total);
          }
        }
      }
      if (watchDue) takeWatch();
    } catch (e) {
      if (!(e instanceof StopRun)) throw e;
      incomplete = true;
    }

    // The instance runs once, so its memories become the result (views of the input's type;
    // a binding of 0 words gets a fresh empty array).
    const buffers: Bindings = {};
    for (const o of this.outputs) {
      const like = o.like;
      const view = like instanceof Float32Array ? o.mem.f32 : like instanceof Int32Array ? o.mem.i32 : o.mem.u32;
      (buffers[o.group] ??= {})[o.binding] = like.length === view.length ? view : view.slice(0, like.length);
    }
    for (const [g, rec] of Object.entries(this.bindings)) {
      for (const [k, v] of Object.entries(rec)) {
        const out = (buffers[Number(g)] ??= {});
        if (!(Number(k) in out)) out[Number(k)] = v.slice();
      }
    }
    const diagnostics: Diagnostic[] = [...M.diags.values()].map((d) => ({
      kind: d.kind,
      line: d.line,
      column: d.column,
      message: d.count > 1 ? `${d.message} (${d.count} occurrences)` : d.message,
    }));
    const result: SimResult = { buffers, metrics: M.metrics(), diagnostics };
    if (tb) {
      const memories: TraceMemory[] = this.mems.map((m) => ({
        id: m.id,
        name: m.name,
        space: m.space,
        group: m.group,
        binding: m.binding,
        words: m.words,
        ...(m.element ? { element: m.element } : {}),
      }));
      result.trace = withRequestCounters(tb.finish(prog.opLine, prog.opColumn, prog.opKind, memories), [wx, wy, wz]);
    }
    if (incomplete) result.incomplete = true;
    if (captured) result.watch = captured;
    if (checkpoint) result.checkpoint = checkpoint;
    return result;
  }
}
