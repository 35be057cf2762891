import { lazy, Suspense, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { t } from '../../i18n/messages.ts';
import './export.css';

// The dialog, the SVG writer, the PNG encoder and the QR code load when first asked for.
const ExportDialog = lazy(() => import('./ExportDialog.tsx'));

/**
 * "Export…": opens the export dialog for the picture in `target` (an SVG, or any element holding
 * one; an HTML panel with no SVG is exported as it looks). Works on any element it is given.
 */
export function ExportButton({ target, name, title }: { target: RefObject<Element | null>; name: string; title: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button ref={button} type="button" className="export-button" aria-haspopup="dialog" onClick={() => setOpen(true)} data-testid="export-button" data-export-skip="">
        {t('export.button')}
        <span className="sr-only"> {title}</span>…
      </button>
      {open && (
        <Suspense fallback={null}>
          <ExportDialog
            target={target}
            name={name}
            title={title}
            onClose={() => {
              setOpen(false);
              button.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

/**
 * Wraps a panel to offer it for export: the Export button shows while the panel has something on
 * screen (a panel that renders nothing gets no button).
 */
export function Exportable({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setFilled([...el.children].some((c) => !c.hasAttribute('data-export-skip')));
    check();
    const observer = new MutationObserver(check);
    observer.observe(el, { childList: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div className="exportable" ref={ref} data-testid="exportable" data-export={name}>
      {filled && (
        <div className="export-bar" data-export-skip="">
          <ExportButton target={ref} name={name} title={title} />
        </div>
      )}
      {children}
    </div>
  );
}
