import { describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { useAppPage, useBrowser } from './browser.ts';

/**
 * A measurement, not a pass/fail timing: steps the largest workgroup the adapter runs (1024
 * invocations, 32 warps, where it allows them; the page fits the address's 1024 to the adapter's
 * limit, 256 on SwiftShader) and prints the frame intervals and the key-to-screen latency the page
 * achieved while stepping.
 */
describe('stepping the largest workgroup the adapter runs', () => {
  const browser = useBrowser();
  // One page for every test (useAppPage): the app is loaded once and each test opens its lab inside
  // it as a first visit shows it, instead of loading the app again for each lab.
  const open = useAppPage(browser);

  it('reports frame times while stepping', async () => {
    const { page, errors } = await open('/lab/reduce?v=interleaved&n=1024&wg=1024');
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 120_000 });
    await page.getByTestId('stage-tab-warp-grid').click();
    await page.getByTestId('warp-grid').waitFor({ timeout: 120_000 });
    const wg = Number(await page.getByTestId('wg-select').inputValue());
    expect([256, 512, 1024]).toContain(wg);
    const warps = wg / 32;
    expect(await page.getByTestId('warp-summary').textContent()).toMatch(new RegExp(`of ${warps} warps`));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // Record every animation frame while stepping.
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__frames = [];
      w.__recording = true;
      const tick = (t: number) => {
        w.__frames.push(t);
        if (w.__recording) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const latencies: number[] = [];
    for (let i = 0; i < 60; i++) {
      const before = await page.getByTestId('step-counter').textContent();
      const t0 = Date.now();
      await page.keyboard.press(i % 10 === 9 ? ']' : '.');
      await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before);
      latencies.push(Date.now() - t0);
    }
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__recording = false;
      return w.__frames;
    });
    const intervals = frames.slice(1).map((t, i) => t - frames[i]!).sort((a, b) => a - b);
    const pick = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `[measure] stepping ${warps} warps × 32 lanes, 60 steps: frame interval median ${pick(intervals, 0.5).toFixed(1)} ms, ` +
        `p95 ${pick(intervals, 0.95).toFixed(1)} ms, max ${Math.max(...intervals).toFixed(1)} ms over ${intervals.length} frames; ` +
        `key-to-screen median ${pick(sorted, 0.5)} ms, p95 ${pick(sorted, 0.95)} ms`,
    );
    expect(intervals.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  }, 240_000);

  // What one step costs, from Chrome's own trace of the page (set STEP_PROFILE=1; off by default,
  // as tracing slows the steps it watches): CPU time on the page's main thread between one key and
  // the next, split into script, style, layout and paint, the key's own task, and the layouts a
  // script forced. CPU time, not wall time, so a machine busy with other work changes it less.
  it.runIf(process.env.STEP_PROFILE)
    .each(['reduce', 'histogram', 'matmul', 'scan'])('profiles one step of the %s lab', async (lab) => {
    const { page, errors } = await open(`/lab/${lab}`, { width: 1440, height: 900 });
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 120_000 });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Home');
    const cdp = await page.context().newCDPSession(page);
    const events = await traced(cdp, async () => {
      for (let i = 0; i < 30; i++) await stepAndWaitForFrame(page);
    });
    const cost = stepCost(events);
    console.log(
      `[profile] ${lab} lab at 1440×900, ${cost.steps} steps, medians per step (CPU ms on the main thread): key's task ${cost.keyTask.toFixed(1)}, ` +
        `key to key ${cost.total.toFixed(1)} (script ${cost.script.toFixed(1)}, style ${cost.style.toFixed(1)}, layout ${cost.layout.toFixed(1)}, paint and compositing ${cost.paint.toFixed(1)}, other ${cost.other.toFixed(1)}), ` +
        `layouts forced by script ${cost.forced.toFixed(1)}`,
    );
    expect(cost.steps).toBeGreaterThan(20);
    expect(errors).toEqual([]);
  }, 240_000);

  // Key → frame changed on each lab's opening stage at 1440×900: the step counter changes and one
  // animation frame is painted after it (what the learner sees), the median over 30 steps.
  it.each(['reduce', 'histogram', 'matmul', 'scan'])('reports the key-to-frame latency of the %s lab', async (lab) => {
    const { page, errors } = await open(`/lab/${lab}`, { width: 1440, height: 900 });
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 120_000 });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Home');
    const latencies: number[] = [];
    for (let i = 0; i < 30; i++) latencies.push(await stepAndWaitForFrame(page));
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(`[measure] ${lab} lab at 1440×900, 30 steps: key-to-frame median ${sorted[15]} ms, p90 ${sorted[27]} ms`);
    expect(latencies.length).toBe(30);
    expect(errors).toEqual([]);
  }, 240_000);
});

