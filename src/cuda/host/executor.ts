/**
 * Runs the kernels a host program launches: `prepareLaunch` turns the launch and the blocks its
 * pointers point into into a `KernelRun`, the simulator runs it in summary mode, and the outputs
 * are written back into the same blocks (only the buffers the kernel may write).
 */
import { prepareLaunch, CudaLaunchError } from '../launch.ts';
import { launchSite } from '../lower.ts';
import type { CudaProgram, KernelArg, KernelInfo } from '../types.ts';
import type { Bindings, KernelRun } from '../../kernel/types.ts';
import { simulate } from '../../sim/index.ts';
import type { HostExecutor, HostLaunch, LaunchBuffer, LaunchOutcome } from './cuda-runtime.ts';
import type { Interpreter } from './interp.ts';
import { BLOCK_SPAN } from './memory.ts';

const ILLEGAL_ADDRESS = 700;
/** The simulator's default step limit, and the steps each warp of a larger launch may take beyond it. */
const MAX_STEPS = 200_000_000;
const STEPS_PER_WARP = 16_384;
/**
 * Warp instructions one block may run before it reads as endless, whatever the grid: the whole
 * launch's limit grows with the grid, so without this an endless loop in a launch of 65 536 blocks
 * would run for hours. 2^25 is about 60 times what the course's heaviest honest block needs
 * (003-matrix-multiply-tiled: 8 warps × 2047 iterations) and a few seconds of simulation.
 */
const STEPS_PER_BLOCK = 2 ** 25;

/** The per-block limits of a CUDA device (compute capability 9.0 without opt-in shared memory). */
const CUDA_LIMITS = {
  maxComputeWorkgroupSizeX: 1024,
  maxComputeWorkgroupSizeY: 1024,
  maxComputeWorkgroupSizeZ: 64,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupStorageSize: 49152,
};

/** A typed view of a block from `offset`, in the parameter's element type. */
function viewOf(buf: LaunchBuffer, type: string): KernelArg {
  const b = buf.block;
  const bytes = b.u8.subarray(buf.offset, b.size);
  const copy = bytes.slice(); // aligned copy, whatever the offset
  switch (type) {
    case 'float':
      return new Float32Array(copy.buffer, 0, Math.floor(copy.length / 4));
    case 'int':
    case 'long':
    case 'long long':
      return new Int32Array(copy.buffer, 0, Math.floor(copy.length / 4));
    case 'unsigned int':
    case 'unsigned long':
    case 'unsigned long long':
      return new Uint32Array(copy.buffer, 0, Math.floor(copy.length / 4));
    case 'char':
    case 'signed char':
      return new Int8Array(copy.buffer, 0, copy.length);
    case 'unsigned char':
    case 'bool':
      return new Uint8Array(copy.buffer, 0, copy.length);
    case 'short':
      return new Int16Array(copy.buffer, 0, Math.floor(copy.length / 2));
    case 'unsigned short':
      return new Uint16Array(copy.buffer, 0, Math.floor(copy.length / 2));
    default:
      return new Uint32Array(copy.buffer, 0, Math.floor(copy.length / 4));
  }
}

function writeBack(buf: LaunchBuffer, data: KernelArg): void {
  if (typeof data !== 'object') return;
  const view = data as ArrayBufferView;
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const room = buf.block.size - buf.offset;
  buf.block.u8.set(bytes.subarray(0, Math.min(room, bytes.length)), buf.offset);
}

/** A launch turned into the `KernelRun` an executor takes, and the way its results come back. */
export interface PreparedHostLaunch {
  readonly run: KernelRun;
  /** What the kernel wrote (read_write parameters and globals, by name) and printed, from the executor's output bindings. */
  results(outputs: Bindings): LaunchWrites;
}

/** The effect of one launch on the program: what it wrote into device memory, and what it printed. */
export interface LaunchWrites {
  readonly writes: Readonly<Record<string, KernelArg>>;
  readonly printed: readonly string[];
}

/** The launch's pointer arguments and the device globals its kernel uses, by name, with the kernel's record. */
function targetsOf(program: CudaProgram, interp: Interpreter, l: HostLaunch): { info: KernelInfo; buffers: Map<string, { buf: LaunchBuffer; type: string; writable: boolean }>; scalars: Record<string, number> } | undefined {
  // A template kernel's launch runs the instance its arguments name (`k<float><<<…>>>`).
  const name = program.launchKernels?.[launchSite(l.range)] ?? l.kernel.name;
  const info = program.kernels.find((k) => k.name === name);
  if (!info) return undefined;
  const buffers = new Map<string, { buf: LaunchBuffer; type: string; writable: boolean }>();
  const scalars: Record<string, number> = {};
  l.args.forEach((a, i) => {
    const p = info.params[i]!;
    if (typeof a === 'object') buffers.set(p.name, { buf: a, type: p.type, writable: p.access === 'read_write' });
    else scalars[p.name] = Number(a);
  });
  for (const g of info.globals) {
    const sym = interp.globalSymbol(g.name);
    if (!sym) continue;
    const block = interp.mem.blockOf(sym.addr)!;
    buffers.set(g.name, { buf: { param: g.name, block, offset: sym.addr - block.id * BLOCK_SPAN }, type: g.type, writable: g.access === 'read_write' });
  }
  return { info, buffers, scalars };
}

