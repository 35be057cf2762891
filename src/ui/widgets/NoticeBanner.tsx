import type { ReactNode } from 'react';

/**
 * A warning that lists what was adjusted or ignored (an address's bad parts, a lab's parameters
 * fitted to the kernel), as a status region a screen reader announces: the title, one item a
 * notice, then whatever `children` adds (a dismiss button).
 */
export function NoticeBanner({ title, notices, testId, className, children }: { readonly title: string; readonly notices: readonly string[]; readonly testId: string; readonly className?: string; readonly children?: ReactNode }) {
  return (
    <section className={className ? `banner banner-warning ${className}` : 'banner banner-warning'} role="status" data-testid={testId}>
      <h2>
        <span aria-hidden="true">ⓘ </span>
        {title}
      </h2>
      <ul>
        {notices.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
      {children}
    </section>
  );
}
