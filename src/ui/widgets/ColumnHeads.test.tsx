import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ColumnHeads } from './ColumnHeads.tsx';

describe('ColumnHeads', () => {
  it('heads each column in order, scoped to its column, and leaves out a column given as false, null or undefined', () => {
    const html = renderToStaticMarkup(
      <table>
        <ColumnHeads labels={['Bin', false, <abbr key="g">Global</abbr>, undefined, 'n', null]} />
      </table>,
    );
    expect(html).toBe(
      '<table><thead><tr><th scope="col">Bin</th><th scope="col"><abbr>Global</abbr></th><th scope="col">n</th></tr></thead></table>',
    );
  });
});
