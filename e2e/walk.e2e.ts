import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useBrowser, watchErrors } from './browser.ts';
import { goInApp } from './pages.ts';
import { overlappingStageLabels } from './stageLabels.ts';

/**
 * The walk (issue #24's Done-when): every lesson step and every lab's opening moment, at 1440×900,
 * at 1280×720, in projector mode at 1920×1080, and in Chinese at 1440×900. For each screen:
 * - the stage marks what the step is about: at least one `[data-subject]` where the step names a
 *   subject (a lesson step with "Look at …", every lab's opening moment); where the "Look at" names
 *   a part of the picture (`data-part`: the merge table's global loads), every mark is that part, so
 *   the camera frames what the narration names and not another part of the picture;
 * - the stage's labels (its SVG text, inside the frame) lie over none of each other, in every picture;
 * - every `[data-subject]` box lies inside the viewport and is not clipped by any ancestor that
 *   scrolls or hides its overflow (an `<svg>` included);
 * - its text is at least 12 px (28 px in projector mode), as drawn (zoom and viewBox scaling counted),
 *   and the warp grid's lane cells at least 3/5 of that;
 * - the narration, the question's answer box and the Next button are wholly visible, and nothing is
 *   drawn over the narration or the answer box; the stage's "more" pills cover none of its text;
 * - the code pane shows the current line uncut.
 * With WALK_VARIANTS=1, at 1440×900 and in projector mode every variant of every lab opens too,
 * opened inside the app (no reload); without it the walk is exactly the issue's (each lab's default variant). One browser, one page per walk, lessons stepped with Next (no reloads). Every screen is written
 * to test-results/screens/walk-<size>-<page>.png. All failures are gathered and listed at the end.
 */
const SCREENS = 'test-results/screens';
mkdirSync(SCREENS, { recursive: true });

const LABS = ['basics', 'divergence', 'reduce', 'scan', 'rowsum', 'histogram', 'convolution', 'merge', 'topk', 'matmul', 'spmv'];

interface Walk {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly query: string;
  readonly minText: number;
  /** Whether every variant of every lab is opened too (with WALK_VARIANTS=1), not only the default one. */
  readonly variants: boolean;
}

const WALKS: readonly Walk[] = [
  { name: '1440', width: 1440, height: 900, query: '', minText: 12, variants: true },
  { name: '1280', width: 1280, height: 720, query: '', minText: 12, variants: false },
  { name: 'projector', width: 1920, height: 1080, query: 'mode=projector', minText: 28, variants: true },
  { name: 'zh-1440', width: 1440, height: 900, query: 'lang=zh-CN', minText: 12, variants: false },
];

