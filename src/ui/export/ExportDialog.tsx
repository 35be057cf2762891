import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { t } from '../../i18n/messages.ts';
import { QrCode } from './QrCode.tsx';
import { download, pngSize, toPng } from './raster.ts';
import { toStandaloneSvg } from './serialize.ts';

/** A file name for this picture and this state of the page: `warpscope-reduce-warp-grid-step-42`. */
function baseName(name: string): string {
  const where = location.pathname.split('/').filter(Boolean).pop() ?? 'home';
  const step = new URLSearchParams(location.search).get('step');
  return ['warpscope', where, name, step ? `step-${step}` : ''].filter(Boolean).join('-').replace(/[^\w.-]+/g, '-');
}

/**
 * The export dialog (loaded only when a person opens it): the picture as SVG or PNG, and a link to
 * this state of the lab with a QR code for the class. A modal <dialog>: Tab stays inside, Escape
 * closes, and the focus returns to the Export button.
 */
export default function ExportDialog({ target, name, title, onClose }: { target: RefObject<Element | null>; name: string; title: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const linkId = useId();
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  // The address already holds the lab, variant, parameters, step and focus.
  const [link] = useState(() => location.href);
  // The picture's size as the dialog opened (the files are written afresh when asked for).
  const [picture] = useState(() => (target.current ? toStandaloneSvg(target.current, title) : undefined));
  const png = picture ? pngSize(picture, window.devicePixelRatio || 1) : undefined;

  useEffect(() => {
    // Unmounting removes the dialog from the page, which also closes it.
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const fresh = () => {
    if (!target.current) throw new Error(t('export.gone'));
    return toStandaloneSvg(target.current, t('export.fileTitle', { what: title }));
  };
  const saveSvg = () => {
    try {
      const svg = fresh();
      download(new Blob([`<?xml version="1.0" encoding="UTF-8"?>\n${svg.markup}\n`], { type: 'image/svg+xml' }), `${baseName(name)}.svg`);
      setMessage(t('export.savedSvg', { file: `${baseName(name)}.svg`, width: svg.width, height: svg.height }));
    } catch (e) {
      setMessage(t('export.svgFailed', { message: e instanceof Error ? e.message : String(e) }));
    }
  };
  const savePng = async () => {
    setBusy(true);
    try {
      const { blob, width, height } = await toPng(fresh());
      download(blob, `${baseName(name)}.png`);
      setMessage(t('export.savedPng', { file: `${baseName(name)}.png`, width, height }));
    } catch (e) {
      setMessage(t('export.pngFailed', { message: e instanceof Error ? e.message : String(e) }));
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setMessage(t('export.copied'));
    } catch {
      setMessage(t('export.copyRefused'));
    }
  };

  return (
    <dialog ref={ref} className="export-dialog" aria-labelledby={headingId} onClose={onClose} data-testid="export-dialog" data-export-skip="">
      <h2 id={headingId}>{t('export.title', { what: title })}</h2>
      {picture ? (
        <p className="hint">{t('export.sizes', { width: png!.width, height: png!.height })}</p>
      ) : (
        <p className="hint">{t('export.nothing')}</p>
      )}
      <div className="controls">
        <button type="button" onClick={saveSvg} disabled={!picture} data-testid="export-svg">
          {t('export.svg')}
        </button>
        <button type="button" onClick={() => void savePng()} disabled={!picture || busy} data-testid="export-png">
          {busy ? t('export.drawing') : t('export.png')}
        </button>
      </div>
      <h3>{t('export.share')}</h3>
      <label htmlFor={linkId}>{t('export.linkLabel')}</label>
      <div className="controls">
        <input id={linkId} type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} data-testid="export-link" />
        <button type="button" onClick={() => void copy()}>
          {t('export.copy')}
        </button>
      </div>
      <QrCode text={link} label={t('export.qr')} />
      <p className="export-status" role="status" data-testid="export-status">
        {message}
      </p>
      <button type="button" onClick={() => ref.current?.close()} data-testid="export-close">
        {t('export.close')}
      </button>
    </dialog>
  );
}
