import type { EntityRecord, FieldValue, Property } from '../metadata/entity.js';
import { primaryKeyOf } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import { inReadScope } from '../permissions/access.js';
import type { ReadScope } from '../permissions/types.js';
import type { FetchResult } from './query.js';
import { likeMatches, parseLikePattern } from './evaluate-like.js';
import { ROOT_TABLE, type ColumnRef, type PlanCondition, type PlanFilter, type PlanOrder, type QueryPlan, type Scalar } from './plan.js';

/**
 * The reference evaluator: runs a validated query plan over plain arrays. It defines the
 * semantics every store reproduces (the SQL stores are checked against it by a property test):
 * SQL three-valued logic (a comparison with an empty field is false, also for ne / not-in /
 * not-like), empty values sort first, text compares by code point (SQLite BINARY), like folds
 * ASCII case, ties are broken by the ids of the joined rows.
 */
export type EvaluationSource = {
  /** the stored records of an entity (lookups as `{ id, name }`, ids lower case, dates ISO) */
  rows(entity: string): readonly EntityRecord[];
  /** which rows of the entity the caller may read */
  scope(entity: string): ReadScope;
};

type Joined = Record<string, EntityRecord | null>;
type Cell = Scalar | null;

/** The comparable value of a stored field: a lookup compares by its id. */
export const cellOf = (record: EntityRecord | null, property: Property): Cell => {
  if (!record) return null;
  const v = record[property.logicalName];
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') return typeof v.id === 'string' ? v.id.toLowerCase() : null;
  return v;
};

/** Code-point order, the order of SQLite's BINARY collation over UTF-8. */
export const compareText = (a: string, b: string): number => {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i].codePointAt(0) as number) - (y[i].codePointAt(0) as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : x.length === y.length ? 0 : 1;
};

/** Total order of cells: empty first, then booleans, numbers, text. */
export const compareCells = (a: Cell | undefined, b: Cell | undefined): number => {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  const x = typeof a === 'boolean' ? Number(a) : a;
  const y = typeof b === 'boolean' ? Number(b) : b;
  if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : x > y ? 1 : 0;
  return compareText(String(x), String(y));
};

const conditionHolds = (c: PlanCondition, row: Joined): boolean => {
  const cell = cellOf(row[c.column.table], c.column.property);
  switch (c.kind) {
    case 'null':
      return c.negate ? cell !== null : cell === null;
    case 'like':
      if (cell === null) return false;
      return likeMatches(parseLikePattern(c.pattern), String(cell)) !== c.negate;
    case 'in': {
      if (cell === null) return false;
      const found = c.values.some((v) => compareCells(cell, v) === 0);
      return found !== c.negate;
    }
    case 'compare': {
      if (cell === null) return false;
      const d = compareCells(cell, c.value);
      switch (c.operator) {
        case 'eq':
          return d === 0;
        case 'ne':
          return d !== 0;
        case 'gt':
          return d > 0;
        case 'ge':
          return d >= 0;
        case 'lt':
          return d < 0;
        default:
          return d <= 0;
      }
    }
  }
};

export const filterHolds = (f: PlanFilter | null, row: Joined): boolean => {
  if (!f) return true;
  const parts = [...f.conditions.map((c) => conditionHolds(c, row)), ...f.filters.map((s) => filterHolds(s, row))];
  return f.type === 'or' ? parts.length === 0 || parts.some(Boolean) : parts.every(Boolean);
};

const ID: Property = { logicalName: 'id', displayName: 'id', type: 'Guid' };
const indexes = new WeakMap<EvaluationSource, Map<string, Map<string, EntityRecord>>>();

/** A row of an entity by id, from an index built once per evaluation (labels of lookups). */
const rowById = (source: EvaluationSource, entity: string, id: string): EntityRecord | undefined => {
  let perEntity = indexes.get(source);
  if (!perEntity) indexes.set(source, (perEntity = new Map()));
  let index = perEntity.get(entity);
  if (!index) {
    index = new Map();
    for (const r of source.rows(entity)) {
      const key = cellOf(r, ID);
      if (typeof key === 'string') index.set(key, r);
    }
    perEntity.set(entity, index);
  }
  return index.get(id);
};

/**
 * The output form of a stored field: a lookup gets its label from the target's name, when the
 * caller may read the target; of a record they may not read, the label is null (issue 22 item 6:
 * a label is what the record discloses, in lists, group keys and exports alike).
 */
