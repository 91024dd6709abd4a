import { useEffect, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent } from 'react';

/**
 * Dragging a card between lanes with pointer events, so a mouse, a pen and a finger work alike
 * (HTML5 drag and drop has no touch). A mouse drags the card from anywhere on it; a finger from
 * its handle only (the handle has `touch-action: none`; elsewhere a finger scrolls the board). The
 * drag starts after a few pixels of movement, so a click still opens the card's link; a floating
 * copy of the card follows the pointer, the lane under it is the drop target, and the board
 * scrolls when the pointer nears its edge. Escape cancels.
 */

/** Pixels the pointer moves before a press becomes a drag. */
const START_DISTANCE = 6;
/** Distance from a scroll container's edge at which the drag scrolls it, and the step per frame. */
const EDGE = 48;
const STEP = 14;

export type CardDrag = {
  /** the card dragged, and the lane under the pointer (null: none that takes it) */
  dragging: { id: string; over: string | null } | null;
  /** attach to a draggable card's pointerdown */
  onPointerDown: (e: ReactPointerEvent<HTMLElement>, id: string, fromLane: string) => void;
};

type Pending = {
  id: string;
  from: string;
  pointerId: number;
  x: number;
  y: number;
  card: HTMLElement;
  ghost: HTMLElement | null;
  dx: number;
  dy: number;
  over: string | null;
};

/**
 * `accepts(id, lane)`: whether the card may be dropped on the lane; `drop(id, lane)` moves it.
 * `board` is the scrolling element of the lanes (scrolled sideways near its edges).
 */
export const useCardDrag = (board: React.RefObject<HTMLElement | null>, accepts: (id: string, lane: string) => boolean, drop: (id: string, lane: string) => void): CardDrag => {
  const [dragging, setDragging] = useState<CardDrag['dragging']>(null);
  const pending = useRef<Pending | null>(null);
  const frame = useRef<number | null>(null);
  const last = useRef({ x: 0, y: 0 });
  // The latest callbacks, read by the window listeners without re-binding them.
  const cb = useRef({ accepts, drop });
  cb.current = { accepts, drop };

  useEffect(() => {
    const laneAt = (x: number, y: number): string | null => {
      const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-lane-key]');
      return el ? (el.dataset.laneKey ?? null) : null;
    };
    const stopScrolling = () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
    /** Scrolls the board sideways and the page up or down while the pointer rests near an edge. */
    const scrollNearEdges = () => {
      stopScrolling();
      const p = pending.current;
      if (!p?.ghost) return;
      const { x, y } = last.current;
      const b = board.current;
      let moved = false;
      if (b) {
        const r = b.getBoundingClientRect();
        const step = x < r.left + EDGE && b.scrollLeft > 0 ? -STEP : x > r.right - EDGE && b.scrollLeft + b.clientWidth < b.scrollWidth ? STEP : 0;
        if (step !== 0) {
          b.scrollLeft += step;
          moved = true;
        }
      }
      const vertical = y < EDGE && window.scrollY > 0 ? -STEP : y > window.innerHeight - EDGE ? STEP : 0;
      if (vertical !== 0) {
        const before = window.scrollY;
        window.scrollBy(0, vertical);
        moved ||= window.scrollY !== before;
      }
      if (moved) {
        track(x, y);
        frame.current = requestAnimationFrame(scrollNearEdges);
      }
    };
    const track = (x: number, y: number) => {
      const p = pending.current;
      if (!p?.ghost) return;
      p.ghost.style.transform = `translate(${x - p.dx}px, ${y - p.dy}px) rotate(1.5deg)`;
      const lane = laneAt(x, y);
      const over = lane !== null && lane !== p.from && cb.current.accepts(p.id, lane) ? lane : null;
      if (over !== p.over) {
        p.over = over;
        setDragging({ id: p.id, over });
      }
    };
    const begin = (p: Pending) => {
      const r = p.card.getBoundingClientRect();
      const ghost = p.card.cloneNode(true) as HTMLElement;
      ghost.classList.add('kb-ghost');
      ghost.removeAttribute('id');
      ghost.setAttribute('aria-hidden', 'true');
      ghost.style.width = `${r.width}px`;
      p.dx = p.x - r.left;
      p.dy = p.y - r.top;
      p.ghost = ghost;
      document.body.appendChild(ghost);
      document.body.classList.add('kb-dragging-body');
      setDragging({ id: p.id, over: null });
    };
    const end = (dropIt: boolean) => {
      const p = pending.current;
      pending.current = null;
      stopScrolling();
      if (!p) return;
      if (p.ghost) {
        p.ghost.remove();
        document.body.classList.remove('kb-dragging-body');
        // The click that ends a drag must not open the card's link.
        const swallow = (e: Event) => {
          e.preventDefault();
          e.stopPropagation();
        };
        window.addEventListener('click', swallow, { capture: true, once: true });
        setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
        setDragging(null);
        if (dropIt && p.over !== null) cb.current.drop(p.id, p.over);
      }
    };
    const move = (e: PointerEvent) => {
      const p = pending.current;
      if (!p || e.pointerId !== p.pointerId) return;
      last.current = { x: e.clientX, y: e.clientY };
      if (!p.ghost) {
        if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < START_DISTANCE) return;
        begin(p);
      }
      e.preventDefault();
      track(e.clientX, e.clientY);
      scrollNearEdges();
    };
    const up = (e: PointerEvent) => {
      if (pending.current && e.pointerId === pending.current.pointerId) end(true);
    };
    const cancel = (e: PointerEvent) => {
      if (pending.current && e.pointerId === pending.current.pointerId) end(false);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && pending.current?.ghost) {
        e.preventDefault();
        end(false);
      }
    };
    window.addEventListener('pointermove', move, { passive: false });
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    window.addEventListener('keydown', key);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      window.removeEventListener('keydown', key);
      end(false);
    };
  }, [board]);

  const onPointerDown = (e: ReactPointerEvent<HTMLElement>, id: string, fromLane: string) => {
    if (pending.current || !e.isPrimary || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const target = e.target as HTMLElement;
    // A finger drags from the handle only; buttons and menus of the card keep their own clicks.
    if (e.pointerType === 'touch' && !target.closest('.kb-handle')) return;
    if (target.closest('button, [role="menu"], input, select, textarea')) return;
    pending.current = { id, from: fromLane, pointerId: e.pointerId, x: e.clientX, y: e.clientY, card: e.currentTarget, ghost: null, dx: 0, dy: 0, over: null };
  };

  return { dragging, onPointerDown };
};