/** Presses `.` and waits until the step counter has changed and one frame has been painted after it: the milliseconds that took. */
async function stepAndWaitForFrame(page: Page): Promise<number> {
  const before = await page.getByTestId('step-counter').textContent();
  const t0 = Date.now();
  await page.keyboard.press('.');
  await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
  return Date.now() - t0;
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { readonly name?: string; readonly data?: { readonly type?: string }; readonly beginData?: { readonly stackTrace?: unknown } };
}

/** Chrome's trace of the page while `run` runs. */
async function traced(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.stack,v8.execute', transferMode: 'ReportEvents' });
  await run();
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

const KINDS: Record<string, 'script' | 'style' | 'layout' | 'paint'> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  EventDispatch: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  'v8.execute': 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  Commit: 'paint',
};

/**
 * Per step (key to next key, medians): CPU time of the page's main thread by kind (each event's
 * own time, its children's taken out), the key's task, and the layouts a script forced.
 */
function stepCost(events: readonly TraceEvent[]) {
  const names = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name]));
  const count = new Map<string, number>();
  for (const e of events) if (names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain') count.set(`${e.pid}:${e.tid}`, (count.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
  const evs = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined && e.tdur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Each event's own CPU time: its children's taken out.
  const own = new Map<TraceEvent, number>();
  const open: TraceEvent[] = [];
  const tops: TraceEvent[] = [];
  for (const e of evs) {
    while (open.length > 0 && open.at(-1)!.ts + open.at(-1)!.dur! <= e.ts) open.pop();
    const parent = open.at(-1);
    if (parent) own.set(parent, own.get(parent)! - e.tdur!);
    else tops.push(e);
    own.set(e, e.tdur!);
    open.push(e);
  }
  const keys = evs.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown').map((e) => e.ts);
  const rows = keys.slice(0, -1).map((from, i) => {
    const to = keys[i + 1]!;
    const within = (e: TraceEvent) => e.ts >= from && e.ts < to;
    const row = { keyTask: 0, total: 0, script: 0, style: 0, layout: 0, paint: 0, other: 0, forced: 0 };
    for (const [e, ms] of own) {
      if (!within(e)) continue;
      const kind = KINDS[e.name] ?? 'other';
      row[kind] += ms / 1000;
      row.total += ms / 1000;
      if ((e.name === 'Layout' || e.name === 'UpdateLayoutTree') && e.args?.beginData?.stackTrace) row.forced += ms / 1000;
    }
    row.keyTask = (tops.find((t) => t.ts <= from && t.ts + t.dur! >= from)?.tdur ?? 0) / 1000;
    return row;
  });
  const median = (pick: (r: (typeof rows)[number]) => number) => rows.map(pick).sort((a, b) => a - b)[Math.floor(rows.length / 2)] ?? NaN;
  return {
    steps: rows.length,
    keyTask: median((r) => r.keyTask),
    total: median((r) => r.total),
    script: median((r) => r.script),
    style: median((r) => r.style),
    layout: median((r) => r.layout),
    paint: median((r) => r.paint),
    other: median((r) => r.other),
    forced: median((r) => r.forced),
  };
}
