import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('projector palette', () => {
  const css = readFileSync('src/ui/styles.css', 'utf8');
  const block = /\.mode-projector \{([^}]*)\}/.exec(css)?.[1] ?? '';
  const vars: Record<string, string> = {};
  for (const m of block.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})/g)) vars[m[1]!] = m[2]!;

  it('defines the palette', () => {
    expect(Object.keys(vars)).toEqual(expect.arrayContaining(['bg', 'text', 'muted', 'accent', 'ok', 'bad', 'warn']));
  });

  it.each(['text', 'muted', 'accent', 'ok', 'bad', 'warn', 'focus'])('%s on the background has a contrast of at least 7:1', (name) => {
    expect(contrast(vars[name] ?? '#000000', vars.bg ?? '#ffffff')).toBeGreaterThanOrEqual(7);
  });
});
