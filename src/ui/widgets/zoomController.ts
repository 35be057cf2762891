/**
 * d3-zoom wrapped as a controller for a horizontal axis of words: the view tells it the drawing
 * width, hears the visible range [lo, hi) in words, and asks it to show a range, zoom or fit. The
 * wheel, drag and pinch go through d3's behaviour; buttons and keys go through the same transform,
 * so both agree.
 */
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior } from 'd3-zoom';

export interface ZoomController {
  /** Shows words [lo, hi). */
  show(lo: number, hi: number): void;
  /** Zooms by `factor` (> 1 in) about the middle. */
  zoomBy(factor: number): void;
  /** Shows every word. */
  fit(): void;
  /** The drawing width changed. */
  resize(width: number): void;
  dispose(): void;
}

export function createZoomController(
  svg: SVGSVGElement,
  { words, minSpan, width: initialWidth, onChange }: { words: number; minSpan: number; width: number; onChange: (lo: number, hi: number) => void },
): ZoomController {
  let width = Math.max(1, initialWidth);
  const maxK = Math.max(1, words / Math.max(1, minSpan));
  const behaviour: ZoomBehavior<SVGSVGElement, unknown> = zoom<SVGSVGElement, unknown>()
    .scaleExtent([1, maxK])
    .on('zoom', (e: { transform: { k: number; x: number } }) => {
      const { k, x } = e.transform;
      // Screen x = k·(word·width/words) + x  ⇒  the words at screen 0 and at `width`.
      const lo = (-x / k) * (words / width);
      const hi = ((width - x) / k) * (words / width);
      onChange(Math.max(0, lo), Math.min(words, hi));
    });
  const sel = select(svg);
  const apply = () => {
    behaviour.extent([
      [0, 0],
      [width, 1],
    ]);
    behaviour.translateExtent([
      [0, -Infinity],
      [width, Infinity],
    ]);
  };
  apply();
  sel.call(behaviour);
  const controller: ZoomController = {
    show(lo, hi) {
      const span = Math.max(minSpan, Math.min(words, hi - lo));
      const start = Math.max(0, Math.min(words - span, lo));
      const k = Math.min(maxK, words / span);
      behaviour.transform(sel, zoomIdentity.translate((-start * width * k) / words, 0).scale(k));
    },
    zoomBy(factor) {
      behaviour.scaleBy(sel, factor, [width / 2, 0]);
    },
    fit() {
      behaviour.transform(sel, zoomIdentity);
    },
    resize(next) {
      width = Math.max(1, next);
      apply();
    },
    dispose() {
      sel.on('.zoom', null);
    },
  };
  return controller;
}
