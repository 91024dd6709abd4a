import type { Dashboard, DashboardObject } from './view.js';

/**
 * Where the objects of a dashboard go (docs/ui.md "Dashboards"): a CSS grid whose template is the
 * dashboard's `gridTemplate` and where each object takes its `gridArea`. Narrow screens stack the
 * objects in one column in reading order (by row, then column). Values come from metadata and are
 * handed to the browser as CSS: only the characters CSS grid syntax needs are accepted.
 */

/** An object's place: lines of the grid (`row-start / column-start / row-end / column-end`), a named area, or automatic. */
export type GridPlacement =
  /** ends are a line number or `span n`; null spans one track */
  | { readonly _tag: 'Lines'; readonly row: number; readonly column: number; readonly rowEnd: string | null; readonly columnEnd: string | null }
  | { readonly _tag: 'Named'; readonly area: string }
  | { readonly _tag: 'Auto' };

/** Longest CSS value taken from metadata. */
const MAX_CSS_LENGTH = 300;
/** Grid syntax: numbers, units, names, repeat()/minmax(), slashes, quoted area rows, spans. No `;`, `{`, `}`, `\`, `url(`. */
const GRID_CSS = /^[\w\s().,%/"'+-]+$/;

/** A grid value from metadata when it is plain grid syntax, else undefined (the default applies). */
export const gridCss = (value: string | undefined): string | undefined => {
  const v = value?.trim();
  if (v === undefined || v === '' || v.length > MAX_CSS_LENGTH || !GRID_CSS.test(v) || /url\s*\(|expression\s*\(/i.test(v)) return undefined;
  return v;
};

const line = (s: string | undefined): number | null | undefined => {
  const v = s?.trim();
  if (v === undefined || v === '' || v === 'auto') return null;
  if (!/^-?\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n === 0 ? undefined : n;
};

/** An end line: a line number, or `span n` (n at least 1). */
const end = (s: string | undefined): string | null | undefined => {
  const m = /^span\s+(\d+)$/i.exec(s?.trim() ?? '');
  if (m) return Number(m[1]) >= 1 ? `span ${Number(m[1])}` : undefined;
  const n = line(s);
  return n === null || n === undefined ? n : String(n);
};

/**
 * The placement a `gridArea` names: up to four grid lines separated by `/` (row start, column
 * start, row end, column end; an end may be `span n`; missing ends span one track), or one area
 * name of the template. Anything else (negative starts, garbage) places the object automatically.
 */
export const gridPlacement = (gridArea: string | undefined): GridPlacement => {
  const v = gridArea?.trim() ?? '';
  if (v === '') return { _tag: 'Auto' };
  if (/^[A-Za-z_][\w-]*$/.test(v) && v !== 'auto') return { _tag: 'Named', area: v };
  const parts = v.split('/').map((p) => p.trim());
  if (parts.length > 4) return { _tag: 'Auto' };
  const [row, column] = [line(parts[0]), line(parts[1])];
  const [rowEnd, columnEnd] = [end(parts[2]), end(parts[3])];
  if (typeof row !== 'number' || row < 1) return { _tag: 'Auto' };
  if (column === undefined || rowEnd === undefined || columnEnd === undefined) return { _tag: 'Auto' };
  if (column !== null && column < 1) return { _tag: 'Auto' };
  return { _tag: 'Lines', row, column: column ?? 1, rowEnd, columnEnd };
};

/** The `grid-area` CSS of a placement (undefined: automatic). */
export const gridAreaCss = (p: GridPlacement): string | undefined => {
  switch (p._tag) {
    case 'Auto':
      return undefined;
    case 'Named':
      return p.area;
    case 'Lines':
      return [p.row, p.column, p.rowEnd ?? 'auto', p.columnEnd ?? 'auto'].join(' / ');
  }
};

/**
 * The reading order of the objects when they stack in one column: objects placed by lines by their
 * row, then column; the others (named or automatic) keep their place in the definition, after the
 * placed objects of earlier rows. Answers the indexes of `objects` in that order (a permutation).
 */
export const stackingOrder = (objects: readonly DashboardObject[]): number[] => {
  const keyed = objects.map((o, i) => {
    const p = gridPlacement(o.gridArea);
    return { i, p };
  });
  // An unplaced object sorts as if on the row of the placed object before it (or first).
  let lastRow = 0;
  let lastColumn = 0;
  const keys = keyed.map(({ i, p }) => {
    if (p._tag === 'Lines') {
      lastRow = p.row;
      lastColumn = p.column;
      return { i, row: p.row, column: p.column, tie: 0 };
    }
    return { i, row: lastRow, column: lastColumn, tie: 1 };
  });
  return keys.sort((a, b) => a.row - b.row || a.column - b.column || a.tie - b.tie || a.i - b.i).map((k) => k.i);
};

/** The CSS of a dashboard's grid: `gridTemplate` with a `/` is the grid-template shorthand (rows / columns), otherwise the columns. */
export const dashboardGridCss = (d: Pick<Dashboard, 'gridTemplate'>): { gridTemplate?: string; gridTemplateColumns?: string } => {
  const v = gridCss(d.gridTemplate);
  if (v === undefined) return {};
  return v.includes('/') ? { gridTemplate: v } : { gridTemplateColumns: v };
};

/** The class names an object's `cssClass` adds: plain class tokens only. */
export const cssClassesOf = (o: Pick<DashboardObject, 'cssClass'>): string[] =>
  (o.cssClass ?? '').split(/\s+/).filter((c) => /^[A-Za-z_-][\w-]*$/.test(c) && c.length <= 64);
