/**
 * 中文 beside English: `?lang=zh-CN` shows each page in Chinese with no English words left in what
 * a learner reads (stage, narration, controls, notices, labels), apart from code and identifiers;
 * `<html lang>` follows the choice; the header's switch works from the keyboard and is remembered;
 * the Chinese messages load only when asked for; axe is clean in both languages. The whole page is
 * held to the rule: the app's strings and each lab's and lesson's content (titles, variants,
 * parameters, notices, narration, questions, a lab's own panels) come from catalogs.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, openPage, useAppPage, useBrowser } from './browser.ts';
import { seriousAxeFindings } from './labAxe.ts';
import { goInApp, goToLab, LabPageObject } from './pages.ts';

const STAGE = '[data-testid=stage][data-ready=yes]';


/**
 * Names that read the same in a Chinese text: products, units, keys; the algorithms' and formats'
 * own names and terms a Chinese CUDA course keeps in English (Blelloch, roofline, co-rank,
 * wavefront, swizzle, up-sweep as a gloss); mathematical notation (log₂ n); and the code words the
 * texts name in prose (volatile, sizeof, partials, lid, the uniform address space). Data such as an
 * adapter's or a device's name is not listed here: the page marks it `translate="no"`.
 */
const NAMES = new Set([
  'GPU', 'CPU', 'WGSL', 'CUDA', 'WebGPU', 'Warpscope', 'cuda-gdb', 'GB', 'KiB', 'MiB', 'GiB', 'ms', 'Ctrl', 'Enter', 'Shift', 'Home', 'End', 'PageDown', 'PageUp', 'Escape', 'Esc',
  'Blelloch', 'Hillis', 'Steele', 'Tesla', 'roofline', 'Roofline', 'swizzle', 'co-rank', 'top-k', 'Top-k', 'wavefront', 'wavefronts',
  'up-sweep', 'down-sweep',
  'log',
  'volatile', 'sizeof', 'partials', 'lid', 'uniform',
]);

interface Leak {
  readonly text: string;
  readonly words: readonly string[];
  readonly where: string;
}

/**
 * Visible text (and the labels a screen reader reads: aria-label, title, placeholder,
 * aria-roledescription) outside code, with the English words in it. A word is English when it has
 * two or more Latin letters and is neither a name above nor an identifier: one with `_`, `.` or a
 * digit in it (`warp_execution_efficiency`, `load.shared`, `L0`), an acronym or constant in capitals
 * (`CSR`, `TILE`), a camelCase name (`atomicAdd`), any word the page's own code
 * contains (`sdata`, `lid`), or a quotation (“…”) of what someone typed. Elements marked
 * `translate="no"` hold data (an adapter's name) and are not read.
 */
