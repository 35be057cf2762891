import {
  dispatchSize,
  type BindingData,
  type Bindings,
  type KernelRun,
} from '../kernel/types.ts';
import { acquireDevice, type AdapterSummary, type GpuContext } from './device.ts';
import { GpuError, HINTS, type ShaderMessage } from './errors.ts';
import { blankComments, reflectBindings, type ResourceBinding } from '../wgsl/reflect.ts';
import READ_WGSL from '../../shaders/bandwidth/read.wgsl?raw';
import COPY_WGSL from '../../shaders/bandwidth/copy.wgsl?raw';
import { median } from '../util/stats.ts';
import { describeTrips, trippedLoops, type WatchdogBinding } from '../wgsl/watchdogReport.ts';

/** How a figure was measured. */
export type TimingSource = 'timestamp-query' | 'wall-clock';

/** The bandwidth kernels a figure can be set against. */
export type BaselineKind = 'read' | 'copy';

/**
 * What to time a kernel against. The baseline runs on the kernel's own buffers (read: its largest
 * buffer; copy: from there into its largest other writable buffer, or a fresh one of the same
 * size), so placement, touching and allocation order are the same for both.
 */
export interface BaselineSpec {
  readonly kind: BaselineKind;
  /** Bytes one run of the kernel (or chain) moves as the caller counts them, for its GB/s. */
  readonly bytes: number;
}

/** A kernel's speed as a share of a baseline's, from rounds that time each in turn. */
export interface RelativeTiming {
  readonly kind: BaselineKind;
  /** Bytes the kernel moves per run (from `BaselineSpec.bytes`) and the baseline per dispatch. */
  readonly kernelBytes: number;
  readonly baselineBytes: number;
  /** The baseline's own figures, from the same rounds. */
  readonly baseline: TimingSamples;
  /** GB/s of the kernel (median time) and of the baseline (median time). */
  readonly kernelGBps: number;
  readonly baselineGBps: number;
  /** Median over rounds of (kernel GB/s ÷ baseline GB/s) in that round: 1 = as fast as the baseline. */
  readonly ratio: number;
  readonly ratioMin: number;
  readonly ratioMax: number;
  readonly ratios: readonly number[];
}

/** Per-dispatch figures of one kernel over the timed passes. */
export interface TimingSamples {
  /** Median over the repeats, milliseconds per run of the kernel (or of the whole chain). */
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** maxMs ÷ minMs. */
  readonly spread: number;
  /** Dispatches (chains) placed in one timed pass; each sample is that pass divided by this. */
  readonly dispatchesPerPass: number;
  readonly samplesMs: readonly number[];
}

/** GPU time per dispatch (or per chain of dispatches) of a kernel. */
export interface Timing extends TimingSamples {
  readonly repeats: number;
  readonly source: TimingSource;
  /**
   * True when the raw timestamps were all multiples of 100 µs, which is how Chrome quantizes
   * them without `--enable-dawn-features=allow_unsafe_apis`; passes then last at least
   * `QUANTIZED_MIN_PASS_MS`, so the rounding stays under 0.5 % of a pass.
   */
  readonly quantized: boolean;
  /** Measurements taken: 1, plus one for each re-measure of an unsteady figure. */
  readonly attempts: number;
  /**
   * False when every attempt had a spread (of the kernel, or of its baseline) above
   * `TimeOptions.maxSpread`: the figure is unsteady and should be flagged, not published.
   */
  readonly steady: boolean;
  /** Why the figure is unsteady, when it is. */
  readonly unsteadyReason?: string;
  /** Set when `TimeOptions.baseline` was given. */
  readonly relative?: RelativeTiming;
}

export interface TimeOptions {
  /** Timed rounds to take the median over; at least 10 for figures we report. */
  readonly repeats?: number;
  /** Fixed dispatches per pass; by default grown until a pass lasts `minPassMs`. */
  readonly dispatchesPerPass?: number;
  /** The shortest pass worth timing, ms (default 2; 20 where timestamps are quantized). */
  readonly minPassMs?: number;
  /**
   * Milliseconds of untimed passes run just before the timed ones (default 200; 0 on a software
   * adapter, which has no clocks to bring up), so the GPU's
   * clocks are up: an idle H100 drops its SM clock from 1980 MHz towards 345 MHz within a fraction
   * of a second, and a short pass started then runs at part speed (copy: 1.5 instead of 2.85 TB/s).
   */
  readonly warmupMs?: number;
  /** Time the kernel against this baseline, in alternating rounds (see `RelativeTiming`). */
  readonly baseline?: BaselineSpec;
  /** The largest max ÷ min a figure may show before it is measured again (default 1.15). */
  readonly maxSpread?: number;
  /**
   * Measurements at most, the first included, before a figure is returned unsteady (default 3; 1 on
   * a software adapter, whose spread comes from the CPU's other work and does not settle).
   */
  readonly maxAttempts?: number;
  /**
   * A baseline slower than this share of the fastest the executor has seen for its kind marks the
   * figure for a re-measure on new buffers (default 0.9), from `slowCheckBytes` up (default 64 MiB).
   */
  readonly slowBaseline?: number;
  readonly slowCheckBytes?: number;
}

/** How long GPU work may take, and how to stop it. */
export interface Bounds {
  /** Aborting it abandons the work: the device is destroyed and re-acquired on the next call. */
  readonly signal?: AbortSignal;
  /** Milliseconds before the work is abandoned the same way, with a `timeout` error. */
  readonly timeoutMs?: number;
}

