import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings (evaluated by the driver: the page's CSP refuses inline scripts). */
async function seriousAxeFindings(page: Page): Promise<string[]> {
  await page.evaluate(`${AXE_SOURCE}\n;0`);
  const violations = await page.evaluate(async () => {
    type Found = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Found[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

const LAB = '/lab/reduce?v=interleaved&n=1024&wg=256&step=300';

/** The file a download produced (read as a stream: the browser may be another process's, e2e/browsers.setup.ts). */
async function contents(download: Download): Promise<Buffer> {
  const failure = await download.failure();
  if (failure !== null) throw new Error(`the download ${download.suggestedFilename()} has no file: ${failure}`);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23, after the signature and chunk header). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Texts of the <text> elements of a class in an SVG file (the export writes them as the page does). */
const textsOfClass = (svg: string, cls: string) => [...svg.matchAll(new RegExp(`<text [^>]*class="${cls}"[^>]*>([^<]*)</text>`, 'g'))].map((m) => m[1] ?? '');

/** Opens the export dialog of the panel `name` by keyboard, as a person at a projector would. */
async function openExport(page: Page, name: string): Promise<void> {
  // The stage shows one panel at a time: pick its tab first (the panel ids of the stage).
  const tab = ({ memory: 'shared-memory', tree: 'dataflow' } as Record<string, string>)[name] ?? name;
  if ((await page.getByTestId('stage').getAttribute('data-panel')) !== tab) await page.getByTestId(`stage-tab-${tab}`).click();
  const button = page.locator(`[data-export="${name}"] [data-testid=export-button]`);
  await button.focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('export-dialog').waitFor();
}

async function saveSvg(page: Page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  expect(download.suggestedFilename()).toMatch(/^warpscope-reduce-.*\.svg$/);
  return (await contents(download)).toString('utf8');
}

/** Parses the file as XML in a blank page (the app's Trusted Types forbid parsing strings there). */
async function parseErrors(page: Page, svg: string): Promise<string> {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return doc.querySelector('parsererror')?.textContent ?? (doc.documentElement.localName === 'svg' ? '' : `root is ${doc.documentElement.localName}`);
    }, svg);
  } finally {
    await blank.close();
  }
}

describe('export for teachers', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  it('exports the memory strip with its values and the tree as standalone SVG, a 1920 px PNG, and a link with a QR code', async () => {
    const { page, errors } = await open(LAB);
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('stage-tab-shared-memory').click();
    await page.getByTestId('shared-strip').waitFor();

    // The shared-memory strip: the exported file holds the very values the page shows, in order.
    await openExport(page, 'memory');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=export-dialog]'))).toBe(true);
    expect(await seriousAxeFindings(page)).toEqual([]);
    const shown = await page.locator('[data-testid=shared-strip] text.word-value, [data-testid=shared-strip] text.word-value.zero').allTextContents();
    const svg = await saveSvg(page);
    expect(await parseErrors(page, svg)).toBe('');
    const exported = [...textsOfClass(svg, 'word-value'), ...textsOfClass(svg, 'word-value zero')];
    expect(exported.length).toBe(shown.length);
    expect(textsOfClass(svg, '(?:word-value|word-value zero)')).toEqual(shown);
    // At step 300 the reduction has written partial sums: some values are not zero.
    expect(textsOfClass(svg, 'word-value').some((v) => Number(v.replace(/,/g, '')) !== 0)).toBe(true);
    // Styles are inlined, so the file looks the same with no stylesheet.
    expect(svg).toMatch(/<text [^>]*style="[^"]*fill:rgb\(/);
    expect(svg).toContain('<title>Warpscope: the shared-memory strip</title>');

    // PNG at projector resolution, the aspect ratio of the picture kept.
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
    const png = pngSize(await contents(pngDownload));
    expect(png.width).toBeGreaterThanOrEqual(1920);
    const box = (await page.locator('[data-testid=shared-strip] svg[role=img]').boundingBox())!;
    expect(png.height / png.width).toBeCloseTo(box.height / box.width, 1);
    expect(await page.getByTestId('export-status').textContent()).toContain(`${png.width} × ${png.height} px`);

    // The link is this state (lab, variant, parameters, step); the QR code encodes it.
    const link = await page.getByTestId('export-link').inputValue();
    const url = new URL(link);
    expect(url.pathname).toBe('/lab/reduce');
    expect(url.searchParams.get('v')).toBe('interleaved');
    expect(url.searchParams.get('step')).toBe('300');
    expect(Number(await page.getByTestId('export-qr').getAttribute('data-modules'))).toBeGreaterThanOrEqual(21);

    // Escape closes it and gives the focus back to the Export button.
    await page.keyboard.press('Escape');
    await page.getByTestId('export-dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.closest('[data-export]')?.getAttribute('data-export'))).toBe('memory');

    // The dataflow tree: every node drawn on the page is in the file, with the level labels.
    await openExport(page, 'tree');
    const nodes = await page.locator('[data-testid=dataflow-tree] svg circle').count();
    expect(nodes).toBeGreaterThan(0);
    const tree = await saveSvg(page);
    expect(await parseErrors(page, tree)).toBe('');
    expect(tree.match(/<circle /g)?.length).toBe(nodes);
    expect(textsOfClass(tree, 'level-label(?: current)?').length).toBeGreaterThan(1);
    // The file carries the tree's values: every node value the page shows, in the same order.
    const values = await page.locator('[data-testid=dataflow-tree] svg text.node-value').allTextContents();
    expect(values.length).toBeGreaterThan(3);
    expect(textsOfClass(tree, 'node-value')).toEqual(values);
    expect(values.some((v) => Number(v.replace(/,/g, '')) !== 0)).toBe(true);
    await page.getByTestId('export-close').click();

    // The warp grid exports its lane grid, not the small legend swatches.
    await openExport(page, 'warp-grid');
    const lanes = await page.locator('[data-testid=lane-grid] rect').count();
    const grid = await saveSvg(page);
    expect(grid.match(/<rect /g)!.length).toBe(lanes + 1); // plus the backdrop
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  }, 180_000);

  it('exports an HTML panel (the histogram table) as it looks, with the dialog and its QR code left out', async () => {
    const { page, errors } = await open('/lab/histogram');
    await new LabPageObject(page).ready();
    const table = page.getByTestId('histogram-bins');
    await table.waitFor();
    const firstRow = ((await table.locator('tbody tr').first().textContent()) ?? '').trim();
    expect(firstRow.length).toBeGreaterThan(0);
    await openExport(page, 'histogram-stage');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
    const svg = (await contents(download)).toString('utf8');
    expect(await parseErrors(page, svg)).toBe('');
    expect(svg).toContain('<foreignObject');
    expect(svg).toContain('data-testid="histogram-bins"');
    expect(svg).not.toContain('qr-code');
    expect(svg).not.toContain('export-button');
    // The table's first row reads as the page shows it.
    const blank = await page.context().newPage();
    const exportedRow = await blank.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return doc.querySelector('[data-testid=histogram-bins] tbody tr')?.textContent?.trim() ?? '';
    }, svg);
    await blank.close();
    expect(exportedRow).toBe(firstRow);
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
    expect(pngSize(await contents(pngDownload)).width).toBeGreaterThanOrEqual(1920);
    expect(errors).toEqual([]);
  }, 120_000);

  it('is clean for axe with the export buttons on the lab page', async () => {
    const { page, errors } = await open(LAB);
    await new LabPageObject(page).ready();
    // Every picture the stage can show offers its export, and each is axe-clean.
    const tabs = await page.locator('[data-testid=stage] [role=tab]').evaluateAll((els) => els.map((el) => el.getAttribute('data-stage-tab') ?? ''));
    expect(tabs.length).toBeGreaterThanOrEqual(3);
    for (const tab of tabs) {
      await page.getByTestId(`stage-tab-${tab}`).click();
      await page.locator('[data-testid=stage-body] [data-testid=export-button]').waitFor();
      expect(await page.locator('[data-testid=stage-body] [data-testid=export-button]').count(), tab).toBe(1);
      expect(await seriousAxeFindings(page), tab).toEqual([]);
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
