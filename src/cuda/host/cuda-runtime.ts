/* eslint-disable @typescript-eslint/no-this-alias -- the compiled closures capture the interpreter (and the runtime) by name */
/**
 * The CUDA runtime API as host code sees it, over the interpreter's memory: device allocations are
 * blocks of their own kind (host code that touches them faults, as it would segfault), copies are
 * checked against both blocks, and errors behave as CUDA 13 on the H100 was seen to behave
 * (docs/runs/2026-11-26-h100-seed-programs/cuda-runtime.txt): every failing call records its error
 * for `cudaGetLastError`, which returns and clears it; `cudaPeekAtLastError` keeps it; a launch
 * with a bad configuration fails with `cudaErrorInvalidValue` ("invalid argument") at the launch
 * and nowhere else; a kernel's illegal address is reported by the next synchronising call and then
 * by every call (the context is lost).
 *
 * Kernels run through a `HostExecutor` (the simulator in summary mode, or the GPU).
 */
import type { Expr, FunctionDecl, Range, TypeRef } from '../ast.ts';
import type { Dim3 } from '../types.ts';
import { type Builtin, type Compiled, type Ev, type Frame, type Interpreter, type V } from './interp.ts';
import { BLOCK_SPAN, HostFault, type Block } from './memory.ts';
import { DEVICE_PROP, DIM3, HANDLE, INT, ULONG, VOID, arith, ptr, sizeOf, type HType } from './types.ts';

/** The CUDA errors this runtime reports, with cudart's own names and strings (oracle/cuda-errors.out). */
export const CUDA_ERRORS = {
  0: ['cudaSuccess', 'no error'],
  1: ['cudaErrorInvalidValue', 'invalid argument'],
  2: ['cudaErrorMemoryAllocation', 'out of memory'],
  9: ['cudaErrorInvalidConfiguration', 'invalid configuration argument'],
  13: ['cudaErrorInvalidSymbol', 'invalid device symbol'],
  17: ['cudaErrorInvalidDevicePointer', 'invalid device pointer'],
  21: ['cudaErrorInvalidMemcpyDirection', 'invalid copy direction for memcpy'],
  98: ['cudaErrorInvalidDeviceFunction', 'invalid device function'],
  100: ['cudaErrorNoDevice', 'no CUDA-capable device is detected'],
  101: ['cudaErrorInvalidDevice', 'invalid device ordinal'],
  400: ['cudaErrorInvalidResourceHandle', 'invalid resource handle'],
  600: ['cudaErrorNotReady', 'device not ready'],
  700: ['cudaErrorIllegalAddress', 'an illegal memory access was encountered'],
  701: ['cudaErrorLaunchOutOfResources', 'too many resources requested for launch'],
  702: ['cudaErrorLaunchTimeout', 'the launch timed out and was terminated'],
  719: ['cudaErrorLaunchFailure', 'unspecified launch failure'],
  999: ['cudaErrorUnknown', 'unknown error'],
} as const satisfies Record<number, readonly [string, string]>;

export type CudaErrorCode = keyof typeof CUDA_ERRORS;

const S = 0;
const INVALID_VALUE = 1;
const MEMORY_ALLOCATION = 2;
const INVALID_SYMBOL = 13;
const INVALID_MEMCPY_DIRECTION = 21;
const INVALID_DEVICE = 101;
const INVALID_RESOURCE_HANDLE = 400;

export function cudaErrorName(code: number): string {
  return (CUDA_ERRORS as Record<number, readonly [string, string]>)[code]?.[0] ?? 'unrecognized error code';
}
export function cudaErrorString(code: number): string {
  return (CUDA_ERRORS as Record<number, readonly [string, string]>)[code]?.[1] ?? 'unrecognized error code';
}

/** What `cudaGetDeviceProperties` fills in (the members programs read). */
export interface DeviceProperties {
  readonly name: string;
  readonly totalGlobalMem: number;
  readonly sharedMemPerBlock: number;
  readonly sharedMemPerBlockOptin: number;
  readonly sharedMemPerMultiprocessor: number;
  readonly regsPerBlock: number;
  readonly warpSize: number;
  readonly maxThreadsPerBlock: number;
  readonly maxThreadsDim: readonly [number, number, number];
  readonly maxGridSize: readonly [number, number, number];
  readonly totalConstMem: number;
  readonly major: number;
  readonly minor: number;
  readonly multiProcessorCount: number;
  readonly maxThreadsPerMultiProcessor: number;
  readonly l2CacheSize: number;
  readonly memoryBusWidth: number;
  /** kHz, from `cudaDeviceGetAttribute(cudaDevAttrClockRate)`. */
  readonly clockRate: number;
}