export interface RunOptions extends Bounds {
  /**
   * The kernel was guarded by the watchdog (`src/kernel/watchdog.ts`): its flag binding is read
   * back, and a stopped loop turns the run into a `watchdog` error naming the loop.
   */
  readonly watchdog?: WatchdogBinding;
  /**
   * Told the dispatch's GPU time in milliseconds: from timestamp queries around its pass where the
   * adapter has them, else the wall clock from submit to done (which also counts the read-back copies).
   */
  readonly onGpuMs?: (ms: number, source: TimingSource) => void;
}

/** Compiled pipelines kept by default; each distinct edit of a kernel is one entry. */
export const PIPELINE_CACHE_SIZE = 32;
/**
 * A baseline over at least this many bytes that runs slower than `SLOW_BASELINE` of the fastest
 * run of the same baseline and size this executor has seen marks its figure for a re-measure:
 * on an H100 the whole memory system sometimes ran at 55 % for a second or more (see
 * docs/benchmarks.md), and a figure taken then is right as a ratio but wrong as a time.
 */
const SLOW_CHECK_BYTES = 64 * 2 ** 20;
const SLOW_BASELINE = 0.9;

/** Default for `TimeOptions.maxSpread`. */
export const MAX_SPREAD = 1.15;
/** Shortest pass when timestamps come rounded to 100 µs (Chrome without unsafe APIs). */
export const QUANTIZED_MIN_PASS_MS = 20;
const QUANTUM_NS = 100_000;

/** Bytes/second figures measured on this device in this session. */
export interface BandwidthBaselines {
  readonly bytes: number;
  /** Reading `bytes` once with vec4 loads (GB/s, 1e9 bytes/s). */
  readonly readGBps: number;
  /** Reading and writing `bytes` (GB/s counting both directions). */
  readonly copyGBps: number;
  readonly read: Timing;
  readonly copy: Timing;
}

interface PreparedKernel {
  readonly pipeline: GPUComputePipeline;
  readonly layouts: readonly GPUBindGroupLayout[];
  readonly bindings: readonly ResourceBinding[];
}

interface Bound {
  readonly prepared: PreparedKernel;
  readonly bindGroups: readonly GPUBindGroup[];
  readonly buffers: ReadonlyMap<string, { readonly buffer: GPUBuffer; readonly resource: ResourceBinding; readonly data: BindingData }>;
  readonly workgroups: [number, number, number];
}

const key = (g: number, b: number): string => `${g}:${b}`;

function cloneLike(data: BindingData, source: ArrayBuffer | ArrayBufferLike, length: number): BindingData {
  if (data instanceof Uint32Array) return new Uint32Array(source, 0, length).slice();
  if (data instanceof Int32Array) return new Int32Array(source, 0, length).slice();
  return new Float32Array(source, 0, length).slice();
}

function copyOf(data: BindingData): BindingData {
  return data.slice();
}

/** The text of a 1-based line, to show under a compiler message. */
function sourceLine(code: string, line: number): string | undefined {
  return code.split('\n')[line - 1];
}

/**
 * Where a compiler message points. Tint reports some errors with no place (line 0, column 0,
 * offset 0), among them an illegal NUL character; those point at the first NUL in the code when
 * there is one, else at the message's offset, else at line 1, column 1.
 */
function placeOf(code: string, m: GPUCompilationMessage): { line: number; column: number } {
  if (m.lineNum > 0) return { line: m.lineNum, column: Math.max(1, m.linePos) };
  const nul = code.indexOf('\u0000');
  const at = nul >= 0 ? nul : m.offset > 0 && m.offset <= code.length ? m.offset : 0;
  const before = code.slice(0, at);
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
}

/**
 * Runs and times `KernelRun`s on WebGPU. The same class serves the browser (`navigator.gpu`) and
 * Node (Dawn through the `webgpu` package). A lost device is re-acquired on the next call.
 */
export class GpuExecutor {
  private context: GpuContext | undefined;
  private acquiring: Promise<GpuContext> | undefined;
  /** Least recently used first (a Map keeps insertion order; a hit moves its entry to the end). */
  private readonly pipelines = new Map<string, PreparedKernel>();
  private lostReason: string | undefined;
  /** Bumped by `abandon`: work begun under an older epoch never touches the new device. */
  private epoch = 0;
  /** Fastest GB/s each baseline reached on figures of `SLOW_CHECK_BYTES` and up, by kind: see `SLOW_BASELINE`. */
  private readonly fastestBaseline = new Map<string, number>();

  /**
   * @param getGpu returns the `GPU` entry point (navigator.gpu, or Dawn's in Node).
   * @param cacheSize compiled pipelines kept, least recently used evicted first.
   */
  constructor(
    private readonly getGpu: () => GPU | undefined,
    readonly cacheSize: number = PIPELINE_CACHE_SIZE,
  ) {}

  /** Compiled pipelines held now (at most `cacheSize`). */
  get cachedPipelines(): number {
    return this.pipelines.size;
  }

  /** Acquires (or re-acquires after a loss) the device. */
  async ready(): Promise<GpuContext> {
    if (this.context) return this.context;
    this.acquiring ??= acquireDevice(this.getGpu()).then(
      (ctx) => {
        this.context = ctx;
        this.acquiring = undefined;
        this.pipelines.clear();
        // Another device (maybe another adapter) sets its own bests.
        this.fastestBaseline.clear();
        void ctx.device.lost.then((info) => {
          if (this.context?.device === ctx.device) {
            this.context = undefined;
            this.lostReason = `${info.reason}: ${info.message}`;
          }
        });
        return ctx;
      },
      (e: unknown) => {
        this.acquiring = undefined;
        throw e;
      },
    );
    return this.acquiring;
  }

  /** `ready()` for work begun in `epoch`; throws if the device was abandoned since. */
  private async readyFor(epoch: number): Promise<GpuContext> {
    if (epoch !== this.epoch) throw new GpuError('device-lost', `The GPU device was abandoned: ${this.lostReason ?? ''}`, HINTS.deviceLost);
    const ctx = await this.ready();
    if (epoch !== this.epoch) throw new GpuError('device-lost', `The GPU device was abandoned: ${this.lostReason ?? ''}`, HINTS.deviceLost);
    return ctx;
  }

