import { useEffect, useState, type RefObject } from 'react';

/**
 * Long lists stay smooth (issue 13 section 1): beyond a few hundred rows the table renders only
 * the rows in and near the viewport, with spacer rows standing in for the others. The page
 * scrolls (not the table), so the range follows the window's scroll and size.
 */

/** From this many rows on, only the visible rows render. */
export const WINDOW_FROM = 300;
/** Rows rendered above and below the viewport, so a fast scroll or Enter to the next row finds it there. */
export const OVERSCAN = 25;
/** The row height assumed until a row is measured (a table row of the grid). */
export const DEFAULT_ROW_HEIGHT = 41;

export type RowRange = { first: number; last: number };

/**
 * The rows to render: those between the viewport's top and bottom plus the overscan, for rows of
 * `rowHeight` whose first row starts `offset` pixels below the viewport's top (negative once
 * scrolled past). `last` is exclusive; every row when the list is shorter than WINDOW_FROM.
 */
export const visibleRange = (
  count: number,
  rowHeight: number,
  offset: number,
  viewport: number,
  overscan = OVERSCAN,
): RowRange => {
  if (count < WINDOW_FROM) return { first: 0, last: count };
  const h = Math.max(1, rowHeight);
  const above = Math.max(0, -offset);
  const first = Math.min(count, Math.max(0, Math.floor(above / h) - overscan));
  const last = Math.min(
    count,
    Math.max(first, Math.ceil(Math.max(0, above + viewport - Math.max(0, offset)) / h) + overscan),
  );
  return { first, last };
};

/**
 * The range of rows a table body shows for the window's scroll position; the row height is the
 * average of the rows rendered (cards on a phone are taller than table rows).
 */
export const useRowWindow = (
  count: number,
  body: RefObject<HTMLTableSectionElement | null>,
): RowRange & { rowHeight: number } => {
  const [state, setState] = useState({ first: 0, last: Math.min(count, WINDOW_FROM), rowHeight: DEFAULT_ROW_HEIGHT });
  useEffect(() => {
    if (count < WINDOW_FROM) {
      setState((s) => (s.first === 0 && s.last === count ? s : { ...s, first: 0, last: count }));
      return;
    }
    let frame = 0;
    const measure = () => {
      frame = 0;
      const el = body.current;
      if (!el) return;
      const rows = el.querySelectorAll<HTMLTableRowElement>('tr[data-row]');
      let rowHeight = state.rowHeight;
      if (rows.length > 0) {
        const total = [...rows].reduce((sum, r) => sum + r.getBoundingClientRect().height, 0);
        rowHeight = Math.max(20, total / rows.length);
      }
      const r = visibleRange(count, rowHeight, el.getBoundingClientRect().top, window.innerHeight);
      setState((s) =>
        s.first === r.first && s.last === r.last && Math.abs(s.rowHeight - rowHeight) < 0.5 ? s : { ...r, rowHeight },
      );
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    // Rows change height without a scroll (edit mode's editors, a row's error line): measure again.
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(schedule);
    if (body.current) resized?.observe(body.current);
    return () => {
      resized?.disconnect();
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [count, body]);
  return state;
};