/**
 * Turns a host launch into a `KernelRun` with the buffers as they are now, or the outcome that
 * needs no executor (an empty kernel, a kernel that did not translate, a launch CUDA refuses).
 */
export function prepareHostLaunch(program: CudaProgram, interp: Interpreter, l: HostLaunch): { readonly outcome: LaunchOutcome } | { readonly prepared: PreparedHostLaunch } {
  // A kernel with an empty body does nothing on any grid (2^31 - 1 blocks of it would cost the
  // simulator minutes for no effect): the launch, already validated, succeeds.
  if (l.kernel.body && l.kernel.body.body.length === 0) return { outcome: {} };
  const targets = targetsOf(program, interp, l);
  if (!targets) return { outcome: { error: 98, detail: `the kernel '${l.kernel.name}' did not translate, so it cannot run` } };
  const args: Record<string, KernelArg> = { ...targets.scalars };
  for (const [name, { buf, type }] of targets.buffers) args[name] = viewOf(buf, type);
  let prepared;
  try {
    prepared = prepareLaunch(program, targets.info.name, { grid: l.grid, block: l.block, sharedBytes: l.sharedBytes }, args);
  } catch (e) {
    if (e instanceof CudaLaunchError) return { outcome: { error: 1, detail: e.message } };
    throw e;
  }
  const p = prepared;
  return {
    prepared: {
      run: p.run,
      results(outputs) {
        const out = p.readBack(outputs);
        const writes: Record<string, KernelArg> = {};
        for (const [name, { writable }] of targets.buffers) if (writable && out[name] !== undefined) writes[name] = out[name]!;
        return { writes, printed: p.printed(outputs) };
      },
    },
  };
}

/** Writes a launch's results into the blocks its arguments (and the kernel's globals) point into now. */
export function applyWrites(program: CudaProgram, interp: Interpreter, l: HostLaunch, writes: Readonly<Record<string, KernelArg>>): void {
  const targets = targetsOf(program, interp, l);
  if (!targets) return;
  for (const [name, data] of Object.entries(writes)) {
    const t = targets.buffers.get(name);
    if (t) writeBack(t.buf, data);
  }
}

/**
 * A simulator diagnostic told in CUDA's terms: the message is composed here from its kind and the
 * CUDA position its WGSL position maps to (never by editing the simulator's text, whose positions
 * are the generated WGSL's).
 */
export function cudaDetail(program: CudaProgram, d: { readonly kind: string; readonly line: number; readonly column: number; readonly message: string }): string {
  const at = program.sourceMap.toCuda(d.line, d.column);
  const where = at ? `line ${at.line}, column ${at.column} of ${at.file ?? program.fileName}` : `line ${d.line} of the generated WGSL (code the translator added)`;
  switch (d.kind) {
    case 'step-limit':
      return `stopped: a block ran more warp instructions than the simulator allows without finishing, with a warp at ${where}: the kernel may loop forever.`;
    case 'out-of-bounds':
      // The simulator's text names the array, the word and the thread, and no position.
      return `the kernel accessed memory out of bounds at ${where}: ${d.message}`;
    default:
      return `the simulator cannot run the translated kernel at ${where} (generated WGSL line ${d.line}): ${d.message}`;
  }
}

/** A launch the simulator ran, kept to answer an identical later launch (same kernel, configuration and input bytes). */
interface Simulated {
  readonly run: KernelRun;
  /** `inputHash(run)`, taken once when it ran. */
  readonly hash: string;
  readonly bytes: number;
  readonly writes: Readonly<Record<string, KernelArg>>;
  readonly outcome: LaunchOutcome;
}

/** Input bytes the runs kept for reuse may hold, per program run. */
const REUSE_BYTES = 64 * 1024 * 1024;
const simulatedBy = new WeakMap<Interpreter, Simulated[]>();

const bytesOfRun = (run: KernelRun): number => Object.values(run.bindings).reduce((n, group) => n + Object.values(group).reduce((m, a) => m + a.byteLength, 0), 0);

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const aligned = a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 && a.byteLength % 4 === 0;
  const x = aligned ? new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4) : new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = aligned ? new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * A digest of a run's kernel, configuration and every input byte, read once per launch: a launch
 * is compared byte by byte only with kept runs of the same digest (two 32-bit FNV-1a style lanes
 * over the words, so another run rarely shares it).
 */
