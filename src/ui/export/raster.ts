import { resized, type StandaloneSvg } from './serialize.ts';

/** Projector resolution: a PNG is never narrower than this (1080p projectors are 1920 px wide). */
export const PROJECTOR_WIDTH = 1920;
/** Browsers refuse larger canvases. */
const MAX_SIDE = 16_384;

/** The pixel size a PNG of `svg` gets: at least projector width, the aspect ratio kept. */
export function pngSize(svg: { width: number; height: number }, deviceScale = 1): { width: number; height: number } {
  let width = Math.max(PROJECTOR_WIDTH, Math.round(svg.width * deviceScale));
  if ((width * svg.height) / svg.width > MAX_SIDE) width = Math.floor((MAX_SIDE * svg.width) / svg.height);
  return { width, height: Math.round((width * svg.height) / svg.width) };
}

/**
 * Draws the SVG into a canvas at projector resolution and encodes it as PNG. The SVG is drawn at
 * its final size (not scaled up from a small bitmap), so lines and text stay sharp.
 */
export async function toPng(svg: StandaloneSvg): Promise<{ blob: Blob; width: number; height: number }> {
  const size = pngSize(svg, window.devicePixelRatio || 1);
  const big = resized(svg, size.width);
  // A data: URL, not a blob: one: Chrome taints a canvas that drew a blob: SVG holding a
  // foreignObject (an HTML panel), and a tainted canvas cannot be saved.
  const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(big.markup)}`;
  const img = new Image(big.width, big.height);
  img.src = url;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = big.width;
  canvas.height = big.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gave no 2D canvas to draw the PNG in');
  ctx.drawImage(img, 0, 0, big.width, big.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error(`the browser could not encode a ${big.width} × ${big.height} px PNG`);
  return { blob, width: big.width, height: big.height };
}

/** Saves `blob` as a download called `filename`. */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  // The download has started once click() returns; give the browser a moment before revoking.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
