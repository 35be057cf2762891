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
  /** The lab at csr-scalar on the seed matrix, its CUDA tab open. */
  const openCudaTab = async () => {
    const opened = await open('/lab/spmv?v=csr-scalar&mat=seed&n=4&wg=128&step=0');
    const lab = new CudaTabPage(opened.page);
    await lab.ready();
    await lab.openCuda();
    return { ...opened, lab };
  };

  it('csr-scalar.cu runs in place of the WGSL and passes; an edit that drops x from the product changes the stage; a syntax error squiggles its line and column and keeps the last good run', async () => {
    const { page, errors, lab } = await openCudaTab();
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

  it('a run asked for while the last one is still being checked runs once that check ends: the newest request wins, and its result is the one shown', async () => {
    const { page, errors, lab } = await openCudaTab();
    // The product without x (it fails the check), then at once the twin (it passes), each asked
    // for with Ctrl+Enter: the second while the first is still being checked.
    await lab.replaceAll(CSR_SCALAR_CU.replace(PRODUCT, 'sum += values[j];'));
    await lab.run();
    await lab.replaceAll(CSR_SCALAR_CU);
    await lab.run();
    // The Run button is never off: pressed while a check is under way, it queues the run too (and
    // `editor-queued` says so; how long that shows depends on the machine, so it is not timed here).
    expect(await page.getByTestId('run-edit').isEnabled()).toBe(true);
    // The twin's run is the one whose check is shown: it passes on both executors (the first one's
    // would say the result differs), and its replay gathers x again.
    await page.waitForFunction(() => ['check-sim', 'check-gpu'].every((id) => document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-ok') === 'yes'), undefined, { timeout: 240_000 });
    expect(await page.getByTestId('editor-queued').count()).toBe(0);
    await page.getByTestId('spmv-strip').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('draft-state').textContent()).not.toMatch(/edited/i);
    expect(errors).toEqual([]);
  }, 300_000);

  it('a kernel whose parameters are renamed still shows the stage: its arrays are found by the buffers they take, not by their names', async () => {
    const { page, errors, lab } = await openCudaTab();
    const renamed = CSR_SCALAR_CU.replace(/\browPtr\b/g, 'starts').replace(/\bcolIndex\b/g, 'cols').replace(/\bvalues\b/g, 'nz').replace('const float *x', 'const float *vec').replace('* x[', '* vec[');
    expect(renamed).not.toMatch(/\b(rowPtr|colIndex|values)\b|\*\s*x\b/);
    await lab.replaceAll(renamed);
    const again = await lab.runAndPass();
    expect(await page.getByTestId('check-sim').getAttribute('data-ok'), again).toBe('yes');
    // The gathers of x (the kernel's vec) and the column indices (its cols) are on the stage, on the
    // lab's rows, named in the sentence as the kernel names them.
    await page.getByTestId('spmv-strip').waitFor({ timeout: 30_000 });
    await page.getByTestId('spmv-next-gather').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=spmv-now]')?.getAttribute('data-array') === 'x', undefined, { timeout: 30_000 });
    expect(await page.getByTestId('spmv-now').textContent()).toMatch(/\bvec\[/);
    expect(await page.getByTestId('spmv-x').locator('td.touched').count()).toBeGreaterThan(0);
    // Back from the gather (J) to the load of the column indices it used: marked on the lab's col_index row.
    await lab.blur();
    for (let i = 0; i < 12 && (await page.getByTestId('spmv-now').getAttribute('data-array')) !== 'col_index'; i++) await page.keyboard.press('j');
    expect(await page.getByTestId('spmv-now').textContent()).toMatch(/\bcols\[/);
    expect(await page.locator('[data-testid=spmv-stage] td.touched[data-subject=word]').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  }, 300_000);
});