/**
 * The simulator's device: the H100's limits and sizes as CUDA 13 reports them on the H100
 * (cuda-runtime.txt), under the simulator's own name.
 */
export const SIMULATOR_DEVICE: DeviceProperties = {
  name: 'Warpscope SIMT simulator',
  totalGlobalMem: 85017493504,
  sharedMemPerBlock: 49152,
  sharedMemPerBlockOptin: 232448,
  sharedMemPerMultiprocessor: 233472,
  regsPerBlock: 65536,
  warpSize: 32,
  maxThreadsPerBlock: 1024,
  maxThreadsDim: [1024, 1024, 64],
  maxGridSize: [2147483647, 65535, 65535],
  totalConstMem: 65536,
  major: 9,
  minor: 0,
  multiProcessorCount: 132,
  maxThreadsPerMultiProcessor: 2048,
  l2CacheSize: 52428800,
  memoryBusWidth: 5120,
  clockRate: 1980000,
};

/** A pointer argument of a launch: the block it points into and where. */
export interface LaunchBuffer {
  readonly param: string;
  readonly block: Block;
  readonly offset: number;
}

export interface HostLaunch {
  readonly kernel: FunctionDecl;
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly sharedBytes: number;
  /** In parameter order: a number/bigint for a scalar, a buffer for a pointer. */
  readonly args: readonly (V | LaunchBuffer)[];
  readonly range: Range;
}

export interface LaunchOutcome {
  /** A CUDA error the kernel raised (700 for an out-of-bounds access), reported at the next sync. */
  readonly error?: number;
  /** Why, in words (shown on stderr of the run, not printed by the program). */
  readonly detail?: string;
  /** Lines the kernel's printf wrote, in order. */
  readonly printed?: readonly string[];
  /** Measured GPU time of the launch in milliseconds, when the executor measures it. */
  readonly gpuMs?: number;
  /**
   * Milliseconds the simulator took to compute the result (for a launch answered from an
   * identical earlier one, that one's), so a replay's cost can be estimated.
   */
  readonly costMs?: number;
}

/** Runs kernels for the runtime: writes the results into the blocks of the launch's buffers. */
export interface HostExecutor {
  launch(launch: HostLaunch): LaunchOutcome;
}

/** One launch as the program made it (for the timeline and the replay). */
export interface CudaLaunch {
  readonly kernel: string;
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly sharedBytes: number;
  /** The CUDA line of the launch. */
  readonly line: number;
  /** GPU time in milliseconds, where the executor measured it. */
  readonly gpuMs?: number;
  /** The error the launch caused, if any (its CUDA code). */
  readonly error?: number;
  /**
   * Each pointer argument's whole block as it stood at launch time (for a replay with the real
   * inputs), keyed by parameter name; absent once the run's snapshots exceed their budget.
   */
  readonly buffers?: Readonly<Record<string, { readonly bytes: Uint8Array; readonly offset: number }>>;
  /** Scalar arguments by parameter name. */
  readonly scalars: Readonly<Record<string, number | bigint>>;
}

const SNAPSHOT_BUDGET = 256 * 1024 * 1024;

/**
 * The launches' buffers kept for a replay with their real inputs, within one budget for the run
 * (the GPU executor's rounds share one, so a launch is copied once, in the round that first runs it).
 */
export class Snapshots {
  private bytes = 0;
  constructor(private readonly budget = SNAPSHOT_BUDGET) {}

  /** Each pointer argument's whole block as it stands, or nothing once the budget is spent. */
  take(kernel: FunctionDecl, args: readonly (V | LaunchBuffer)[]): CudaLaunch['buffers'] {
    let bytes = 0;
    for (const a of args) if (typeof a === 'object') bytes += a.block.size;
    // Copied only while the budget lasts (a program of 200 launches over 4 MB buffers copied 1.6 GB to keep 256 MB).
    if (this.bytes + bytes > this.budget) return undefined;
    this.bytes += bytes;
    const buffers: Record<string, { bytes: Uint8Array; offset: number }> = {};
    args.forEach((a, i) => {
      if (typeof a === 'object') buffers[kernel.params[i]!.name] = { bytes: a.block.u8.slice(0, a.block.size), offset: a.offset };
    });
    return buffers;
  }
}

