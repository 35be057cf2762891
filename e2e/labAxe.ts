import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Loads axe-core into the page. Evaluated by the test driver, not added as a <script>: the page's
 * CSP and Trusted Types rightly refuse inline scripts.
 */
export async function loadAxe(page: Page): Promise<void> {
  await page.evaluate(`${AXE_SOURCE}\n;0`);
}

/**
 * axe-core's serious and critical findings on a page, for the histogram and convolution lab e2e
 * files (the same rule as e2e/a11y.e2e.ts, which covers the shared pages).
 */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  await loadAxe(page);
  const violations = await page.evaluate(async () => {
    type Found = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Found[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** Walks a lesson from its first step to its last with the clicker keys, waiting for each simulation. */
export async function walkLesson(page: Page, total: number): Promise<void> {
  for (let n = 1; n < total; n++) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('PageDown');
    await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n + 1);
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
  }
}
