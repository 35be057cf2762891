import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useAppPage, useBrowser } from './browser.ts';
import { goInApp } from './pages.ts';

/**
 * Lesson steps the walk (e2e/walk.e2e.ts) found not framing what they name, each checked at the
 * size where it failed, as the learner sees it:
 * - narrations too long for the side column (they scrolled inside themselves, under the question):
 *   each now reads whole, with nothing over it, at 1440×900, 1280×720 and in projector mode;
 * - the longest narrations (LONGEST) fit their column whole beside the question and Next, at
 *   1440×900 and 1280×720;
 * - histogram step 4 at 1280×720: the seven bins (the lanes queued on each, the step's subject)
 *   fit the stage together;
 * - histogram step 6 at 1280×720: the stage does not pan sideways to its subject, cutting the bins
 *   table's first column; everything of the stage fits its width.
 * One page for every test and size (useAppPage): the app is loaded once, each test opens the lesson
 * index at its size as a first visit shows it, and each step is opened inside the app as its back
 * and forward buttons do (e2e/pages.ts `goInApp`), so the app is not parsed and its GPU device not
 * created again for each step or size.
 */

interface Size {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly query: string;
}

const SIZES: readonly Size[] = [
  { name: '1440×900', width: 1440, height: 900, query: '' },
  { name: '1280×720', width: 1280, height: 720, query: '' },
  { name: 'projector', width: 1920, height: 1080, query: '?mode=projector' },
];

/** The steps whose narrations were shortened (lesson/step). */
const SHORTENED = [
  'divergence/5',
  'reduction/7',
  'rowsum/5',
  'histogram/1',
  'histogram/6',
  'convolution/6',
  'matmul/7',
  'matmul/8',
  'spmv/3',
  'spmv/5',
  'spmv/6',
  'spmv/7',
  'spmv/8',
  'spmv/9',
  'merge/1',
  'merge/2',
  'merge/7',
  'topk/1',
  'topk/2',
  'topk/6',
];

/**
 * The longest narrations, where they were longest for the room: each fits its column whole beside
 * the question's answer box and the Next button, at text of 12 px or more (size name → steps).
 */
const LONGEST: Readonly<Record<string, readonly string[]>> = {
  '1440×900': ['spmv/6', 'matmul/7'],
  '1280×720': ['merge/7', 'spmv/7'],
};

/** Opens a lesson step in the page (of `size`) and waits until its stage has settled. */
async function openStep(page: Page, path: string, size: Size): Promise<void> {
  await goInApp(page, `/lesson/${path}${size.query}`, BASE_URL);
  const [lesson, step] = path.split('/');
  await page.locator(`[data-testid=lesson][data-lesson="${lesson}"][data-step="${step}"]`).waitFor({ timeout: 90_000 });
  await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 90_000 });
  // The panels measure and frame, then the camera pans (at once: reduced motion).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))))));
}

/** What keeps the narration from being read whole: it scrolls inside itself, or something lies over a line of it. */
const narrationProblems = (page: Page) =>
  page.evaluate(() => {
    const narration = document.querySelector('[data-testid=narrative]');
    if (!narration) return ['no narration'];
    const found: string[] = [];
    if (narration.scrollHeight > narration.clientHeight + 1) found.push(`it needs ${narration.scrollHeight - narration.clientHeight} px more than its room`);
    const range = document.createRange();
    range.selectNodeContents(narration);
    for (const r of range.getClientRects()) {
      if (r.width === 0) continue;
      const x = r.left + Math.min(4, r.width / 2);
      const y = r.top + r.height / 2;
      const top = document.elementFromPoint(x, y);
      if (!top || !narration.contains(top)) {
        found.push(`${top ? top.tagName.toLowerCase() : 'nothing'} lies over its line at y=${Math.round(y)}`);
        break;
      }
    }
    return found;
  });

