import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPage, useBrowser } from './browser.ts';
import { goInApp, LabPageObject } from './pages.ts';
import { loadAxe } from './labAxe.ts';

/** The lab editor driven as a person would: click into it, select all, type. */
class EditorLab extends LabPageObject {
  editor() {
    return this.page.getByTestId('kernel-editor');
  }
  async source(): Promise<string> {
    return this.page.evaluate(() => [...document.querySelectorAll('[data-testid=kernel-editor] .cm-line')].map((l) => l.textContent ?? '').join('\n'));
  }
  async replaceAll(text: string): Promise<void> {
    await this.replaceIn('kernel-editor', text);
  }
  async run(): Promise<void> {
    await this.runIn('kernel-editor');
  }
  async checked(): Promise<void> {
    await this.page.getByTestId('editor-check').waitFor({ timeout: 90_000 });
  }
  /** Moves the cursor to the first line holding `text` (CodeMirror draws only the lines in view, and scrolls the cursor's into it). */
  async cursorTo(text: string): Promise<void> {
    await this.cursorIn('kernel-editor', text);
  }
  /**
   * The texts of the editor lines carrying an error mark. The editor draws only the lines near its
   * view, so this scrolls it from top to bottom, as a person would, reading the marks on the way.
   */
  async markedLines(): Promise<string[]> {
    return this.page.evaluate(async () => {
      const candidates = [...document.querySelectorAll<HTMLElement>('[data-testid=editor-pane] .cm-scroller, [data-testid=editor-pane] .editor-scroll')];
      const scroller = candidates.find((el) => el.scrollHeight > el.clientHeight + 1) ?? candidates[0]!;
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const found = new Set<string>();
      const before = scroller.scrollTop;
      for (let top = 0; ; top += Math.max(40, scroller.clientHeight / 2)) {
        scroller.scrollTop = top;
        await frames();
        for (const l of document.querySelectorAll('[data-testid=kernel-editor] .cm-line')) if (l.querySelector('.cm-lintRange-error')) found.add(l.textContent ?? '');
        if (top >= scroller.scrollHeight - scroller.clientHeight) break;
      }
      scroller.scrollTop = before;
      return [...found];
    });
  }
  /** Waits until some line of the editor carries an error mark. */
  async someLineMarked(timeout: number): Promise<void> {
    await expect.poll(async () => (await this.markedLines()).length, { timeout, interval: 250 }).toBeGreaterThan(0);
  }
  async treeStride(): Promise<string> {
    return (await this.page.getByTestId('dataflow-tree').first().getAttribute('data-stride')) ?? '';
  }
}

/** The kernel as the editor opens it (its file), read here rather than from the editor's rendered lines. */
const kernelFile = (path: string) => readFileSync(new URL(`../shaders/${path}`, import.meta.url), 'utf8');

async function seriousViolations(page: Page): Promise<string[]> {
  await loadAxe(page);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact}: ${v.id} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * How long the lesson index may take to show its exercise list. The list is drawn only once every
 * lab's module has been fetched and run (`use(loadLabs())` in LessonPage.tsx: eleven chunks), and
 * the first time is in this test (the tests before it open only the reduction lab); every step
 * here is work on the page's main thread. On the shared 2-core machine at a load average of 40 to
 * 60 a renderer gets a few hundredths of a core, and the list once took over Playwright's default
 * 30 s: the same bound as the suite's other first loads of a chunk (a lab's stage: 60 to 90 s).
 */
const INDEX_MS = 90_000;

/** Goes to the lesson index inside the app, once the lab page (which lists its own exercises) has gone. */
async function toIndex(page: Page): Promise<void> {
  await goInApp(page, '/lessons', page.url());
  await page.waitForFunction(() => location.pathname === '/lessons' && !document.querySelector('[data-testid=stage]'), undefined, { timeout: INDEX_MS });
  await page.getByTestId('exercise-list').waitFor({ timeout: INDEX_MS });
}

const original = (_page: Page): Promise<string> =>
  Promise.resolve( readFileSync(new URL('../shaders/reduce/neighbored.wgsl', import.meta.url), 'utf8'));

