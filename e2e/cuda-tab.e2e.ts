/**
 * The reduce lab's CUDA tab driven as a learner would: the post's shared-memory reduction (seed
 * 000, `shmem_reduce_kernel`, as printed) pasted in, run, replayed on its own CUDA lines.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';
import { CudaTabPage, lineOf } from './cudaTab.ts';
import { seedsDir } from '../src/cuda/testdata/seeds.ts';

/** The post's kernel exactly as printed: from its `__global__` line to the closing brace at column 1. */
function seedKernel(): string {
  const dir = seedsDir();
  const file = readdirSync(dir).find((f) => f.startsWith('000_'))!;
  const text = readFileSync(path.join(dir, file), 'utf8');
  const start = text.indexOf('__global__ void shmem_reduce_kernel');
  const end = text.indexOf('\n}', start);
  return text.slice(start, end + 2);
}
const KERNEL = seedKernel();


class CudaLab extends CudaTabPage {
  /** Moves the cursor to the first CUDA line holding `text` (the editor scrolls the cursor's line into view). */
  async cursorTo(text: string): Promise<void> {
    await this.cursorIn('cuda-editor', text);
  }
  /** The text of the CUDA line the replay highlights. */
  async currentLine(): Promise<string> {
    return this.page.evaluate(() => document.querySelector('[data-testid=cuda-pane] .kernel-editor .cm-current-step')?.textContent ?? '');
  }
}

async function pasted(page: Page): Promise<CudaLab> {
  const lab = new CudaLab(page);
  await lab.ready();
  await lab.openCuda();
  await lab.replaceAll(KERNEL);
  await lab.run();
  await page.getByTestId('editor-check').waitFor({ timeout: 90_000 });
  return lab;
}