export class CudaRuntime {
  lastError = 0;
  /** A lost context (illegal address): every later call returns it. */
  sticky = 0;
  /** An error raised by a kernel and not yet reported by a synchronising call. */
  pending = 0;
  readonly launches: CudaLaunch[] = [];
  private readonly events = new Map<number, { recorded: boolean; ms: number }>();
  private nextEvent = 1;
  /** Milliseconds of device time so far (the GPU's measured time, or the host clock for the sim). */
  deviceMs = 0;

  constructor(
    readonly executor: HostExecutor,
    readonly device: DeviceProperties,
    readonly kernels: ReadonlyMap<string, FunctionDecl>,
    readonly hostMs: () => number,
    /** Where the launches' buffers are kept; `null`: not kept (the GPU executor keeps them itself). */
    readonly snapshots: Snapshots | null = new Snapshots(),
  ) {}

  /** Records and returns an API call's result, as cudart does. */
  result(code: number): number {
    if (this.sticky) code = this.sticky;
    if (code) this.lastError = code;
    return code;
  }

  sync(): number {
    if (this.pending) {
      this.sticky = this.pending;
      this.pending = 0;
    }
    return this.result(0);
  }

  builtins(): Record<string, Builtin> {
    const rt = this;
    const fn = (ret: HType, params: readonly HType[] | 'varargs', impl: (interp: Interpreter, vals: V[], range: Range) => V): Builtin => (ctx, args) => {
      const { interp, range } = ctx;
      const evs: Ev[] = args.map((a, i) => (params === 'varargs' || !params[i] ? interp.rvalue(a).ev : interp.convertTo(a, params[i]).ev));
      return { t: ret, ev: (f) => impl(interp, evs.map((e) => e(f)), range), range };
    };
    const constant = (v: number): Builtin => (ctx) => ({ t: INT, ev: () => v, range: ctx.range });
    const E = arith('int');
    const VP = ptr(VOID);
    const deviceBlock = (interp: Interpreter, p: V): Block | undefined => {
      const b = interp.mem.blockOf(Number(p));
      return b && !b.freed && (b.info.kind === 'device' || b.info.kind === 'managed' || b.info.kind === 'constant') ? b : undefined;
    };
    const alloc = (kind: 'device' | 'managed') => fn(E, [ptr(VP), ULONG], (interp, [pp, n], range) => {
      const bytes = Number(n);
      if (rt.sticky) return rt.result(0);
      if (bytes > rt.device.totalGlobalMem) return rt.result(MEMORY_ALLOCATION);
      if (bytes > 2 ** 31) interp.fail(`cudaMalloc of ${bytes} bytes: this interpreter gives a program at most 2 GiB per allocation`, range);
      const name = labelOf(interp, range);
      const a = interp.mem.allocate(bytes, { kind, label: name, line: range.line });
      interp.mem.store(Number(pp), 'u64', a);
      return rt.result(S);
    });
    const copy = (interp: Interpreter, dst: number, src: number, bytes: number, kind: number): number => {
      if (rt.sticky) return rt.result(0);
      if (kind < 0 || kind > 4) return rt.result(INVALID_MEMCPY_DIRECTION);
      if (bytes === 0) return rt.result(S);
      const db = interp.mem.blockOf(dst);
      const sb = interp.mem.blockOf(src);
      const isDev = (b: Block | undefined): boolean => !!b && (b.info.kind === 'device' || b.info.kind === 'managed' || b.info.kind === 'constant');
      // cudaMemcpyHostToDevice = 1 and DeviceToHost = 2 need a device pointer on that side.
      if ((kind === 1 && !isDev(db)) || (kind === 2 && !isDev(sb)) || (kind === 3 && (!isDev(db) || !isDev(sb)))) return rt.result(INVALID_VALUE);
      const inRange = (b: Block | undefined, a: number): boolean => !!b && !b.freed && a - b.id * BLOCK_SPAN + bytes <= b.size;
      if ((isDev(db) && !inRange(db, dst)) || (isDev(sb) && !inRange(sb, src))) return rt.result(INVALID_VALUE);
      // The host side is ordinary memory: an overflow there is the program's bug, reported as such.
      interp.mem.bytes(dst, bytes, true, true).set(interp.mem.bytes(src, bytes, false, true));
      return rt.result(S);
    };
    const b: Record<string, Builtin> = {
      cudaSuccess: constant(0),
      cudaMemcpyHostToHost: constant(0),
      cudaMemcpyHostToDevice: constant(1),
      cudaMemcpyDeviceToHost: constant(2),
      cudaMemcpyDeviceToDevice: constant(3),
      cudaMemcpyDefault: constant(4),
      cudaDevAttrClockRate: constant(13),
      cudaDevAttrMultiProcessorCount: constant(16),
      cudaDevAttrMaxThreadsPerBlock: constant(1),
      cudaDevAttrWarpSize: constant(10),
      cudaDevAttrMemoryClockRate: constant(36),
      cudaMalloc: alloc('device'),
      cudaMallocManaged: fn(E, 'varargs', (interp, [pp, n], range) => {
        const bytes = Number(n);
        if (rt.sticky) return rt.result(0);
        if (bytes > rt.device.totalGlobalMem) return rt.result(MEMORY_ALLOCATION);
        const a = interp.mem.allocate(bytes, { kind: 'managed', label: labelOf(interp, range), line: range.line });
        interp.mem.store(Number(pp), 'u64', a);
        return rt.result(S);
      }),
      cudaFree: fn(E, [VP], (interp, [p]) => {
        if (rt.sticky) return rt.result(0);
        if (Number(p) === 0) return rt.result(S);
        const blk = deviceBlock(interp, p!);
        if (!blk || Number(p) !== blk.id * BLOCK_SPAN) return rt.result(INVALID_VALUE);
        interp.mem.free(Number(p), 'cudaFree');
        return rt.result(S);
      }),
      cudaMemcpy: fn(E, [VP, VP, ULONG, INT], (interp, [d, s, n, k]) => copy(interp, Number(d), Number(s), Number(n), Number(k))),
      cudaMemset: fn(E, [VP, INT, ULONG], (interp, [p, v, n]) => {
        if (rt.sticky) return rt.result(0);
        const blk = deviceBlock(interp, p!);
        const bytes = Number(n);
        if (!blk || Number(p) - blk.id * BLOCK_SPAN + bytes > blk.size) return rt.result(INVALID_VALUE);
        interp.mem.bytes(Number(p), bytes, true, true).fill(Number(v) & 0xff);
        return rt.result(S);
      }),
      cudaMemcpyToSymbol: (ctx, args, call) => rt.symbolCopy(ctx.interp, ctx.range, args, call.args[0], true),
      cudaMemcpyFromSymbol: (ctx, args, call) => rt.symbolCopy(ctx.interp, ctx.range, args, call.args[1], false),
      cudaDeviceSynchronize: fn(E, [], () => rt.sync()),
      cudaThreadSynchronize: fn(E, [], () => rt.sync()),
      cudaDeviceReset: fn(E, [], () => {
        rt.sticky = 0;
        rt.pending = 0;
        rt.lastError = 0;
        return 0;
      }),
      cudaGetLastError: fn(E, [], () => {
        const e = rt.lastError || rt.pending;
        if (rt.pending) {
          rt.sticky = rt.pending;
          rt.pending = 0;
        }
        rt.lastError = 0;
        return e;
      }),
      cudaPeekAtLastError: fn(E, [], () => rt.lastError || rt.pending),
      cudaGetErrorString: fn(ptr(arith('char')), [INT], (interp, [e], range) => interp.stringLiteral(cudaErrorString(Number(e)), range)),
      cudaGetErrorName: fn(ptr(arith('char')), [INT], (interp, [e], range) => interp.stringLiteral(cudaErrorName(Number(e)), range)),
      cudaGetDeviceCount: fn(E, [ptr(INT)], (interp, [p]) => (interp.mem.store(Number(p), 'i32', 1), rt.result(S))),
      cudaSetDevice: fn(E, [INT], (_i, [d]) => rt.result(Number(d) === 0 ? S : INVALID_DEVICE)),
      cudaGetDevice: fn(E, [ptr(INT)], (interp, [p]) => (interp.mem.store(Number(p), 'i32', 0), rt.result(S))),
      cudaGetDeviceProperties: fn(E, [ptr(DEVICE_PROP), INT], (interp, [p, d]) => {
        if (Number(d) !== 0) return rt.result(INVALID_DEVICE);
        rt.writeProps(interp, Number(p));
        return rt.result(S);
      }),
      cudaDeviceGetAttribute: fn(E, [ptr(INT), INT, INT], (interp, [p, attr, d]) => {
        if (Number(d) !== 0) return rt.result(INVALID_DEVICE);
        const dev = rt.device;
        const v = { 13: dev.clockRate, 16: dev.multiProcessorCount, 1: dev.maxThreadsPerBlock, 10: dev.warpSize, 36: 2619000 }[Number(attr)];
        if (v === undefined) return rt.result(INVALID_VALUE);
        interp.mem.store(Number(p), 'i32', v);
        return rt.result(S);
      }),
      cudaEventCreate: fn(E, 'varargs', (interp, [p]) => {
        const id = rt.nextEvent++;
        rt.events.set(id, { recorded: false, ms: 0 });
        interp.mem.store(Number(p), 'u64', id);
        return rt.result(S);
      }),
      cudaEventRecord: fn(E, 'varargs', (_i, [e]) => {
        const ev = rt.events.get(Number(e));
        if (!ev) return rt.result(INVALID_RESOURCE_HANDLE);
        ev.recorded = true;
        ev.ms = rt.now();
        return rt.result(S);
      }),
      cudaEventSynchronize: fn(E, [HANDLE], (_i, [e]) => (rt.events.has(Number(e)) ? rt.sync() : rt.result(INVALID_RESOURCE_HANDLE))),
      cudaEventQuery: fn(E, [HANDLE], (_i, [e]) => (rt.events.has(Number(e)) ? rt.result(S) : rt.result(INVALID_RESOURCE_HANDLE))),
      cudaEventDestroy: fn(E, [HANDLE], (_i, [e]) => rt.result(rt.events.delete(Number(e)) ? S : INVALID_RESOURCE_HANDLE)),
      cudaEventElapsedTime: fn(E, [ptr(arith('float')), HANDLE, HANDLE], (interp, [p, a, b]) => {
        const ea = rt.events.get(Number(a));
        const eb = rt.events.get(Number(b));
        if (!ea || !eb || !ea.recorded || !eb.recorded) return rt.result(INVALID_RESOURCE_HANDLE);
        interp.mem.store(Number(p), 'f32', eb.ms - ea.ms);
        return rt.result(S);
      }),
      '<<<>>>': (ctx, _args, call) => rt.launchExpr(ctx.interp, call, ctx.range),
    };
    return b;
  }

