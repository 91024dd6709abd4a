import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DashboardObject } from './view.js';
import { cssClassesOf, dashboardGridCss, gridAreaCss, gridCss, gridPlacement, stackingOrder } from './dashboard-layout.js';

const at = (name: string, gridArea?: string): DashboardObject => ({ kind: 'label', name, ...(gridArea === undefined ? {} : { gridArea }) });

describe('dashboard layout: a CSS grid from gridTemplate and gridArea (issue 13 section 4)', () => {
  it('reads grid lines row-start / column-start / row-end / column-end, spans, and named areas', () => {
    expect(gridPlacement('1 / 1 / 2 / 5')).toEqual({ _tag: 'Lines', row: 1, column: 1, rowEnd: '2', columnEnd: '5' });
    expect(gridPlacement('3 / 2')).toEqual({ _tag: 'Lines', row: 3, column: 2, rowEnd: null, columnEnd: null });
    expect(gridPlacement('2 / 1 / span 2 / span 3')).toEqual({ _tag: 'Lines', row: 2, column: 1, rowEnd: 'span 2', columnEnd: 'span 3' });
    expect(gridPlacement('title')).toEqual({ _tag: 'Named', area: 'title' });
    expect(gridAreaCss(gridPlacement('3 / 3 / 5 / 5'))).toBe('3 / 3 / 5 / 5');
    expect(gridAreaCss(gridPlacement('3 / 2'))).toBe('3 / 2 / auto / auto');
  });

  it('places anything else automatically (no CSS from metadata that is not grid syntax)', () => {
    for (const bad of [undefined, '', '0 / 1', '-1 / 2', 'a / b', '1 / 2 / 3 / 4 / 5', '1;color:red', 'span 0 / 1', 'auto', '1 / 1 / span 0']) expect(gridPlacement(bad)._tag, String(bad)).toBe('Auto');
    expect(gridAreaCss({ _tag: 'Auto' })).toBeUndefined();
  });

  it('takes gridTemplate as the columns, or as the whole template when it has rows / columns', () => {
    expect(dashboardGridCss({ gridTemplate: 'repeat(4, 1fr)' })).toEqual({ gridTemplateColumns: 'repeat(4, 1fr)' });
    expect(dashboardGridCss({ gridTemplate: 'auto 1fr / 1fr 1fr' })).toEqual({ gridTemplate: 'auto 1fr / 1fr 1fr' });
    expect(dashboardGridCss({ gridTemplate: '"a b" "c d" / 1fr 1fr' })).toEqual({ gridTemplate: '"a b" "c d" / 1fr 1fr' });
    expect(dashboardGridCss({})).toEqual({});
    for (const bad of ['1fr; background: red', 'url(x)', '1fr } body { color: red', 'x'.repeat(400), 'a\\62']) expect(gridCss(bad), bad).toBeUndefined();
  });

  it('cssClass adds plain class names only', () => {
    expect(cssClassesOf({ cssClass: 'dashboard-title  big' })).toEqual(['dashboard-title', 'big']);
    expect(cssClassesOf({ cssClass: 'a"><script> b' })).toEqual(['b']);
    expect(cssClassesOf({})).toEqual([]);
  });

  it('stacks in reading order on narrow screens: by row, then column; unplaced objects after the one before them', () => {
    const objects = [at('chart', '3 / 3 / 5 / 5'), at('title', '1 / 1 / 2 / 5'), at('n', '3 / 1 / 4 / 2'), at('free'), at('filter', '2 / 1 / 3 / 3')];
    expect(stackingOrder(objects).map((i) => objects[i].name)).toEqual(['title', 'filter', 'n', 'free', 'chart']);
    expect(stackingOrder([at('a'), at('b'), at('c')])).toEqual([0, 1, 2]);
  });

  it('property: the stacking order is a permutation, and placed objects come by row then column', () => {
    const area = fc.option(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 })).map(([r, c]) => `${r} / ${c}`), { nil: undefined });
    fc.assert(
      fc.property(fc.array(area, { maxLength: 12 }), (areas) => {
        const objects = areas.map((a, i) => at(`o${i}`, a));
        const order = stackingOrder(objects);
        if ([...order].sort((a, b) => a - b).join() !== objects.map((_, i) => i).join()) return false;
        const placed = order.map((i) => gridPlacement(objects[i].gridArea)).filter((p) => p._tag === 'Lines');
        return placed.every((p, k) => k === 0 || p.row > placed[k - 1].row || (p.row === placed[k - 1].row && p.column >= placed[k - 1].column));
      }),
    );
  });
});
