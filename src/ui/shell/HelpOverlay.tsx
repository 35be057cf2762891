import { useEffect, useRef } from 'react';
import { liveShortcuts, type Shortcut } from './shortcuts.ts';
import { ui, type UiKey } from '../../i18n/ui.ts';

const GROUPS: Readonly<Record<Shortcut['group'], UiKey>> = {
  Timeline: 'help.group.timeline',
  View: 'help.group.view',
  'Lessons & projector': 'help.group.lessons',
};

/** The keyboard shortcuts, from the one list that binds them. Escape or ? closes it. */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  // Only what works on this page: a lab adds the timeline keys, the start page has just `?`.
  const groups = new Map<Shortcut['group'], Shortcut[]>();
  for (const s of liveShortcuts()) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  return (
    <dialog
      ref={dialog}
      className="help-overlay"
      aria-labelledby="help-title"
      // The close event comes a task after close(): when the effect's cleanup closed the dialog
      // and a remount (StrictMode) opened it again, it is open now and that event is no request.
      onClose={() => {
        if (!dialog.current?.open) onClose();
      }}
      onCancel={onClose}
      data-testid="help-overlay"
    >
      <h2 id="help-title">{ui('help.title')}</h2>
      <div className="help-columns">
        {[...groups].map(([group, list]) => (
          <section key={group}>
            <h3>{ui(GROUPS[group])}</h3>
            <table>
              <tbody>
                {list.map((s) => (
                  <tr key={s.action}>
                    <th scope="row">
                      <kbd>{s.display.replace('Space', ui('key.space'))}</kbd>
                    </th>
                    <td>{ui(`shortcut.${s.action}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
      <p className="hint">{ui('help.paused')}</p>
      <button type="button" onClick={onClose} autoFocus>
        {ui('common.close')}
      </button>
    </dialog>
  );
}
