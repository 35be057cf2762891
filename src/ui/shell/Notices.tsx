import { ui } from '../../i18n/ui.ts';
import { selectNotices, useAppStore } from '../../store/index.ts';

/** Says what part of the address was ignored, so a bad link is never a silent surprise. */
export function Notices() {
  const notices = useAppStore(selectNotices);
  const dismiss = useAppStore((s) => s.dismissNotices);
  if (notices.length === 0) return null;
  return (
    <section className="banner banner-warning notices" role="status" data-testid="notices">
      <h2>
        <span aria-hidden="true">ⓘ </span>
        {ui('notices.title')}
      </h2>
      <ul>
        {notices.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
      <button type="button" onClick={dismiss}>
        {ui('notices.dismiss')}
      </button>
    </section>
  );
}
