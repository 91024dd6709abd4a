import { batch, computed, effect, signal, untracked, type ReadonlySignal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import type {
  Caller,
  Entity,
  EntityRecord,
  FetchRequest,
  FieldValue,
  LinkColumn,
  LinkRow,
  ListEdits,
  Property,
} from '../core.js';
import {
  addRow,
  buildBatch,
  canAccess,
  canEditManyToMany,
  canSuperEdit,
  checkPermissionString,
  checkRequired,
  commandPermission,
  deleteRow,
  emptyEdits,
  failedItem,
  fieldTemplateOf,
  hasEdits,
  hasFlag,
  isLinkEntity,
  mergeOnConflict,
  modifierOf,
  QUERY_LIMITS,
  rebaseRow,
  revertCell,
  revertRow,
  rowState,
  setCell,
  setCellOnRows,
  shownRecord,
  toggleLink,
  undeleteRow,
  membership,
  VERSION_FIELD,
} from '../core.js';
import type { ApiClient } from '../api/client.js';
import { newRecord, type FormUser } from '../form/record-form-model.js';
import type { ListModel } from './list-model.js';

/**
 * Editing in the list (spec 001 section 2, issue 13 section 1) as a model of signals beside the
 * list model: the edit mode (0 off, 1 edit, 2 super edit), the user's edits (a ListEdits value
 * of the core), the many-to-many columns and their link rows, the per-row errors of the last
 * save, and the use cases: edit, revert, add, delete, mass edit and the batch save. The batch is
 * ONE atomic executemultiple (nothing half-saved); an ERR_8001 on a row goes through the core's
 * merge like the form's save, then the batch runs again.
 */

export const EDIT_OFF = 0;
export const EDIT_ON = 1;
export const SUPER_EDIT = 2;
export type EditMode = typeof EDIT_OFF | typeof EDIT_ON | typeof SUPER_EDIT;

/** What the model needs of the API client. */
export type ListEditApi = Pick<ApiClient, 'fetch' | 'executeMultiple'>;

/** Why a row did not save: the server's text, an unresolved version conflict, or empty required fields. */
export type RowError =
  | { _tag: 'Server'; text: string }
  | { _tag: 'ModifiedBy'; modifier: string; modifiedBy?: FieldValue }
  | { _tag: 'Required'; labels: string[] };

export type BatchSaveResult =
  | { _tag: 'Saved'; written: number }
  | { _tag: 'Nothing' }
  | { _tag: 'Busy' }
  /** the batch was refused: every edit stays, `errors` names the rows (spec: the per-row error next to its row) */
  | { _tag: 'RowsFailed'; errors: Readonly<Record<string, RowError>> }
  /** the request itself failed (network, a 4xx for the whole body): every edit stays */
  | { _tag: 'Failed'; error: unknown };

/** Fields the server sets: never edited in a cell. */
const SERVER_FIELDS = new Set(['id', VERSION_FIELD, 'createdon', 'createdby', 'modifiedon', 'modifiedby']);
/** Property types shown, never typed. */
const READ_ONLY_TYPES = new Set(['Guid', 'VersionNumber', 'Binary']);

/**
 * The many-to-many reading of a list column `{link}.{parentField}` (the way an associated list
 * names it): the link entity (type many), its lookup to the listed entity and its other lookup.
 */
export const linkColumnOf = (
  listed: string,
  column: string,
  entityOf: (name: string) => Entity | undefined,
): (LinkColumn & { other: string }) | undefined => {
  const [link, parentField, ...rest] = column.split('.');
  const e = rest.length === 0 ? entityOf(link) : undefined;
  if (!e || !isLinkEntity(e)) return undefined;
  const lookups = e.properties.filter((p) => p.type === 'Lookup' && (p.targets?.length ?? 0) > 0);
  const parent = lookups.find((p) => p.logicalName === parentField && p.targets?.includes(listed));
  const other = lookups.find((p) => p.logicalName !== parentField);
  const target = other?.targets?.[0];
  return parent && other && target ? { link, parentField, otherField: other.logicalName, other: target } : undefined;
};

/** The link rows of the listed rows in one column: a fetch of the link entity per 1000 ids (the in-list limit). */
export const linkRowsQueries = (c: LinkColumn, ids: readonly string[]): FetchRequest[] => {
  const out: FetchRequest[] = [];
  for (let i = 0; i < ids.length; i += QUERY_LIMITS.maxInValues) {
    const chunk = ids.slice(i, i + QUERY_LIMITS.maxInValues);
    out.push({
      entity: {
        name: c.link,
        attributes: [
          { attribute: 'id' },
          { attribute: VERSION_FIELD },
          { attribute: c.parentField },
          { attribute: c.otherField },
        ],
        filter: { type: 'and', conditions: [{ attribute: c.parentField, operator: 'in', value: chunk }] },
      },
      page: 1,
      pageSize: 5000,
    });
  }
  return out;
};

const idOf = (v: unknown): string =>
  v && typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : typeof v === 'string' ? v : '';
/** The server's text of an item error without its code ('ERR_INPUT: Invalid value' reads 'Invalid value'). */
const withoutCode = (error: string): string => error.replace(/^[A-Z][A-Z_0-9]*: /, '');

export type ListEditOptions = {
  list: Pick<ListModel, 'entity' | 'rows' | 'columns' | 'view' | 'selected' | 'load'> & Partial<Pick<ListModel, 'keepShown'>>;
  api: ListEditApi;
  caller: () => Caller;
  /** the metadata of other entities (the link entities of many-to-many columns) */
  entityOf: (name: string) => Entity | undefined;
  /** the id a new row is created with (crypto.randomUUID in the browser) */
  newId: () => string;
  user?: FormUser;
  /** spec 001 section 2: after a batch saved, the postsave event fires */
  onPostSave?: (saved: { entity: string; ids: string[] }) => void;
};

export type ListEditModel = ReturnType<typeof listEditModel>;

export const listEditModel = ({ list, api, caller, entityOf, newId, user, onPostSave }: ListEditOptions) => {
  const mode = signal<EditMode>(EDIT_OFF);
  const edits = signal<ListEdits>(emptyEdits);
  const errors = signal<Readonly<Record<string, RowError>>>({});
  const saving = signal(false);
  /** per many-to-many column, per row id: its link rows as read from the server */
  const links = signal<Readonly<Record<string, Readonly<Record<string, LinkRow[]>>>>>({});
  /** the labels of the other side's records seen (link rows, the pick dialog) */
  const labels = signal<Readonly<Record<string, string>>>({});

  const entity = computed(() => list.entity.value);
  const name = untracked(() => entity.value.logicalName);
  const props = computed(() => new Map(entity.value.properties.map((p) => [p.logicalName, p])));
  const linkColumns = computed(() => {
    const out: Record<string, LinkColumn & { other: string }> = {};
    for (const c of list.view.value?.body.columns ?? []) {
      const m = linkColumnOf(name, c.name, entityOf);
      if (m) out[c.name] = m;
    }
    return out;
  });

  /** Spec 001 section 6: the list's Edit needs update (level 2) unless the view's edit command says otherwise. */
  const canEdit = computed(() => {
    const commands = list.view.value?.body.commands;
    const c = commands
      ? commands.find((x) => x.kind === 'std' && x.name.toLowerCase() === 'edit')
      : { kind: 'std' as const, name: 'Edit', permissions: undefined };
    return (
      !!c && checkPermissionString(caller(), commandPermission({ name: 'Edit', permissions: c.permissions }, name))
    );
  });
  /** Super edit (mass actions): system user permission level 3 (spec 001 section 1). */
  const canMassEdit = computed(() => canEdit.value && canSuperEdit(caller()));
  const canCreate = computed(() => checkPermissionString(caller(), commandPermission({ name: 'New' }, name)));
  const canDeleteRows = computed(() => checkPermissionString(caller(), commandPermission({ name: 'Delete' }, name)));
  const dirty = computed(() => hasEdits(edits.value));
  const editing = computed(() => mode.value !== EDIT_OFF);
  const pending = computed(() => {
    const e = edits.value;
    return buildBatch(e, name, linkColumns.value).keys.length;
  });

  /** The rows the table shows: new rows first, then the loaded page with the user's values on top. */
  const loadedById = computed(() => new Map((list.rows.value ?? []).map((r) => [String(r.id), r])));
  const rows = computed((): EntityRecord[] | null => {
    const loaded = list.rows.value;
    if (loaded === null) return null;
    const e = edits.value;
    const created = e.created.map((k) => shownRecord(e, k, { id: k }));
    return [...created, ...loaded.map((r) => (e.values[String(r.id)] ? shownRecord(e, String(r.id), r) : r))];
  });

  /** Whether a cell can be edited: a property the user may write in this row, or a many-to-many column with create on its link entity. */
  const editableCell = (key: string, column: string): boolean => {
    if (mode.value === EDIT_OFF) return false;
    const e = edits.value;
    const state = rowState(e, key);
    if (state === 'deleted') return false;
    const m = linkColumns.value[column];
    if (m) return canEditManyToMany(caller(), m.link);
    const p = props.value.get(column);
    if (!p || SERVER_FIELDS.has(column) || READ_ONLY_TYPES.has(p.type) || hasFlag(p, 'AutoNumber') || p.secret === true)
      return false;
    if (state === 'created') return true;
    const r = loadedById.value.get(key);
    return !!r && canAccess(caller(), 'update', name, r);
  };

  let linkSeq = 0;
  /** Reads the link rows of the shown rows for every many-to-many column. */
  const loadLinks = async (): Promise<void> => {
    const columns = Object.entries(linkColumns.value);
    const ids = (list.rows.value ?? []).map((r) => String(r.id));
    const n = ++linkSeq;
    if (columns.length === 0 || ids.length === 0) {
      links.value = {};
      return;
    }
    const next: Record<string, Record<string, LinkRow[]>> = {};
    const seen: Record<string, string> = {};
    try {
      for (const [column, c] of columns) {
        const byRow: Record<string, LinkRow[]> = {};
        for (const q of linkRowsQueries(c, ids)) {
          const res = await api.fetch(q);
          for (const r of res.records) {
            const parent = idOf(r[c.parentField]).toLowerCase();
            const other = r[c.otherField];
            const otherId = idOf(other).toLowerCase();
            (byRow[parent] ??= []).push({
              id: String(r.id),
              other: otherId,
              versionnumber: r[VERSION_FIELD] as FieldValue,
            });
            if (other && typeof other === 'object' && 'label' in other)
              seen[otherId] = String((other as { label?: unknown }).label ?? '');
          }
        }
        next[column] = byRow;
      }
    } catch {
      // A link entity the user may not read: the column shows nothing (the list itself loaded).
    }
    if (n !== linkSeq) return;
    batch(() => {
      links.value = next;
      labels.value = { ...labels.value, ...seen };
    });
  };

  const linksOf = (key: string, column: string): LinkRow[] => links.value[column]?.[key.toLowerCase()] ?? [];
  /** The other side's ids a row is linked to, with the user's toggles. */
  const membersOf = (key: string, column: string): string[] =>
    membership(edits.value, key, column, linksOf(key, column));

  /** Starts following the list: the link rows are read again whenever the rows change. Returns the stop function. */
  const start = (): (() => void) =>
    effect(() => {
      void [list.rows.value, linkColumns.value];
      untracked(() => void loadLinks());
    });

  const clearError = (key: string) => {
    if (errors.value[key]) {
      const { [key]: _, ...rest } = errors.value;
      errors.value = rest;
    }
  };
  const update = (next: ListEdits, key?: string) =>
    batch(() => {
      edits.value = next;
      if (key !== undefined) clearError(key);
    });

  const setValue = (key: string, field: string, value: FieldValue) =>
    update(setCell(edits.value, key, field, value, loadedById.value.get(key) ?? {}), key);
  const revert = (key: string, field: string) => update(revertCell(edits.value, key, field), key);
  const toggle = (key: string, column: string, other: string, label?: string) => {
    if (label !== undefined) labels.value = { ...labels.value, [other.toLowerCase()]: label };
    update(toggleLink(edits.value, key, column, other.toLowerCase(), linksOf(key, column)), key);
  };
  /** A new row at the top with the values a new record starts with (owner, defaults). */
  const add = (): string => {
    const key = newId().toLowerCase();
    update(addRow(edits.value, key, newRecord(entity.value, undefined, user)));
    return key;
  };
  const remove = (key: string) => update(deleteRow(edits.value, key, loadedById.value.get(key) ?? {}), key);
  const restore = (key: string) => update(undeleteRow(edits.value, key), key);
  const revertRowEdits = (key: string) => update(revertRow(edits.value, key), key);

  /** Super edit: the rows the mass actions apply to (the ticked rows on the page). */
  const targets = (): string[] => [...list.selected.value].filter((k) => rowState(edits.value, k) !== 'deleted');
  /** Sets a field on every selected row the user may update (spec: mass edit). */
  const massSet = (field: string, value: FieldValue): number => {
    const keys = targets().filter((k) => editableCell(k, field));
    update(setCellOnRows(edits.value, keys, field, value, (k) => loadedById.value.get(k)));
    return keys.length;
  };
  /** Mass edit of a many-to-many column: links (or unlinks) the picked records on every selected row. */
  const massLink = (
    column: string,
    others: readonly string[],
    how: 'add' | 'remove',
    picked: Readonly<Record<string, string>> = {},
  ): number => {
    const keys = targets().filter((k) => editableCell(k, column));
    let e = edits.value;
    for (const key of keys) {
      for (const raw of others) {
        const other = raw.toLowerCase();
        const member = membership(e, key, column, linksOf(key, column)).includes(other);
        if (member !== (how === 'add')) e = toggleLink(e, key, column, other, linksOf(key, column));
      }
    }
    batch(() => {
      labels.value = {
        ...labels.value,
        ...Object.fromEntries(Object.entries(picked).map(([k, v]) => [k.toLowerCase(), v])),
      };
      update(e);
    });
    return keys.length;
  };
  /** Marks the selected rows for delete (saved with the batch). */
  const massDelete = (): number => {
    const keys = targets();
    update(keys.reduce((e, k) => deleteRow(e, k, loadedById.value.get(k) ?? {}), edits.value));
    return keys.length;
  };

  const discard = () =>
    batch(() => {
      edits.value = emptyEdits;
      errors.value = {};
    });

  /** The properties checked for required values: the columns shown, except composed ones (the server fills a contact's name). */
  const checkedProps = (): Property[] =>
    (list.columns.value ?? []).flatMap((c) => {
      const p = props.value.get(c.name);
      return p && !fieldTemplateOf(p) ? [p] : [];
    });

  /** Rows with empty required fields (spec 001 section 5), checked before sending: new rows and changed rows. */
  const requiredErrors = (e: ListEdits): Record<string, RowError> => {
    const out: Record<string, RowError> = {};
    const checked = checkedProps();
    for (const key of Object.keys(e.values)) {
      if (e.deleted.includes(key)) continue;
      const record = shownRecord(e, key, loadedById.value.get(key));
      const r = checkRequired(checked, record);
      if (isLeft(r)) out[key] = { _tag: 'Required', labels: r.left.labels };
    }
    return out;
  };

  const fetchRow = async (id: string): Promise<EntityRecord | undefined> => {
    const res = await api.fetch({
      entity: {
        name,
        allattrs: true,
        filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: id }] },
      },
      page: 1,
      pageSize: 1,
    });
    return res.records[0] as EntityRecord | undefined;
  };

  /**
   * Saves every edit in ONE atomic executemultiple (spec 001 section 2), then the postsave event
   * fires and the list reloads (keeping its page size). A refused batch keeps every edit and puts
   * the error next to its row. ERR_8001 on an update: the row is read again and merged
   * (mergeOnConflict, as the form does); a clean merge sends the batch again, a clash stops with
   * 'This record was modified by {modifier}' on the row. A delete of a changed record stops the
   * same way, with the row rebased so that a second Save deletes it knowingly.
   */
  const save = async (): Promise<BatchSaveResult> => {
    if (saving.value) return { _tag: 'Busy' };
    if (!hasEdits(edits.value)) return { _tag: 'Nothing' };
    const missing = requiredErrors(edits.value);
    if (Object.keys(missing).length > 0) {
      errors.value = missing;
      return { _tag: 'RowsFailed', errors: missing };
    }
    saving.value = true;
    try {
      // Each round either saves, stops, or resolves one more version conflict.
      for (let round = 0; round <= Object.keys(edits.value.bases).length + 1; round++) {
        const e = edits.value;
        const { items, keys } = buildBatch(e, name, linkColumns.value);
        if (items.length === 0) {
          discard();
          return { _tag: 'Nothing' };
        }
        const results = await api.executeMultiple(items, { atomic: true });
        if (results.length === 0) return { _tag: 'Failed', error: new Error('Unknown Update Error') };
        const failed = failedItem(results, keys);
        if (!failed) {
          const ids = [...new Set(keys)];
          // The reload shows as many rows as the user saw, new rows included (spec 001 section 2).
          list.keepShown?.(rows.value?.filter((r) => rowState(e, String(r.id)) !== 'deleted').length ?? 0);
          discard();
          onPostSave?.({ entity: name, ids });
          await list.load();
          return { _tag: 'Saved', written: items.length };
        }
        const item = items[failed.index];
        const isRow = item.name === name;
        if (/^ERR_8001\b/.test(failed.error) && isRow && e.bases[failed.key]) {
          const server = await fetchRow(failed.key);
          if (server) {
            const base = e.bases[failed.key];
            if (item.operation === 'update') {
              const merged = mergeOnConflict(base, { ...base, ...e.values[failed.key] }, server);
              if (!isLeft(merged)) {
                edits.value = rebaseRow(e, failed.key, server, merged.right.changes);
                continue;
              }
            }
            const err: RowError = { _tag: 'ModifiedBy', modifier: modifierOf(server), modifiedBy: server.modifiedby };
            batch(() => {
              if (item.operation === 'delete') edits.value = { ...e, bases: { ...e.bases, [failed.key]: server } };
              errors.value = { [failed.key]: err };
            });
            return { _tag: 'RowsFailed', errors: { [failed.key]: err } };
          }
        }
        const err: RowError = { _tag: 'Server', text: withoutCode(failed.error) };
        errors.value = { [failed.key]: err };
        return { _tag: 'RowsFailed', errors: { [failed.key]: err } };
      }
      return { _tag: 'Failed', error: new Error('Unknown Update Error') };
    } catch (error) {
      return { _tag: 'Failed', error };
    } finally {
      saving.value = false;
    }
  };

  /** Switches the edit mode; leaving edit mode is the screen's question when edits wait (see `dirty`). */
  const setMode = (m: EditMode) => {
    batch(() => {
      mode.value = m === SUPER_EDIT && !canMassEdit.value ? EDIT_ON : m;
      if (m === EDIT_OFF) discard();
    });
  };

  return {
    mode: mode as ReadonlySignal<EditMode>,
    edits: edits as ReadonlySignal<ListEdits>,
    errors: errors as ReadonlySignal<Readonly<Record<string, RowError>>>,
    saving: saving as ReadonlySignal<boolean>,
    links: links as ReadonlySignal<Readonly<Record<string, Readonly<Record<string, LinkRow[]>>>>>,
    labels: labels as ReadonlySignal<Readonly<Record<string, string>>>,
    linkColumns,
    canEdit,
    canMassEdit,
    canCreate,
    canDeleteRows,
    dirty,
    editing,
    pending,
    rows,
    editableCell,
    membersOf,
    start,
    loadLinks,
    setMode,
    setValue,
    revert,
    toggle,
    add,
    remove,
    restore,
    revertRow: revertRowEdits,
    massSet,
    massLink,
    massDelete,
    discard,
    save,
  };
};