  /** The adapter in use, once `ready()` has resolved. */
  get adapter(): AdapterSummary | undefined {
    return this.context?.summary;
  }

  /** Why the previous device was lost, if it was. */
  get lastLoss(): string | undefined {
    return this.lostReason;
  }

  /** Compiles (or fetches from cache) the pipeline for a kernel, reporting WGSL errors with place. */
  async prepare(run: KernelRun, epoch = this.epoch): Promise<PreparedKernel> {
    const { device } = await this.readyFor(epoch);
    const overrides = run.overrides ?? {};
    const cacheKey = `${run.entryPoint}\u0000${JSON.stringify(overrides)}\u0000${run.code}`;
    const cached = this.pipelines.get(cacheKey);
    if (cached) {
      this.pipelines.delete(cacheKey);
      this.pipelines.set(cacheKey, cached);
      return cached;
    }

    const label = run.label ?? run.file ?? run.entryPoint;
    // The scope catches the validation error Dawn raises alongside the compiler messages, so it
    // is reported once, as a compile error with its place, rather than as an uncaptured error.
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ label: `${label}.module`, code: run.code });
    let info: GPUCompilationInfo;
    try {
      info = await module.getCompilationInfo();
    } catch (e) {
      // Popped on this path too, so the scope cannot swallow a later call's errors.
      await device.popErrorScope().catch(() => null);
      throw e;
    }
    const moduleError = await device.popErrorScope();
    const messages: ShaderMessage[] = info.messages.map((m) => {
      const place = placeOf(run.code, m);
      const line = sourceLine(run.code, place.line);
      return {
        severity: m.type,
        message: m.message,
        line: place.line,
        column: place.column,
        ...(run.file ? { file: run.file } : {}),
        ...(line !== undefined ? { sourceLine: line } : {}),
      };
    });
    const errors = messages.filter((m) => m.severity === 'error');
    if (errors.length > 0) {
      const first = errors[0]!;
      throw new GpuError(
        'compile',
        `WGSL compile error at ${run.file ?? 'kernel.wgsl'}:${first.line}:${first.column}: ${first.message}`,
        // `enable f16;` on an adapter without shader-f16: the fix is not in the line shown. Comments
        // are blanked first, so one that mentions the directive does not count.
        !device.features.has('shader-f16') && /\benable\b[^;]*\bf16\b/.test(blankComments(run.code)) ? HINTS.noF16 : HINTS.compile,
        messages,
      );
    }
    if (moduleError) throw new GpuError('validation', `${label}: ${moduleError.message}`, HINTS.validation);

    const bindings = reflectBindings(run.code, run.entryPoint);
    const groups = new Map<number, ResourceBinding[]>();
    for (const b of bindings) groups.set(b.group, [...(groups.get(b.group) ?? []), b]);
    const maxGroup = bindings.reduce((m, b) => Math.max(m, b.group), -1);
    const layouts: GPUBindGroupLayout[] = [];
    for (let g = 0; g <= maxGroup; g++) {
      layouts.push(
        device.createBindGroupLayout({
          label: `${label}.layout.${g}`,
          entries: (groups.get(g) ?? []).map((b) => ({
            binding: b.binding,
            visibility: GPUShaderStage.COMPUTE,
            buffer: {
              type:
                b.kind === 'uniform' ? 'uniform' : b.kind === 'storage-read' ? 'read-only-storage' : 'storage',
            },
          })),
        }),
      );
    }
    const pipeline = await this.guard(epoch, label, () =>
      device.createComputePipelineAsync({
        label: `${label}.pipeline`,
        layout: device.createPipelineLayout({ label: `${label}.pipeline-layout`, bindGroupLayouts: layouts }),
        compute: { module, entryPoint: run.entryPoint, constants: { ...overrides } },
      }),
    );
    const prepared = { pipeline, layouts, bindings };
    if (this.context?.device === device) {
      this.pipelines.set(cacheKey, prepared);
      while (this.pipelines.size > Math.max(1, this.cacheSize)) {
        const oldest = this.pipelines.keys().next().value;
        if (oldest === undefined) break;
        this.pipelines.delete(oldest);
      }
    }
    return prepared;
  }

  /**
   * Runs one dispatch and reads back every binding: `read_write` storage buffers with the
   * kernel's writes, others as they were passed. Inputs are never modified.
   */
  async run(run: KernelRun, options: RunOptions = {}): Promise<Bindings> {
    const label = run.label ?? run.file ?? run.entryPoint;
    const out = await this.bounded(label, options, () => this.runOnce(run, options.onGpuMs));
    const w = options.watchdog;
    if (w) {
      const flags = out[w.group]?.[w.binding];
      const tripped = flags ? trippedLoops(w, flags) : [];
      if (tripped.length > 0) {
        const first = tripped[0]!;
        throw new GpuError(
          'watchdog',
          describeTrips(w, tripped),
          'The loop may never end, or ends only after very many iterations. Check its exit condition (and what it reads from the buffers), then run again. Your edit is kept.',
          [],
          { line: first.line, column: first.column, ...(w.file ? { file: w.file } : {}) },
        );
      }
    }
    return out;
  }

  /**
   * Runs `work` within `bounds`: when the signal aborts or the time is up first, the device is
   * abandoned (destroyed, so the browser can reclaim it; the next call acquires a new one) and
   * the promise rejects with a `cancelled` or `timeout` GpuError at once, whether or not the
   * device ever settles the work.
   */
  private bounded<T>(label: string, bounds: Bounds, work: () => Promise<T>): Promise<T> {
    const { signal, timeoutMs } = bounds;
    if (!signal && timeoutMs === undefined) return work();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = (): void => {
        this.abandon(`${label} was cancelled`);
        settle(() => reject(new GpuError('cancelled', `${label}: cancelled; the GPU work was abandoned.`, HINTS.cancelled)));
      };
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          const seconds = (timeoutMs / 1000).toLocaleString('en', { maximumFractionDigits: 1 });
          this.abandon(`${label} did not finish within ${seconds} s`);
          settle(() =>
            reject(new GpuError('timeout', `${label} did not finish on the GPU within ${seconds} s and was abandoned.`, HINTS.timeout)),
          );
        }, timeoutMs);
      }
      work().then(
        (value) => settle(() => resolve(value)),
        (e: unknown) => settle(() => reject(e instanceof Error ? e : new Error(String(e)))),
      );
    });
  }

  /**
   * Gives up on the current device: destroys it (ending whatever it was running, where the driver
   * can) and forgets it and its pipelines, so the next call acquires a fresh device.
   */
  abandon(reason: string): void {
    this.epoch++;
    const ctx = this.context;
    this.context = undefined;
    this.acquiring = undefined;
    this.pipelines.clear();
    this.lostReason = reason;
    try {
      ctx?.device.destroy();
    } catch {
      // Already gone.
    }
  }

  private async runOnce(run: KernelRun, onGpuMs?: RunOptions['onGpuMs']): Promise<Bindings> {
    const epoch = this.epoch;
    const bound = await this.bind(run, epoch);
    const { device, summary } = await this.readyFor(epoch);
    const label = run.label ?? run.file ?? run.entryPoint;
    const readbacks: { k: string; staging: GPUBuffer; size: number; data: BindingData }[] = [];
    // Two timestamps around the pass, resolved and copied out with the buffers.
    const stamps = onGpuMs && summary.hasTimestamps
      ? {
          set: device.createQuerySet({ label: `${label}.timestamps`, type: 'timestamp', count: 2 }),
          resolve: device.createBuffer({ label: `${label}.timestamps.resolve`, size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }),
          staging: device.createBuffer({ label: `${label}.timestamps.staging`, size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
        }
      : undefined;
    let wallMs = 0;
    try {
      await this.guard(epoch, label, async () => {
        const encoder = device.createCommandEncoder({ label: `${label}.encoder` });
        const pass = encoder.beginComputePass({
          label: `${label}.pass`,
          ...(stamps ? { timestampWrites: { querySet: stamps.set, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {}),
        });
        this.encode(pass, bound);
        pass.end();
        if (stamps) {
          encoder.resolveQuerySet(stamps.set, 0, 2, stamps.resolve, 0);
          encoder.copyBufferToBuffer(stamps.resolve, 0, stamps.staging, 0, 16);
        }
        for (const [k, { buffer, resource, data }] of bound.buffers) {
          if (resource.kind !== 'storage-read-write') continue;
          const staging = device.createBuffer({
            label: `${label}.readback.${k}`,
            size: buffer.size,
            usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
          });
          encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
          readbacks.push({ k, staging, size: buffer.size, data });
        }
        const t0 = performance.now();
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
        wallMs = performance.now() - t0;
      });
      if (onGpuMs) {
        let ms: number | undefined;
        if (stamps) {
          await stamps.staging.mapAsync(GPUMapMode.READ);
          const t = new BigUint64Array(stamps.staging.getMappedRange().slice(0));
          stamps.staging.unmap();
          const ns = Number((t[1] ?? 0n) - (t[0] ?? 0n));
          // Some drivers give 0 or garbage when a pass crosses a clock domain; trust the wall then.
          if (ns > 0 && ns < wallMs * 1e6 * 4) ms = ns / 1e6;
        }
        if (ms !== undefined) onGpuMs(ms, 'timestamp-query');
        else onGpuMs(wallMs, 'wall-clock');
      }
      const out: Bindings = {};
      for (const { resource, data } of bound.buffers.values()) {
        (out[resource.group] ??= {})[resource.binding] = copyOf(data);
      }
      for (const { k, staging, data } of readbacks) {
        await staging.mapAsync(GPUMapMode.READ);
        const copy = cloneLike(data, staging.getMappedRange(), data.length);
        staging.unmap();
        const resource = bound.buffers.get(k)!.resource;
        out[resource.group]![resource.binding] = copy;
      }
      return out;
    } finally {
      // Staging buffers too: a failed submit or map must not leave them behind.
      for (const { staging } of readbacks) staging.destroy();
      for (const { buffer } of bound.buffers.values()) buffer.destroy();
      if (stamps) {
        stamps.set.destroy();
        stamps.resolve.destroy();
        stamps.staging.destroy();
      }
    }
  }

  /**
   * Times a kernel, or a chain of kernels run back to back (a multi-pass driver), with timestamp
   * queries around a pass of K dispatches; falls back to wall time around `onSubmittedWorkDone`.
   * Data of later passes in a chain is whatever their bindings hold: timing only.
   *
   * The method, the same for every figure: warm the clocks up, then queue `repeats` rounds back
   * to back, each a timed pass of the kernel followed (with `options.baseline`) by a timed pass of
   * the baseline on the kernel's own buffers; read all timestamps once at the end. A figure whose
   * max ÷ min (the kernel's, or its baseline's) exceeds `maxSpread` is measured again, up to
   * `maxAttempts` times, and comes back `steady: false` if it never settles.
   */
  async time(runs: KernelRun | readonly KernelRun[], options: TimeOptions & Bounds = {}): Promise<Timing> {
    const first = Array.isArray(runs) ? (runs as readonly KernelRun[])[0] : (runs as KernelRun);
    const label = first?.label ?? first?.file ?? 'chain';
    return this.bounded(label, options, () => this.timeOnce(runs, options));
  }

  private async timeOnce(runs: KernelRun | readonly KernelRun[], options: TimeOptions): Promise<Timing> {
    const epoch = this.epoch;
    const chain = Array.isArray(runs) ? (runs as readonly KernelRun[]) : [runs as KernelRun];
    const repeats = Math.min(1024, Math.max(1, options.repeats ?? 10)); // 4 queries a round, of 4096
    const maxSpread = options.maxSpread ?? MAX_SPREAD;
    let owned: GPUBuffer[] = [];
    let querySet: GPUQuerySet | undefined;
    let resolve: GPUBuffer | undefined;
    const label = chain[0]?.label ?? chain[0]?.file ?? 'chain';
    /** The chain (and its baseline) on buffers of their own; a re-measure may ask for new ones. */
    const bindAll = async (): Promise<{ lists: Bound[][]; base?: { bound: Bound; bytes: number }; owned: GPUBuffer[] }> => {
      const mine: GPUBuffer[] = [];
      const bound: Bound[] = [];
      try {
        for (const r of chain) {
          const b = await this.bind(r, epoch);
          bound.push(b);
          for (const { buffer } of b.buffers.values()) mine.push(buffer);
        }
        const base = options.baseline ? await this.bindBaseline(epoch, options.baseline.kind, bound, mine, label) : undefined;
        return { lists: base ? [bound, [base.bound]] : [bound], ...(base ? { base } : {}), owned: mine };
      } catch (e) {
        for (const b of mine) b.destroy();
        throw e;
      }
    };
    try {
      const initial = await bindAll();
      let { lists, base } = initial;
      owned = initial.owned;
      const { device, summary } = await this.readyFor(epoch);
      // A software adapter (SwiftShader, WARP) runs on the CPU: it has no clocks to bring up, and
      // its spread comes from the CPU's other work, which measuring again does not settle.
      const software = summary.isFallbackAdapter;
      const maxAttempts = Math.max(1, options.maxAttempts ?? (software ? 1 : 3));
      const warmupMs = options.warmupMs ?? (software ? 0 : 200);
      const useTimestamps = summary.hasTimestamps;
      querySet = useTimestamps
        ? device.createQuerySet({ label: `${label}.timestamps`, type: 'timestamp', count: 2 * lists.length * repeats })
        : undefined;
      resolve = useTimestamps
        ? device.createBuffer({
            label: `${label}.timestamps.resolve`,
            size: 16 * lists.length * repeats,
            usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
          })
        : undefined;
      const qs = querySet;
      const rs = resolve;
      const rawTicks: number[] = [];
      /** Nothing more is encoded on a device abandoned (cancel, timeout) while this call ran. */
      const stillOurs = (): void => {
        if (epoch !== this.epoch) throw new GpuError('device-lost', `${label}: the GPU device was abandoned (${this.lostReason ?? ''}).`, HINTS.deviceLost);
      };

      /** Encodes a pass of k runs of a list, with timestamps into query pair `slot` if given. */
      const encodePass = (encoder: GPUCommandEncoder, list: readonly Bound[], k: number, slot?: number): void => {
        const pass = encoder.beginComputePass({
          label: `${label}.timed-pass`,
          ...(slot !== undefined && qs
            ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * slot, endOfPassWriteIndex: 2 * slot + 1 } }
            : {}),
        });
        for (let i = 0; i < k; i++) for (const b of list) this.encode(pass, b);
        pass.end();
      };

      /** Nanoseconds of each timed pass in query pairs 0 … count − 1, read back once. */
      const readTicks = async (encoder: GPUCommandEncoder, count: number): Promise<number[]> => {
        stillOurs();
        encoder.resolveQuerySet(qs!, 0, 2 * count, rs!, 0);
        const staging = device.createBuffer({ size: 16 * count, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        encoder.copyBufferToBuffer(rs!, 0, staging, 0, 16 * count);
        let t: BigUint64Array;
        try {
          device.queue.submit([encoder.finish()]);
          await staging.mapAsync(GPUMapMode.READ);
          t = new BigUint64Array(staging.getMappedRange().slice(0));
          staging.unmap();
        } finally {
          staging.destroy();
        }
        return Array.from({ length: count }, (_, i) => Number((t[2 * i + 1] ?? 0n) - (t[2 * i] ?? 0n)));
      };

      /**
       * Passes given as (list, k) pairs, submitted back to back so the GPU never idles between
       * them (a pass waited for on its own lets the clocks fall in the gap), then one read of
       * all timestamps. Without timestamps: each pass on its own, timed by the wall clock.
       */
      const timePasses = async (passes: readonly { list: readonly Bound[]; k: number }[]): Promise<number[]> => {
        if (!qs) {
          const out: number[] = [];
          for (const p of passes) {
            stillOurs();
            const encoder = device.createCommandEncoder({ label: `${label}.timed-encoder` });
            encodePass(encoder, p.list, p.k);
            const t0 = performance.now();
            device.queue.submit([encoder.finish()]);
            await device.queue.onSubmittedWorkDone();
            out.push(performance.now() - t0);
          }
          return out;
        }
        stillOurs();
        const t0 = performance.now();
        passes.forEach((p, i) => {
          const encoder = device.createCommandEncoder({ label: `${label}.timed-encoder` });
          encodePass(encoder, p.list, p.k, i);
          device.queue.submit([encoder.finish()]);
        });
        const ticks = await readTicks(device.createCommandEncoder({ label: `${label}.resolve` }), passes.length);
        const wallMs = performance.now() - t0;
        rawTicks.push(...ticks);
        // Some drivers give 0 or garbage when a pass crosses a clock domain; trust the wall then.
        return ticks.map((ns) => (ns > 0 && ns < wallMs * 1e6 * 4 ? ns / 1e6 : wallMs / passes.length));
      };

      /** Untimed passes of every list in turn for about `ms`, a few in the queue at a time. */
      const warmUp = async (ks: readonly number[], ms: number): Promise<void> => {
        const t0 = performance.now();
        while (performance.now() - t0 < ms) {
          stillOurs();
          for (let i = 0; i < 4; i++) {
            const encoder = device.createCommandEncoder({ label: `${label}.warm-up` });
            lists.forEach((list, j) => encodePass(encoder, list, ks[j]!));
            device.queue.submit([encoder.finish()]);
          }
          await device.queue.onSubmittedWorkDone();
        }
      };

      /** Dispatches per pass for a list: grown until a pass lasts minPassMs (at most 1024). */
      const passSize = async (list: readonly Bound[], minPassMs: number): Promise<number> => {
        if (options.dispatchesPerPass !== undefined) return options.dispatchesPerPass;
        let k = 1;
        for (;;) {
          const [ms = 0] = await timePasses([{ list, k }]);
          if (ms >= minPassMs || k >= 1024) return k;
          k = Math.min(1024, k * Math.max(2, Math.ceil(minPassMs / Math.max(ms, 0.01))));
        }
      };

      const samplesOf = (ms: readonly number[], k: number): TimingSamples => {
        const s = ms.map((x) => x / k);
        const min = Math.min(...s);
        const max = Math.max(...s);
        return { medianMs: median(s), minMs: min, maxMs: max, spread: min > 0 ? max / min : Infinity, dispatchesPerPass: k, samplesMs: s };
      };

      return await this.guard(epoch, label, async () => {
        // First use of every buffer and pipeline, untimed: uploads, lazy initialisation, compilation.
        await timePasses(lists.map((list) => ({ list, k: 1 })));
        let minPassMs = options.minPassMs ?? 2;
        let ks: number[] = [];
        for (const list of lists) ks.push(await passSize(list, minPassMs));
        const quantized = rawTicks.length > 0 && rawTicks.every((t) => t % QUANTUM_NS === 0);
        if (quantized && minPassMs < QUANTIZED_MIN_PASS_MS && options.dispatchesPerPass === undefined) {
          minPassMs = QUANTIZED_MIN_PASS_MS;
          ks = [];
          for (const list of lists) ks.push(await passSize(list, minPassMs));
        }
        let best: Timing | undefined;
        const worst = (t: Timing): number => Math.max(t.spread, t.relative?.baseline.spread ?? 0);
        const baseKey = options.baseline?.kind;
        for (let attempt = 1; attempt <= maxAttempts; attempt++) {
          // Each re-measure warms up longer: a slow spell of the memory system can last a second.
          await warmUp(ks, warmupMs * (2 * attempt - 1));
          const passes: { list: readonly Bound[]; k: number }[] = [];
          for (let r = 0; r < repeats; r++) lists.forEach((list, j) => passes.push({ list, k: ks[j]! }));
          const ms = await timePasses(passes);
          const kernelMs = ms.filter((_, i) => i % lists.length === 0);
          const kernel = samplesOf(kernelMs, ks[0]!);
          let relative: RelativeTiming | undefined;
          if (base && options.baseline) {
            const baseBytes = base.bytes;
            const baseline = samplesOf(ms.filter((_, i) => i % lists.length === 1), ks[1]!);
            const kernelBytes = options.baseline.bytes;
            const ratios = kernel.samplesMs.map((t, i) => kernelBytes / t / (baseBytes / baseline.samplesMs[i]!));
            relative = {
              kind: options.baseline.kind,
              kernelBytes,
              baselineBytes: baseBytes,
              baseline,
              kernelGBps: kernelBytes / (kernel.medianMs * 1e6),
              baselineGBps: baseBytes / (baseline.medianMs * 1e6),
              ratio: median(ratios),
              ratioMin: Math.min(...ratios),
              ratioMax: Math.max(...ratios),
              ratios,
            };
          }
          let reason: string | undefined;
          if (worst({ ...kernel, relative } as Timing) > maxSpread)
            reason = `max/min ${worst({ ...kernel, relative } as Timing).toFixed(2)} over ${maxSpread}`;
          let slow = false;
          if (relative && baseKey && relative.baselineBytes >= (options.slowCheckBytes ?? SLOW_CHECK_BYTES)) {
            const fastest = Math.max(this.fastestBaseline.get(baseKey) ?? 0, relative.baselineGBps);
            this.fastestBaseline.set(baseKey, fastest);
            slow = relative.baselineGBps < (options.slowBaseline ?? SLOW_BASELINE) * fastest;
            if (!reason && slow)
              reason = `the ${relative.kind} baseline ran at ${((100 * relative.baselineGBps) / fastest).toFixed(0)} % of its best this session`;
          }
          const timing: Timing = {
            ...kernel,
            repeats,
            source: useTimestamps ? 'timestamp-query' : 'wall-clock',
            quantized,
            attempts: attempt,
            steady: reason === undefined,
            ...(reason ? { unsteadyReason: reason } : {}),
            ...(relative ? { relative } : {}),
          };
          if (timing.steady) return timing;
          // Keep the attempt whose baseline ran fastest, else the one with the smallest spread.
          const better = (a: Timing, b: Timing): boolean =>
            a.relative && b.relative ? a.relative.baselineGBps > b.relative.baselineGBps : worst(a) < worst(b);
          if (!best || better(timing, best)) best = timing;
          if (slow && attempt < maxAttempts) {
            // Where large buffers land decides how fast they stream (docs/benchmarks.md): measure
            // again on new buffers, made before the old ones are freed so they land elsewhere.
            const again = await bindAll();
            for (const b of owned) b.destroy();
            ({ lists, base, owned } = again);
          }
        }
        return { ...best!, attempts: maxAttempts };
      });
    } finally {
      querySet?.destroy();
      resolve?.destroy();
      for (const buffer of owned) buffer.destroy();
    }
  }

  /**
   * The read or copy baseline bound to a chain's own buffers: read streams the largest buffer;
   * copy streams it into the largest other writable buffer of at least half its size (or a new
   * buffer of the same size, made the same way, when there is none). Returns the bytes one
   * dispatch moves. Buffers it creates are added to `owned`.
   */
  private async bindBaseline(
    epoch: number,
    kind: BaselineKind,
    chain: readonly Bound[],
    owned: GPUBuffer[],
    label: string,
  ): Promise<{ bound: Bound; bytes: number }> {
    const { device, summary } = await this.readyFor(epoch);
    const storage: { buffer: GPUBuffer; writable: boolean }[] = [];
    for (const b of chain)
      for (const { buffer, resource } of b.buffers.values())
        if (resource.kind !== 'uniform' && !storage.some((s) => s.buffer === buffer))
          storage.push({ buffer, writable: resource.kind === 'storage-read-write' });
    const src = storage.reduce<GPUBuffer | undefined>((m, s) => (!m || s.buffer.size > m.size ? s.buffer : m), undefined);
    if (!src) throw new GpuError('bindings', `${label}: no storage buffer to run the ${kind} baseline over.`, 'Time a kernel that binds at least one storage buffer.');
    const fresh = (size: number, name: string): GPUBuffer => {
      const b = device.createBuffer({
        label: `${label}.baseline.${name}`,
        size,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
        mappedAtCreation: true,
      });
      b.unmap();
      owned.push(b);
      return b;
    };
    let dst: GPUBuffer | undefined;
    if (kind === 'copy') {
      dst = storage
        .filter((s) => s.writable && s.buffer !== src && 2 * s.buffer.size >= src.size)
        .reduce<GPUBuffer | undefined>((m, s) => (!m || s.buffer.size > m.size ? s.buffer : m), undefined);
      dst ??= fresh(src.size, 'dst');
    }
    const span = Math.floor(Math.min(src.size, dst?.size ?? src.size) / 16) * 16;
    const vec4s = span / 16;
    const workgroups = Math.min(summary.limits.maxComputeWorkgroupsPerDimension, Math.max(1, Math.ceil(vec4s / 256)), 4096);
    const uniform = device.createBuffer({ label: `${label}.baseline.params`, size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, mappedAtCreation: true });
    new Uint32Array(uniform.getMappedRange()).set([vec4s, 0, 0, 0]);
    uniform.unmap();
    owned.push(uniform);
    const second = kind === 'copy' ? dst! : fresh(workgroups * 256 * 4, 'sink');
    const run: KernelRun = {
      code: kind === 'read' ? READ_WGSL : COPY_WGSL,
      entryPoint: 'main',
      workgroups: [workgroups],
      bindings: {},
      label: `baseline.${kind}`,
      file: `shaders/bandwidth/${kind}.wgsl`,
    };
    const prepared = await this.prepare(run, epoch);
    const bindGroups = prepared.layouts.map((layout, g) =>
      device.createBindGroup({
        label: `${label}.baseline.bind-group.${g}`,
        layout,
        entries: [
          { binding: 0, resource: { buffer: src, size: span } },
          { binding: 1, resource: { buffer: second, ...(kind === 'copy' ? { size: span } : {}) } },
          { binding: 2, resource: { buffer: uniform } },
        ],
      }),
    );
    return {
      bound: { prepared, bindGroups, buffers: new Map(), workgroups: [workgroups, 1, 1] },
      bytes: kind === 'read' ? span : 2 * span,
    };
  }

  private encode(pass: GPUComputePassEncoder, bound: Bound): void {
    pass.setPipeline(bound.prepared.pipeline);
    bound.bindGroups.forEach((g, i) => pass.setBindGroup(i, g));
    pass.dispatchWorkgroups(...bound.workgroups);
  }

  private async bind(run: KernelRun, epoch: number): Promise<Bound> {
    const prepared = await this.prepare(run, epoch);
    const context = await this.readyFor(epoch);
    const { summary } = context;
    const workgroups = dispatchSize(run.workgroups);
    const maxDim = summary.limits.maxComputeWorkgroupsPerDimension;
    if (workgroups.some((d) => !Number.isInteger(d) || d < 0 || d > maxDim)) {
      throw new GpuError(
        'limits',
        `Dispatch ${workgroups.join('×')} is outside this adapter's limit of ${maxDim} workgroups per dimension.`,
        'Fold large dispatches into two dimensions with foldWorkgroups().',
      );
    }
    const buffers = new Map<string, { buffer: GPUBuffer; resource: ResourceBinding; data: BindingData }>();
    try {
      const bindGroups = await this.bindBuffers(run, epoch, context, prepared, buffers);
      return { prepared, bindGroups, buffers, workgroups };
    } catch (e) {
      // Whatever failed (a missing binding, a limit, out of memory, a refused bind group), the
      // buffers made so far go with it.
      for (const { buffer } of buffers.values()) buffer.destroy();
      throw e;
    }
  }

  /** Creates `run`'s buffers into `buffers` and returns its bind groups, inside error scopes. */
  private async bindBuffers(
    run: KernelRun,
    epoch: number,
    { device, summary }: GpuContext,
    prepared: PreparedKernel,
    buffers: Map<string, { buffer: GPUBuffer; resource: ResourceBinding; data: BindingData }>,
  ): Promise<GPUBindGroup[]> {
    const label = run.label ?? run.file ?? run.entryPoint;
    for (const resource of prepared.bindings) {
      const data = run.bindings[resource.group]?.[resource.binding];
      if (!data) {
        throw new GpuError(
          'bindings',
          `${label}: no data for @group(${resource.group}) @binding(${resource.binding}) (${resource.name}).`,
          'Pass a typed array for every binding the kernel declares.',
        );
      }
      // Storage sizes must be multiples of 4, uniform blocks of 16; an empty array still needs a buffer.
      const size = Math.max(16, Math.ceil(data.byteLength / 16) * 16);
      if (size > summary.limits.maxStorageBufferBindingSize) {
        throw new GpuError(
          'limits',
          `${label}: ${resource.name} needs ${size} bytes, over this adapter's ${summary.limits.maxStorageBufferBindingSize}-byte binding limit.`,
          HINTS.limits,
        );
      }
      const usage =
        (resource.kind === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) |
        GPUBufferUsage.COPY_SRC |
        GPUBufferUsage.COPY_DST;
      await this.guard(epoch, label, () => {
        const buffer = device.createBuffer({ label: `${label}.${resource.name}`, size, usage, mappedAtCreation: true });
        // Kept before it is filled, so it is destroyed with the rest if anything below fails.
        buffers.set(key(resource.group, resource.binding), { buffer, resource, data });
        new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        buffer.unmap();
        return Promise.resolve();
      });
    }
    // Inside the error scopes, so a refused bind group (a uniform over its binding limit, say)
    // is reported with its reason rather than later as "invalid due to a previous error".
    return this.guard(epoch, label, () =>
      Promise.resolve(
        prepared.layouts.map((layout, g) =>
          device.createBindGroup({
            label: `${label}.bind-group.${g}`,
            layout,
            entries: prepared.bindings
              .filter((b) => b.group === g)
              .map((b) => {
                const { buffer, data } = buffers.get(key(b.group, b.binding))!;
                // A storage buffer is bound at the length passed, so `arrayLength` counts the elements
                // given (as the simulator does), not the buffer rounded up to 16 bytes.
                const exact = b.kind !== 'uniform' && data.byteLength > 0 ? { size: data.byteLength } : {};
                return { binding: b.binding, resource: { buffer, ...exact } };
              }),
          }),
        ),
      ),
    );
  }

  /** Runs `work` inside validation, out-of-memory and internal error scopes, turning them into GpuErrors. */
  private async guard<T>(epoch: number, label: string, work: () => Promise<T>): Promise<T> {
    const { device } = await this.readyFor(epoch);
    device.pushErrorScope('internal');
    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    let result: T;
    let thrown: unknown;
    try {
      result = await work();
    } catch (e) {
      thrown = e;
    }
    const validation = await device.popErrorScope();
    const oom = await device.popErrorScope();
    const internal = await device.popErrorScope();
    if (!this.context || this.context.device !== device) {
      throw new GpuError('device-lost', `The GPU device was lost while running ${label}. ${this.lostReason ?? ''}`.trim(), HINTS.deviceLost);
    }
    if (oom) throw new GpuError('out-of-memory', `${label}: ${oom.message}`, HINTS.outOfMemory);
    if (validation) throw new GpuError('validation', `${label}: ${validation.message}`, HINTS.validation);
    if (internal) throw new GpuError('internal', `${label}: ${internal.message}`, 'Reload and try again; the driver reported an internal error.');
    if (thrown !== undefined) {
      if (thrown instanceof GpuError) throw thrown;
      const message = thrown instanceof Error ? thrown.message : JSON.stringify(thrown);
      // createComputePipelineAsync rejects with a GPUPipelineError for bad entry points or overrides.
      throw new GpuError('validation', `${label}: ${message}`, HINTS.validation);
    }
    return result!;
  }

  /**
   * Measures this device's read and copy bandwidth over `bytes` (default 256 MiB or the largest
   * binding the adapter allows), so kernel timings can be shown as a fraction of what it moves.
   */
  async baselines(bytes?: number, options: TimeOptions = {}): Promise<BandwidthBaselines> {
    const { summary } = await this.ready();
    const cap = Math.min(summary.limits.maxStorageBufferBindingSize, summary.limits.maxBufferSize);
    const size = Math.floor(Math.min(bytes ?? 256 * 2 ** 20, cap) / 16) * 16;
    const words = size / 4;
    const src = new Uint32Array(words);
    for (let i = 0; i < words; i += 1024) src[i] = i;
    const workgroups = Math.min(summary.limits.maxComputeWorkgroupsPerDimension, Math.max(1, Math.ceil(words / 4 / 256)), 4096);
    const params = new Uint32Array([words / 4, 0, 0, 0]);
    const readRun: KernelRun = {
      code: READ_WGSL,
      entryPoint: 'main',
      workgroups: [workgroups],
      bindings: { 0: { 0: src, 1: new Uint32Array(workgroups * 256), 2: params } },
      label: 'baseline.read',
      file: 'shaders/bandwidth/read.wgsl',
    };
    // Baselines, like every timing, are taken with the clocks up (see `warmupMs`): on an H100 an
    // idle gap of a fraction of a second halved the read and copy figures (docs/benchmarks.md).
    const read = await this.time(readRun, options);
    const copy = await this.time(
      {
        code: COPY_WGSL,
        entryPoint: 'main',
        workgroups: [workgroups],
        bindings: { 0: { 0: src, 1: new Uint32Array(words), 2: params } },
        label: 'baseline.copy',
        file: 'shaders/bandwidth/copy.wgsl',
      },
      options,
    );
    return {
      bytes: size,
      readGBps: size / (read.medianMs * 1e6),
      copyGBps: (2 * size) / (copy.medianMs * 1e6),
      read,
      copy,
    };
  }

  /** Gives the device back. The executor can be used again; it re-acquires. */
  destroy(): void {
    this.context?.device.destroy();
    this.context = undefined;
    this.acquiring = undefined;
    this.pipelines.clear();
  }
}
