import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useAppPage, useBrowser } from './browser.ts';
import { goToLab } from './pages.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated by the test driver, not added as a <script>: the page's CSP (and Trusted Types)
  // rightly refuse inline scripts.
  await page.evaluate(`${AXE_SOURCE}\n;0`);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

describe('accessibility (axe-core): no serious or critical violation', () => {
  const browser = useBrowser();
  // The pages below open inside one page, each mounted anew (useAppPage), not by loading the app again.
  const open = useAppPage(browser);

  const STAGE = '[data-testid=stage][data-ready=yes]';
  it.each([
    ['the lesson index', '/lessons', '[data-testid=lesson-index]'],
    ['a lesson step', '/lesson/divergence/2', STAGE],
    ['a lab', '/lab/reduce?v=neighbored&step=200', STAGE],
    ['the scan lab', '/lab/scan?v=blelloch&step=700', STAGE],
    ['projector mode', '/lesson/reduction/3?mode=projector', STAGE],
    ['the presenter window', '/lesson/reduction/3?view=presenter', STAGE],
    ['compare mode', '/lab/reduce?v=neighbored&cmp=interleaved', STAGE],
    ['the start page', '/', '[data-testid=home-hero]'],
  ])('%s', async (_name, path, ready) => {
    const { page, errors } = await open(path);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  // The other labs' first pages, in the same page: each lab opened inside the app as its back and
  // forward buttons do (the lab page is mounted anew), not by loading the app again.
  it('the basics, rowsum, histogram, convolution, merge, top-k and matrix-multiply labs', async () => {
    const { page, errors } = await open('/lessons');
    const found: string[] = [];
    for (const lab of ['basics', 'rowsum', 'histogram', 'convolution', 'merge', 'topk', 'matmul']) {
      await goToLab(page, `/lab/${lab}`, BASE_URL);
      await page.locator(STAGE).first().waitFor({ timeout: 60_000 });
      for (const v of await seriousViolations(page)) found.push(`the ${lab} lab: ${v}`);
    }
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
  }, 300_000);
});
