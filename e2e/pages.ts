import type { Page } from 'playwright-core';

/**
 * The smallest rendered font size of any visible text on the page, in CSS pixels: HTML text from
 * its computed style; SVG text scaled by its screen transform (a viewBox can shrink it).
 */
export function smallestVisibleText(page: Page): Promise<{ px: number; sample: string }> {
  return page.evaluate(() => {
    let best = { px: Infinity, sample: '' };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const el = node.parentNode instanceof Element ? node.parentNode : null;
      if (!text || !el) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
      const rects = el.getClientRects();
      if (rects.length === 0) continue; // not rendered (an ancestor is display: none)
      const r = rects[0]!;
      if (r.width === 0 || r.height === 0) continue;
      if (el.closest('.sr-only')) continue; // for screen readers, not drawn
      let px = parseFloat(style.fontSize);
      if (el instanceof SVGGraphicsElement) px *= el.getScreenCTM()?.a ?? 1;
      if (px < best.px) best = { px, sample: text.slice(0, 40) };
    }
    return best;
  });
}

/**
 * How many texts the stage's picture shows (drawn as SVG text or as HTML: a table, a strip), its
 * buttons and screen-reader-only text left out: in projector mode the picture is scaled, not
 * stripped of its labels.
 */
export function stageLabels(page: Page): Promise<number> {
  return page.evaluate(() => {
    const body = document.querySelector('[data-testid=stage-body]')!;
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    let n = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !(node.textContent ?? '').trim() || el.closest('.sr-only, button')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) n++;
    }
    return n;
  });
}

/**
 * Goes to `path` in the app already open in `page` as its back and forward buttons do (the app
 * re-reads the location on `popstate`), instead of loading the app again: a reload parses and
 * compiles the app's code and creates its WebGPU device anew, which costs seconds of CPU on a
 * machine without a GPU. The page then shows what it shows when opened at `path`. A page not yet
 * at the app's origin loads `path` (`base` resolves it).
 */
export async function goInApp(page: Page, path: string, base: string): Promise<void> {
  const url = new URL(path, base);
  if (new URL(page.url()).origin !== url.origin) {
    await page.goto(url.href);
    return;
  }
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, `${url.pathname}${url.search}${url.hash}`);
}

/**
 * Opens another lab's page inside the app (`goInApp`) and waits until it is up: its title has
 * replaced the last one's (the lab page is mounted anew for each lab, so what the stage shows from
 * then on is the new lab's).
 */
export async function goToLab(page: Page, path: string, base: string): Promise<void> {
  const last = page.url() === 'about:blank' ? '' : await page.evaluate(() => document.querySelector('#lab-title')?.textContent ?? '');
  await goInApp(page, path, base);
  await page.waitForFunction((before) => (document.querySelector('#lab-title')?.textContent ?? before) !== before, last, { timeout: 60_000 });
}

/** How many characters a row of the lab editor's listing shows (beside its gutters), and its text size. */
export function editorColumns(page: Page): Promise<{ columns: number; fontSize: number }> {
  return page.evaluate(() => {
    const content = document.querySelector<HTMLElement>('[data-testid=kernel-editor]')!;
    const scroller = content.closest<HTMLElement>('.cm-scroller')!;
    const gutters = scroller.querySelector('.cm-gutters')?.getBoundingClientRect().width ?? 0;
    const probe = document.createElement('span');
    probe.textContent = 'x'.repeat(100);
    probe.style.font = getComputedStyle(content).font;
    probe.style.position = 'absolute';
    document.body.append(probe);
    const charWidth = probe.getBoundingClientRect().width / 100;
    probe.remove();
    return { columns: Math.floor((scroller.clientWidth - gutters) / charWidth), fontSize: parseFloat(getComputedStyle(content).fontSize) };
  });
}

/**
 * Page object for any lab page: the timeline driven by keyboard as a person would, waiting until
 * each step is on screen before anything is read (reading too early sees the previous step).
 */
export class LabPageObject {
  constructor(readonly page: Page) {}

  /** Waits for the first simulated view on the stage. */
  async ready(): Promise<void> {
    await this.page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
  }

  /** Puts a panel on the stage by its tab (`warp-grid`, `shared-memory`, `dataflow` or a lab panel's id). */
  async showStage(id: string): Promise<void> {
    await this.ready();
    await this.page.getByTestId(`stage-tab-${id}`).click();
    await this.page.locator(`[data-testid=stage][data-panel="${id}"]`).waitFor();
  }

  /** Opens a drawer tab (`metrics`, `timings`, `compare`) unless it is open. */
  async openDrawer(tab: string): Promise<void> {
    const button = this.page.getByTestId(`drawer-tab-${tab}`);
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  }

  async stepCounter(): Promise<string> {
    return (await this.page.getByTestId('step-counter').textContent()) ?? '';
  }

  /** Presses a timeline key `times` times, each time waiting for the step counter to move. */
  async press(key: string, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) {
      const before = await this.stepCounter();
      await this.page.keyboard.press(key);
      await this.page
        .waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before, { timeout: 8000 })
        .catch(() => undefined); // a key with nowhere to go (end of trace) leaves the step as it was
    }
  }

  /**
   * Moves the cursor of the code editor `editorTestId` to its first line holding `text`, by the
   * keyboard (CodeMirror draws only the lines in view, and scrolls the cursor's into it).
   */
  async cursorIn(editorTestId: string, text: string): Promise<void> {
    await this.page.getByTestId(editorTestId).focus();
    await this.page.keyboard.press('Control+Home');
    const cursorLine = () =>
      this.page.evaluate(() => {
        const n = getSelection()?.anchorNode;
        const el = n instanceof Element ? n : n?.parentElement;
        return el?.closest('.cm-line')?.textContent ?? '';
      });
    for (let k = 0; k < 200 && !(await cursorLine()).includes(text); k++) await this.page.keyboard.press('ArrowDown');
  }

  /**
   * Replaces the whole text of the code editor `editorTestId` as a person would (select all, type).
   * Focus, not a click at the editor's centre: on a short viewport other panels may cover it.
   */
  async replaceIn(editorTestId: string, text: string): Promise<void> {
    await this.page.getByTestId(editorTestId).focus();
    await this.page.keyboard.press('Control+a');
    await this.page.keyboard.insertText(text);
  }

  /** Runs the kernel of the code editor `editorTestId` on both executors (Ctrl+Enter in it). */
  async runIn(editorTestId: string): Promise<void> {
    await this.page.getByTestId(editorTestId).focus();
    await this.page.keyboard.press('Control+Enter');
  }

  /** Takes the focus off any field, so the shortcuts apply. */
  async blur(): Promise<void> {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  }
}
