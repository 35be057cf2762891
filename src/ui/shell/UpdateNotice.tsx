import { useStore } from 'zustand';
import { updateState } from '../../workbench/offline.ts';
import { t } from '../../i18n/messages.ts';

/**
 * Announces a new version of the app that the service worker has downloaded. It never reloads on
 * its own, so a lesson or a lab in progress is never cut off: the person chooses when.
 */
export function UpdateNotice() {
  const { waiting, apply, later } = useStore(updateState);
  if (!waiting) return null;
  return (
    <section className="banner update-notice" role="status" aria-label={t('update.label')} data-testid="update-notice">
      <p>
        <span aria-hidden="true">⟳ </span>
        {t('update.ready')}
      </p>
      <button type="button" onClick={apply} data-testid="update-reload">
        {t('update.reload')}
      </button>{' '}
      <button type="button" onClick={later}>
        {t('update.later')}
      </button>
    </section>
  );
}
