import { ui } from '../../i18n/ui.ts';
import { selectNotices, useAppStore } from '../../store/index.ts';
import { NoticeBanner } from '../widgets/NoticeBanner.tsx';

/** Says what part of the address was ignored, so a bad link is never a silent surprise. */
export function Notices() {
  const notices = useAppStore(selectNotices);
  const dismiss = useAppStore((s) => s.dismissNotices);
  if (notices.length === 0) return null;
  return (
    <NoticeBanner title={ui('notices.title')} notices={notices} testId="notices" className="notices">
      <button type="button" onClick={dismiss}>
        {ui('notices.dismiss')}
      </button>
    </NoticeBanner>
  );
}