describe('the CUDA tab', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  it('the post’s kernel pasted into the reduce lab runs on both executors, draws the tree with values, and the replay follows CUDA lines', async () => {
    const { page, errors } = await open('/lab/reduce?v=interleaved&n=4096&wg=64&step=0');
    const lab = await pasted(page);
    await page.getByTestId('check-sim').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('check-sim').getAttribute('data-ok'), (await page.getByTestId('editor-check').textContent()) ?? '').toBe('yes');
    await page.getByTestId('dataflow-tree').first().waitFor({ timeout: 30_000 });
    // Values on the tree's nodes.
    const values = await page.evaluate(() => [...document.querySelectorAll('[data-testid=dataflow-tree] text')].map((t) => t.textContent ?? '').filter((t) => /^\d+$/.test(t)));
    expect(values.length).toBeGreaterThan(4);
    // Stepping moves through CUDA lines, each the highlighted line of the pasted text.
    await lab.blur();
    await page.keyboard.press('Home');
    const seen = new Set<string>();
    for (let k = 0; k < 12; k++) {
      await lab.press('s');
      const position = (await page.getByTestId('code-position').textContent()) ?? '';
      const m = /CUDA line (\d+)/.exec(position);
      if (!m) continue;
      const line = Number(m[1]);
      const text = await lab.currentLine();
      expect(text).toBe(KERNEL.split('\n')[line - 1]);
      seen.add(text.trim());
    }
    expect([...seen].some((t) => t.startsWith('sdata[tid] = d_in[myId]'))).toBe(true);
    expect(seen.size).toBeGreaterThan(2);
    expect(errors).toEqual([]);
  }, 240_000);

  it('deleting the loop’s __syncthreads() puts a race mark on the CUDA line of the addition', async () => {
    const { page } = await open('/lab/reduce?v=interleaved&n=4096&wg=64');
    const lab = new CudaLab(page);
    await lab.ready();
    await lab.openCuda();
    const loop = KERNEL.indexOf('for (');
    const at = KERNEL.indexOf('__syncthreads();', loop);
    await lab.replaceAll(KERNEL.slice(0, at) + KERNEL.slice(at + '__syncthreads();'.length));
    await lab.run();
    await page.getByTestId('editor-check').waitFor({ timeout: 90_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=cuda-pane] .cm-lintRange-error'), undefined, { timeout: 60_000 });
    expect((await lab.marked()).map((l) => l.trim())).toContain('sdata[tid] += sdata[tid + s];');
  }, 240_000);

  it('a breakpoint on the CUDA line of the addition (gutter or F9) stops on each tree level, then at the end; the console speaks CUDA', async () => {
    const { page, errors } = await open('/lab/reduce?v=interleaved&n=4096&wg=64&step=0');
    const lab = await pasted(page);
    await page.getByTestId('dataflow-tree').first().waitFor({ timeout: 30_000 });
    const add = 'sdata[tid] += sdata[tid + s];';
    const addLine = lineOf(KERNEL, add);
    const log = async () => ((await page.getByTestId('debug-log').textContent()) ?? '').split('\n');
    const command = async (text: string) => {
      const before = (await log()).length;
      await page.getByTestId('debug-command').fill(text);
      await page.getByTestId('debug-command').press('Enter');
      await page.waitForFunction((n) => (document.querySelector('[data-testid=debug-log]')?.textContent ?? '').split('\n').length > n + 1, before, { timeout: 60_000 });
      return (await log()).slice(-1)[0]!;
    };

    // The gutter: a click beside the brace above the addition (no code there) sets the breakpoint on
    // the addition's line, as cuda-gdb moves it to the next line with code; F9 there takes it off and puts it back.
    await lab.cursorTo(add);
    const brace = page.locator('[data-testid=cuda-editor] .cm-line').nth(addLine - 2);
    expect((await brace.textContent())?.trim()).toBe('{');
    const box = (await brace.boundingBox())!;
    const gutter = (await page.locator('[data-testid=cuda-pane] .cm-breakpoint-gutter').first().boundingBox())!;
    await page.mouse.click(gutter.x + gutter.width / 2, box.y + box.height / 2);
    await page.getByTestId(`breakpoint-${addLine}`).waitFor();
    expect(await page.getByTestId(`breakpoint-${addLine}`).textContent()).toContain(`CUDA line ${addLine}`);
    await lab.cursorTo(add);
    await page.keyboard.press('F9');
    await page.getByTestId(`breakpoint-${addLine}`).waitFor({ state: 'detached' });
    await page.keyboard.press('F9');
    await page.getByTestId(`breakpoint-${addLine}`).waitFor();
    // The gutter marks the CUDA line, not a line of the generated WGSL.
    const marks = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=cuda-pane] .cm-breakpoint-gutter .cm-gutterElement')]
        .filter((g) => (g as HTMLElement).style.visibility !== 'hidden' && g.querySelector('.cm-breakpoint'))
        .map((g) => g.getBoundingClientRect().top + g.getBoundingClientRect().height / 2),
    );
    const addBox = (await page.locator('[data-testid=cuda-editor] .cm-line').nth(addLine - 1).boundingBox())!;
    expect(marks).toHaveLength(1);
    expect(Math.abs(marks[0]! - (addBox.y + addBox.height / 2))).toBeLessThan(addBox.height / 2);

    // The stride the learner sees: s in every lane of the warp watch.
    await page.getByTestId('watch-expression').fill('s');
    const levels = Math.log2(64);
    for (let k = 1; k <= levels; k++) {
      const before = await lab.stepCounter();
      await page.getByTestId('debug-continue').click();
      await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before);
      // Stopped on the addition, on CUDA's terms.
      expect((await lab.currentLine()).trim()).toBe(add);
      expect(await page.getByTestId('code-position').textContent()).toBe(`CUDA line ${addLine}`);
      expect((await log()).slice(-1)[0]).toMatch(new RegExp(`^Breakpoint 1, warp 0 at CUDA line ${addLine} \\(step \\d+\\)\\.$`));
      // The tree stands complete at the level before; this addition adds words s apart.
      const tree = page.getByTestId('dataflow-tree').first();
      expect(await tree.getAttribute('data-level')).toBe(String(k - 1));
      expect(await tree.locator('[data-subject=level]').textContent()).toBe(`▶ L${k - 1}`);
      // The watch works while it is on screen (Continue may have scrolled it away).
      await page.getByTestId('watch-expression').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('[data-testid=warp-watch] caption')?.textContent?.startsWith('s in every lane'), undefined, { timeout: 60_000 });
      const s = await page.evaluate(() => [...document.querySelectorAll('[data-testid=warp-watch] tbody tr')].map((r) => r.getAttribute('data-value')));
      expect(new Set(s)).toEqual(new Set([String(64 >> k)]));
      // One statement on: the addition has written the next level, 64 >> k words.
      const at = await lab.stepCounter();
      await page.getByTestId('debug-step').click();
      await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, at);
      expect(await tree.getAttribute('data-level')).toBe(String(k));
      expect(await tree.locator('[data-subject=level]').textContent()).toBe(`▶ L${k}`);
      expect(await page.getByTestId('tree-caption').textContent()).toMatch(new RegExp(`^Level ${k}: ${64 >> k > 1 ? `${64 >> k} contiguous words` : 'word 0,'}`));
      if (k === 1) {
        // print with the kernel's CUDA names and CUDA's built-ins, typed as C types them (focus: thread 0).
        expect(await command('print s')).toMatch(/^\$ = 32 {2}\(unsigned int; s at step \d+\)$/);
        expect(await command('print tid')).toMatch(/^\$ = 0 {2}\(int; tid at step \d+\)$/);
        expect(await command('print blockIdx.x')).toMatch(/^\$ = 0 {2}\(unsigned int; blockIdx\.x at step \d+\)$/);
        expect(await command('print sdata[tid]')).toMatch(/^\$ = \d+ {2}\(float; sdata\[tid\] at step \d+\)$/);
        expect(await command('print nosuch')).toMatch(/no variable “nosuch” where this warp stands: the kernel’s variables in scope here are .*\btid\b/);
        expect(await command(`break ${addLine - 1}`)).toMatch(new RegExp(`CUDA line ${addLine - 1} has no code that runs`));
      }
    }
    await page.getByTestId('debug-continue').click();
    await page.waitForFunction(() => /No later breakpoint hit/.test(document.querySelector('[data-testid=debug-log]')?.textContent ?? ''));
    expect(errors).toEqual([]);
  }, 300_000);

  it('a CUDA syntax error squiggles its line and column, says so, and keeps the last good run; the controls are reachable by keyboard and in Chinese', async () => {
    const { page } = await open('/lab/reduce?v=interleaved&n=4096&wg=64');
    const lab = await pasted(page);
    await page.getByTestId('dataflow-tree').first().waitFor({ timeout: 30_000 });
    const broken = KERNEL.replace('int tid  = threadIdx.x;', 'int tid  = threadIdx.x');
    const line = lineOf(broken, 'int tid  = threadIdx.x');
    await lab.replaceAll(broken);
    await page.waitForFunction(() => document.querySelector('[data-testid=cuda-pane] .cm-lintRange-error'), undefined, { timeout: 30_000 });
    await lab.run();
    const message = (await page.getByTestId('editor-message').textContent()) ?? '';
    const m = /line (\d+), column (\d+)/i.exec(message);
    expect(m, message).not.toBeNull();
    // The missing ';' is reported right after the declaration: its line, one column past its text.
    expect(Number(m![1])).toBe(line);
    expect(Number(m![2])).toBe(broken.split('\n')[line - 1]!.length + 1);
    // The squiggle sits on that line of the CUDA.
    const marked = await lab.marked();
    expect(marked, message).toContain(broken.split('\n')[Number(m![1]) - 1]);
    // The last good run stays on the stage.
    expect(await page.getByTestId('dataflow-tree').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('check-sim').count()).toBe(1);

    // Keyboard: Tab from the Run button reaches "Show generated WGSL", and Enter opens the WGSL beside the CUDA.
    await page.getByTestId('run-edit').focus();
    for (let k = 0; k < 6 && !(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'show-wgsl')); k++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('show-wgsl');
    await page.keyboard.press('Enter');
    await page.getByTestId('generated-editor').waitFor();
    expect(await page.getByTestId('generated-editor').textContent()).toContain('@compute');

    // The tab's controls read in Chinese.
    // In Chinese, as the address asks (opened in the app, it applies its ?lang= as a load does).
    const zh = await open('/lab/reduce?v=interleaved&n=4096&wg=64&lang=zh-CN');
    await new LabPageObject(zh.page).ready();
    await zh.page.getByRole('tab', { name: /^CUDA/ }).click();
    await zh.page.getByTestId('show-wgsl').waitFor({ timeout: 30_000 });
    expect(await zh.page.getByTestId('show-wgsl').textContent()).toBe('显示生成的 WGSL');
    // The console answers in Chinese, in CUDA's terms (C's types, CUDA lines).
    await zh.page.getByTestId('code-position').waitFor({ timeout: 60_000 });
    const ask = async (text: string) => {
      await zh.page.getByTestId('debug-command').fill(text);
      await zh.page.getByTestId('debug-command').press('Enter');
      await zh.page.waitForFunction((t) => (document.querySelector('[data-testid=debug-log]')?.textContent ?? '').includes(`(cuda-gdb) ${t}\n`), text);
      return ((await zh.page.getByTestId('debug-log').textContent()) ?? '').split('\n').slice(-1)[0];
    };
    expect(await ask('ptype threadIdx.x')).toBe('类型 = unsigned int');
    expect(await ask('break 9999')).toMatch(/^错误：CUDA 第 9999 行没有会执行的代码；有代码的行：/);
  }, 300_000);
});
