import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code drawn as SVG rectangles by React (no markup strings: the page's Trusted Types forbid
 * them). Medium error correction, so a projected code still scans from the back of the room.
 */
export function QrCode({ text, label, size = 220 }: { text: string; label: string; size?: number }) {
  const qr = useMemo(() => encode(text, { ecc: 'M', border: 2 }), [text]);
  const n = qr.size;
  // One path of unit squares, row by row, merging runs of dark modules.
  const d = useMemo(() => {
    const parts: string[] = [];
    qr.data.forEach((row, y) => {
      for (let x = 0; x < n; x++) {
        if (!row[x]) continue;
        let run = 1;
        while (x + run < n && row[x + run]) run++;
        parts.push(`M${x} ${y}h${run}v1h-${run}z`);
        x += run - 1;
      }
    });
    return parts.join('');
  }, [qr, n]);
  return (
    <svg className="qr-code" width={size} height={size} viewBox={`0 0 ${n} ${n}`} role="img" aria-label={label} data-testid="export-qr" data-modules={n} shapeRendering="crispEdges">
      <rect width={n} height={n} fill="#ffffff" />
      <path d={d} fill="#000000" />
    </svg>
  );
}
