import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { loadAxe } from './labAxe.ts';
import { goInApp } from './pages.ts';
import { BASE_URL, screenshot, useBrowser, watchErrors } from './browser.ts';
import { freePort } from '../server/testing.ts';

/**
 * A live class in real Chromium: the classroom server (`npm run classroom`) serves the test build
 * on a loopback port; a teacher (presenter and projector windows) and three students (one on a
 * 360 × 740 phone) join by the address it prints, follow three steps, answer the step's question,
 * see it revealed (the replay plays to the step's moment), vote again, reload, and a forged
 * reveal is refused.
 */
describe('live classroom', () => {
  const browser = useBrowser();
  let server: ChildProcess | undefined;
  let joinAddress = '';
  let base = '';
  const dir = mkdtempSync(join(tmpdir(), 'classroom-e2e-'));
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(process.execPath, ['scripts/run-ts.mjs', 'server/main.ts', '--host', '127.0.0.1', '--port', String(port), '--journal', join(dir, 'journal.jsonl')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the classroom server did not print its address: ${out}`)), 60_000);
      server!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Students join at: (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          joinAddress = m[1]!;
          resolve();
        }
      });
    });
    base = new URL(joinAddress).origin;
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(path: string, viewport = { width: 1440, height: 900 }, context?: BrowserContext): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const ctx = context ?? (await browser().newContext({ viewport }));
    if (!context) contexts.push(ctx);
    const page = await ctx.newPage();
    const errors: string[] = [];
    await watchErrors(page, errors);
    await page.goto(new URL(path, base).href);
    return { page, context: ctx, errors };
  }

  /** Every axe finding inside `selector`, as `rule: target` lines. */
  async function axeFindings(page: Page, selector: string): Promise<string[]> {
    await loadAxe(page);
    return page.evaluate(async (sel) => {
      type Found = { id: string; nodes: { target: string[] }[] };
      const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: object) => Promise<{ violations: Found[] }> } }).axe;
      const found = await axe.run({ include: [[sel]] }, { resultTypes: ['violations'] });
      return found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }, selector);
  }

  const scrubStep = async (page: Page) => Number(await page.getByTestId('scrubber').first().inputValue());

  it('runs a class: join, follow, answer, count, reveal to the moment, vote again, reload, refuse a forgery', async () => {
    // The teacher opens the lesson's presenter view and starts a live class.
    const teacher = await open('/lesson/reduction/1?view=presenter');
    await teacher.page.getByTestId('live-start').click();
    const code = (await teacher.page.getByTestId('live-code').textContent({ timeout: 30_000 }))!.trim();
    expect(code).toMatch(/^[2-9A-Z]{8}$/);
    await expect.poll(() => teacher.page.getByTestId('live-join-url').textContent()).toContain(joinAddress);

    // The projector window on the teacher's machine shows how to join.
    const projector = await open('/lesson/reduction/1?mode=projector', undefined, teacher.context);
    await projector.page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => projector.page.getByTestId('live-projector-join').textContent(), { timeout: 30_000 }).toContain(code);

    // Three students join by the printed address: two laptops and a phone.
    const students = await Promise.all(
      [
        { name: 'Ada', viewport: { width: 1280, height: 800 } },
        { name: '', viewport: { width: 1280, height: 800 } },
        { name: 'Phone <b>Pat</b>', viewport: { width: 360, height: 740 } },
      ].map(async ({ name, viewport }) => {
        const s = await open(joinAddress, viewport);
        await s.page.getByTestId('live-code-input').fill(code.toLowerCase());
        if (name) await s.page.getByTestId('live-name').fill(name);
        // By keyboard: Enter submits the form.
        await s.page.getByTestId('live-code-input').press('Enter');
        await s.page.getByTestId('live-student').waitFor({ timeout: 30_000 });
        return s;
      }),
    );
    await expect.poll(() => teacher.page.getByTestId('live-students').getAttribute('data-count')).toBe('3');
    // The display name is plain text on the teacher's side, never markup.
    expect(await teacher.page.locator('.live-teacher b').count()).toBe(0);

    // The students follow three steps.
    for (const n of [2, 3, 4]) {
      await teacher.page.getByTestId('lesson-next').click();
      for (const s of students) await expect.poll(() => s.page.getByTestId('live-student').getAttribute('data-step'), { timeout: 30_000 }).toBe(String(n));
    }
    // Step 4's moment, as the students' replay shows it before any question.
    const phone = students[2]!;
    await phone.page.getByTestId('scrubber').first().waitFor({ timeout: 60_000 });
    await expect.poll(() => scrubStep(phone.page), { timeout: 60_000 }).toBeGreaterThan(0);
    const moment = await scrubStep(phone.page);

    // The teacher asks the step's own check question; its answer comes from the simulation.
    const ask = teacher.page.getByTestId('live-ask-lesson');
    await expect.poll(() => ask.isEnabled(), { timeout: 60_000 }).toBe(true);
    await ask.click();
    const right = Number(/(-?\d+)/.exec((await teacher.page.getByTestId('presenter-answer').textContent())!)![1]);
    for (const s of students) await s.page.getByTestId('live-question').waitFor({ timeout: 30_000 });
    // While the class predicts, the replay waits before the moment.
    await expect.poll(() => scrubStep(phone.page)).toBe(0);
    const given = [right, right, right + 1];
    for (const [i, s] of students.entries()) {
      await s.page.getByTestId('live-answer').fill(String(given[i]));
      await s.page.getByTestId('live-send').click();
      await expect.poll(() => s.page.getByTestId('live-received').getAttribute('data-answered')).toBe('yes');
    }
    // The projector shows the count, not yet the distribution.
    await expect.poll(() => projector.page.getByTestId('live-count').getAttribute('data-count')).toBe('3');
    expect(await projector.page.getByTestId('live-count').textContent()).toContain('3 answered');
    expect(await projector.page.getByTestId('live-histogram').count()).toBe(0);
    // The teacher sees the histogram as it fills.
    await expect.poll(() => teacher.page.locator(`[data-testid=live-histogram] [data-value="${right}"]`).getAttribute('data-count')).toBe('2');

    // Lock, then reveal: the distribution beside the answer, and the replay plays to the moment.
    await teacher.page.getByTestId('live-lock').click();
    await teacher.page.getByTestId('live-reveal').click();
    await projector.page.getByTestId('live-histogram').waitFor({ timeout: 30_000 });
    expect(await projector.page.getByTestId('live-answer').textContent()).toContain(String(right));
    expect(await projector.page.locator(`[data-testid=live-histogram] [data-value="${right}"]`).getAttribute('data-count')).toBe('2');
    expect(await projector.page.locator(`[data-testid=live-histogram] [data-value="${right + 1}"]`).getAttribute('data-count')).toBe('1');
    // The projector's card is whole on the screen, and readable from the back of the room.
    const card = (await projector.page.getByTestId('live-projector').boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.y).toBeGreaterThanOrEqual(0);
    expect(card.x + card.width).toBeLessThanOrEqual(1920);
    expect(card.y + card.height).toBeLessThanOrEqual(1080);
    const size = await projector.page.getByTestId('live-prompt').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(size).toBeGreaterThanOrEqual(28);
    for (const s of students) await expect.poll(() => scrubStep(s.page), { timeout: 15_000 }).toBe(moment);
    await expect.poll(() => scrubStep(projector.page), { timeout: 15_000 }).toBe(moment);

    // A second vote after the discussion: empty again, and it takes new answers.
    await teacher.page.getByTestId('live-reset').click();
    for (const s of students) await expect.poll(() => s.page.getByTestId('live-question').getAttribute('data-phase')).toBe('open');
    await expect.poll(() => projector.page.getByTestId('live-count').getAttribute('data-count')).toBe('0');
    for (const s of students) {
      await s.page.getByTestId('live-answer').fill(String(right));
      await s.page.getByTestId('live-send').click();
    }
    await expect.poll(() => projector.page.getByTestId('live-count').getAttribute('data-count')).toBe('3');

    // A student who reloads comes back to the room, at the teacher's step, with their answer.
    await phone.page.reload();
    await phone.page.getByTestId('live-student').waitFor({ timeout: 30_000 });
    expect(await phone.page.getByTestId('live-student').getAttribute('data-step')).toBe('4');
    await expect.poll(() => phone.page.getByTestId('live-received').getAttribute('data-answered')).toBe('yes');
    expect(await phone.page.getByTestId('live-received').textContent()).toContain(String(right));
    await expect.poll(() => teacher.page.getByTestId('live-students').getAttribute('data-count')).toBe('3');

    // A student breaks away to explore on their own, and comes back with one button.
    const ada = students[0]!;
    await ada.page.getByTestId('live-break-away').click();
    expect(await ada.page.getByTestId('live-student').getAttribute('data-following')).toBe('no');
    await ada.page.getByTestId('lesson-next').click();
    await expect.poll(() => ada.page.getByTestId('lesson').getAttribute('data-step')).toBe('5');
    expect(await ada.page.getByTestId('live-where').textContent()).toContain('step 4');
    await ada.page.getByTestId('live-back').click();
    await expect.poll(() => ada.page.getByTestId('lesson').getAttribute('data-step')).toBe('4');
    expect(await ada.page.getByTestId('live-student').getAttribute('data-following')).toBe('yes');

    // A student's forged "reveal" (with a made-up key) is refused, and the question stays open.
    const refusal = await students[0]!.page.evaluate(
      (room) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/classroom`);
          const said: string[] = [];
          ws.onopen = () => {
            ws.send(JSON.stringify({ type: 'join', room }));
            ws.send(JSON.stringify({ type: 'reveal', room, token: 'A'.repeat(43) }));
          };
          ws.onmessage = (e) => {
            const m = JSON.parse(String(e.data)) as { type: string; reason?: string };
            said.push(m.type);
            if (m.type === 'refused') {
              ws.close();
              resolve(m.reason ?? '');
            }
          };
          setTimeout(() => resolve(`no refusal: ${said.join(',')}`), 10_000);
        }),
      code,
    );
    expect(refusal).toBe('not-allowed');
    await new Promise((r) => setTimeout(r, 300));
    expect(await projector.page.getByTestId('live-phase').getAttribute('data-phase')).toBe('open');

    // The phone's page: nothing sticks out of a 360-pixel screen, and axe finds nothing.
    await screenshot(phone.page, 'live-student-360', { fullPage: true });
    await screenshot(teacher.page, 'live-teacher-presenter');
    await screenshot(projector.page, 'live-projector');
    // The page does not scroll sideways; if it does, name what sticks out past the right edge
    // (not counting what a scrolling box of its own, such as the code, keeps inside).
    const sticking = await phone.page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth <= width) return [];
      const clipped = (e: Element) => {
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
        return false;
      };
      return [...document.querySelectorAll('body *')]
        .filter((e) => e.checkVisibility() && e.getBoundingClientRect().right > width + 1 && !clipped(e))
        .slice(0, 8)
        .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}[${e.getAttribute('data-testid') ?? ''}] right=${Math.round(e.getBoundingClientRect().right)}`);
    });
    expect(sticking).toEqual([]);
    // No page broke or tripped the Content-Security-Policy (checked before axe, whose own
    // script writes markup the page's Trusted Types would refuse).
    for (const p of [teacher, projector, ...students]) expect(p.errors).toEqual([]);
    expect(await axeFindings(phone.page, '[data-testid=live-student]')).toEqual([]);
    expect(await axeFindings(teacher.page, '[data-testid=live-teacher]')).toEqual([]);
  }, 600_000);

  it('hides the live class where no classroom server serves the app, and presenting still works', async () => {
    const ctx = await browser().newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(ctx);
    const page = await ctx.newPage();
    const errors: string[] = [];
    await watchErrors(page, errors);
    // The static build (vite preview), as a course's own web host would serve it.
    await page.goto(new URL('/lesson/reduction/1?view=presenter', BASE_URL).href);
    await page.getByTestId('presenter').waitFor({ timeout: 30_000 });
    const health = await page.evaluate(async () => (await fetch('/classroom/health')).headers.get('content-type'));
    expect(health).not.toContain('application/json');
    await page.waitForTimeout(500);
    expect(await page.getByTestId('live-teacher').count()).toBe(0);
    await page.getByTestId('lesson-next').click();
    await expect.poll(() => page.getByTestId('presenter').getAttribute('data-step')).toBe('2');
    // The class's page, opened inside the app as its links open it.
    await goInApp(page, '/live', BASE_URL);
    await page.getByTestId('live-unavailable').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
  }, 120_000);

  it('works in Chinese and by keyboard alone: a quick choice question, answered with Tab and Enter', async () => {
    const teacher = await open('/lesson/indexing/1?view=presenter&lang=zh-CN');
    const start = teacher.page.getByTestId('live-start');
    expect(await start.textContent()).toContain('开始课堂互动');
    await start.click();
    const code = (await teacher.page.getByTestId('live-code').textContent({ timeout: 30_000 }))!.trim();

    // The student never touches the mouse.
    const student = await open('/live?lang=zh-CN', { width: 360, height: 740 });
    await student.page.getByTestId('live-join-form').waitFor();
    expect(await student.page.getByTestId('live-join-form').textContent()).toContain('房间码');
    const focusOn = async (testId: string) => {
      for (let i = 0; i < 40; i++) {
        if (await student.page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return;
        await student.page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${testId}`);
    };
    await focusOn('live-code-input');
    await student.page.keyboard.type(code);
    await focusOn('live-join');
    await student.page.keyboard.press('Enter');
    await student.page.getByTestId('live-student').waitFor({ timeout: 30_000 });
    expect(await student.page.getByTestId('live-where').textContent()).toContain('跟随');

    // The teacher types a choice question on the spot.
    await teacher.page.getByTestId('live-quick-prompt').fill('第 5 号线程属于哪个线程束？');
    await teacher.page.getByTestId('live-quick-kind').selectOption('choice');
    await teacher.page.getByTestId('live-quick-options').fill('0\n1\n2');
    await teacher.page.getByTestId('live-quick-correct').selectOption('0');
    await teacher.page.getByTestId('live-quick-ask').click();
    await student.page.getByTestId('live-question').waitFor({ timeout: 30_000 });
    await focusOn('live-choice-0');
    await student.page.keyboard.press('Enter');
    await expect.poll(() => student.page.getByTestId('live-received').getAttribute('data-answered')).toBe('yes');
    expect(await student.page.getByTestId('live-choice-0').getAttribute('aria-pressed')).toBe('true');
    expect(await student.page.getByTestId('live-received').textContent()).toContain('已收到');
    await expect.poll(() => teacher.page.getByTestId('live-count').getAttribute('data-count')).toBe('1');

    for (const p of [teacher, student]) expect(p.errors).toEqual([]);
    expect(await axeFindings(student.page, '[data-testid=live-student]')).toEqual([]);
    expect(await axeFindings(teacher.page, '[data-testid=live-teacher]')).toEqual([]);
  }, 300_000);
});
