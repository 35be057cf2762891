/**
 * The SpMV lab's CUDA tab on its twin (`src/labs/spmv/cuda/csr-scalar.cu`): the tab shows the
 * `.cu` file the tests translate; run as it stands, it replaces the WGSL variant on both executors
 * and the check against the CPU passes, with the lanes' gathers of x on the stage; a kernel that no
 * longer reads x changes the picture (no gather left to show) and fails the check; a syntax error
 * squiggles its CUDA line and column and leaves the last good run on the stage.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { CudaTabPage, lineOf } from './cudaTab.ts';

const CSR_SCALAR_CU = readFileSync(new URL('../src/labs/spmv/cuda/csr-scalar.cu', import.meta.url), 'utf8');
const PRODUCT = 'sum += values[j] * x[colIndex[j]];';

describe('the SpMV lab’s CUDA tab on its twin', () => {
  const browser = useBrowser();
  const open = useAppPage(browser);

  it('csr-scalar.cu runs in place of the WGSL and passes; an edit that drops x from the product changes the stage; a syntax error squiggles its line and column and keeps the last good run', async () => {
    const { page, errors } = await open('/lab/spmv?v=csr-scalar&mat=seed&n=4&wg=128&step=0');
    const lab = new CudaTabPage(page);
    await lab.ready();
    await lab.openCuda();
    expect(await lab.lines()).toEqual(CSR_SCALAR_CU.split('\n'));

    // As it stands: both executors agree with the CPU, and the stage shows the lanes' gathers of x.
    const passed = await lab.runAndPass();
    expect(await page.getByTestId('check-sim').getAttribute('data-ok'), passed).toBe('yes');
    expect(await page.getByTestId('check-gpu').getAttribute('data-ok'), passed).toBe('yes');
    await page.getByTestId('spmv-stage').waitFor();
    await page.getByTestId('spmv-next-gather').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=spmv-now]')?.getAttribute('data-array') === 'x', undefined, { timeout: 30_000 });
    expect(await page.getByTestId('spmv-x').locator('td.touched').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('spmv-strip').locator('button').count()).toBeGreaterThan(0);

    // The product without x: y is the rows' sums of A, so the check fails, and the replay has no
    // gather of x to show: the strip is gone and the jump to the next gather is off.
    await lab.replaceAll(CSR_SCALAR_CU.replace(PRODUCT, 'sum += values[j];'));
    const failed = await lab.runAndFail();
    expect(failed.sim, failed.sim).toMatch(/differs/);
    expect(failed.gpu, failed.gpu).toMatch(/differs/);
    await page.waitForFunction(() => !document.querySelector('[data-testid=spmv-strip]'), undefined, { timeout: 30_000 });
    expect(await page.getByTestId('spmv-next-gather').isDisabled()).toBe(true);
    expect(await page.getByTestId('check-sim').getAttribute('data-ok')).toBe('no');

    // Back to the twin, then a missing ';': the squiggle and the message name the CUDA line and the
    // column just past the declaration; the last good run stays (its stage and its check).
    await lab.replaceAll(CSR_SCALAR_CU);
    await lab.runAndPass();
    await page.getByTestId('spmv-strip').waitFor({ timeout: 30_000 });
    const broken = CSR_SCALAR_CU.replace('float sum = 0.0f;', 'float sum = 0.0f');
    const line = lineOf(broken, 'float sum = 0.0f');
    const at = await lab.breakAndRun(broken);
    expect(at.line, at.message).toBe(line);
    expect(at.column, at.message).toBe(broken.split('\n')[line - 1]!.length + 1);
    expect(await lab.marked(), at.message).toContain(broken.split('\n')[line - 1]);
    expect(await page.getByTestId('spmv-strip').count()).toBe(1);
    expect(await page.getByTestId('check-sim').getAttribute('data-ok')).toBe('yes');
    expect(errors).toEqual([]);
  }, 300_000);
});
