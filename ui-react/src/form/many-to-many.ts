import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-react';
import type { Caller, Entity, FetchRequest, Filter } from '../core.js';
import { canEditManyToMany, isLinkEntity, likeLiteral } from '../core.js';
import type { ApiClient, ExecuteItem } from '../api/client.js';
import type { SaveParticipant } from './record-form-model.js';

/**
 * An associated list over a link entity (type 'many', spec 000: a link table between two
 * lookups), e.g. systemuserroles between systemuser and inu_role. The list shows the records of
 * the other side (a user's roles, a role's users), read with one fetch of the other entity joined
 * through the link rows of this record. Adding and removing only mark links pending (the form is
 * dirty); they are written in the save sequence's afterSave step (spec 001 section 4), link rows
 * created and deleted in one atomic executemultiple, with the record's id (a new record's too).
 * Issue 23 item 1: the link entity has no name, so listing it failed.
 */

/** The link entity, the lookup pointing at this record, and the other lookup and its entity. */
export type ManyToMany = { link: string; parentField: string; otherField: string; other: string };

/** The alias of the joined link row; its columns come back as `link.id`, `link.versionnumber`. */
export const LINK_ALIAS = 'link';

/**
 * The many-to-many reading of an associated list `{link}.{parentField}`: the link entity's other
 * lookup names the records listed. Undefined for an ordinary child entity.
 */
export const manyToManyOf = (child: Entity, parentField: string): ManyToMany | undefined => {
  if (!isLinkEntity(child)) return undefined;
  const lookups = child.properties.filter((p) => p.type === 'Lookup' && (p.targets?.length ?? 0) > 0);
  const other = lookups.find((p) => p.logicalName !== parentField);
  const target = other?.targets?.[0];
  return other && target ? { link: child.logicalName, parentField, otherField: other.logicalName, other: target } : undefined;
};

/** A record of the other side, with the link row that ties it to this record. */
export type LinkedRecord = { id: string; name: string; linkId: string; linkVersion: unknown };

const nameStarts = (text: string): Filter | undefined => {
  const q = likeLiteral(text.trim());
  return q ? { type: 'and', conditions: [{ attribute: 'name', operator: 'like', value: `${q}%` }] } : undefined;
};

/** The other side's records linked to `parentId`: one fetch with an inner link through the link entity. */
export const linkedQuery = (m: ManyToMany, parentId: string, pageSize = 200): FetchRequest => ({
  entity: {
    name: m.other,
    attributes: [{ attribute: 'id' }, { attribute: 'name' }],
    links: [
      {
        name: m.link,
        from: 'id',
        to: m.otherField,
        alias: LINK_ALIAS,
        type: 'inner',
        attributes: [{ attribute: 'id' }, { attribute: 'versionnumber' }],
        filter: { type: 'and', conditions: [{ attribute: m.parentField, operator: 'eq', value: parentId }] },
      },
    ],
    orders: [{ attribute: 'name' }],
  },
  page: 1,
  pageSize,
  count: true,
});

/** The records of the other side a user can pick from (starts-with on name, spec 001 section 9). */
export const candidatesQuery = (m: ManyToMany, text: string, pageSize = 50): FetchRequest => {
  const filter = nameStarts(text);
  return {
    entity: { name: m.other, attributes: [{ attribute: 'id' }, { attribute: 'name' }], ...(filter ? { filter } : {}), orders: [{ attribute: 'name' }] },
    page: 1,
    pageSize,
  };
};

/** A row of the list as shown: stored, stored and removed on save, or added on save. */
export type LinkView = { id: string; name: string; state: 'linked' | 'removed' | 'added'; linkId?: string };

export type ManyToManyModel = ReturnType<typeof manyToManyModel>;

/**
 * The list and its use cases: load, pick (the dialog's search and selection), add the picked
 * records and remove the selected ones as pending changes (each with undo), and save them once
 * the record is stored. Spec 001 section 6: editable only with create permission on the link
 * entity (canEditManyToMany); the server still checks create and delete per link row.
 */
