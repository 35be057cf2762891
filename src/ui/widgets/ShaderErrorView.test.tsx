import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ShaderMessage } from '../../gpu/index.ts';
import { ShaderErrorView } from './ShaderErrorView.tsx';

describe('ShaderErrorView', () => {
  // A 1 MB single-line file with 26 errors on it: each message used to repeat the whole line.
  const line = 'let a = 1u; '.repeat(87_382);
  const messages: ShaderMessage[] = Array.from({ length: 26 }, (_, i) => ({
    severity: 'error',
    message: `error ${i + 1}`,
    line: 1,
    column: 1 + i * 40_000,
    sourceLine: line,
    file: 'big.wgsl',
  }));
  const html = renderToStaticMarkup(
    <ShaderErrorView error={{ title: 'The kernel does not compile', message: 'x', hint: 'Fix it.', messages }} />,
  );

  it('shows a window of the line, not the whole line, under each message', () => {
    expect(line.length).toBeGreaterThan(1_000_000);
    expect(html.length).toBeLessThan(5_000);
    expect(html).toContain('…');
    expect(html).toContain('big.wgsl:1:40001');
  });

  it('shows the first five and says how many more there are', () => {
    expect(html.match(/data-testid="error-location"/g)).toHaveLength(5);
    expect(html).toContain('…and 21 more errors.');
    expect(html).not.toContain('error 6<');
  });

  it('shows a short line whole with the caret under the column', () => {
    const one = renderToStaticMarkup(
      <ShaderErrorView
        error={{
          title: 't',
          message: 'm',
          hint: 'h',
          messages: [{ severity: 'error', message: 'bad', line: 4, column: 15, sourceLine: '  let x = 1u +;' }],
        }}
      />,
    );
    expect(one).toContain(`  let x = 1u +;\n${' '.repeat(14)}^`);
    expect(one).not.toContain('more error');
  });
});