  /** Device time now: the host clock plus the GPU time the launches measured. */
  now(): number {
    return this.hostMs() + this.deviceMs;
  }

  private writeProps(interp: Interpreter, p: number): void {
    if (DEVICE_PROP.k !== 'struct') return;
    const dev = this.device;
    const field = (n: string): number => p + DEVICE_PROP.fields.get(n)!.offset;
    const name = new TextEncoder().encode(dev.name).slice(0, 255);
    const nb = interp.mem.bytes(field('name'), 256, true);
    nb.fill(0);
    nb.set(name);
    const ints: [string, number][] = [
      ['regsPerBlock', dev.regsPerBlock], ['warpSize', dev.warpSize], ['maxThreadsPerBlock', dev.maxThreadsPerBlock], ['major', dev.major],
      ['minor', dev.minor], ['multiProcessorCount', dev.multiProcessorCount], ['l2CacheSize', dev.l2CacheSize],
      ['maxThreadsPerMultiProcessor', dev.maxThreadsPerMultiProcessor], ['memoryBusWidth', dev.memoryBusWidth], ['managedMemory', 1],
      ['unifiedAddressing', 1], ['regsPerMultiprocessor', 65536], ['concurrentKernels', 1],
    ];
    for (const [n, v] of ints) interp.mem.store(field(n), 'i32', v);
    const longs: [string, number][] = [
      ['totalGlobalMem', dev.totalGlobalMem], ['sharedMemPerBlock', dev.sharedMemPerBlock], ['totalConstMem', dev.totalConstMem],
      ['sharedMemPerMultiprocessor', dev.sharedMemPerMultiprocessor], ['sharedMemPerBlockOptin', dev.sharedMemPerBlockOptin], ['memPitch', 2147483647],
    ];
    for (const [n, v] of longs) interp.mem.store(field(n), 'u64', v);
    for (let i = 0; i < 3; i++) {
      interp.mem.store(field('maxThreadsDim') + 4 * i, 'i32', dev.maxThreadsDim[i]!);
      interp.mem.store(field('maxGridSize') + 4 * i, 'i32', dev.maxGridSize[i]!);
    }
  }

