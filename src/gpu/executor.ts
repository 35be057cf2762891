import {
  dispatchSize,
  type BindingData,
  type Bindings,
  type KernelRun,
} from '../kernel/types.ts';
import { acquireDevice, type AdapterSummary, type GpuContext } from './device.ts';
import { GpuError, HINTS, type ShaderMessage } from './errors.ts';
import { reflectBindings, type ResourceBinding } from './reflect.ts';
import READ_WGSL from '../../shaders/bandwidth/read.wgsl?raw';
import COPY_WGSL from '../../shaders/bandwidth/copy.wgsl?raw';
import { median } from '../util/stats.ts';
import { describeTrips, trippedLoops, type WatchdogBinding } from '../kernel/watchdogReport.ts';

/** How a figure was measured. */
export type TimingSource = 'timestamp-query' | 'wall-clock';

/** GPU time per dispatch (or per chain of dispatches) of a kernel. */
export interface Timing {
  /** Median over the repeats, milliseconds per run of the kernel (or of the whole chain). */
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly repeats: number;
  /** Dispatches (chains) placed in one timed pass; each sample is that pass divided by this. */
  readonly dispatchesPerPass: number;
  readonly source: TimingSource;
  /**
   * True when the raw timestamps were all multiples of 100 µs, which is how Chrome quantizes
   * them without `--enable-dawn-features=allow_unsafe_apis`; the pass was then lengthened.
   */
  readonly quantized: boolean;
  readonly samplesMs: readonly number[];
}

export interface TimeOptions {
  /** Timed passes to take the median over; at least 10 for figures we report. */
  readonly repeats?: number;
  /** Fixed dispatches per pass; by default grown until a pass lasts `minPassMs`. */
  readonly dispatchesPerPass?: number;
  /** The shortest pass worth timing, ms (default 2, beyond Chrome's 0.1 ms quantum). */
  readonly minPassMs?: number;
  /**
   * Milliseconds of untimed passes run just before the timed ones (default 200), so the GPU's
   * clocks are up: an idle H100 drops its SM clock from 1980 MHz towards 345 MHz within a fraction
   * of a second, and a short pass started then runs at part speed (copy: 1.5 instead of 2.85 TB/s).
   */
  readonly warmupMs?: number;
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
}