/** What one screen shows, measured in the page. */
function inspect(page: Page, minText: number) {
  return page.evaluate((minText) => {
    const problems: string[] = [];
    const vw = innerWidth;
    const vh = innerHeight;
    const r0 = (r: DOMRect) => `${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.getAttribute('data-subject') ? `[${el.getAttribute('data-subject')}]` : ''}${el.getAttribute('data-testid') ? `#${el.getAttribute('data-testid')}` : ''}${el.textContent ? ` “${el.textContent.trim().slice(0, 24)}”` : ''}`;
    /** Where a box is cut: by the viewport, or by an ancestor that scrolls or hides its overflow. */
    const cutBy = (box: DOMRect, el: Element): string | undefined => {
      if (box.left < -0.5 || box.top < -0.5 || box.right > vw + 0.5 || box.bottom > vh + 0.5) return `the viewport (${r0(box)})`;
      for (let a = el.parentElement ?? (el.parentNode as Element | null); a && a !== document.documentElement; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        // The padding box: the border does not clip.
        const left = c.left + a.clientLeft;
        const top = c.top + a.clientTop;
        const right = a instanceof SVGSVGElement ? c.right : left + a.clientWidth;
        const bottom = a instanceof SVGSVGElement ? c.bottom : top + a.clientHeight;
        const clipsX = cs.overflowX !== 'visible';
        const clipsY = cs.overflowY !== 'visible';
        if ((clipsX && (box.left < left - 0.5 || box.right > right + 0.5)) || (clipsY && (box.top < top - 0.5 || box.bottom > bottom + 0.5))) {
          return `${a.tagName.toLowerCase()}.${(a.getAttribute('class') ?? '').split(' ')[0]} (${r0(box)} outside ${Math.round(left)},${Math.round(top)}–${Math.round(right)},${Math.round(bottom)})`;
        }
      }
      return undefined;
    };
    /** The drawn size of text: SVG text scaled by its viewBox and zoom, HTML text by its zoom. */
    const textPx = (el: Element): number => {
      const fs = Number.parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGGraphicsElement) {
        const bb = el.getBBox();
        const rect = el.getBoundingClientRect();
        return bb.height > 0 ? fs * (rect.height / bb.height) : fs;
      }
      return fs * ((el as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1);
    };
    const stage = document.querySelector('[data-testid=stage]');
    const subjects = stage ? [...stage.querySelectorAll('[data-subject]')] : [];
    for (const s of subjects) {
      const box = s.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const cut = cutBy(box, s);
      if (cut) problems.push(`subject ${name(s)} is cut by ${cut}`);
      const texts = [s, ...s.querySelectorAll('*')].filter((e) => [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '') && e.tagName.toLowerCase() !== 'title');
      for (const t of texts) {
        const px = textPx(t);
        if (px < minText - 0.25) problems.push(`subject text ${name(t)} is ${px.toFixed(1)} px (at least ${minText})`);
      }
    }
    const whole = (sel: string, what: string) => {
      const el = document.querySelector(sel);
      if (!el) return;
      const cut = cutBy(el.getBoundingClientRect(), el);
      if (cut) problems.push(`${what} is cut by ${cut}`);
    };
    whole('[data-testid=narrative]', 'the narration');
    const narration = document.querySelector('[data-testid=narrative]');
    if (narration && narration.scrollHeight > narration.clientHeight + 1) problems.push(`the narration needs ${narration.scrollHeight - narration.clientHeight} px more than its room (it scrolls)`);
    whole('[data-testid=answer]', 'the answer box');
    whole('[data-testid=lesson-next]', 'the Next button');
    // The code pane's current line: the text of the line, whole, inside every clipping ancestor.
    const line = document.querySelector('.code-line.current code, .cm-current-step');
    if (line) {
      const range = document.createRange();
      range.selectNodeContents(line);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const box = rects.reduce<DOMRect | undefined>((acc, r) => (acc ? new DOMRect(Math.min(acc.left, r.left), Math.min(acc.top, r.top), Math.max(acc.right, r.right) - Math.min(acc.left, r.left), Math.max(acc.bottom, r.bottom) - Math.min(acc.top, r.top)) : r), undefined);
      const cut = box && cutBy(box, line);
      if (cut) problems.push(`the current code line “${(line.textContent ?? '').trim().slice(0, 40)}” is cut by ${cut}`);
    }
    // Nothing lies over what the learner reads. The stage's "more" pills cover no text of the stage
    // (its captions, legends, labels and the subject); the narration and the question's answer box
    // are the topmost thing at every one of their text lines (no sticky box drawn over them).
    const textRects = (root: Element): { rect: DOMRect; text: string; el: Element }[] => {
      const out: { rect: DOMRect; text: string; el: Element }[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = (n.textContent ?? '').trim();
        if (text === '' || n.parentElement?.closest('.stage-more, title, .sr-only')) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const rect of range.getClientRects()) if (rect.width > 0 && rect.height > 0) out.push({ rect, text, el: n.parentElement! });
      }
      return out;
    };
    const meet = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const body = stage?.querySelector('[data-testid=stage-body]');
    const frame = body?.getBoundingClientRect();
    for (const pill of stage ? [...stage.querySelectorAll('.stage-more')] : []) {
      const p = pill.getBoundingClientRect();
      if (p.width === 0 || !body || !frame) continue;
      // Only text inside the frame can be covered: text scrolled out of it is not drawn.
      const seen = (r: DOMRect) => new DOMRect(Math.max(r.left, frame.left), Math.max(r.top, frame.top), Math.min(r.right, frame.right) - Math.max(r.left, frame.left), Math.min(r.bottom, frame.bottom) - Math.max(r.top, frame.top));
      const under = textRects(body).find(({ rect }) => meet(rect, frame) && meet(seen(rect), p));
      if (under) problems.push(`the stage's “${(pill.textContent ?? '').trim()}” pill (${r0(p)}) covers the text “${under.text.slice(0, 30)}” (${r0(under.rect)})`);
    }
    for (const [sel, what] of [['[data-testid=narrative]', 'the narration'], ['[data-testid=answer]', 'the answer box']] as const) {
      const el = document.querySelector(sel);
      if (!el) continue;
      const rects = el instanceof HTMLInputElement ? [el.getBoundingClientRect()] : textRects(el).map((t) => t.rect);
      for (const rect of rects) {
        const x = rect.left + Math.min(4, rect.width / 2);
        const y = rect.top + rect.height / 2;
        if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
        const top = document.elementFromPoint(x, y);
        if (top && top !== el && !el.contains(top)) {
          problems.push(`${what} is covered by ${name(top)} at ${Math.round(x)},${Math.round(y)}`);
          break;
        }
      }
    }
    // The warp grid's lane cells grow with its labels: a cell at least 3/5 of the labels' size
    // (17 px beside a projector's 28 px), not a speck beside them.
    const cell = stage?.querySelector('[data-testid=lane-grid] rect.lane, [data-testid=lane-grid] .lane > rect');
    const cellPx = cell?.getBoundingClientRect().height ?? 0;
    if (cell && cellPx < 0.6 * minText - 0.25) problems.push(`the warp grid's lane cells are ${cellPx.toFixed(1)} px beside labels of ${minText} px (at least ${(0.6 * minText).toFixed(1)})`);
    // Every text of the stage's pictures, not only the subject's: drawn whole inside its picture
    // (a note past an SVG's edge is cut), and at least the smallest readable size where the frame
    // shows it (a matrix's digits on the projector); the frame opens unscrolled or scrolled by at
    // least a line (a few px of scroll cut the top line for nothing).
    if (body && frame) {
      for (const { rect, text, el } of textRects(body)) {
        if (!meet(rect, frame)) continue;
        const svg = el.closest('svg');
        if (svg) {
          const edge = svg.getBoundingClientRect();
          if (rect.left < edge.left - 0.5 || rect.right > edge.right + 0.5 || rect.top < edge.top - 0.5 || rect.bottom > edge.bottom + 0.5) problems.push(`the stage's text “${text.slice(0, 30)}” (${r0(rect)}) is cut by its picture's edge (${r0(edge)})`);
        }
        const px = textPx(el);
        if (px < minText - 0.25) problems.push(`the stage's text “${text.slice(0, 30)}” is ${px.toFixed(1)} px (at least ${minText})`);
      }
      const scrolled = (body as HTMLElement).scrollTop;
      if (scrolled > 0.5 && scrolled < minText) problems.push(`the stage opens scrolled by ${scrolled.toFixed(1)} px`);
    }
    const namesSubject = document.querySelector('[data-testid=narrative] .look-at') !== null || document.querySelector('[data-testid=lesson]') === null;
    if (namesSubject && subjects.length === 0) problems.push('the step names a subject but nothing on the stage carries data-subject');
    const part = document.querySelector('[data-testid=narrative] .look-at')?.getAttribute('data-part');
    if (part) {
      const other = subjects.find((s) => s.getAttribute('data-subject') !== part);
      if (other) problems.push(`the narration names the picture's “${part}”, but the stage marks ${name(other)}`);
      if (!subjects.some((s) => s.getAttribute('data-subject') === part)) problems.push(`the narration names the picture's “${part}”, and nothing on the stage is marked so`);
    }
    return { problems, subjects: subjects.length };
  }, minText);
}

