import { useEffect, useRef, useState, type RefObject } from 'react';

/** The width a picture has to fill, and the CSS zoom its first child is drawn at (projector mode). */
export interface FrameWidth {
  readonly width: number;
  readonly zoom: number;
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
      // Whole pixels: a sub-pixel change must not re-frame (and re-measure) for ever.
      setFit((f) => (f && Math.round(f.width) === Math.round(width) && f.zoom === zoom ? f : { width, zoom }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, fit];
}
