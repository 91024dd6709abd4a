import type { EntityRecord, FieldValue } from '../metadata/entity.js';
import type { ItemResult, WriteItem } from '../ports/record-store.js';
import { isEmptyValue, VERSION_FIELD, valuesEqual } from './values.js';
import { changeSet, updatePayload } from './change-set.js';

/**
 * Editing in the list (spec 001 section 2, issue 13 section 1): the user's edits of a page of
 * records as one value, and the batch that saves them. Row creates, updates and deletes and
 * many-to-many membership toggles are collected here and written in ONE executemultiple; a
 * row created and then deleted is dropped; a cell set back to its loaded value is no change.
 * Every function is pure: it answers a new ListEdits and never changes its argument.
 */

/**
 * A many-to-many column of a list (a column named `{link}.{parentField}`): the link entity, its
 * lookup to the listed record and its lookup to the other side.
 */
export type LinkColumn = { link: string; parentField: string; otherField: string };

/** A link row tying a listed record to one record of the other side. */
export type LinkRow = { id: string; other: string; versionnumber?: FieldValue };

export type ListEdits = {
  /** each changed existing row as loaded when the user first changed it: the base of its update and of the ERR_8001 merge */
  readonly bases: Readonly<Record<string, EntityRecord>>;
  /** the values the user set per row key; only fields that differ from the base (a new row: every field set) */
  readonly values: Readonly<Record<string, EntityRecord>>;
  /** the keys (client ids) of rows created in this edit session, in order */
  readonly created: readonly string[];
  /** existing rows marked for delete */
  readonly deleted: readonly string[];
  /** per row key and link column: the other side's ids whose membership the user flipped */
  readonly toggles: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** per row key and link column: the link rows as loaded when the user first flipped one */
  readonly linkBases: Readonly<Record<string, Readonly<Record<string, readonly LinkRow[]>>>>;
};

export const emptyEdits: ListEdits = { bases: {}, values: {}, created: [], deleted: [], toggles: {}, linkBases: {} };

const without = <T>(o: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  const { [key]: _, ...rest } = o;
  return rest;
};
const isCreated = (e: ListEdits, key: string) => e.created.includes(key);

/**
 * Drops what a row no longer needs: an empty value set, link columns with no flip left, and the
 * base of an existing row with nothing set and no delete (a row back in its loaded state is clean).
 */
const tidy = (e: ListEdits, key: string): ListEdits => {
  let { values, toggles, linkBases, bases } = e;
  if (!isCreated(e, key) && values[key] && Object.keys(values[key]).length === 0) values = without(values, key);
  if (toggles[key]) {
    const kept = Object.fromEntries(Object.entries(toggles[key]).filter(([, ids]) => ids.length > 0));
    toggles = Object.keys(kept).length > 0 ? { ...toggles, [key]: kept } : without(toggles, key);
  }
  if (linkBases[key]) {
    const kept = Object.fromEntries(Object.entries(linkBases[key]).filter(([column]) => toggles[key]?.[column]));
    linkBases = Object.keys(kept).length > 0 ? { ...linkBases, [key]: kept } : without(linkBases, key);
  }
  if (!isCreated(e, key) && !values[key] && !e.deleted.includes(key)) bases = without(bases, key);
  return { ...e, values, toggles, linkBases, bases };
};

/**
 * Sets a cell. `loaded` is the row as the list shows it from the server (ignored for a new row
 * and once the row has a base). A value equal to the base is no change: the cell is unmarked.
 */
export const setCell = (
  e: ListEdits,
  key: string,
  field: string,
  value: FieldValue,
  loaded: EntityRecord,
): ListEdits => {
  if (isCreated(e, key)) return { ...e, values: { ...e.values, [key]: { ...e.values[key], [field]: value } } };
  const base = e.bases[key] ?? loaded;
  const row = { ...e.values[key] };
  if (valuesEqual(base[field], value)) delete row[field];
  else row[field] = value;
  return tidy({ ...e, bases: { ...e.bases, [key]: base }, values: { ...e.values, [key]: row } }, key);
};

/** Escape on a cell: its value (or its link toggles) go back to the loaded state. A new row's cell is cleared. */
export const revertCell = (e: ListEdits, key: string, field: string): ListEdits => {
  const row = e.values[key] ? without(e.values[key], field) : undefined;
  const rowToggles = e.toggles[key] ? without(e.toggles[key], field) : undefined;
  return tidy(
    {
      ...e,
      values: row ? { ...e.values, [key]: row } : e.values,
      toggles: rowToggles ? { ...e.toggles, [key]: rowToggles } : e.toggles,
    },
    key,
  );
};

