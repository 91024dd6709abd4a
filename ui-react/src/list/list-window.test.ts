import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OVERSCAN, visibleRange, WINDOW_FROM } from './list-window.js';

describe('table windowing (issue 13 section 1: long lists render only the visible rows beyond a few hundred)', () => {
  it('renders every row below the threshold', () => {
    expect(visibleRange(WINDOW_FROM - 1, 40, -5000, 800)).toEqual({ first: 0, last: WINDOW_FROM - 1 });
  });

  it('renders the rows in the viewport plus the overscan', () => {
    // 1000 rows of 40 px, scrolled 4000 px past the first row: rows 100 to 120 are visible
    expect(visibleRange(1000, 40, -4000, 800)).toEqual({ first: 100 - OVERSCAN, last: 120 + OVERSCAN });
    // the table starts lower on the page: the top rows
    expect(visibleRange(1000, 40, 200, 800)).toEqual({ first: 0, last: 15 + OVERSCAN });
    // scrolled to the end
    expect(visibleRange(1000, 40, -40000 + 800, 800).last).toBe(1000);
  });

  it('the range is within the rows, covers the viewport, and is at most a viewport plus overscan long', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: WINDOW_FROM, max: 5000 }),
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: -600000, max: 2000 }),
        fc.integer({ min: 200, max: 2000 }),
        (count, h, offset, viewport) => {
          const { first, last } = visibleRange(count, h, offset, viewport);
          expect(0 <= first && first <= last && last <= count).toBe(true);
          expect(last - first).toBeLessThanOrEqual(Math.ceil(viewport / h) + 2 * OVERSCAN + 1);
          const firstVisible = Math.floor(Math.max(0, -offset) / h);
          if (firstVisible < count)
            expect(first <= firstVisible && last > Math.min(count - 1, firstVisible)).toBe(true);
        },
      ),
    );
  });
});