async function englishLeft(page: Page): Promise<Leak[]> {
  return page.evaluate(
    ({ names }) => {
      // Code, and what stands for code: profiler metric identifiers, the console's commands, file names.
      const CODE = 'pre, code, kbd, var, samp, .cm-editor, textarea, script, style, noscript, .profiler-name, .file-name, [data-testid=debug-command]';
      const codeWords = new Set<string>();
      for (const el of document.querySelectorAll(CODE)) for (const w of el.textContent?.match(/[A-Za-z_]\w*/g) ?? []) codeWords.add(w);
      // Data the page marks as not to be translated (an adapter's name: “google · swiftshader”).
      const skip = (el: Element | null): boolean =>
        !el || el.closest(CODE) !== null || el.closest('[translate=no]') !== null || el.closest('[lang]')?.getAttribute('lang') === 'en';
      const visible = (el: Element): boolean => {
        if (el.closest('[hidden], details:not([open]) > :not(summary), dialog:not([open])')) return false;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none') return false;
        // Screen-reader-only text counts even though it has no size.
        return el.getClientRects().length > 0 || el.closest('.sr-only') !== null;
      };
      // Chunks of Latin text; one with `_ . / [ ]` or a digit in it is an identifier or a path.
      // Text in “quotes” quotes what someone typed or a name in the code (`Ignored mode “evil”`).
      const english = (text: string): string[] =>
        (text.replace(/“[^”]*”/g, ' ').match(/[A-Za-z0-9_./[\]'’-]*[A-Za-z][A-Za-z0-9_./[\]'’-]*/g) ?? []).filter(
          (w) =>
            w.replace(/[^A-Za-z]/g, '').length >= 2 &&
            !/[_./[\]\d]/.test(w) &&
            // An acronym or a constant (CSR, ELL, TILE) and a camelCase identifier (atomicAdd) are names.
            !/^[A-Z]{2,}$/.test(w) &&
            !/^[a-z]+[A-Z]\w*$/.test(w) &&
            !names.includes(w) &&
            !codeWords.has(w),
        );
      const where = (el: Element): string => {
        const tagged = el.closest('[data-testid]');
        return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} in ${tagged ? `[data-testid=${tagged.getAttribute('data-testid')}]` : 'page'}`;
      };
      const leaks: { text: string; words: string[]; where: string }[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (skip(el) || !visible(el!)) continue;
        const words = english(node.textContent ?? '');
        if (words.length > 0) leaks.push({ text: (node.textContent ?? '').trim().slice(0, 120), words, where: where(el!) });
      }
      for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [aria-roledescription]')) {
        if (skip(el) || !visible(el)) continue;
        for (const attr of ['aria-label', 'title', 'placeholder', 'aria-roledescription']) {
          const value = el.getAttribute(attr);
          const words = value ? english(value) : [];
          if (words.length > 0) leaks.push({ text: `${attr}="${value!.slice(0, 120)}"`, words, where: where(el) });
        }
      }
      const title = english(document.title);
      if (title.length > 0) leaks.push({ text: `<title>${document.title}`, words: title, where: 'head' });
      return leaks;
    },
    { names: [...NAMES] },
  );
}

/**
 * How a panel lays out: how wide its content is (its scroll width; the matrix grids set it, and the
 * stage scrolls sideways when they do not fit) and the boxes inside it whose own text runs past
 * their edge, outside the boxes that scroll or clip on purpose. Chinese may not make the panel wider than
 * English does, nor clip a text.
 */
async function layoutOf(page: Page, panel: string): Promise<{ width: number; overflowing: string[] }> {
  return page.evaluate((selector) => {
    const root = document.querySelector(selector);
    if (!root) return { width: 0, overflowing: [`no ${selector}`] };
    const overflowing: string[] = [];
    for (const el of root.querySelectorAll('*')) {
      const style = getComputedStyle(el);
      // Boxes that scroll, the chart (drawn at its own size) and screen-reader-only text (clipped on purpose) are left out.
      if (['auto', 'scroll'].includes(style.overflowX) || el.closest('svg, .sr-only') || el.clientWidth === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        const name = `${el.tagName.toLowerCase()}${el.getAttribute('class') ? `.${el.getAttribute('class')!.split(' ').join('.')}` : ''}`;
        overflowing.push(`${name}: ${el.scrollWidth} px of content in ${el.clientWidth} px: ${(el.textContent ?? '').trim().slice(0, 60)}`);
      }
    }
    return { width: root.scrollWidth, overflowing };
  }, panel);
}

/** Texts of the page's main part still in Chinese (after a switch to English, there should be none). */
async function chineseLeft(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((e) => [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && /[\u3400-\u9fff]/.test(n.textContent ?? '')))
      .map((e) => (e.textContent ?? '').trim().slice(0, 80)),
  );
}

/** Switches the language with the header's switch and waits for the page to follow. */
async function switchTo(page: Page, lang: string): Promise<void> {
  await page.getByTestId('language-switch').selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l && !document.querySelector('[data-testid=language-switch][aria-busy]'), lang);
}

const PAGES: readonly (readonly [string, string, string])[] = [
  ['the start page', '/', '[data-testid=home-hero]'],
  ['the lesson index', '/lessons', '[data-testid=lesson-index]'],
  ['a lab with its metrics open', '/lab/reduce?v=neighbored&step=200', STAGE],
  ['a lab’s tree', '/lab/reduce?v=interleaved&step=300', STAGE],
  ['a lesson step', '/lesson/reduction/3', STAGE],
  ['the help overlay', '/lab/scan?v=blelloch&step=700', STAGE],
  // Lab content from each lab's own catalog: its stage panel, variants, parameters and notices.
  ['the histogram lab’s packed counters', '/lab/histogram?v=packed', STAGE],
  ['the top-k radix select, with its semantics notice', '/lab/topk?v=radix&sem=distinct', STAGE],
  ['the merge lab’s streamed variant', '/lab/merge?v=stream', STAGE],
  ['a lesson’s question', '/lesson/reduction/4', STAGE],
];

describe('中文 / English', () => {
  const browser = useBrowser();
  // Most tests open their page inside one page (useAppPage) and switch it to Chinese with the
  // header's switch, as a learner does (an address's `?lang=` opened in the app: e2e/language.e2e.ts). Loading the
  // app at `?lang=zh-CN` is the test of every lab's and lesson's page below; the tests of the address's language (an English visit, an unknown one) load it too.
  const open = useAppPage(browser);

  it.each(PAGES)('%s in Chinese: no English left, html[lang] follows, axe clean', async (name, path, ready) => {
    const { page, errors } = await open(path);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
    // A lab's own notices (the top-k page's semantics notice) follow the switch too.
    await switchTo(page, 'zh-CN');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    if (name === 'a lab with its metrics open') await page.getByTestId('drawer-tab-metrics').click();
    if (name === 'a lab’s tree') await page.getByTestId('stage-tab-dataflow').click();
    if (name === 'the help overlay') {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('?');
      await page.getByTestId('help-overlay').waitFor();
    }
    // As text, so a failure names what was left in English and where. At once: the switch shows
    // Chinese only when every catalog on screen has it (e2e/language.e2e.ts holds the lessons back).
    expect(JSON.stringify(await englishLeft(page))).toBe('[]');
    // Links keep the language, so the next page opens in it too.
    const links = await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect(href).toContain('lang=zh-CN');
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  // In English, axe is clean on the same pages (the start page, the lesson index, a lab with its
  // metrics): e2e/a11y.e2e.ts runs the same rule on each, in English. `html[lang]` is `en` on an
  // English visit: the next test loads the app at `?lang=en`.

  it('an English visit is in English (html[lang] en) and downloads no Chinese; the switch loads it, works from the keyboard and is remembered', async () => {
    const { page, errors } = await openPage(browser(), '/?lang=en');
    const chinese: string[] = [];
    page.on('request', (r: Request) => {
      if (/zh-CN/.test(new URL(r.url()).pathname)) chinese.push(r.url());
    });
    await page.getByTestId('home-hero').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.waitForLoadState('networkidle');
    expect(chinese).toEqual([]);
    const heading = await page.locator('#home-title').textContent();

    // Keyboard only: Tab to the switch, then an arrow key picks 简体中文.
    const select = page.getByTestId('language-switch');
    for (let i = 0; i < 40 && !(await select.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await select.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    expect(chinese.length).toBeGreaterThan(0);
    const translated = await page.locator('#home-title').textContent();
    expect(translated).not.toBe(heading);
    expect(translated).toMatch(/[\u4e00-\u9fff]/);
    expect(new URL(page.url()).searchParams.get('lang')).toBe('zh-CN');

    // A later visit without ?lang= opens in the language chosen last.
    await page.goto(new URL('/lessons', page.url()).href);
    await page.getByTestId('lesson-index').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await page.locator('#lessons-title').textContent()).toMatch(/[\u4e00-\u9fff]/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('every lab’s first page and every step of every lesson are in Chinese', async () => {
    // The app loaded at `?lang=zh-CN`, as a link in Chinese opens it. One page for every lab and
    // lesson: each opens inside the app (as its back and forward buttons do), rather than loading
    // the app again; a lesson steps with Next.
    const { page, errors } = await openPage(browser(), '/lessons?lang=zh-CN');
    await page.locator('[data-testid=lesson-index] .lesson-list > li').first().waitFor({ timeout: 60_000 });
    const lessons = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=lesson-index] .lesson-list > li')].map((li) => li.getAttribute('data-testid')!.replace(/^lesson-/, '')),
    );
    const labs = await page.evaluate(() => [...new Set([...document.querySelectorAll('a[href^="/lab/"]')].map((a) => new URL(a.getAttribute('href')!, location.href).pathname))]);
    expect(lessons.length).toBeGreaterThan(5);
    expect(labs.length).toBeGreaterThan(5);
    const leaks: string[] = [];
    for (const lab of labs) {
      await goToLab(page, `${lab}?lang=zh-CN`, BASE_URL);
      await page.locator(STAGE).first().waitFor({ timeout: 60_000 });
      for (const l of await englishLeft(page)) leaks.push(`${lab}: ${l.words.join(' ')} (${l.where}: ${l.text})`);
    }
    for (const lesson of lessons) {
      await goInApp(page, `/lesson/${lesson}/1?lang=zh-CN`, BASE_URL);
      await page.locator(`[data-testid=lesson][data-lesson="${lesson}"][data-step="1"]`).waitFor({ timeout: 60_000 });
      for (let n = 1; n <= 40; n++) {
        await page.locator(STAGE).first().waitFor({ timeout: 60_000 });
        for (const l of await englishLeft(page)) leaks.push(`/lesson/${lesson}/${n}: ${l.words.join(' ')} (${l.where}: ${l.text})`);
        if (await page.getByTestId('lesson-next').isDisabled()) break;
        await page.getByTestId('lesson-next').click();
        await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n + 1);
      }
    }
    expect(errors).toEqual([]);
    await page.context().close();
    expect(leaks).toEqual([]);
  }, 900_000);

  it('a lesson runs in Chinese with its question graded: a wrong answer is explained in Chinese, the right one accepted', async () => {
    const { page, errors } = await open('/lesson/divergence/1');
    await page.locator(STAGE).first().waitFor({ timeout: 60_000 });
    await switchTo(page, 'zh-CN');
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid=check-answer]')?.disabled);
    await page.getByTestId('answer').fill('4');
    await page.getByTestId('check-answer').click();
    const verdict = page.getByTestId('verdict');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-ok')).toBe('no');
    expect(await verdict.textContent()).toMatch(/[\u4e00-\u9fff]/);
    expect(await englishLeft(page)).toEqual([]);
    await page.getByTestId('answer').fill('8');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-ok') === 'yes');
    expect(await verdict.textContent()).toMatch(/[\u4e00-\u9fff]/);
    expect(await englishLeft(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('the matrix-multiply lab in Chinese at 1440 × 900: a bank conflict, the whole dispatch’s counts and a measured roofline (in English too), with no English left, no text past its box and no panel wider than in English', async () => {
    const { page, errors } = await open('/lab/matmul?v=vec4-2d&m=64&n=64&k=32&step=0');
    await page.setViewportSize({ width: 1440, height: 900 });
    const lab = new LabPageObject(page);
    await lab.showStage('matmul-stage');
    await switchTo(page, 'zh-CN');
    await page.getByRole('button', { name: '下一个分块请求 ▶' }).click();
    await page.waitForFunction(() => /4 路存储体冲突/.test(document.querySelector('[data-testid=matmul-banks-sentence]')?.textContent ?? ''));
    await page.waitForFunction(() => /整个网格（\d+ 个线程块/.test(document.querySelector('[data-testid=matmul-whole]')?.textContent ?? ''), undefined, { timeout: 60_000 });
    expect(await englishLeft(page)).toEqual([]);
    const stageZh = await layoutOf(page, '[data-testid=matmul-stage]');
    expect(stageZh.overflowing).toEqual([]);
    // The stage takes the width its contents ask for, up to the room its tab gives it: the Chinese
    // stage may be wider than the English one only inside that room, never past it.
    const room = await page.evaluate(() => document.querySelector('[data-testid=matmul-stage]')?.closest('[role=tabpanel]')?.clientWidth ?? 0);
    expect(room).toBeGreaterThan(0);
    await switchTo(page, 'en');
    await page.waitForFunction(() => /4-way bank conflict/.test(document.querySelector('[data-testid=matmul-banks-sentence]')?.textContent ?? ''));
    expect(stageZh.width).toBeLessThanOrEqual(Math.max(room, (await layoutOf(page, '[data-testid=matmul-stage]')).width));
    await switchTo(page, 'zh-CN');

    await lab.showStage('matmul-roofline');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=matmul-roofline-table] tbody tr').length === 7, undefined, { timeout: 60_000 });
    await page.getByTestId('matmul-roofline-size').selectOption('128');
    await page.getByTestId('matmul-roofline-measure').click();
    await page.getByTestId('matmul-roofline-device').waitFor({ timeout: 240_000 });
    expect(await page.getByTestId('matmul-roofline-device').textContent()).toMatch(/FMA 峰值 [\d.]+ GFLOP\/s，读取带宽 [\d.]+ GB\/s/);
    expect(await englishLeft(page)).toEqual([]);
    const roofZh = await layoutOf(page, '[data-testid=matmul-roofline]');
    expect(roofZh.overflowing).toEqual([]);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await switchTo(page, 'en');
    expect(roofZh.width).toBeLessThanOrEqual((await layoutOf(page, '[data-testid=matmul-roofline]')).width);
    // The same measurement in English (measured once, here, for both languages; the matrix-multiply
    // lab's own file, e2e/matmul-lab.e2e.ts, places the variants on the roofline unmeasured): the
    // device's figures, every variant's measured rate, axe clean.
    expect(await page.getByTestId('matmul-roofline-device').textContent()).toMatch(/FMA peak [\d.]+ GFLOP\/s, read bandwidth [\d.]+ GB\/s/);
    const measuredCells = await page.locator('[data-testid=matmul-roofline-table] tbody tr td:nth-child(4)').allTextContents();
    expect(measuredCells.filter((t) => /\d/.test(t))).toHaveLength(7);
    // Nothing drawn in Chinese stays Chinese after the switch: the roofline's variant names, the
    // watch's messages and every other text of the page follow the language.
    expect(await chineseLeft(page)).toEqual([]);
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 300_000);

  it('a language the app does not speak is a notice, in the language it falls back to', async () => {
    const { page, errors } = await openPage(browser(), '/lessons?lang=xx');
    await page.getByTestId('notices').waitFor();
    expect(await page.getByTestId('notices').textContent()).toContain('lang=zh-CN');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
