import type { Page } from 'playwright-core';

/**
 * Labels drawn over one another in the stage: every pair of SVG `<text>` labels inside the stage's
 * frame whose glyph boxes meet (each box taken from its text's extent, less the leading above and
 * below the glyphs), as "“B ↓” over “tile”". Only text drawn inside the frame counts: a label
 * scrolled out of it is not seen. `pictures` selects the `<svg>`s to look in (all by default).
 */
export function overlappingStageLabels(page: Page, pictures = 'svg'): Promise<string[]> {
  return page.evaluate((pictures) => {
    const body = document.querySelector('[data-testid=stage-body]');
    if (!body) return [];
    const frame = body.getBoundingClientRect();
    const boxes: { text: string; left: number; right: number; top: number; bottom: number }[] = [];
    for (const el of body.querySelectorAll(`:is(${pictures}) text`)) {
      const text = (el.textContent ?? '').trim();
      const r = el.getBoundingClientRect();
      if (text === '' || r.width === 0 || r.height === 0 || el.closest('.sr-only')) continue;
      if (r.right <= frame.left || r.left >= frame.right || r.bottom <= frame.top || r.top >= frame.bottom) continue;
      // A text's box is its line's height; the glyphs fill about its middle two thirds.
      const lead = r.height * 0.17;
      boxes.push({ text, left: r.left + 1, right: r.right - 1, top: r.top + lead, bottom: r.bottom - lead });
    }
    boxes.sort((a, b) => a.left - b.left);
    const found: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      const a = boxes[i]!;
      for (let j = i + 1; j < boxes.length && boxes[j]!.left < a.right; j++) {
        const b = boxes[j]!;
        if (a.top < b.bottom && b.top < a.bottom) found.push(`“${a.text.slice(0, 20)}” over “${b.text.slice(0, 20)}”`);
      }
    }
    return found;
  }, pictures);
}