  private symbolCopy(interp: Interpreter, range: Range, args: Compiled[], symbolExpr: Expr | undefined, to: boolean): Compiled {
    const name = symbolExpr && symbolExpr.kind === 'ident' ? symbolExpr.name : undefined;
    const sym = name ? interp.globalSymbol(name) : undefined;
    if (!sym || (sym.kind !== 'device' && sym.kind !== 'constant' && sym.kind !== 'managed')) {
      interp.fail(`${to ? 'cudaMemcpyToSymbol' : 'cudaMemcpyFromSymbol'} needs a __device__ or __constant__ variable${name ? `; '${name}' is not one` : ''}`, range);
    }
    const other = interp.rvalue(args[to ? 1 : 0]!).ev;
    const count = interp.convertTo(args[2]!, ULONG).ev;
    const offset = args[3] ? interp.convertTo(args[3], ULONG).ev : () => 0;
    const size = sizeOf(sym.t);
    const rt = this;
    return {
      t: INT,
      ev: (f) => {
        if (rt.sticky) return rt.result(0);
        const n = Number(count(f));
        const off = Number(offset(f));
        if (off + n > size) return rt.result(INVALID_VALUE);
        const symAddr = sym.addr + off;
        const [dst, src] = to ? [symAddr, Number(other(f))] : [Number(other(f)), symAddr];
        interp.mem.bytes(dst, n, true, true).set(interp.mem.bytes(src, n, false, true));
        return rt.result(S);
      },
      range,
    };
    void INVALID_SYMBOL;
  }