/** A new row with its starting values (defaults, owner); `key` is the id it will be created with. */
export const addRow = (e: ListEdits, key: string, init: EntityRecord = {}): ListEdits =>
  isCreated(e, key) ? e : { ...e, created: [...e.created, key], values: { ...e.values, [key]: { ...init } } };

/** Marks a row for delete; a row created in this session is dropped with everything set on it. */
export const deleteRow = (e: ListEdits, key: string, loaded: EntityRecord): ListEdits => {
  if (isCreated(e, key)) return revertRow(e, key);
  if (e.deleted.includes(key)) return e;
  return { ...e, bases: { ...e.bases, [key]: e.bases[key] ?? loaded }, deleted: [...e.deleted, key] };
};

/** Takes a row's delete back (its other edits stay). */
export const undeleteRow = (e: ListEdits, key: string): ListEdits =>
  tidy({ ...e, deleted: e.deleted.filter((k) => k !== key) }, key);

/** Every edit of a row goes: an existing row shows as loaded, a new row disappears. */
export const revertRow = (e: ListEdits, key: string): ListEdits => ({
  bases: without(e.bases, key),
  values: without(e.values, key),
  created: e.created.filter((k) => k !== key),
  deleted: e.deleted.filter((k) => k !== key),
  toggles: without(e.toggles, key),
  linkBases: without(e.linkBases, key),
});

/**
 * Flips the membership of `other` in a row's many-to-many column (spec 001 section 4: toggling
 * marks the item modified; toggling it back to the loaded state clears the mark). `loaded` is
 * the row's link rows as the list read them (kept as the base at the first toggle).
 */
export const toggleLink = (
  e: ListEdits,
  key: string,
  column: string,
  other: string,
  loaded: readonly LinkRow[],
): ListEdits => {
  const current = e.toggles[key]?.[column] ?? [];
  const next = current.includes(other) ? current.filter((x) => x !== other) : [...current, other];
  const linkBase = e.linkBases[key]?.[column] ?? loaded;
  return tidy(
    {
      ...e,
      toggles: { ...e.toggles, [key]: { ...e.toggles[key], [column]: next } },
      linkBases: { ...e.linkBases, [key]: { ...e.linkBases[key], [column]: linkBase } },
    },
    key,
  );
};

/** The other side's ids a row is linked to with the user's toggles applied. */
export const membership = (e: ListEdits, key: string, column: string, loaded: readonly LinkRow[]): string[] => {
  const base = (e.linkBases[key]?.[column] ?? loaded).map((l) => l.other);
  const flipped = e.toggles[key]?.[column] ?? [];
  return [...base.filter((id) => !flipped.includes(id)), ...flipped.filter((id) => !base.includes(id))];
};

/** Whether a cell differs from the loaded state (a value set, or a membership flipped). */
export const isCellModified = (e: ListEdits, key: string, field: string): boolean =>
  Object.hasOwn(e.values[key] ?? {}, field) || (e.toggles[key]?.[field]?.length ?? 0) > 0;

export type RowState = 'created' | 'deleted' | 'updated' | 'clean';
export const rowState = (e: ListEdits, key: string): RowState =>
  isCreated(e, key)
    ? 'created'
    : e.deleted.includes(key)
      ? 'deleted'
      : e.values[key] || e.toggles[key]
        ? 'updated'
        : 'clean';

/** The record a row shows: the loaded one with the user's values on top. */
export const shownRecord = (e: ListEdits, key: string, loaded: EntityRecord | undefined): EntityRecord => ({
  ...(loaded ?? e.bases[key]),
  ...e.values[key],
});

/** Whether anything waits to be saved. */
export const hasEdits = (e: ListEdits): boolean =>
  e.created.length > 0 ||
  e.deleted.length > 0 ||
  Object.values(e.values).some((v) => Object.keys(v).length > 0) ||
  Object.keys(e.toggles).length > 0;

/** One batch: the write items in order, and the row key each item belongs to (for per-row errors). */
export type ListBatch = { items: WriteItem[]; keys: string[] };

