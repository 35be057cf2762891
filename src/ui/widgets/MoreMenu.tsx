import { useRef, type ReactNode } from 'react';

/**
 * Controls that wait behind a disclosure where a bar has no room for them (a short screen): a
 * summary button the keyboard reaches (Enter or Space opens it), the controls in a box over the
 * page under it. Escape closes it and gives the focus back to the summary; it closes too when the
 * focus or a click goes elsewhere. Where `folded` is false the controls stand in the bar as usual.
 */
export function MoreMenu({ folded, label, className, testId, children }: { folded: boolean; label: ReactNode; className?: string; testId?: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  if (!folded) return <>{children}</>;
  const close = (focusSummary: boolean) => {
    const el = ref.current;
    if (!el?.open) return;
    el.open = false;
    if (focusSummary) el.querySelector('summary')?.focus();
  };
  return (
    <details
      ref={ref}
      className={`more-menu${className ? ` ${className}` : ''}`}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && ref.current?.open) {
          // The menu's own Escape: not the page's (which would leave full screen, stop playing).
          e.preventDefault();
          e.stopPropagation();
          close(true);
        }
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) close(false);
      }}
    >
      <summary>{label}</summary>
      <div className="more-menu-body" tabIndex={-1}>{children}</div>
    </details>
  );
}
