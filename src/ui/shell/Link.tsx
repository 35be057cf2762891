import type { ReactNode } from 'react';
import { formatLocation, type Route } from '../../workbench/url.ts';
import { useAppStore } from '../../store/index.ts';

/** An ordinary link (it opens in a new tab, copies, works without JS) that navigates in-app on a plain click. */
export function Link({ to, children, className }: { to: Route; children: ReactNode; className?: string | undefined }) {
  const navigate = useAppStore((s) => s.navigate);
  const chrome = useAppStore((s) => s.chrome);
  const href = formatLocation(to, chrome);
  return (
    <a
      href={href}
      className={className}
      onClick={(e) => {
        if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