  private launchExpr(interp: Interpreter, launch: Extract<Expr, { kind: 'call' | 'launch' }>, range: Range): Compiled {
    if (launch.kind !== 'launch') interp.fail('not a launch', range);
    const name = launch.callee.kind === 'ident' ? launch.callee.name : undefined;
    const kernel = name ? this.kernels.get(name) : undefined;
    if (!kernel) interp.fail(`'${name ?? 'this'}' is not a __global__ kernel in this file`, range);
    const config = launch.config.map((c) => interp.expr(c));
    if (config.length < 2) interp.fail('a launch needs at least <<<grid, block>>>', range);
    const dim = (c: Compiled): ((f: Frame) => Dim3) => {
      if (c.t.k === 'struct') {
        const a = c.addr ?? c.ev;
        return (f) => {
          const base = Number(a(f));
          return { x: Number(interp.mem.load(base, 'u32')), y: Number(interp.mem.load(base + 4, 'u32')), z: Number(interp.mem.load(base + 8, 'u32')) };
        };
      }
      const v = interp.convertTo(c, arith('unsigned int')).ev;
      return (f) => ({ x: Number(v(f)), y: 1, z: 1 });
    };
    const grid = dim(config[0]!);
    const block = dim(config[1]!);
    const shared = config[2] ? interp.convertTo(config[2], ULONG).ev : () => 0;
    if (launch.args.length !== kernel.params.length) {
      interp.fail(`'${kernel.name}' takes ${kernel.params.length} argument${kernel.params.length === 1 ? '' : 's'}, the launch gives ${launch.args.length}`, range);
    }
    // A template kernel's parameters in the launch's type arguments (`k<float><<<…>>>(p)`: T is float).
    const typeArgs = new Map<string, HType>();
    kernel.template?.forEach((p, i) => {
      const a = launch.templateArgs?.[i];
      if (a?.kind === 'type') typeArgs.set(p.name, interp.typeOf(a));
    });
    const paramType = (r: TypeRef): HType => {
      let t = typeArgs.get(r.base);
      if (!t) return interp.typeOf(r);
      for (let k = 0; k < r.pointers.length; k++) t = ptr(t);
      return t;
    };
    const args = launch.args.map((a, i) => {
      const pt = paramType(kernel.params[i]!.type);
      return { t: pt, ev: interp.convertTo(interp.expr(a), pt).ev };
    });
    const rt = this;
    return {
      t: VOID,
      ev: (f) => {
        const g = grid(f);
        const b = block(f);
        const sharedBytes = Number(shared(f));
        const vals = args.map((a, i): V | LaunchBuffer => {
          const v = a.ev(f);
          if (a.t.k !== 'ptr') return v;
          const blk = interp.mem.blockOf(Number(v));
          if (!blk || blk.freed) {
            if (Number(v) === 0) return { param: kernel.params[i]!.name, block: nullBlock(interp), offset: 0 };
            throw new HostFault('wild', `argument '${kernel.params[i]!.name}' of ${kernel.name}<<<…>>> points into no live allocation`);
          }
          return { param: kernel.params[i]!.name, block: blk, offset: Number(v) - blk.id * BLOCK_SPAN };
        });
        rt.launch(interp, kernel, g, b, sharedBytes, vals, range);
        return 0;
      },
      range,
    };
  }

