import type { RefObject } from 'react';
import { cssPx, useMeasured } from './useMeasured.ts';

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
  return useMeasured<E, FrameWidth>((el) => {
    const child = el.firstElementChild;
    return {
      // clientWidth is whole pixels: a sub-pixel change does not re-frame (and re-measure) for ever.
      width: el.clientWidth,
      zoom: child ? Number.parseFloat(getComputedStyle(child).zoom) || 1 : 1,
      minText: cssPx(el, '--stage-min-text', 12),
    };
  });
}

/** The room a stage frame gives: its body's (or a compare half's) inner height, and the smallest text the stage may draw. */
export interface StageRoom {
  readonly height: number;
  readonly width: number;
  /** `--stage-min-text`: 12, 28 in projector mode. */
  readonly minText: number;
}

const stageFrame = (el: HTMLElement) => el.closest<HTMLElement>('.stage-body, .stage-half');

/**
 * Measures the stage frame (`.stage-body`, or `.stage-half` in compare mode) an element is seen
 * through whenever it resizes: what a panel fits its picture to when the picture is taller than
 * the frame (a 1280×720 screen). Undefined until the first measurement, or outside a stage.
 */
export function useStageRoom<E extends HTMLElement>(): [RefObject<E | null>, StageRoom | undefined] {
  return useMeasured<E, StageRoom>((frame) => ({ height: frame.clientHeight, width: frame.clientWidth, minText: cssPx(frame, '--stage-min-text', 12) }), { target: stageFrame });
}
