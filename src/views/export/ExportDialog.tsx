import { useEffect, useId, useRef, useState, type RefObject } from 'react';
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
    if (!target.current) throw new Error('the picture is no longer on the page; close this dialog and try again');
    return toStandaloneSvg(target.current, `Warpscope: ${title}`);
  };
  const saveSvg = () => {
    try {
      const svg = fresh();
      download(new Blob([`<?xml version="1.0" encoding="UTF-8"?>\n${svg.markup}\n`], { type: 'image/svg+xml' }), `${baseName(name)}.svg`);
      setMessage(`Saved ${baseName(name)}.svg (${svg.width} × ${svg.height}, scales to any size).`);
    } catch (e) {
      setMessage(`Could not save the SVG: ${e instanceof Error ? e.message : String(e)}.`);
    }
  };
  const savePng = async () => {
    setBusy(true);
    try {
      const { blob, width, height } = await toPng(fresh());
      download(blob, `${baseName(name)}.png`);
      setMessage(`Saved ${baseName(name)}.png (${width} × ${height} px).`);
    } catch (e) {
      setMessage(`Could not save the PNG: ${e instanceof Error ? e.message : String(e)}. The SVG export still works.`);
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setMessage('Link copied.');
    } catch {
      setMessage('The browser did not allow copying: select the link above and copy it by hand.');
    }
  };

  return (
    <dialog ref={ref} className="export-dialog" aria-labelledby={headingId} onClose={onClose} data-testid="export-dialog" data-export-skip="">
      <h2 id={headingId}>Export {title}</h2>
      {picture ? (
        <p className="hint">
          For slides and handouts: SVG stays sharp at any size; PNG is {png!.width} × {png!.height} px, for projectors.
        </p>
      ) : (
        <p className="hint">There is no picture here yet; the link below still opens this state.</p>
      )}
      <div className="controls">
        <button type="button" onClick={saveSvg} disabled={!picture} data-testid="export-svg">
          Download SVG
        </button>
        <button type="button" onClick={() => void savePng()} disabled={!picture || busy} data-testid="export-png">
          {busy ? 'Drawing the PNG…' : 'Download PNG'}
        </button>
      </div>
      <h3>Share this state with the class</h3>
      <label htmlFor={linkId}>Link to this lab, variant, parameters, step and focus</label>
      <div className="controls">
        <input id={linkId} type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} data-testid="export-link" />
        <button type="button" onClick={() => void copy()}>
          Copy link
        </button>
      </div>
      <QrCode text={link} label="QR code of the link above: scan it to open this state on a phone or laptop." />
      <p className="export-status" role="status" data-testid="export-status">
        {message}
      </p>
      <button type="button" onClick={() => ref.current?.close()} data-testid="export-close">
        Close
      </button>
    </dialog>
  );
}
