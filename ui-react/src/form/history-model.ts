import type { Entity, EntityRecord, FieldValue, LookupValue, Property } from '../core.js';

/**
 * The History panel's reading of audit rows (issue 23 item 6): each row of the record's audit,
 * newest first, as who, when, and what changed (field labels, old and new values). The store
 * writes the rows (core/src/store/audit.ts); this reads their body without trusting it blindly.
 */
export const AUDIT = 'audit';
export const OPERATION_CREATE = 1;
export const OPERATION_UPDATE = 2;
export const OPERATION_DELETE = 3;
export const HISTORY_PAGE_SIZE = 10;

export type HistoryChange =
  | { field: string; label: string; property: Property | undefined; secret: false; old: FieldValue; new: FieldValue }
  | { field: string; label: string; property: Property | undefined; secret: true };

export type HistoryEntry = {
  id: string;
  operation: number;
  who: FieldValue;
  when: string;
  changes: HistoryChange[];
};

/** The audit rows of one record, newest first, a page at a time (the columns the panel reads). */
export const historyRequest = (entity: string, id: string, page: number) => ({
  entity: {
    name: AUDIT,
    attributes: ['id', 'operation', 'body', 'createdon', 'createdby'].map((attribute) => ({ attribute })),
    filter: {
      type: 'and' as const,
      conditions: [
        { attribute: 'logicalname', operator: 'eq' as const, value: entity },
        { attribute: 'objectid', operator: 'eq' as const, value: id },
      ],
    },
    orders: [{ attribute: 'createdon', descending: true }],
  },
  page,
  pageSize: HISTORY_PAGE_SIZE,
  count: true,
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asValue = (v: unknown): FieldValue =>
  v === undefined || v === null
    ? null
    : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
      ? v
      : isRecord(v) && typeof v.id === 'string' && typeof v.name === 'string'
        ? { id: v.id, name: v.name }
        : JSON.stringify(v);

/**
 * The changes of a create or update row, in the entity's field order (fields the entity no longer
 * has come last, by name); a delete row (the full record kept for undo-delete) lists none.
 */
export const changesOf = (entity: Entity, operation: number, body: unknown): HistoryChange[] => {
  if (operation === OPERATION_DELETE || typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  if (!isRecord(parsed)) return [];
  const order = new Map(entity.properties.map((p, i) => [p.logicalName, i]));
  const fields = Object.keys(parsed).sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || a.localeCompare(b));
  const out: HistoryChange[] = [];
  for (const field of fields) {
    const c = parsed[field];
    if (!isRecord(c)) continue;
    const property = entity.properties.find((p) => p.logicalName === field);
    const label = property?.displayName ?? field;
    if (c.secret === true) out.push({ field, label, property, secret: true });
    else out.push({ field, label, property, secret: false, old: asValue(c.old), new: asValue(c.new) });
  }
  return out;
};

/** The panel's entries of fetched audit rows. */
export const historyEntries = (entity: Entity, rows: readonly EntityRecord[]): HistoryEntry[] =>
  rows.map((r) => {
    const operation = typeof r.operation === 'number' ? r.operation : Number(r.operation);
    return { id: String(r.id), operation, who: r.createdby ?? null, when: String(r.createdon ?? ''), changes: changesOf(entity, operation, r.body) };
  });

/** The lookup values the entries show, by target entity: their names are fetched, never shown as ids. */
export const lookupsToName = (entries: readonly HistoryEntry[]): Map<string, Set<string>> => {
  const out = new Map<string, Set<string>>();
  for (const e of entries)
    for (const c of e.changes) {
      if (c.secret) continue;
      for (const v of [c.old, c.new]) {
        if (v === null || typeof v !== 'object') continue;
        let ids = out.get(v.name);
        if (!ids) out.set(v.name, (ids = new Set()));
        ids.add(v.id);
      }
    }
  return out;
};

/** A lookup value with the label read from `labels` (target entity, then id). */
export const withLabel = (v: FieldValue, labels: ReadonlyMap<string, string>): FieldValue =>
  v !== null && typeof v === 'object' ? ({ ...v, label: labels.get(`${v.name}:${v.id.toLowerCase()}`) ?? null } satisfies LookupValue) : v;
