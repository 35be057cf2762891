import type { Page } from 'playwright-core';

/**
 * Page object for any lab page: the timeline driven by keyboard as a person would, waiting until
 * each step is on screen before anything is read (reading too early sees the previous step).
 */
export class LabPageObject {
  constructor(readonly page: Page) {}

  /** Waits for the first simulated view (compare mode renders two warp grids at once). */
  async ready(): Promise<void> {
    await this.page.getByTestId('warp-grid').first().waitFor({ timeout: 60_000 });
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

  /** Takes the focus off any field, so the shortcuts apply. */
  async blur(): Promise<void> {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  }
}