  private launch(interp: Interpreter, kernel: FunctionDecl, grid: Dim3, block: Dim3, sharedBytes: number, args: (V | LaunchBuffer)[], range: Range): void {
    const dev = this.device;
    const threads = block.x * block.y * block.z;
    const record = (extra: Partial<CudaLaunch>): void => {
      const scalars: Record<string, number | bigint> = {};
      args.forEach((a, i) => {
        if (typeof a !== 'object') scalars[kernel.params[i]!.name] = a;
      });
      const buffers = this.snapshots?.take(kernel, args);
      this.launches.push({ kernel: kernel.name, grid, block, sharedBytes, line: range.line, scalars, ...(buffers ? { buffers } : {}), ...extra });
    };
    if (this.sticky) {
      this.result(0);
      record({ error: this.sticky });
      return;
    }
    const refused = (dev: DeviceProperties): boolean =>
      threads === 0 || threads > dev.maxThreadsPerBlock || block.x > dev.maxThreadsDim[0] || block.y > dev.maxThreadsDim[1] || block.z > dev.maxThreadsDim[2] ||
      grid.x === 0 || grid.y === 0 || grid.z === 0 || grid.x > dev.maxGridSize[0] || grid.y > dev.maxGridSize[1] || grid.z > dev.maxGridSize[2] ||
      sharedBytes > dev.sharedMemPerBlock;
    if (refused(dev)) {
      // CUDA 13 reports every bad launch configuration as cudaErrorInvalidValue.
      this.lastError = INVALID_VALUE;
      if (!refused(SIMULATOR_DEVICE)) {
        // Within CUDA's limits but not this GPU's (a WebGPU adapter may allow fewer threads or less shared memory).
        interp.stderr.push(
          `[warpscope] ${kernel.name}<<<…>>> at line ${range.line}: this GPU (${dev.name}) allows at most ${dev.maxThreadsPerBlock} threads per block (${dev.maxThreadsDim.join(' × ')}) and ${dev.sharedMemPerBlock} bytes of shared memory, where CUDA on an H100 allows 1024 and 49152: the launch fails with cudaErrorInvalidValue, as CUDA's would on such a device. The simulator has the H100's limits.\n`,
        );
      }
      record({ error: INVALID_VALUE });
      return;
    }
    record({});
    const at = this.launches.length - 1;
    const outcome = this.executor.launch({ kernel, grid, block, sharedBytes, args, range });
    if (outcome.gpuMs !== undefined) this.deviceMs += outcome.gpuMs;
    if (outcome.printed) for (const line of outcome.printed) interp.stdout.push(line);
    const done = this.launches[at]!;
    this.launches[at] = { ...done, ...(outcome.gpuMs !== undefined ? { gpuMs: outcome.gpuMs } : {}), ...(outcome.error ? { error: outcome.error } : {}) };
    if (outcome.error) {
      this.pending = outcome.error;
      if (outcome.detail) interp.stderr.push(`[warpscope] ${kernel.name}<<<…>>> at line ${range.line}: ${outcome.detail}\n`);
    }
  }
}

function nullBlock(interp: Interpreter): Block {
  return interp.mem.blockOf(interp.mem.allocate(0, { kind: 'device', label: 'NULL', line: 0 }))!;
}

/** A label for a cudaMalloc'd block: the variable the call's first argument names (`&d_in`). */
function labelOf(interp: Interpreter, range: Range): string {
  void interp;
  return `cudaMalloc at line ${range.line}`;
}

export const DIM3_TYPE = DIM3;