/** Whether the narration, the answer box and Next lie whole in the side column, and the narration's text size. */
const beside = (page: Page) =>
  page.evaluate(() => {
    const whole = (sel: string) => {
      const r = document.querySelector(sel)!.getBoundingClientRect();
      const side = document.querySelector('[data-testid=side]')!.getBoundingClientRect();
      return r.height > 0 && r.top >= Math.max(0, side.top) - 0.5 && r.bottom <= Math.min(innerHeight, side.bottom) + 0.5;
    };
    const narration = document.querySelector('[data-testid=narrative]')!;
    return { scrolls: Math.max(0, narration.scrollHeight - narration.clientHeight - 1), narration: whole('[data-testid=narrative]'), answer: whole('[data-testid=answer]'), next: whole('[data-testid=lesson-next]'), px: parseFloat(getComputedStyle(narration).fontSize) };
  });

/** Subjects of the stage cut by its frame, and how far the stage's content is wider than the frame. */
const stageFraming = (page: Page) =>
  page.evaluate(() => {
    const body = document.querySelector('[data-testid=stage-body]')!;
    const f = body.getBoundingClientRect();
    const cut = [...body.querySelectorAll('[data-subject]')]
      .map((s) => ({ s, r: s.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.left < f.left - 0.5 || r.top < f.top - 0.5 || r.right > f.left + body.clientWidth + 0.5 || r.bottom > f.top + body.clientHeight + 0.5))
      .map(({ s, r }) => `${(s.textContent ?? '').trim().slice(0, 20)} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
    return { cut, overflowX: body.scrollWidth - body.clientWidth, scrollLeft: body.scrollLeft, subjects: body.querySelectorAll('[data-subject]').length };
  });

describe('lesson steps frame what they name', () => {
  const browser = useBrowser();
  const open = useAppPage(browser);

  it.each(SIZES)('$name: each shortened narration reads whole, nothing over it; the longest fit beside the question and Next', async (size) => {
    const { page, errors } = await open('/lessons', { width: size.width, height: size.height, reducedMotion: 'reduce' });
    const failures: string[] = [];
    for (const step of SHORTENED) {
      await openStep(page, step, size);
      for (const p of await narrationProblems(page)) failures.push(`${step}: ${p}`);
      if (LONGEST[size.name]?.includes(step)) {
        await page.getByTestId('answer').waitFor();
        const seen = await beside(page);
        expect(seen, `${step} at ${size.name}`).toEqual({ scrolls: 0, narration: true, answer: true, next: true, px: seen.px });
        expect(seen.px).toBeGreaterThanOrEqual(12);
      }
    }
    expect(failures).toEqual([]);
    expect(errors).toEqual([]);
  }, 600_000);

  it('1280×720: histogram step 4 shows all seven bins with their queues, step 6 its first column', async () => {
    const size = SIZES[1]!;
    const { page, errors } = await open('/lessons', { width: size.width, height: size.height, reducedMotion: 'reduce' });

    await openStep(page, 'histogram/4', size);
    const four = await stageFraming(page);
    expect(four.subjects).toBe(7);
    expect(four.cut).toEqual([]);
    expect(four.overflowX).toBeLessThanOrEqual(1);

    await openStep(page, 'histogram/6', size);
    const six = await stageFraming(page);
    expect(six.subjects).toBeGreaterThan(0);
    expect(six.cut).toEqual([]);
    // Nothing of the stage lies beyond its width: the camera has no reason to pan sideways.
    expect(six.overflowX).toBeLessThanOrEqual(1);
    expect(six.scrollLeft).toBe(0);
    // The bins table's first column is in the frame, whole.
    const firstColumn = await page.evaluate(() => {
      const body = document.querySelector('[data-testid=stage-body]')!.getBoundingClientRect();
      const th = document.querySelector('[data-testid=histogram-bins] tbody th')!.getBoundingClientRect();
      return th.left >= body.left - 0.5 && th.right <= body.right + 0.5;
    });
    expect(firstColumn).toBe(true);
    expect(errors).toEqual([]);
  }, 300_000);
});
