import { useEffect, useRef, useState, type RefObject } from 'react';

/** The width a picture has to fill, and the CSS zoom its first child is drawn at (projector mode). */
export interface FrameWidth {
  readonly width: number;
  readonly zoom: number;
  /** The smallest text the stage may draw, in CSS px (`--stage-min-text`: 12, 28 in projector mode). */
  readonly minText: number;
}

/**
 * Measures an element's content width, and the zoom of the picture inside it, whenever the element
 * resizes: what the stage camera frames against. Undefined until the first measurement.
 */
export function useFrameWidth<E extends HTMLElement>(): [RefObject<E | null>, FrameWidth | undefined] {
  const ref = useRef<E>(null);
  const [fit, setFit] = useState<FrameWidth | undefined>();
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const child = el.firstElementChild;
      const zoom = child ? Number.parseFloat(getComputedStyle(child).zoom) || 1 : 1;
      const width = el.clientWidth;
      const minText = Number.parseFloat(getComputedStyle(el).getPropertyValue('--stage-min-text')) || 12;
      // Whole pixels: a sub-pixel change must not re-frame (and re-measure) for ever.
      setFit((f) => (f && Math.round(f.width) === Math.round(width) && f.zoom === zoom && f.minText === minText ? f : { width, zoom, minText }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, fit];
}