export const manyToManyModel = ({ api, m, caller }: { api: Pick<ApiClient, 'fetch' | 'executeMultiple'>; m: ManyToMany; caller: () => Caller | null }) => {
  /** The stored links (none for a new record); null while loading. */
  const rows = signal<LinkedRecord[] | null>(null);
  const error = signal('');
  /** Link rows ticked in the list, for Remove. */
  const selected = signal<ReadonlySet<string>>(new Set());
  /** Pending: records of the other side linked on save (id to name). */
  const added = signal<ReadonlyMap<string, string>>(new Map());
  /** Pending: stored link rows deleted on save (their link ids). */
  const removed = signal<ReadonlySet<string>>(new Set());
  const canEdit = computed(() => {
    const c = caller();
    return !!c && canEditManyToMany(c, m.link);
  });
  const dirty = computed(() => added.value.size > 0 || removed.value.size > 0);

  /** The list as it will be once saved, by name, with the pending rows marked. */
  const view = computed((): LinkView[] | null => {
    if (rows.value === null) return null;
    const stored = rows.value.map((r): LinkView => ({ id: r.id, name: r.name, linkId: r.linkId, state: removed.value.has(r.linkId) ? 'removed' : 'linked' }));
    const fresh = [...added.value].map(([id, name]): LinkView => ({ id, name, state: 'added' }));
    return [...stored, ...fresh].sort((a, b) => a.name.localeCompare(b.name));
  });
  /** How many records are linked once saved (the tab's count). */
  const count = computed(() => (view.value ?? []).filter((r) => r.state !== 'removed').length);

  /** Reads the stored links of `parentId` (none for a new record); the pending changes stay. */
  const load = async (parentId?: string): Promise<void> => {
    if (!parentId) {
      rows.value = [];
      return;
    }
    try {
      const res = await api.fetch(linkedQuery(m, parentId));
      const linked = res.records.map((r) => ({ id: String(r.id), name: String(r.name ?? ''), linkId: String(r[`${LINK_ALIAS}.id`] ?? ''), linkVersion: r[`${LINK_ALIAS}.versionnumber`] }));
      const stillThere = (linkId: string) => linked.some((r) => r.linkId === linkId);
      batch(() => {
        rows.value = linked;
        error.value = '';
        // A link row removed elsewhere leaves the selection and the pending removals; a record
        // linked elsewhere is no longer a pending add.
        selected.value = new Set([...selected.value].filter(stillThere));
        if ([...removed.value].some((x) => !stillThere(x))) removed.value = new Set([...removed.value].filter(stillThere));
        if ([...added.value.keys()].some((id) => linked.some((r) => r.id === id))) added.value = new Map([...added.value].filter(([id]) => !linked.some((r) => r.id === id)));
      });
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  };

  const toggle = (linkId: string) => {
    const next = new Set(selected.value);
    if (next.has(linkId)) next.delete(linkId);
    else next.add(linkId);
    selected.value = next;
  };

  /** The other side's records for the pick dialog; those linked (stored and kept, or added) are flagged. */
  const candidates = async (text: string): Promise<Array<{ id: string; name: string; linked: boolean }>> => {
    const res = await api.fetch(candidatesQuery(m, text));
    const linked = new Set((view.value ?? []).filter((r) => r.state !== 'removed').map((r) => r.id));
    return res.records.map((r) => ({ id: String(r.id), name: String(r.name ?? ''), linked: linked.has(String(r.id)) }));
  };

  /** Marks the picked records to be linked on save; picking one whose link is being removed keeps it instead. */
  const add = (picked: ReadonlyArray<{ id: string; name: string }>): void => {
    const stored = rows.value ?? [];
    const nextAdded = new Map(added.value);
    const nextRemoved = new Set(removed.value);
    for (const p of picked) {
      const link = stored.find((r) => r.id === p.id);
      if (link) nextRemoved.delete(link.linkId);
      else nextAdded.set(p.id, p.name);
    }
    batch(() => {
      added.value = nextAdded;
      removed.value = nextRemoved;
    });
  };

  /** Marks the selected stored links to be removed on save (the records themselves stay). */
  const removeSelected = (): void => {
    batch(() => {
      removed.value = new Set([...removed.value, ...selected.value]);
      selected.value = new Set();
    });
  };

  /** Undo of a pending row: an added record is not linked, a removed link is kept. */
  const undo = (row: LinkView): void => {
    if (row.state === 'added') added.value = new Map([...added.value].filter(([id]) => id !== row.id));
    else if (row.state === 'removed' && row.linkId) removed.value = new Set([...removed.value].filter((x) => x !== row.linkId));
  };

  /** The writes of the save: a link row created per added record, the removed link rows deleted (with their version). */
  const writes = (parentId: string): ExecuteItem[] => [
    ...[...added.value.keys()].map((id): ExecuteItem => ({ operation: 'create', name: m.link, object: { [m.parentField]: parentId, [m.otherField]: id } })),
    ...(rows.value ?? [])
      .filter((r) => removed.value.has(r.linkId))
      .map((r): ExecuteItem => ({ operation: 'delete', name: m.link, object: { id: r.linkId, ...(r.linkVersion !== undefined && r.linkVersion !== null ? { versionnumber: r.linkVersion as number } : {}) } })),
  ];

  /**
   * The afterSave step: the pending links in one atomic executemultiple, then the stored links
   * read again. A failure throws (the form says it) and keeps the pending links for another save.
   */
  const save = async (parentId: string): Promise<void> => {
    const items = writes(parentId);
    if (items.length > 0) {
      const answers = await api.executeMultiple(items, { atomic: true });
      const failed = answers.find((a) => a.error);
      if (failed?.error) throw new Error(failed.error);
      batch(() => {
        added.value = new Map();
        removed.value = new Set();
      });
    }
    await load(parentId);
  };

  return {
    m,
    rows: rows as ReadonlySignal<LinkedRecord[] | null>,
    view,
    count,
    error: error as ReadonlySignal<string>,
    selected: selected as ReadonlySignal<ReadonlySet<string>>,
    dirty,
    canEdit,
    load,
    toggle,
    candidates,
    add,
    removeSelected,
    undo,
    writes,
    save,
  };
};

/**
 * The save participant of a many-to-many list: dirty while links are pending, written in
 * afterSave with the stored id. When the links of a record just created fail, `carry` gets the
 * new id: the form moves to the stored record and the pending links go with it.
 */
export const linksParticipant = (model: ManyToManyModel, carry?: (id: string) => void): SaveParticipant => ({
  dirty: model.dirty,
  afterSave: async (id, created) => {
    if (!model.dirty.value) return;
    try {
      await model.save(id);
    } catch (e) {
      if (created) carry?.(id);
      throw e;
    }
  },
});
