import { useUpdateState } from '../app/offline.ts';

/**
 * Announces a new version of the app that the service worker has downloaded. It never reloads on
 * its own, so a lesson or a lab in progress is never cut off: the person chooses when.
 */
export function UpdateNotice() {
  const { waiting, apply, later } = useUpdateState();
  if (!waiting) return null;
  return (
    <section className="banner update-notice" role="status" aria-label="Update" data-testid="update-notice">
      <p>
        <span aria-hidden="true">⟳ </span>A new version of Warpscope is ready — Reload to use it. What you are doing stays as it is until then.
      </p>
      <button type="button" onClick={apply} data-testid="update-reload">
        Reload
      </button>{' '}
      <button type="button" onClick={later}>
        Later
      </button>
    </section>
  );
}
