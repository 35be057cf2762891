import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NoticeBanner } from './NoticeBanner.tsx';

describe('NoticeBanner', () => {
  it('announces its title and one item a notice as a status, then what the caller adds', () => {
    const html = renderToStaticMarkup(
      <NoticeBanner title="Adjusted" notices={['n = 3 is too small', 'wg = 7 is not offered']} testId="lab-notices" className="notices">
        <button type="button">Dismiss</button>
      </NoticeBanner>,
    );
    expect(html).toBe(
      '<section class="banner banner-warning notices" role="status" data-testid="lab-notices"><h2><span aria-hidden="true">ⓘ </span>Adjusted</h2>' +
        '<ul><li>n = 3 is too small</li><li>wg = 7 is not offered</li></ul><button type="button">Dismiss</button></section>',
    );
  });
});