/** Compiled pipelines kept by default; each distinct edit of a kernel is one entry. */
export const PIPELINE_CACHE_SIZE = 32;

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
    const info = await module.getCompilationInfo();
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
        HINTS.compile,
        messages,
      );
    }
    if (moduleError) throw new GpuError('validation', `${label}: ${moduleError.message}`, HINTS.validation);

    const bindings = reflectBindings(run.code);
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
    const out = await this.bounded(label, options, () => this.runOnce(run));
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

  private async runOnce(run: KernelRun): Promise<Bindings> {
    const epoch = this.epoch;
    const bound = await this.bind(run, epoch);
    const { device } = await this.readyFor(epoch);
    const label = run.label ?? run.file ?? run.entryPoint;
    try {
      const readbacks: { k: string; staging: GPUBuffer; size: number; data: BindingData }[] = [];
      await this.guard(epoch, label, async () => {
        const encoder = device.createCommandEncoder({ label: `${label}.encoder` });
        const pass = encoder.beginComputePass({ label: `${label}.pass` });
        this.encode(pass, bound);
        pass.end();
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
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
      });
      const out: Bindings = {};
      for (const { resource, data } of bound.buffers.values()) {
        (out[resource.group] ??= {})[resource.binding] = copyOf(data);
      }
      for (const { k, staging, data } of readbacks) {
        await staging.mapAsync(GPUMapMode.READ);
        const copy = cloneLike(data, staging.getMappedRange(), data.length);
        staging.unmap();
        staging.destroy();
        const resource = bound.buffers.get(k)!.resource;
        out[resource.group]![resource.binding] = copy;
      }
      return out;
    } finally {
      for (const { buffer } of bound.buffers.values()) buffer.destroy();
    }
  }

  /**
   * Times a kernel, or a chain of kernels run back to back (a multi-pass driver), with timestamp
   * queries around a pass of K dispatches; falls back to wall time around `onSubmittedWorkDone`.
   * Data of later passes in a chain is whatever their bindings hold: timing only.
   */
  async time(runs: KernelRun | readonly KernelRun[], options: TimeOptions & Bounds = {}): Promise<Timing> {
    const first = Array.isArray(runs) ? (runs as readonly KernelRun[])[0] : (runs as KernelRun);
    const label = first?.label ?? first?.file ?? 'chain';
    return this.bounded(label, options, () => this.timeOnce(runs, options));
  }

  private async timeOnce(runs: KernelRun | readonly KernelRun[], options: TimeOptions): Promise<Timing> {
    const epoch = this.epoch;
    const chain = Array.isArray(runs) ? (runs as readonly KernelRun[]) : [runs as KernelRun];
    const repeats = Math.min(2048, Math.max(1, options.repeats ?? 10)); // 2 queries each, of 4096
    const minPassMs = options.minPassMs ?? 2;
    const bound: Bound[] = [];
    for (const r of chain) bound.push(await this.bind(r, epoch));
    const { device, summary } = await this.readyFor(epoch);
    const label = chain[0]?.label ?? chain[0]?.file ?? 'chain';
    const useTimestamps = summary.hasTimestamps;
    const querySet = useTimestamps
      ? device.createQuerySet({ label: `${label}.timestamps`, type: 'timestamp', count: 2 * repeats })
      : undefined;
    const resolve = useTimestamps
      ? device.createBuffer({
          label: `${label}.timestamps.resolve`,
          size: 16 * repeats,
          usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
        })
      : undefined;
    const rawTicks: number[] = [];
    /** Nothing more is encoded on a device abandoned (cancel, timeout) while this call ran. */
    const stillOurs = (): void => {
      if (epoch !== this.epoch) throw new GpuError('device-lost', `${label}: the GPU device was abandoned (${this.lostReason ?? ''}).`, HINTS.deviceLost);
    };

    /** Encodes a pass of k runs of the chain, with timestamps into query pair `slot` if given. */
    const encodePass = (encoder: GPUCommandEncoder, k: number, slot?: number): void => {
      const pass = encoder.beginComputePass({
        label: `${label}.timed-pass`,
        ...(slot !== undefined && querySet
          ? { timestampWrites: { querySet, beginningOfPassWriteIndex: 2 * slot, endOfPassWriteIndex: 2 * slot + 1 } }
          : {}),
      });
      for (let i = 0; i < k; i++) for (const b of bound) this.encode(pass, b);
      pass.end();
    };

    /** Nanoseconds of each timed pass in query pairs 0 … count − 1, read back once. */
    const readTicks = async (encoder: GPUCommandEncoder, count: number): Promise<number[]> => {
      stillOurs();
      encoder.resolveQuerySet(querySet!, 0, 2 * count, resolve!, 0);
      const staging = device.createBuffer({ size: 16 * count, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyBufferToBuffer(resolve!, 0, staging, 0, 16 * count);
      device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const t = new BigUint64Array(staging.getMappedRange().slice(0));
      staging.unmap();
      staging.destroy();
      return Array.from({ length: count }, (_, i) => Number((t[2 * i + 1] ?? 0n) - (t[2 * i] ?? 0n)));
    };

    /** One pass on its own: timestamps, else the wall clock around onSubmittedWorkDone. */
    const timePass = async (k: number): Promise<number> => {
      stillOurs();
      const encoder = device.createCommandEncoder({ label: `${label}.timed-encoder` });
      encodePass(encoder, k, querySet ? 0 : undefined);
      const t0 = performance.now();
      if (!querySet) {
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
        return performance.now() - t0;
      }
      const [ns = 0] = await readTicks(encoder, 1);
      const wallMs = performance.now() - t0;
      rawTicks.push(ns);
      // Some drivers give 0 or garbage when the pass crosses a clock domain; trust the wall then.
      return ns > 0 && ns < wallMs * 1e6 * 4 ? ns / 1e6 : wallMs;
    };

    /**
     * Every timed pass submitted back to back, so the GPU never idles between them (each pass waited
     * for on its own lets the clocks fall in the gaps), with one read of all timestamps at the end.
     */
    const timePasses = async (k: number, count: number): Promise<number[]> => {
      stillOurs();
      if (!querySet) {
        const out: number[] = [];
        for (let i = 0; i < count; i++) out.push(await timePass(k));
        return out;
      }
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const encoder = device.createCommandEncoder({ label: `${label}.timed-encoder` });
        encodePass(encoder, k, i);
        device.queue.submit([encoder.finish()]);
      }
      const ticks = await readTicks(device.createCommandEncoder({ label: `${label}.resolve` }), count);
      const wallMs = performance.now() - t0;
      rawTicks.push(...ticks);
      return ticks.map((ns) => (ns > 0 && ns < wallMs * 1e6 * 4 ? ns / 1e6 : wallMs / count));
    };

    /** Untimed passes for about `ms`, a few in the queue at a time. */
    const warmUp = async (k: number, ms: number): Promise<void> => {
      const t0 = performance.now();
      while (performance.now() - t0 < ms) {
        stillOurs();
        for (let i = 0; i < 4; i++) {
          const encoder = device.createCommandEncoder({ label: `${label}.warm-up` });
          encodePass(encoder, k);
          device.queue.submit([encoder.finish()]);
        }
        await device.queue.onSubmittedWorkDone();
      }
    };

    try {
      return await this.guard(epoch, label, async () => {
        let k = options.dispatchesPerPass ?? 1;
        await timePass(1); // warm-up: pipeline creation, first-touch of buffers
        if (options.dispatchesPerPass === undefined) {
          for (;;) {
            const ms = await timePass(k);
            if (ms >= minPassMs || k >= 1024) break;
            k = Math.min(1024, k * Math.max(2, Math.ceil(minPassMs / Math.max(ms, 0.01))));
          }
        }
        await warmUp(k, options.warmupMs ?? 200);
        const samples = (await timePasses(k, repeats)).map((ms) => ms / k);
        const quantized = rawTicks.length > 0 && rawTicks.every((t) => t % 100_000 === 0);
        return {
          medianMs: median(samples),
          minMs: Math.min(...samples),
          maxMs: Math.max(...samples),
          repeats,
          dispatchesPerPass: k,
          source: useTimestamps ? 'timestamp-query' : 'wall-clock',
          quantized,
          samplesMs: samples,
        } satisfies Timing;
      });
    } finally {
      querySet?.destroy();
      resolve?.destroy();
      for (const b of bound) for (const { buffer } of b.buffers.values()) buffer.destroy();
    }
  }

  private encode(pass: GPUComputePassEncoder, bound: Bound): void {
    pass.setPipeline(bound.prepared.pipeline);
    bound.bindGroups.forEach((g, i) => pass.setBindGroup(i, g));
    pass.dispatchWorkgroups(...bound.workgroups);
  }

  private async bind(run: KernelRun, epoch: number): Promise<Bound> {
    const prepared = await this.prepare(run, epoch);
    const { device, summary } = await this.readyFor(epoch);
    const label = run.label ?? run.file ?? run.entryPoint;
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
    for (const resource of prepared.bindings) {
      const data = run.bindings[resource.group]?.[resource.binding];
      if (!data) {
        for (const { buffer } of buffers.values()) buffer.destroy();
        throw new GpuError(
          'bindings',
          `${label}: no data for @group(${resource.group}) @binding(${resource.binding}) (${resource.name}).`,
          'Pass a typed array for every binding the kernel declares.',
        );
      }
      // Storage sizes must be multiples of 4, uniform blocks of 16; an empty array still needs a buffer.
      const size = Math.max(16, Math.ceil(data.byteLength / 16) * 16);
      if (size > summary.limits.maxStorageBufferBindingSize) {
        for (const { buffer } of buffers.values()) buffer.destroy();
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
      const buffer = await this.guard(epoch, label, () => {
        const b = device.createBuffer({ label: `${label}.${resource.name}`, size, usage, mappedAtCreation: true });
        new Uint8Array(b.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        b.unmap();
        return Promise.resolve(b);
      });
      buffers.set(key(resource.group, resource.binding), { buffer, resource, data });
    }
    const bindGroups = prepared.layouts.map((layout, g) =>
      device.createBindGroup({
        label: `${label}.bind-group.${g}`,
        layout,
        entries: prepared.bindings
          .filter((b) => b.group === g)
          .map((b) => ({ binding: b.binding, resource: { buffer: buffers.get(key(b.group, b.binding))!.buffer } })),
      }),
    );
    return { prepared, bindGroups, buffers, workgroups };
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
