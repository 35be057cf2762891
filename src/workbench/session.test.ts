import { describe, expect, it, vi } from 'vitest';
import { createLabSession, PROGRESS_MS, type SimulateFn } from './session.ts';
import { createSimCache } from './simCache.ts';
import { findLab } from '../labs/all.ts';
import { simulate } from '../sim/index.ts';
import { SimCancelled } from '../sim/workerClient.ts';
import type { BandwidthBaselines, GpuExecutor, TimeOptions, Timing } from '../gpu/executor.ts';
import { loadLocale } from '../i18n/catalog.ts';
import { setCurrentLocale } from '../i18n/locale.ts';

/** Runs the simulator in-process, as the worker would, and records each job. */
function inProcess() {
  const started: string[] = [];
  const fn: SimulateFn = (channel, run, options) => {
    started.push(channel);
    let cancelled = false;
    const promise = Promise.resolve().then(() => {
      if (cancelled) throw new SimCancelled();
      return simulate(run, options);
    });
    return { promise, cancel: () => (cancelled = true) };
  };
  return { fn, started };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('lab session (outside React)', () => {
  it('resolves the request, simulates the primary run and opens at the step asked for', async () => {
    const sim = inProcess();
    const session = createLabSession(findLab('reduce'), { variant: 'interleaved', compare: undefined, params: { n: 256 }, workgroup: 0 }, { simulate: sim.fn, startAt: () => 7 });
    expect(session.getState().params).toEqual({ n: 256, workgroupSize: 256, type: 'u32' });
    await settle();
    const s = session.getState();
    expect(s.primary.status.state).toBe('done');
    expect(s.primary.index?.warpCount).toBe(8);
    expect(s.stepCount).toBeGreaterThan(7);
    expect(s.step).toBe(7);
    session.getState().dispose();
  });

  it("simulates with shader-f16 only where the device offers it", async () => {
    const seen: (boolean | undefined)[] = [];
    const sim = inProcess();
    const fn: SimulateFn = (channel, run, options, onProgress) => {
      seen.push(options.shaderF16);
      return sim.fn(channel, run, options, onProgress);
    };
    const request = { variant: 'interleaved', compare: undefined, params: { n: 256 }, workgroup: 0 };
    for (const device of [{ maxInvocationsPerWorkgroup: 256, shaderF16: true }, { maxInvocationsPerWorkgroup: 256 }]) {
      const session = createLabSession(findLab('reduce'), { ...request, device }, { simulate: fn });
      await settle();
      session.getState().dispose();
    }
    expect(seen).toEqual([true, undefined]);
  });

  it('says what it adjusted and refuses to compare a variant with itself', () => {
    const session = createLabSession(
      findLab('scan'),
      { variant: 'blelloch', compare: 'blelloch', params: { type: 'f64', workgroupSize: 100 }, workgroup: undefined },
      { simulate: inProcess().fn },
    );
    const { notices, params, compare } = session.getState();
    expect(compare).toBeUndefined();
    expect(params.type).toBe('u32');
    expect(notices.join(' ')).toMatch(/does not run on f64/);
    expect(notices.join(' ')).toMatch(/Cannot compare with “blelloch”/);
    expect(notices.join(' ')).toMatch(/written for workgroups of/);
    session.getState().dispose();
  });

  it('shows a running simulation’s progress at most every PROGRESS_MS, the latest report, and never once it has ended', async () => {
    vi.useFakeTimers();
    try {
      let report: ((fraction: number) => void) | undefined;
      let finish: (() => void) | undefined;
      const sim = inProcess();
      const fn: SimulateFn = (channel, run, options, onProgress) => {
        report = onProgress;
        const job = sim.fn(channel, run, options, () => {});
        return { promise: new Promise<void>((r) => (finish = r)).then(() => job.promise), cancel: () => job.cancel() };
      };
      const session = createLabSession(findLab('reduce'), { variant: 'interleaved', compare: undefined, params: { n: 256 }, workgroup: 0 }, { simulate: fn });
      const shown: number[] = [];
      session.subscribe((s, before) => {
        if (s.primary.status !== before.primary.status && s.primary.status.state === 'running') shown.push(s.primary.status.progress);
      });
      // A hundred reports within a few milliseconds: the first shows at once, the latest after PROGRESS_MS.
      for (let p = 1; p <= 60; p++) report!(p / 100);
      expect(shown).toEqual([0.01]);
      vi.advanceTimersByTime(PROGRESS_MS - 1);
      expect(shown).toEqual([0.01]);
      vi.advanceTimersByTime(1);
      expect(shown).toEqual([0.01, 0.6]);
      // Reports further apart than PROGRESS_MS each show.
      vi.advanceTimersByTime(PROGRESS_MS);
      report!(0.7);
      expect(shown).toEqual([0.01, 0.6, 0.7]);
      // A report still waiting when the run ends never shows.
      report!(0.8);
      finish!();
      await vi.advanceTimersByTimeAsync(0);
      expect(session.getState().primary.status.state).toBe('done');
      await vi.advanceTimersByTimeAsync(PROGRESS_MS * 2);
      expect(shown).toEqual([0.01, 0.6, 0.7]);
      expect(session.getState().primary.status.state).toBe('done');
      session.getState().dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a run it has kept without simulating it again, for any session given the cache, and never keeps a draft', async () => {
    const cache = createSimCache();
    const sim = inProcess();
    const request = { variant: 'interleaved', compare: undefined, params: { n: 256 }, workgroup: 0 };
    const first = createLabSession(findLab('reduce'), request, { simulate: sim.fn, cache });
    await settle();
    const shown = first.getState().primary;
    first.getState().dispose();
    expect(sim.started).toEqual(['primary']);
    // A new session (a lesson's next step mounts its lab anew) on the same run: nothing simulated.
    const second = createLabSession(findLab('reduce'), request, { simulate: sim.fn, cache, startAt: () => 3 });
    await settle();
    expect(sim.started).toEqual(['primary']);
    expect(second.getState().primary.status.state).toBe('done');
    expect(second.getState().primary.result).toBe(shown.result);
    expect(second.getState().primary.index).toBe(shown.index);
    expect(second.getState().step).toBe(3);
    // Other parameters are another run.
    second.getState().configure({ ...request, params: { n: 512 } });
    await settle();
    expect(sim.started).toEqual(['primary', 'primary']);
    second.getState().dispose();
    // A draft is simulated each time, and not kept.
    const source = findLab('reduce').variants.find((v) => v.id === 'interleaved')!.wgsl;
    for (let i = 0; i < 2; i++) {
      const drafted = createLabSession(findLab('reduce'), request, { simulate: sim.fn, cache, drafts: { interleaved: `${source}\n// edited\n` } });
      await settle();
      expect(drafted.getState().primary.status.state).toBe('done');
      drafted.getState().dispose();
    }
    expect(sim.started).toEqual(['primary', 'primary', 'primary', 'primary']);
  });

  it('runs the companions its panels declare, and re-simulates only when the request changes', async () => {
    const sim = inProcess();
    const session = createLabSession(findLab('scan'), { variant: 'blelloch', compare: undefined, params: {}, workgroup: 0 }, {
      simulate: sim.fn,
      companions: (v) => (v.id === 'blelloch' ? [{ id: 'twin', variant: 'blelloch-padded' }] : []),
    });
    await settle();
    expect(sim.started).toEqual(['primary', 'twin']);
    expect(session.getState().companions.twin?.status.state).toBe('done');
    session.getState().configure({ variant: 'blelloch', compare: undefined, params: {}, workgroup: 0 });
    expect(sim.started).toHaveLength(2);
    session.getState().configure({ variant: 'hillis-steele', compare: 'blelloch', params: {}, workgroup: 0 });
    expect(sim.started.slice(2)).toEqual(['primary', 'other']);
    expect(session.getState().companions).toEqual({});
    session.getState().dispose();
  });

  it('traces every workgroup of a companion that asks for the whole dispatch, and only the focus otherwise', async () => {
    const sim = inProcess();
    const session = createLabSession(findLab('matmul'), { variant: 'tiled', compare: undefined, params: { m: 32, n: 32, k: 16 }, workgroup: 0 }, {
      simulate: sim.fn,
      companions: (v) => [{ id: 'whole', variant: v.id, traceAll: true }],
    });
    await settle();
    expect(session.getState().primary.result?.trace?.workgroups).toEqual([0]);
    expect(session.getState().companions.whole?.result?.trace?.workgroups).toEqual([0, 1, 2, 3]);
    session.getState().dispose();
  });

  it('plays on its own clock and stops at the last step', async () => {
    let tick: (() => void) | undefined;
    const session = createLabSession(findLab('reduce'), { variant: 'neighbored', compare: undefined, params: { n: 64 }, workgroup: 0 }, {
      simulate: inProcess().fn,
      timer: { set: (fn) => (tick = fn), clear: () => (tick = undefined) },
    });
    await settle();
    const { stepCount } = session.getState();
    session.getState().setStep(stepCount - 3);
    session.getState().togglePlaying();
    expect(session.getState().playing).toBe(true);
    tick!();
    tick!();
    expect(session.getState().step).toBe(stepCount - 1);
    tick!();
    expect(session.getState().playing).toBe(false);
    expect(tick).toBeUndefined();
    session.getState().dispose();
  });

  it('runs the timing sweep of its parameters on any executor, checks each output, and stops when cancelled', async () => {
    const timing: Timing = {
      medianMs: 1,
      minMs: 1,
      maxMs: 1,
      spread: 1,
      repeats: 1,
      dispatchesPerPass: 1,
      source: 'timestamp-query',
      quantized: false,
      samplesMs: [1],
      attempts: 1,
      steady: true,
    };
    const baselines: BandwidthBaselines = { bytes: 1 << 20, readGBps: 10, copyGBps: 20, read: timing, copy: timing };
    let timed = 0;
    const asked: TimeOptions[] = [];
    // A stand-in GPU: the simulator runs the kernels; the n-th timing reads n ms, at 40–60 % (median 50 %) of its baseline.
    const gpu = {
      run: (r: Parameters<typeof simulate>[0]) => Promise.resolve(simulate(r, { warpSize: 32, trace: 'summary' }).buffers),
      time: (_runs: unknown, options: TimeOptions) => {
        asked.push(options);
        const kind = options.baseline?.kind;
        const relative = kind && {
          kind,
          kernelBytes: options.baseline.bytes,
          baselineBytes: options.baseline.bytes,
          baseline: timing,
          kernelGBps: 1,
          baselineGBps: 2,
          ratio: 0.5,
          ratioMin: 0.4,
          ratioMax: 0.6,
          ratios: [0.4, 0.5, 0.6],
        };
        return Promise.resolve({ ...timing, medianMs: ++timed, ...(relative ? { relative } : {}) });
      },
      baselines: () => Promise.resolve(baselines),
    } as unknown as GpuExecutor;
    const session = createLabSession(findLab('rowsum'), { variant: undefined, compare: undefined, params: { cols: 128 }, workgroup: 0 }, { simulate: inProcess().fn });
    const plan = { gpu, sizes: [1024, 4096], baselineBytes: 1 << 20, repeats: 1, hasSubgroups: false, maxInvocations: 256, describeError: String };
    await session.getState().measureTimings(plan);
    const { rows, baseline, progress, error } = session.getState().timings;
    expect(error).toBeUndefined();
    expect(progress).toBeUndefined();
    expect(baseline).toBe(baselines);
    expect(rows.map((r) => [r.variant, r.n, r.gpuAgrees])).toEqual([
      ['simple', 1024, true],
      ['better', 1024, true],
      ['simple', 4096, true],
      ['better', 4096, true],
    ]);
    // 4 + 128 bytes per row of 128 u32, 8 rows at 1024 elements, timed at 1 ms.
    expect(rows[0]!.gbps).toBeCloseTo((8 * 128 * 4 + 8 * 4) / 1e6, 9);
    // Every figure is timed against the lab's baseline (a read for rowsum) over the bytes it moves,
    // and its row carries the median ratio of the rounds with the lowest and highest.
    expect(asked.map((o) => o.baseline)).toEqual([
      { kind: 'read', bytes: 8 * 128 * 4 + 8 * 4 },
      { kind: 'read', bytes: 8 * 128 * 4 + 8 * 4 },
      { kind: 'read', bytes: 32 * 128 * 4 + 32 * 4 },
      { kind: 'read', bytes: 32 * 128 * 4 + 32 * 4 },
    ]);
    expect(rows.map((r) => [r.baselineKind, r.percentOfBaseline, r.percentMin, r.percentMax, r.steady])).toEqual(Array(4).fill(['read', 50, 40, 60, true]));

    // A lab that says 'copy' (vector add reads two arrays and writes one) is timed against a copy.
    asked.length = 0;
    const basics = createLabSession(findLab('basics'), { variant: 'vector-add', compare: undefined, params: {}, workgroup: 0 }, { simulate: inProcess().fn });
    await basics.getState().measureTimings({ ...plan, sizes: [1024] });
    expect(basics.getState().timings.error).toBeUndefined();
    expect(asked.map((o) => o.baseline?.kind)).toEqual(basics.getState().timings.rows.map(() => 'copy'));
    expect(basics.getState().timings.rows.map((r) => r.baselineKind)).toContain('copy');
    basics.getState().dispose();

    const running = session.getState().measureTimings(plan);
    session.getState().cancelTimings();
    await running;
    expect(session.getState().timings.rows.length).toBeLessThan(4);
    session.getState().dispose();
  });

  it('starts again after dispose when configured with the same request (a remounted view)', async () => {
    const sim = inProcess();
    const request = { variant: 'neighbored', compare: undefined, params: { n: 64 }, workgroup: 0 };
    const session = createLabSession(findLab('reduce'), request, { simulate: sim.fn, deferStart: true });
    expect(sim.started).toEqual([]);
    session.getState().configure(request);
    session.getState().dispose();
    session.getState().configure(request);
    await settle();
    expect(sim.started).toEqual(['primary', 'primary']);
    expect(session.getState().primary.status.state).toBe('done');
    session.getState().dispose();
  });

  it('ignores a run that finishes after a newer one took its place', async () => {
    // A worker that cannot stop: the old job still resolves after it was cancelled.
    const stubborn: SimulateFn = (_channel, run, options) => ({ promise: Promise.resolve().then(() => simulate(run, options)), cancel: () => {} });
    const ready: number[] = [];
    const session = createLabSession(findLab('reduce'), { variant: 'neighbored', compare: undefined, params: { n: 64 }, workgroup: 0 }, {
      simulate: stubborn,
      onReady: ({ result }) => ready.push(result.trace!.stepCount),
    });
    session.getState().configure({ variant: 'interleaved', compare: undefined, params: { n: 64 }, workgroup: 0 });
    await settle();
    const s = session.getState();
    expect(s.primary.variant).toBe('interleaved');
    expect(ready).toEqual([s.primary.result!.trace!.stepCount]);
    expect(s.stepCount).toBe(s.primary.result!.trace!.stepCount);
    session.getState().dispose();
  });
  it('writes its notices anew in the language shown when the learner switches it, until it is disposed', async () => {
    const session = createLabSession(findLab('topk'), { variant: 'radix', compare: undefined, params: { semantics: 'distinct' }, workgroup: 0 }, { simulate: inProcess().fn });
    try {
      expect(session.getState().notices.join(' ')).toMatch(/duplicates kept/);
      await loadLocale('zh-CN');
      setCurrentLocale('zh-CN');
      expect(session.getState().notices.join(' ')).toMatch(/保留重复值/);
      expect(session.getState().notices.join(' ')).not.toMatch(/duplicates kept/);
      session.getState().dispose();
      setCurrentLocale('en');
      // A disposed session no longer follows the language.
      expect(session.getState().notices.join(' ')).toMatch(/保留重复值/);
    } finally {
      setCurrentLocale('en');
    }
  });
});