describe('lab editor', () => {
  const browser = useBrowser();
  // Each test opens its lab as a first visit shows it, in one page (no drafts, exercises or progress kept).
  const open = useAppPage(browser);

  it('an edit turning the neighbored tree interleaved replays as the interleaved tree and both executors match the reference', async () => {
    const { page, errors } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    const edited = src
      .replace('for (var s = 1u; s < WORKGROUP_SIZE; s *= 2u) {', 'for (var s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {')
      .replace('if (lid % (2u * s) == 0u) {', 'if (lid < s) {');
    expect(edited).not.toBe(src);
    await lab.replaceAll(edited);
    await lab.run();
    await lab.checked();
    await page.waitForFunction(() => document.querySelector('[data-testid=check-gpu]')?.getAttribute('data-ok') === 'yes', undefined, { timeout: 60_000 });
    expect(await page.getByTestId('check-sim').getAttribute('data-ok')).toBe('yes');
    // The first tree level of the interleaved shape writes neighbouring words (stride 1).
    await lab.blur();
    await page.keyboard.press('Home');
    for (let i = 0; i < 5 && (await lab.treeStride()) === ''; i++) await lab.press(']');
    const state = await page.evaluate(() => ({ step: document.querySelector('[data-testid=step-counter]')?.textContent, panel: document.querySelector('[data-testid=stage]')?.getAttribute('data-panel'), ready: document.querySelector('[data-testid=stage]')?.getAttribute('data-ready'), level: document.querySelector('[data-testid=dataflow-tree]')?.getAttribute('data-level'), active: document.activeElement?.outerHTML.slice(0, 120) }));
    expect(await lab.treeStride(), JSON.stringify(state)).toBe('1');
    expect(await page.getByTestId('draft-state').textContent()).toContain('Edited');
    expect(errors).toEqual([]);
  }, 240_000);

  it('deleting the loop barrier is marked as a race on its line and the result is not guaranteed', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    const at = src.indexOf('workgroupBarrier();', src.indexOf('for (var s'));
    await lab.replaceAll(src.slice(0, at) + src.slice(at + 'workgroupBarrier();'.length));
    await lab.run();
    await lab.checked();
    await page.getByTestId('not-guaranteed').or(page.getByTestId('mismatches')).first().waitFor({ timeout: 60_000 });
    await lab.someLineMarked(30_000);
    const marked = await lab.markedLines();
    expect(marked.some((l) => l.includes('sdata[lid] += sdata[lid + s]'))).toBe(true);
  }, 240_000);

  it('a syntax error is underlined at its line and column and the last good trace stays', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    await lab.replaceAll(src.replace('let i = base + lid;', 'let i = base + ;'));
    await lab.someLineMarked(10_000);
    expect((await lab.markedLines()).some((l) => l.includes('let i = base + ;'))).toBe(true);
    await lab.run();
    const message = await page.getByTestId('editor-message').textContent();
    const line = src.split('\n').findIndex((l) => l.includes('let i = base + lid;')) + 1;
    expect(message).toContain(`line ${line}, column`);
    // The last good trace stays on the stage (the reduction lab's stage shows its tree).
    expect(await page.getByTestId('stage').getAttribute('data-ready')).toBe('yes');
    expect(await page.locator('[data-testid=stage-body] :is([data-testid=dataflow-tree], [data-testid=warp-grid])').count()).toBeGreaterThan(0);
  }, 120_000);

  it('loop {} is refused as the browser refuses it, with its line and column', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    await lab.replaceAll(src.replace('sdata[lid] = v;', 'sdata[lid] = v;\n  loop {}'));
    // Tint rejects a loop with no way out ("loop does not exit"); our front end says so as you type.
    const line = src.split('\n').findIndex((l) => l.includes('sdata[lid] = v;')) + 2;
    await lab.run();
    await page.waitForFunction((l) => (document.body.textContent ?? '').includes(`Not run: line ${l}, column 3:`), line, { timeout: 30_000 });
    expect(await page.evaluate(() => document.body.textContent ?? '')).toMatch(/does not exit/);
  }, 120_000);

  it('a loop whose exit is never taken ends with a step-limit message and the page stays responsive', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    // The exit depends only on the workgroup (uniform, so the barriers below stay valid) and is never taken.
    await lab.replaceAll(src.replace('sdata[lid] = v;', 'sdata[lid] = v;\n  loop { if (group == 0xffffffffu) { break; } }'));
    // Let the as-you-type lint (350 ms after the last keystroke) finish first: the probe is about the run.
    await page.waitForTimeout(1500);
    // The probe: while the run goes on, the page still answers. Each answer is read from the page
    // itself in one main-thread task: the run's status as shown then. A simulator on the main
    // thread would block every task until the run ended, so no answer could show it still running.
    // How long a machine takes does not matter: a slower one only makes the run longer, so a
    // loaded machine cannot fail this test (its time bound used to: a task over 100 ms).
    // For the record (printed, not bounded: they depend on the machine's load), every main-thread
    // task over 50 ms (the Long Tasks API) and the longest gap between animation frames.
    await page.evaluate(() => {
      const w = window as unknown as { __long: number[]; __gap: number; __probe: boolean; __observer?: PerformanceObserver };
      w.__long = [];
      w.__gap = 0;
      w.__probe = true;
      w.__observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(e.duration);
      });
      w.__observer.observe({ type: 'longtask' });
      let last = performance.now();
      const tick = (t: number) => {
        w.__gap = Math.max(w.__gap, t - last);
        last = t;
        if (w.__probe) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const started = Date.now();
    await lab.run();
    // Answers while the run goes on: each one a keypress the page takes, then the page's own
    // state read in one task: the run still going (the editor says a check is under way, no result yet).
    const state = () => ({
      busy: document.querySelector('[data-testid=editor-busy]') !== null,
      stopped: document.querySelector('[data-testid=check-sim]')?.textContent?.includes('Stopped after') ?? false,
    });
    await page.waitForFunction(() => document.querySelector('[data-testid=editor-busy]') !== null, undefined, { timeout: 30_000 });
    let answers = 0;
    for (;;) {
      await page.keyboard.press('Shift');
      const now = await page.evaluate(state);
      if (now.stopped || !now.busy) break;
      answers++;
      await page.waitForTimeout(200);
    }
    expect(answers, 'the page answered while the simulation ran').toBeGreaterThan(0);
    await lab.checked();
    await page.waitForFunction(() => document.querySelector('[data-testid=check-sim]')?.textContent?.includes('Stopped after'), undefined, { timeout: 90_000 });
    // Let the tasks that follow the result (the lint of the draft, the views' effects) run too.
    await page.waitForTimeout(1000);
    const runMs = Date.now() - started;
    const { long, gap } = await page.evaluate(() => {
      const w = window as unknown as { __long: number[]; __gap: number; __probe: boolean; __observer?: PerformanceObserver };
      w.__probe = false;
      w.__observer?.disconnect();
      return { long: w.__long, gap: w.__gap };
    });
    console.log(
      `[measure] step-limit run: ${runMs} ms; answers while it ran: ${answers}; main-thread tasks over 50 ms: [${long.map((d) => d.toFixed(0)).join(', ')}]; longest frame gap ${gap.toFixed(0)} ms`,
    );
  }, 240_000);

  it('a share link opens the draft in a fresh context', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    await lab.replaceAll(src.replace('var v = T(0);', 'var v = T(0); // shared with the class'));
    await page.getByTestId('share-edit').click();
    const url = await page.getByTestId('share-message').getAttribute('data-url');
    expect(url).toContain('#draft=neighbored~');
    const ctx = await browser().newContext();
    const fresh = await ctx.newPage();
    await fresh.goto(url!);
    const other = new EditorLab(fresh);
    await other.ready();
    await other.editor().waitFor();
    await fresh.waitForFunction(() => document.querySelector('[data-testid=draft-state]')?.textContent?.includes('Edited'), undefined, { timeout: 30_000 });
    await fresh.getByRole('tab', { name: 'Diff' }).click();
    expect(await fresh.getByTestId('draft-diff').textContent()).toContain('// shared with the class');
    await ctx.close();
  }, 180_000);

  it('each exercise can be solved and is then marked done in the lesson index', async () => {
    const { page } = await open('/lessons');
    await page.getByTestId('exercise-list').waitFor({ timeout: INDEX_MS });
    const links = await page.evaluate(() => [...document.querySelectorAll('[data-testid=exercise-list] li a')].map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThanOrEqual(7);
    // The seeds' bugs each have an exercise: the last-warp race, the in-place write, the fixed-size top-k.
    for (const id of ['reduce-last-warp-race', 'reduce-inplace-overwrite', 'topk-fixed-size']) expect(links.some((h) => h.endsWith(`#exercise=${id}`))).toBe(true);
    for (const href of links) {
      // The index's link, followed inside the app (the lab page mounts anew and reads the exercise
      // from the address's fragment as it does on a load).
      await toIndex(page);
      await goInApp(page, href, page.url());
      const lab = new EditorLab(page);
      await lab.ready();
      // The bar is the editor's (its own chunk): as long as the stage may take (LabPageObject.ready).
      await page.getByTestId('exercise-bar').waitFor({ timeout: 60_000 });
      await page.getByTestId('exercise-check').click();
      await page.waitForFunction(() => /Not yet/.test(document.querySelector('[data-testid=exercise-verdict]')?.textContent ?? ''), undefined, { timeout: 60_000 });
      // The fix is the variant as the lab ships it: shaders/<lab>/<variant>.wgsl.
      const url = new URL(href, page.url());
      const fix = kernelFile(`${url.pathname.split('/')[2]}/${url.searchParams.get('v')}.wgsl`);
      await lab.replaceAll(fix);
      await page.getByTestId('exercise-check').click();
      await page.waitForFunction(() => document.querySelector('[data-testid=exercise-verdict]')?.getAttribute('data-ok') === 'yes', undefined, { timeout: 60_000 });
    }
    await toIndex(page);
    const done = await page.evaluate(() => [...document.querySelectorAll('[data-testid=exercise-list] li')].map((li) => li.getAttribute('data-done')));
    expect(done.every((d) => d === 'yes')).toBe(true);
  }, 300_000);

  it('a gutter breakpoint on the add line with lid == 0u stops on each tree level; print and the warp watch match the memory view', async () => {
    // From the first step (without one the page opens on the tree's first level, past the first hit).
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256&step=0');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const addLine = kernelFile('reduce/neighbored.wgsl').split('\n').findIndex((l) => l.includes('sdata[lid] += sdata[lid + s];')) + 1;
    // Put the cursor on the add line and set the gutter breakpoint there with F9 (the keyboard's
    // way; a click in the gutter does the same, but other panels may cover it on a short viewport).
    await lab.cursorTo('sdata[lid] += sdata[lid + s];');
    await page.keyboard.press('F9');
    await page.getByTestId(`breakpoint-${addLine}`).waitFor();
    await page.getByTestId('breakpoint-condition').fill('lid == 0u');
    await page.getByTestId('breakpoint-condition').press('Enter');

    const levels: number[] = [];
    for (let k = 0; k < 8; k++) {
      const before = await lab.stepCounter();
      await page.getByTestId('debug-continue').click();
      await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before);
      expect(await page.getByTestId('code-position').textContent()).toContain(`Line ${addLine}`);
      levels.push(Number(await page.getByTestId('dataflow-tree').first().getAttribute('data-level')));
    }
    for (let k = 1; k < levels.length; k++) expect(levels[k]).toBeGreaterThan(levels[k - 1]!);
    await page.getByTestId('debug-continue').click();
    await page.waitForFunction(() => /No later breakpoint hit/.test(document.querySelector('[data-testid=debug-log]')?.textContent ?? ''));

    // Back one stop; print and the watch against the memory view's words at this step (the
    // memory view is one stage tab away from the tree).
    await page.getByTestId('debug-reverse').click();
    await page.getByTestId('stage-tab-shared-memory').click();
    await page.getByTestId('shared-strip').waitFor();
    await page.getByTestId('debug-command').fill('print sdata[3]');
    await page.getByTestId('debug-command').press('Enter');
    await page.waitForFunction(() => /\$ = /.test(document.querySelector('[data-testid=debug-log]')?.textContent ?? ''));
    // The memory view on the stage (it shows one picture at a time).
    await lab.showStage('shared-memory');
    await page.getByTestId('shared-strip').waitFor();
    // The strip frames its subject and may leave words out (⋯): read each drawn word by its address.
    const drawn = new Map(
      await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid=shared-strip] g.word')].map((g) => [Number(g.getAttribute('data-addr')), g.querySelector('.word-value')?.textContent ?? ''] as [number, string]),
      ),
    );
    const printed = /\$ = (\S+)/.exec((await page.getByTestId('debug-log').textContent()) ?? '')?.[1];
    expect(drawn.has(3)).toBe(true);
    expect(printed).toBe(drawn.get(3));
    // The watch works while it is on screen: scrolled to, it shows the focused warp's words.
    await page.getByTestId('watch-expression').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=warp-watch] tbody tr').length === 32);
    const watch = await page.evaluate(() => [...document.querySelectorAll('[data-testid=warp-watch] tbody tr')].map((r) => r.getAttribute('data-value') ?? ''));
    expect(watch).toHaveLength(32);
    const shown = watch.map((_, lane) => lane).filter((lane) => drawn.has(lane));
    expect(shown.length).toBeGreaterThanOrEqual(8);
    expect(shown.map((lane) => watch[lane])).toEqual(shown.map((lane) => drawn.get(lane)));

    // The kernel's own loop counter, from the simulator's re-run to this step: one stop back from
    // the last level (s = 128 at 256 invocations) the tree adds words s = 64 apart, and
    // sdata[lid + s] in each lane is the memory view's word lid + 64.
    await page.getByTestId('watch-expression').fill('s');
    await page.getByTestId('watch-scope').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('watch-scope').textContent()).toMatch(/\bs\b/);
    const counters = await page.evaluate(() => [...document.querySelectorAll('[data-testid=warp-watch] tbody tr')].map((r) => r.getAttribute('data-value') ?? ''));
    expect(counters).toEqual(Array.from({ length: 32 }, () => '64'));
    await page.getByTestId('watch-expression').fill('sdata[lid + s]');
    await page.waitForFunction(() => document.querySelector('[data-testid=warp-watch] caption')?.textContent?.startsWith('sdata[lid + s]'));
    const shifted = await page.evaluate(() => [...document.querySelectorAll('[data-testid=warp-watch] tbody tr')].map((r) => r.getAttribute('data-value') ?? ''));
    // Each lane's sdata[lid + 64] against the word 64 further on, where the strip draws it.
    const far = shifted.map((_, lane) => lane).filter((lane) => drawn.has(lane + 64));
    expect(shifted.every((v) => v !== '')).toBe(true);
    expect(far.map((lane) => shifted[lane])).toEqual(far.map((lane) => drawn.get(lane + 64)));
  }, 180_000);

  // The watch's first expression comes from the kernel loaded: its own workgroup array, or, with
  // none (the histogram's grid-stride loop), its first per-lane variable; a value in every lane.
  it.each([
    ['reduce', 'sdata[lid]'],
    ['histogram', 'i'],
    ['matmul', 'tileA[lid]'],
  ] as const)('the warp watch opens on an expression of the %s kernel, with a value in every lane', async (id, expression) => {
    const { page } = await open(`/lab/${id}`);
    const lab = new EditorLab(page);
    await lab.ready();
    // The watch works while it is on screen: the learner scrolls to it under the listing.
    await page.getByTestId('watch-expression').scrollIntoViewIfNeeded();
    expect(await page.getByTestId('watch-expression').inputValue()).toBe(expression);
    await page.waitForFunction((e) => document.querySelector('[data-testid=warp-watch] caption')?.textContent?.startsWith(e), expression, { timeout: 60_000 });
    const cells = await page.evaluate(() => [...document.querySelectorAll('[data-testid=warp-watch] tbody tr')].map((r) => ({ value: r.getAttribute('data-value') ?? '', text: r.querySelector('td')?.textContent ?? '' })));
    expect(cells).toHaveLength(32);
    expect(cells.filter((c) => !/^-?\d/.test(c.value))).toEqual([]);
    expect(await page.getByTestId('watch-error').count()).toBe(0);
  }, 120_000);

  it('the editor and its panels are axe-clean, and the keyboard reaches and leaves the editor', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await lab.editor().focus();
    // Single-key shortcuts are off while typing in the editor, and Escape then Tab leaves it.
    const before = await lab.stepCounter();
    await page.keyboard.press('.');
    expect(await lab.stepCounter()).toBe(before);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=kernel-editor]') === null)).toBe(true);
    await page.keyboard.press('.');
    await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before);
  }, 120_000);

  it('the code pane works in projector mode: the editor text is at least 28 px and a run still checks', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256&mode=projector');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const sizes = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=editor-pane] .cm-line, [data-testid=editor-pane] .cm-gutterElement, [data-testid=editor-pane] button')]
        .filter((el) => (el as HTMLElement).offsetParent !== null && (el.textContent ?? '').trim() !== '')
        .map((el) => parseFloat(getComputedStyle(el).fontSize)),
    );
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(28);
    await lab.run();
    await page.waitForFunction(() => document.querySelector('[data-testid=check-sim]')?.getAttribute('data-ok') === 'yes', undefined, { timeout: 60_000 });
  }, 120_000);
});
