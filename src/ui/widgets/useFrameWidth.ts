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

/** The room a stage frame gives: its body's (or a compare half's) inner height, and the smallest text the stage may draw. */
export interface StageRoom {
  readonly height: number;
  readonly width: number;
  /** `--stage-min-text`: 12, 28 in projector mode. */
  readonly minText: number;
}

/**
 * Measures the stage frame (`.stage-body`, or `.stage-half` in compare mode) an element is seen
 * through whenever it resizes: what a panel fits its picture to when the picture is taller than
 * the frame (a 1280×720 screen). Undefined until the first measurement, or outside a stage.
 */
export function useStageRoom<E extends HTMLElement>(): [RefObject<E | null>, StageRoom | undefined] {
  const ref = useRef<E>(null);
  const [room, setRoom] = useState<StageRoom | undefined>();
  useEffect(() => {
    const frame = ref.current?.closest<HTMLElement>('.stage-body, .stage-half');
    if (!frame || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const height = Math.round(frame.clientHeight);
      const width = Math.round(frame.clientWidth);
      const minText = Number.parseFloat(getComputedStyle(frame).getPropertyValue('--stage-min-text')) || 12;
      setRoom((r) => (r && r.height === height && r.width === width && r.minText === minText ? r : { height, width, minText }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(frame);
    return () => ro.disconnect();
  }, []);
  return [ref, room];
}
