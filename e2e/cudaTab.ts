/**
 * Page object for a lab's CUDA tab (the editable `.cu` source): open it, replace its text, run it
 * with Ctrl+Enter, wait for the check, and read the lines the editor marks and the position the
 * last error names. Used by the labs' CUDA-tab tests (spmv-cuda, topk-cuda).
 */
import { LabPageObject } from './pages.ts';

export class CudaTabPage extends LabPageObject {
  editor() {
    return this.page.getByTestId('cuda-editor');
  }

  async openCuda(): Promise<void> {
    await this.page.getByRole('tab', { name: /^CUDA/ }).click();
    await this.editor().waitFor();
  }

  /** The editor's whole text, line by line (CodeMirror draws the lines in view; the tab's sources are short enough to be drawn whole). */
  async lines(): Promise<string[]> {
    return this.page.evaluate(() => [...document.querySelectorAll('[data-testid=cuda-editor] .cm-line')].map((l) => l.textContent ?? ''));
  }

  async replaceAll(text: string): Promise<void> {
    await this.replaceIn('cuda-editor', text);
  }

  /** Runs the CUDA on both executors (Ctrl+Enter in the editor). */
  async run(): Promise<void> {
    await this.runIn('cuda-editor');
  }

  /** Runs it and waits until the check against the CPU passes on the GPU and on the simulator; returns the check's text. */
  async runAndPass(): Promise<string> {
    await this.run();
    await this.page
      .waitForFunction(() => ['check-sim', 'check-gpu'].every((id) => document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-ok') === 'yes'), undefined, { timeout: 120_000 })
      .catch(() => undefined);
    return (await this.page.getByTestId('editor-check').textContent()) ?? '';
  }

  /**
   * Runs it after a passing run and waits until the check no longer passes on either executor;
   * returns the two verdicts' text (the check is shown only once a run is over).
   */
  async runAndFail(): Promise<{ sim: string; gpu: string }> {
    await this.run();
    await this.page.waitForFunction(() => ['check-sim', 'check-gpu'].every((id) => !document.querySelector(`[data-testid=${id}]`)?.textContent?.includes('✓')), undefined, { timeout: 120_000 });
    return { sim: (await this.page.getByTestId('check-sim').textContent()) ?? '', gpu: (await this.page.getByTestId('check-gpu').textContent()) ?? '' };
  }

  /** Lines of the CUDA editor carrying a mark of `severity` (a range, or a point at the line's end). */
  async marked(severity: 'error' | 'warning' = 'error'): Promise<string[]> {
    return this.page.evaluate(
      (s) => [...document.querySelectorAll('[data-testid=cuda-pane] .kernel-editor:first-child .cm-line')].filter((l) => l.querySelector(`.cm-lintRange-${s}, .cm-lintPoint-${s}`)).map((l) => l.textContent ?? ''),
      severity,
    );
  }

  /**
   * Types `broken` over the source, waits for the lint's squiggle, presses Run, and returns the
   * line and column the message under the editor names.
   */
  async breakAndRun(broken: string): Promise<{ line: number; column: number; message: string }> {
    await this.replaceAll(broken);
    await this.page.waitForFunction(() => document.querySelector('[data-testid=cuda-pane] .cm-lintRange-error, [data-testid=cuda-pane] .cm-lintPoint-error'), undefined, { timeout: 30_000 });
    await this.run();
    await this.page.waitForFunction(() => /line \d+, column \d+/i.test(document.querySelector('[data-testid=editor-message]')?.textContent ?? ''), undefined, { timeout: 30_000 });
    const message = (await this.page.getByTestId('editor-message').textContent()) ?? '';
    const m = /line (\d+), column (\d+)/i.exec(message)!;
    return { line: Number(m[1]), column: Number(m[2]), message };
  }
}

/** The 1-based line of `source` holding `text`. */
export const lineOf = (source: string, text: string): number => source.split('\n').findIndex((l) => l.includes(text)) + 1;