/**
 * The batch of the edits (spec 001 section 2): creates (the non-empty values, with the row's
 * client id so link rows can name it), updates (only changed fields, with the base's version),
 * then link rows (create for a membership added, delete for one removed), then deletes (with the
 * base's version). Link toggles of a deleted row are not written.
 */
export const buildBatch = (
  e: ListEdits,
  entity: string,
  linkColumns: Readonly<Record<string, LinkColumn>>,
): ListBatch => {
  const items: WriteItem[] = [];
  const keys: string[] = [];
  const push = (key: string, item: WriteItem) => {
    items.push(item);
    keys.push(key);
  };
  for (const key of e.created) {
    const values = Object.fromEntries(
      Object.entries(e.values[key] ?? {}).filter(([k, v]) => k !== 'id' && k !== VERSION_FIELD && !isEmptyValue(v)),
    );
    push(key, { operation: 'create', name: entity, object: { ...values, id: key } });
  }
  for (const [key, values] of Object.entries(e.values)) {
    if (isCreated(e, key) || e.deleted.includes(key) || !e.bases[key]) continue;
    const base = e.bases[key];
    if (Object.keys(changeSet(base, { ...base, ...values })).length === 0) continue;
    push(key, { operation: 'update', name: entity, object: updatePayload(base, { ...base, ...values }) });
  }
  for (const [key, columns] of Object.entries(e.toggles)) {
    if (e.deleted.includes(key)) continue;
    for (const [column, flipped] of Object.entries(columns)) {
      const c = linkColumns[column];
      if (!c) continue;
      const base = e.linkBases[key]?.[column] ?? [];
      for (const other of flipped) {
        const row = base.find((l) => l.other === other);
        if (row)
          push(key, {
            operation: 'delete',
            name: c.link,
            object: {
              id: row.id,
              ...(row.versionnumber !== undefined && row.versionnumber !== null
                ? { [VERSION_FIELD]: row.versionnumber }
                : {}),
            },
          });
        else push(key, { operation: 'create', name: c.link, object: { [c.parentField]: key, [c.otherField]: other } });
      }
    }
  }
  for (const key of e.deleted) {
    const base = e.bases[key] ?? {};
    push(key, {
      operation: 'delete',
      name: entity,
      object: {
        id: key,
        ...(base[VERSION_FIELD] !== undefined && base[VERSION_FIELD] !== null
          ? { [VERSION_FIELD]: base[VERSION_FIELD] }
          : {}),
      },
    });
  }
  return { items, keys };
};

/**
 * The item that failed an atomic batch (API.md: it answers its own error, every other item
 * `{CODE}: Rolled back: item {index} failed: ...`), with its row key; undefined when all passed.
 */
export const failedItem = (
  /** the batch's answers (the store's ItemResult, or the wire's `{ id?, error? }`) */
  results: ReadonlyArray<ItemResult | { readonly id?: string; readonly error?: string }>,
  keys: readonly string[],
): { index: number; key: string; error: string } | undefined => {
  const errors = results.map((r, index) => ({ index, error: 'error' in r ? r.error : undefined }));
  const own = errors.find((x) => x.error !== undefined && !/^[A-Z_0-9]+: Rolled back: item \d+ failed/.test(x.error));
  const any = own ?? errors.find((x) => x.error !== undefined);
  return any && any.error !== undefined
    ? { index: any.index, key: keys[any.index] ?? '', error: any.error }
    : undefined;
};

/**
 * After a version conflict merged (mergeOnConflict): the row's base becomes the server record
 * and its values the local changes that still differ from it, so the batch runs again.
 */
export const rebaseRow = (e: ListEdits, key: string, server: EntityRecord, changes: EntityRecord): ListEdits =>
  tidy(
    {
      ...e,
      bases: { ...e.bases, [key]: server },
      values: { ...e.values, [key]: changeSet(server, { ...server, ...changes }) },
    },
    key,
  );

/**
 * Sets one field on many rows (super edit's mass action). Rows without a loaded record (not on
 * the page) are skipped; a new row takes the value too.
 */
export const setCellOnRows = (
  e: ListEdits,
  keys: readonly string[],
  field: string,
  value: FieldValue,
  loadedOf: (key: string) => EntityRecord | undefined,
): ListEdits =>
  keys.reduce((acc, key) => {
    const loaded = loadedOf(key);
    return isCreated(acc, key) || loaded ? setCell(acc, key, field, value, loaded ?? {}) : acc;
  }, e);
