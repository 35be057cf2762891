/**
 * The top-k lab's CUDA tab on its twin (`src/labs/topk/cuda/seed.cu`, the course's scheme, with
 * its header `insert_value.cuh` written out in place): the tab shows the source the tests
 * translate; run as it stands, both passes are the CUDA on both executors and the check against the CPU passes, with the
 * lanes' lists filled on the stage; a kernel that reads only the first half of the input fills
 * half as many list slots in the picture; a syntax error squiggles its CUDA line and column and
 * leaves the last good run on the stage.
 */
import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { CudaTabPage, lineOf } from './cudaTab.ts';
// The tab's text: seed.cu with its header written out in place of the #include.
import { SEED_CUDA as SEED_CU } from '../src/labs/topk/cuda.ts';

const LOOP = 'for (int x = blockIdx.x * W + tid; x < n; x += gridDim.x * W)';

describe('the top-k lab’s CUDA tab on its twin', () => {
  const browser = useBrowser();
  const open = useAppPage(browser);

  /** List slots filled on the stage once every insert is done. */
  async function filledAfterInserts(lab: CudaTabPage): Promise<number> {
    const { page } = lab;
    await page.getByTestId('topk-stage').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'End of inserts' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=topk-phase]')?.textContent?.includes('Insert phase'), undefined, { timeout: 30_000 });
    return Number(await page.getByTestId('topk-columns').getAttribute('data-filled'));
  }

  it('seed.cu runs in place of the WGSL and passes; reading half the input fills half the lists on the stage; a syntax error squiggles its line and column and keeps the last good run', async () => {
    const { page, errors } = await open('/lab/topk?v=seed&n=4096&k=20&dist=random&sem=distinct&step=0');
    const lab = new CudaTabPage(page);
    await lab.ready();
    await lab.openCuda();
    // The editor draws its first line and the lines in view: each is a line of the .cu file.
    const drawn = await lab.lines();
    const source = SEED_CU.split('\n');
    expect(drawn[0]).toBe(source[0]);
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.filter((l) => !source.includes(l))).toEqual([]);

    const passed = await lab.runAndPass();
    expect(await page.getByTestId('check-sim').getAttribute('data-ok'), passed).toBe('yes');
    expect(await page.getByTestId('check-gpu').getAttribute('data-ok'), passed).toBe('yes');
    // 4096 values over the blocks' 128 lanes: block 0's lanes hold 8 values each.
    const full = await filledAfterInserts(lab);
    expect(full).toBe(128 * 8);

    // Only the first half of the input: every lane of the stage's block inserts half as many values.
    await lab.replaceAll(SEED_CU.replace(LOOP, LOOP.replace('x < n;', 'x < n / 2;')));
    await lab.run();
    await page.waitForFunction((f) => Number(document.querySelector('[data-testid=topk-columns]')?.getAttribute('data-filled')) < f, full, { timeout: 120_000 });
    expect(await filledAfterInserts(lab)).toBe(128 * 4);

    // Its check is over (half the input is not the top-k of all of it) before the next edit runs.
    await page.waitForFunction(() => ['check-sim', 'check-gpu'].every((id) => document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-ok') === 'no'), undefined, { timeout: 120_000 });

    // Back to the twin, then a missing ';' after the declaration of tid and W.
    await lab.replaceAll(SEED_CU);
    const again = await lab.runAndPass();
    expect(await page.getByTestId('check-sim').getAttribute('data-ok'), again).toBe('yes');
    const broken = SEED_CU.replace('int tid = threadIdx.x, W = blockDim.x;', 'int tid = threadIdx.x, W = blockDim.x');
    const line = lineOf(broken, 'int tid = threadIdx.x, W = blockDim.x');
    const at = await lab.breakAndRun(broken);
    expect(at.line, at.message).toBe(line);
    expect(at.column, at.message).toBe(broken.split('\n')[line - 1]!.length + 1);
    expect(await lab.marked(), at.message).toContain(broken.split('\n')[line - 1]);
    expect(await page.getByTestId('topk-stage').count()).toBe(1);
    expect(await page.getByTestId('check-sim').getAttribute('data-ok')).toBe('yes');
    expect(errors).toEqual([]);
  }, 300_000);
});