function inputHash(run: KernelRun): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9;
  const mix = (x: number): void => {
    h1 = Math.imul(h1 ^ x, 0x01000193);
    h2 = Math.imul(h2 ^ x, 0x5bd1e995) ^ (h2 >>> 15);
  };
  const text = `${run.entryPoint}|${JSON.stringify(run.workgroups)}|${JSON.stringify(run.overrides ?? {})}|${run.code.length}`;
  for (let i = 0; i < text.length; i++) mix(text.charCodeAt(i));
  for (const g of Object.keys(run.bindings).sort()) {
    const group = run.bindings[Number(g)]!;
    for (const k of Object.keys(group).sort()) {
      const a = group[Number(k)]!;
      mix(Number(g) * 65536 + Number(k));
      mix(a.byteLength);
      const whole = a.byteOffset % 4 === 0 ? a.byteLength >> 2 : 0;
      const words = new Uint32Array(a.buffer, a.byteOffset, whole);
      for (let i = 0; i < words.length; i++) mix(words[i]!);
      const bytes = new Uint8Array(a.buffer, a.byteOffset + whole * 4, a.byteLength - whole * 4);
      for (let i = 0; i < bytes.length; i++) mix(bytes[i]!);
    }
  }
  return `${(h1 >>> 0).toString(16)}:${(h2 >>> 0).toString(16)}`;
}

/** Whether two runs are the same computation: the simulator is deterministic, so they give the same results. */
function sameRun(a: KernelRun, b: KernelRun): boolean {
  if (a.code !== b.code || a.entryPoint !== b.entryPoint || JSON.stringify(a.workgroups) !== JSON.stringify(b.workgroups) || JSON.stringify(a.overrides ?? {}) !== JSON.stringify(b.overrides ?? {})) return false;
  const groups = Object.keys(a.bindings);
  if (groups.length !== Object.keys(b.bindings).length) return false;
  for (const g of groups) {
    const x = a.bindings[Number(g)]!;
    const y = b.bindings[Number(g)];
    if (!y || Object.keys(x).length !== Object.keys(y).length) return false;
    for (const k of Object.keys(x)) {
      const u = y[Number(k)];
      if (!u || !sameBytes(x[Number(k)]!, u)) return false;
    }
  }
  return true;
}

/**
 * The simulator as the runtime's executor (summary mode: counters only, no trace). `onPrepared`
 * sees each launch's `KernelRun` before it runs: its buffers as they were at launch (the simulator
 * never modifies its inputs), which the program page keeps to replay the launch.
 *
 * A launch identical to one the simulator already ran in this program (the same kernel, grid,
 * block, shared bytes and every input byte: a benchmark loop that repeats one launch 100 times)
 * is not simulated again: the simulator is deterministic, so its writes, printf lines and error
 * are the earlier run's, and `costMs` says what simulating it took.
 */
export function simExecutor(program: CudaProgram, interp: Interpreter, onPrepared?: (run: KernelRun) => void): HostExecutor {
  return {
    launch(l: HostLaunch): LaunchOutcome {
      const ready = prepareHostLaunch(program, interp, l);
      if ('outcome' in ready) return ready.outcome;
      const { run } = ready.prepared;
      onPrepared?.(run);
      const simulated = simulatedBy.get(interp) ?? [];
      simulatedBy.set(interp, simulated);
      const hash = inputHash(run);
      const same = simulated.find((s) => s.hash === hash && sameRun(s.run, run));
      if (same) {
        applyWrites(program, interp, l, same.writes);
        return same.outcome;
      }
      const t0 = performance.now();
      // CUDA's limits, not a browser's: 48 KiB of shared memory per block (the runtime has
      // already refused a launch over them with cudaErrorInvalidValue).
      // The step limit that stops an endless kernel grows with the launch: a big grid of honest
      // warps (002-topk's 31 256 warps need about 6 500 steps each) must not read as a hang.
      const warps = l.grid.x * l.grid.y * l.grid.z * Math.ceil((l.block.x * l.block.y * l.block.z) / 32);
      const result = simulate(run, { trace: 'summary', limits: CUDA_LIMITS, maxSteps: Math.max(MAX_STEPS, warps * STEPS_PER_WARP), maxWorkgroupSteps: STEPS_PER_BLOCK });
      const { writes, printed } = ready.prepared.results(result.buffers);
      applyWrites(program, interp, l, writes);
      const oob = result.diagnostics.find((d) => d.kind === 'out-of-bounds');
      const unsupported = result.diagnostics.find((d) => d.kind === 'unsupported' || d.kind === 'step-limit');
      const costMs = performance.now() - t0;
      const outcome: LaunchOutcome = unsupported
        ? { error: 719, detail: cudaDetail(program, unsupported), printed, costMs }
        : oob
          ? { error: ILLEGAL_ADDRESS, detail: cudaDetail(program, oob), printed, costMs }
          : { printed, costMs };
      // Kept while the inputs fit the budget, the oldest given up first.
      const bytes = bytesOfRun(run);
      if (bytes <= REUSE_BYTES) {
        simulated.push({ run, hash, bytes, writes, outcome });
        let held = simulated.reduce((n, s) => n + s.bytes, 0);
        while (held > REUSE_BYTES) held -= simulated.shift()!.bytes;
      }
      return outcome;
    },
  };
}