async function settled(page: Page): Promise<void> {
  await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 90_000 });
  // Two frames: the panels measure and frame, then the camera pans (at once: reduced motion).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))))));
}

describe('the walk: every lesson step and every lab frames its subject', () => {
  const browser = useBrowser();

  // Every screen of all four walks passed on 2026-11-27 (walk branch, labels over labels failing
  // too). It takes about twelve minutes on this machine, so `npm test` does not run it: WALK=all
  // walks all four sizes, WALK=1440,projector only those (zh: the Chinese walk). WALK_VARIANTS=1
  // opens every other variant of every lab too, at 1440×900 and in projector mode.
  const only = process.env.WALK?.split(',');
  // WALK_PAGES=matmul,histogram walks only those lessons and labs (while working on them);
  // lab:matmul only the lab, lesson:matmul only the lesson, labs or lessons all of one kind;
  // spmv/sell (beside lab:spmv) only that variant of the lab's others.
  const pages = process.env.WALK_PAGES?.split(',');
  const wanted = (id: string, kind: 'lab' | 'lesson') => !pages || pages.includes(id) || pages.includes(`${kind}:${id}`) || pages.includes(`${kind}s`);
  const walks = only ? WALKS.filter((w) => only.includes('all') || only.includes(w.name) || only.includes(w.name.split('-')[0]!)) : [];
  if (walks.length === 0) it.skip('set WALK=all (or WALK=1440,1280,projector,zh) to walk every step', () => undefined);
  it.each(walks)('$name', async (walk) => {
    const context = await browser().newContext({ viewport: { width: walk.width, height: walk.height }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors: string[] = [];
    await watchErrors(page, errors);
    // The walk's own query (the mode, the language) joined to a path's.
    const url = (path: string) => {
      const u = new URL(path, BASE_URL);
      for (const [k, v] of new URLSearchParams(walk.query)) u.searchParams.set(k, v);
      return u.href;
    };
    const failures: string[] = [];
    let screens = 0;
    const check = async (where: string, file: string) => {
      // A screen that never gets ready (a simulation too slow on a loaded machine) is one failure
      // in the list, not the end of the walk.
      const ready = await settled(page).then(
        () => true,
        (e: unknown) => {
          failures.push(`${where}: the stage was not ready (${String(e).split('\n')[0]})`);
          return false;
        },
      );
      if (!ready) return;
      const { problems } = await inspect(page, walk.minText);
      // Labels over labels, in every picture of the stage.
      for (const o of await overlappingStageLabels(page)) problems.push(`the stage's label ${o}`);
      await page.screenshot({ path: `${SCREENS}/walk-${walk.name}-${file}.png` });
      screens++;
      for (const p of problems) failures.push(`${where}: ${p}`);
    };

    await page.goto(url('/lessons'));
    await page.locator('[data-testid=lesson-index] .lesson-list > li').first().waitFor({ timeout: 60_000 });
    const lessons = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=lesson-index] .lesson-list > li')].map((li) => ({
        id: li.getAttribute('data-testid')!.replace(/^lesson-/, ''),
        steps: Number(/(\d+)/.exec(li.querySelector('[data-testid=lesson-progress]')!.textContent ?? '')?.[1]),
      })),
    );
    expect(lessons.length).toBeGreaterThan(5);
    const walked = lessons.filter((l) => wanted(l.id, 'lesson'));
    for (const lesson of walked) {
      await page.goto(url(`/lesson/${lesson.id}/1`));
      for (let n = 1; n <= lesson.steps; n++) {
        if (n > 1) {
          await page.getByTestId('lesson-next').click();
          await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n);
        }
        await check(`/lesson/${lesson.id}/${n} (${walk.name})`, `lesson-${lesson.id}-${n}`);
      }
    }
    const labs = LABS.filter((id) => wanted(id, 'lab'));
    let variants = 0;
    for (const lab of labs) {
      await page.goto(url(`/lab/${lab}`));
      await check(`/lab/${lab} (${walk.name})`, `lab-${lab}`);
      if (!walk.variants || process.env.WALK_VARIANTS !== '1') continue;
      // Every other variant, opened inside the app (no reload) by its address, as a link to it opens
      // it: from the lesson index, so the lab page opens anew, at the variant's opening moment
      // (picked in the menu, a variant starts at its first step), framed as the default one is.
      const ids = await page.getByTestId('variant-select').evaluate((el) => [...(el as HTMLSelectElement).options].map((o) => o.value).filter((v) => v !== (el as HTMLSelectElement).value));
      for (const id of ids.filter((v) => !pages || !pages.some((p) => p.startsWith(`${lab}/`)) || pages.includes(`${lab}/${v}`))) {
        await goInApp(page, url('/lessons'), BASE_URL);
        await page.waitForFunction(() => !document.querySelector('[data-testid=lab]'));
        await goInApp(page, url(`/lab/${lab}?v=${id}`), BASE_URL);
        await page.waitForFunction((v) => document.querySelector('[data-testid=lab]')?.getAttribute('data-variant') === v, id);
        variants++;
        await check(`/lab/${lab}?v=${id} (${walk.name})`, `lab-${lab}-${id}`);
      }
    }
    console.log(`[walk] ${walk.name}: ${screens} screens, ${failures.length} failures\n${failures.join('\n')}`);
    expect(screens + failures.filter((f) => f.includes('was not ready')).length).toBe(walked.reduce((s, l) => s + l.steps, 0) + labs.length + variants);
    expect(failures).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 1_500_000);
});