const outputValue = (source: EvaluationSource, record: EntityRecord | null, property: Property): FieldValue => {
  if (!record) return null;
  const v = record[property.logicalName];
  if (v === undefined || v === null) return null;
  const stored = FIELD_TYPES[property.type].stored;
  if (stored === 'lookup' && typeof v === 'object') {
    const target = v.name || (property.targets ?? [])[0] || '';
    const targetRow = rowById(source, target, v.id.toLowerCase());
    const readable = targetRow !== undefined && inReadScope(source.scope(target), targetRow);
    const label = readable && typeof targetRow.name === 'string' ? targetRow.name : null;
    return { id: v.id, name: target, label };
  }
  if (stored === 'counter') return String(v);
  return v as FieldValue;
};

/** The sort key of an output value: a lookup sorts by label, then id. */
const sortCells = (v: FieldValue | undefined): Cell[] => {
  if (v && typeof v === 'object') return [v.label ?? null, v.id];
  return [v ?? null];
};

const compareKeys = (a: Cell[], b: Cell[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = compareCells(a[i], b[i]);
    if (d !== 0) return d;
  }
  return 0;
};

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Date grouping keys (UTC): '2024', '2024-Q1', '2024-03', ISO week '2024-W09' (weeks start Monday), '2024-03-05'. */
export const dateGroupKey = (iso: string, grouping: 'year' | 'quarter' | 'month' | 'week' | 'day'): string => {
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00.000Z` : iso);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  switch (grouping) {
    case 'year':
      return String(y);
    case 'quarter':
      return `${y}-Q${Math.floor((m - 1) / 3) + 1}`;
    case 'month':
      return `${y}-${pad(m)}`;
    case 'day':
      return `${y}-${pad(m)}-${pad(d.getUTCDate())}`;
    case 'week': {
      // The ISO week is the one holding its Thursday; its year is the Thursday's year.
      const day = (d.getUTCDay() + 6) % 7;
      const thursday = new Date(Date.UTC(y, m - 1, d.getUTCDate() - day + 3));
      const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
      const week = Math.floor((thursday.getTime() - jan1) / 86_400_000 / 7) + 1;
      return `${thursday.getUTCFullYear()}-W${pad(week)}`;
    }
  }
};

const joinRows = (plan: QueryPlan, source: EvaluationSource): Joined[] => {
  const rootScope = source.scope(plan.root.logicalName);
  let rows: Joined[] = source
    .rows(plan.root.logicalName)
    .filter((r) => inReadScope(rootScope, r))
    .map((r) => ({ [ROOT_TABLE]: r }));
  for (const link of plan.links) {
    const scope = source.scope(link.entity.logicalName);
    const candidates = source.rows(link.entity.logicalName).filter((r) => inReadScope(scope, r));
    const next: Joined[] = [];
    for (const row of rows) {
      const key = cellOf(row[link.parent], link.from);
      const matches =
        key === null
          ? []
          : candidates.filter((c) => {
              const joined = { ...row, [link.table]: c };
              return compareCells(cellOf(c, link.to), key) === 0 && filterHolds(link.filter, joined);
            });
      if (matches.length > 0) for (const m of matches) next.push({ ...row, [link.table]: m });
      else if (link.type === 'outer') next.push({ ...row, [link.table]: null });
    }
    rows = next;
  }
  return rows.filter((r) => filterHolds(plan.filter, r));
};

const pkOf = (plan: QueryPlan, table: string): Property => {
  const entity = table === ROOT_TABLE ? plan.root : plan.links.find((l) => l.table === table)!.entity;
  const pk = primaryKeyOf(entity);
  return entity.properties.find((p) => p.logicalName === pk) ?? { logicalName: pk, displayName: pk, type: 'Guid' };
};

const columnSortCells = (source: EvaluationSource, row: Joined, ref: ColumnRef): Cell[] =>
  FIELD_TYPES[ref.property.type].stored === 'lookup' ? sortCells(outputValue(source, row[ref.table], ref.property)) : [cellOf(row[ref.table], ref.property)];

const aggregateOf = (kind: string, cells: Cell[]): Cell => {
  const present = cells.filter((c): c is Scalar => c !== null);
  switch (kind) {
    case 'count':
      return present.length;
    case 'countdistinct':
      return new Set(present.map((c) => JSON.stringify(c))).size;
    case 'sum':
      return present.length === 0 ? null : present.reduce<number>((s, c) => s + Number(c), 0);
    case 'avg':
      return present.length === 0 ? null : present.reduce<number>((s, c) => s + Number(c), 0) / present.length;
    case 'min':
      return present.length === 0 ? null : present.reduce((m, c) => (compareCells(c, m) < 0 ? c : m));
    default:
      return present.length === 0 ? null : present.reduce((m, c) => (compareCells(c, m) > 0 ? c : m));
  }
};

const page = (plan: QueryPlan, records: EntityRecord[], counted: number = records.length): FetchResult => {
  const start = (plan.page - 1) * plan.pageSize;
  return {
    records: records.slice(start, start + plan.pageSize),
    count: plan.count ? counted : null,
    page: plan.page,
    pageSize: plan.pageSize,
    moreRecords: records.length > start + plan.pageSize,
  };
};

/** Runs a validated plan over the source: the answer /api/fetch gives. */
export const evaluateQuery = (plan: QueryPlan, source: EvaluationSource): FetchResult => {
  const rows = joinRows(plan, source);
  if (plan.shape.kind === 'aggregate') {
    const columns = plan.shape.columns;
    const groups = new Map<string, { out: EntityRecord; rows: Joined[] }>();
    for (const row of rows) {
      const out: EntityRecord = {};
      for (const c of columns) {
        if (c.kind !== 'group') continue;
        const v = outputValue(source, row[c.column.table], c.column.property);
        out[c.key] = c.grouping && typeof v === 'string' ? dateGroupKey(v, c.grouping) : v;
      }
      const k = JSON.stringify(columns.map((c) => (c.kind === 'group' ? sortCells(out[c.key]) : null)));
      const g = groups.get(k) ?? { out, rows: [] };
      g.rows.push(row);
      groups.set(k, g);
    }
    // Without a group key the whole filtered set is one group (SQL: one row even when empty).
    if (!columns.some((c) => c.kind === 'group') && groups.size === 0) groups.set('', { out: {}, rows: [] });
    const records = [...groups.values()].map(({ out, rows: rs }) => {
      const rec: EntityRecord = { ...out };
      for (const c of columns) {
        if (c.kind !== 'aggregate') continue;
        const agg = aggregateOf(c.aggregate, rs.map((r) => cellOf(r[c.column.table], c.column.property)));
        rec[c.key] = FIELD_TYPES[c.column.property.type].stored === 'counter' && agg !== null && (c.aggregate === 'min' || c.aggregate === 'max') ? String(agg) : agg;
      }
      return rec;
    });
    const keyOrders: PlanOrder[] = [
      ...plan.orders,
      ...columns.filter((c) => c.kind === 'group').map((c) => ({ kind: 'output' as const, key: c.key, descending: false })),
    ];
    records.sort((a, b) => {
      for (const o of keyOrders) {
        const key = o.kind === 'output' ? o.key : '';
        const d = compareKeys(sortCells(a[key]), sortCells(b[key]));
        if (d !== 0) return o.descending ? -d : d;
      }
      return 0;
    });
    return page(plan, records);
  }

  const shape = plan.shape;
  const project = (row: Joined): EntityRecord => {
    const rec: EntityRecord = {};
    for (const c of shape.columns) rec[c.key] = outputValue(source, row[c.column.table], c.column.property);
    return rec;
  };
  const orderKeys = (row: Joined): Array<{ cells: Cell[]; descending: boolean }> => [
    ...plan.orders.map((o) => ({ cells: o.kind === 'column' ? columnSortCells(source, row, o.column) : [], descending: o.descending })),
    // Tie-breakers: distinct rows by every selected column, others by the ids of the joined rows.
    ...(shape.distinct
      ? shape.columns.map((c) => ({ cells: columnSortCells(source, row, c.column), descending: false }))
      : [ROOT_TABLE, ...plan.links.map((l) => l.table)].map((t) => ({ cells: [cellOf(row[t], pkOf(plan, t))], descending: false }))),
  ];
  let keyed = rows.map((row) => ({ row, rec: project(row), keys: orderKeys(row) }));
  if (shape.distinct) {
    const seen = new Set<string>();
    keyed = keyed.filter(({ rec }) => {
      const k = JSON.stringify(shape.columns.map((c) => sortCells(rec[c.key])));
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  keyed.sort((a, b) => {
    for (let i = 0; i < a.keys.length; i++) {
      const d = compareKeys(a.keys[i].cells, b.keys[i].cells);
      if (d !== 0) return a.keys[i].descending ? -d : d;
    }
    return 0;
  });
  // Keyset paging: the rows after the given one; the count stays that of the whole query.
  const after = plan.after;
  const shown = after ? keyed.filter((k) => filterHolds(after, k.row)) : keyed;
  return page(plan, shown.map((k) => k.rec), keyed.length);
};
