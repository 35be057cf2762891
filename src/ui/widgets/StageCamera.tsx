import { useEffect, useRef, useState, type ReactNode } from 'react';
import { t, type MessageKey } from '../../i18n/messages.ts';
import { usePrefersReducedMotion } from './motion.ts';

type Edges = { readonly left: boolean; readonly right: boolean; readonly up: boolean; readonly down: boolean };
const NONE: Edges = { left: false, right: false, up: false, down: false };
const same = (a: Edges, b: Edges) => a.left === b.left && a.right === b.right && a.up === b.up && a.down === b.down;

/**
 * The stage's scrolling body with a camera: after each change of `frameKey` (the step, the panel)
 * it pans so that the box around every `[data-subject]` element is in view (centred where it fits,
 * its top-left first where it does not; at once under reduced motion), and it says where more of the
 * picture lies outside the frame ("↑ more", "more →"), so the learner knows there is more. Those
 * marks sit in a strip of their own under the frame, never over the picture, and each is a button
 * that moves the frame that way.
 * Panels frame their subject themselves (fit, ⋯ runs, tree zoom); this only pans what is left.
 */
export function StageCamera({ frameKey, label, children }: { frameKey: string; label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const reduced = usePrefersReducedMotion();
  const [edges, setEdges] = useState<Edges>(NONE);
  // The learner moved the frame (scrolled, pressed a "more" mark): the camera stops re-framing.
  const learnerMoved = useRef(false);

  useEffect(() => {
    const body = ref.current;
    if (!body) return;
    const measureEdges = () => {
      const next = {
        left: body.scrollLeft > 2,
        right: body.scrollLeft + body.clientWidth < body.scrollWidth - 2,
        up: body.scrollTop > 2,
        down: body.scrollTop + body.clientHeight < body.scrollHeight - 2,
      };
      setEdges((e) => (same(e, next) ? e : next));
    };
    const pan = () => {
      const marks = body.querySelectorAll('[data-subject]');
      // A picture that scrolls inside the stage (a wide graph) first brings its part of the subject in.
      const inner = new Map<HTMLElement, Element[]>();
      for (const m of marks) {
        // Pictures that scroll sideways inside the stage are marked `.svg-scroll` (one lookup, no styles read).
        const a = m.closest<HTMLElement>('.svg-scroll');
        if (a && body.contains(a)) inner.set(a, [...(inner.get(a) ?? []), m]);
      }
      for (const [scroller, els] of inner) {
        const c = scroller.getBoundingClientRect();
        const left = Math.min(...els.map((e) => e.getBoundingClientRect().left));
        const right = Math.max(...els.map((e) => e.getBoundingClientRect().right));
        if (left >= c.left && right <= c.right) continue;
        const dx = right - left <= c.width ? left - c.left - (c.width - (right - left)) / 2 : left - c.left - 8;
        scroller.scrollBy({ left: dx, behavior: reduced ? 'auto' : 'smooth' });
      }
      if (marks.length > 0) {
        const b = body.getBoundingClientRect();
        let top = Infinity, left = Infinity, bottom = -Infinity, right = -Infinity;
        for (const m of marks) {
          const r = m.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          top = Math.min(top, r.top);
          left = Math.min(left, r.left);
          bottom = Math.max(bottom, r.bottom);
          right = Math.max(right, r.right);
        }
        let dy = 0;
        let dx = 0;
        // Only when some of the subject is outside the frame: a learner's own scroll stands otherwise.
        if (top < b.top || bottom > b.bottom || left < b.left || right > b.right) {
          dy = bottom - top <= b.height ? top - b.top - (b.height - (bottom - top)) / 2 : top - b.top - 8;
          dx = right - left <= b.width ? left - b.left - (b.width - (right - left)) / 2 : left - b.left - 8;
        }
        // A frame scrolled by less than a line (a pan made while the picture was still growing, a
        // centring that moves a few px) cuts its top line for nothing: where the subject is whole
        // unscrolled, the frame goes back to its start.
        const line = Number.parseFloat(getComputedStyle(body).getPropertyValue('--stage-min-text')) || 12;
        const y = body.scrollTop + dy;
        const x = body.scrollLeft + dx;
        if (y > 0 && y < line && bottom + body.scrollTop <= b.bottom + 0.5) dy = -body.scrollTop;
        if (x > 0 && x < line && right + body.scrollLeft <= b.right + 0.5) dx = -body.scrollLeft;
        if (Number.isFinite(top) && (dy !== 0 || dx !== 0)) body.scrollBy({ top: dy, left: dx, behavior: reduced ? 'auto' : 'smooth' });
      }
      measureEdges();
    };
    let frame = requestAnimationFrame(pan);
    // A panel that draws its subject a moment later (its chunk, its own measuring, a table that
    // grows) is framed again when it does, for a short while, unless the learner has moved the view.
    learnerMoved.current = false;
    const moved = () => {
      learnerMoved.current = true;
    };
    const again = () => {
      if (learnerMoved.current) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(pan);
    };
    // A ResizeObserver reports every element once when it starts observing, in the same frame as
    // the first pan: that is no resize, and re-framing for it cost every step a second pan (and its
    // layout reads) in the next frame. Only a size that differs from the last one seen re-frames.
    const sizes = new WeakMap<Element, string>();
    const resized =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const e of entries) {
              const size = `${e.contentRect.width}x${e.contentRect.height}`;
              const last = sizes.get(e.target);
              sizes.set(e.target, size);
              if (last !== undefined && last !== size) changed = true;
            }
            if (changed) again();
          });
    const marked = typeof MutationObserver === 'undefined' ? undefined : new MutationObserver(again);
    // The frame itself too: tabs that wrap to another row above it shrink it after the first pan.
    resized?.observe(body);
    for (const child of body.children) resized?.observe(child);
    marked?.observe(body, { subtree: true, attributes: true, attributeFilter: ['data-subject'], childList: true });
    const settle = setTimeout(() => {
      resized?.disconnect();
      marked?.disconnect();
    }, 1500);
    body.addEventListener('scroll', measureEdges, { passive: true });
    for (const e of ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const) body.addEventListener(e, moved, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(settle);
      resized?.disconnect();
      marked?.disconnect();
      body.removeEventListener('scroll', measureEdges);
      for (const e of ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const) body.removeEventListener(e, moved);
    };
  }, [frameKey, reduced]);

  /** Moves the frame most of its own size towards `dx`, `dy` (−1, 0 or 1). */
  const nudge = (dx: number, dy: number) => {
    const body = ref.current;
    if (!body) return;
    learnerMoved.current = true;
    body.scrollBy({ left: dx * body.clientWidth * 0.8, top: dy * body.clientHeight * 0.8, behavior: reduced ? 'auto' : 'smooth' });
  };
  const more = (edge: keyof Edges, dx: number, dy: number, text: MessageKey, label: MessageKey) =>
    edges[edge] && (
      <button type="button" className={`stage-more stage-more-${edge}`} onClick={() => nudge(dx, dy)} aria-label={t(label)} data-testid={`stage-more-${edge}`}>
        {t(text)}
      </button>
    );

  return (
    <div className="stage-camera" data-edges={Object.entries(edges).filter(([, v]) => v).map(([k]) => k).join(' ')}>
      <div ref={ref} className="stage-body" role="tabpanel" tabIndex={0} aria-label={label} data-testid="stage-body">
        {children}
      </div>
      {(edges.left || edges.right || edges.up || edges.down) && (
        <div className="stage-more-bar" data-testid="stage-more">
          <span>
            {more('up', 0, -1, 'stage.moreUp', 'stage.moreUp.label')}
            {more('left', -1, 0, 'stage.moreLeft', 'stage.moreLeft.label')}
          </span>
          <span>
            {more('right', 1, 0, 'stage.moreRight', 'stage.moreRight.label')}
            {more('down', 0, 1, 'stage.moreDown', 'stage.moreDown.label')}
          </span>
        </div>
      )}
    </div>
  );
}
