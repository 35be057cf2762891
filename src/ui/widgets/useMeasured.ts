import { useEffect, useRef, useState, type RefObject } from 'react';

/** Two measurements are the same when every field is (`Object.is`): a plain value, or a flat record. */
function sameMeasure(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export interface MeasureOptions<E extends HTMLElement> {
  /** The element to watch, found from the ref's element (e.g. the stage frame it is seen through); the ref's element itself by default. */
  readonly target?: (el: E) => HTMLElement | null;
  /** Measure again when one of these changes (content that changes what is measured without resizing the box, e.g. a text that scrolls inside it). */
  readonly deps?: readonly unknown[];
}

/**
 * The one way the UI measures the page: `read` runs over the watched element when it mounts,
 * whenever it resizes, whenever a dep changes and when web fonts finish loading (text that reflows
 * in another face changes what fits without resizing the box). Returns the ref to put on the
 * element and the last reading, undefined until the first one (or when there is no element). A
 * reading equal to the last, field by field, keeps the old object, so a consumer does not re-render
 * (and re-measure) for ever. Without `ResizeObserver` (an old browser, a test DOM) it measures once
 * and after the fonts.
 */
export function useMeasured<E extends HTMLElement, T>(read: (el: HTMLElement) => T, options: MeasureOptions<E> = {}): [RefObject<E | null>, T | undefined] {
  const ref = useRef<E>(null);
  const [value, setValue] = useState<T | undefined>();
  // The latest `read` and `target` without re-subscribing on every render.
  const latest = useRef({ read, target: options.target });
  useEffect(() => {
    latest.current = { read, target: options.target };
  });
  const deps = options.deps ?? [];
  useEffect(() => {
    const el = ref.current;
    const watched = el && (latest.current.target ? latest.current.target(el) : el);
    if (!watched) return;
    let live = true;
    const measure = () => {
      if (!live) return;
      const next = latest.current.read(watched);
      setValue((old) => (old !== undefined && sameMeasure(old, next) ? old : next));
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(watched);
    const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
    void fonts?.ready.then(measure);
    fonts?.addEventListener?.('loadingdone', measure);
    return () => {
      live = false;
      observer?.disconnect();
      fonts?.removeEventListener?.('loadingdone', measure);
    };
  }, deps); // eslint-disable-line react-hooks/exhaustive-deps
  return [ref, value];
}

/** A CSS custom property of an element as a number of px, or `fallback`. */
export function cssPx(el: Element, name: string, fallback: number): number {
  return Number.parseFloat(getComputedStyle(el).getPropertyValue(name)) || fallback;
}
