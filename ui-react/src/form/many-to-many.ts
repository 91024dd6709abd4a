import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-react';
import type { Caller, Entity, FetchRequest, Filter } from '../core.js';
import { canEditManyToMany, isLinkEntity, likeLiteral } from '../core.js';
import type { ApiClient } from '../api/client.js';

/**
 * An associated list over a link entity (type 'many', spec 000: a link table between two
 * lookups), e.g. systemuserroles between systemuser and inu_role. The list shows the records of
 * the other side (a user's roles, a role's users), read with one fetch of the other entity joined
 * through the link rows of this record; adding writes link rows, removing deletes them, both in
 * one executemultiple. Issue 23 item 1: the link entity has no name, so listing it failed.
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

export type LinkResult = { _tag: 'Done'; errors: string[] } | { _tag: 'Failed'; error: unknown };

export type ManyToManyModel = ReturnType<typeof manyToManyModel>;

/**
 * The list and its use cases: load, pick (the dialog's search and selection), add the picked
 * records, remove the selected ones. Spec 001 section 6: editable only with create permission on
 * the link entity (canEditManyToMany); the server still checks create and delete per link row.
 */
export const manyToManyModel = ({ api, m, parentId, caller }: { api: Pick<ApiClient, 'fetch' | 'executeMultiple'>; m: ManyToMany; parentId: string; caller: () => Caller | null }) => {
  const rows = signal<LinkedRecord[] | null>(null);
  const count = signal(0);
  const error = signal('');
  /** Link rows ticked in the list, for Remove. */
  const selected = signal<ReadonlySet<string>>(new Set());
  const busy = signal(false);
  const canEdit = computed(() => {
    const c = caller();
    return !!c && canEditManyToMany(c, m.link);
  });

  const load = async (): Promise<void> => {
    try {
      const res = await api.fetch(linkedQuery(m, parentId));
      const linked = res.records.map((r) => ({ id: String(r.id), name: String(r.name ?? ''), linkId: String(r[`${LINK_ALIAS}.id`] ?? ''), linkVersion: r[`${LINK_ALIAS}.versionnumber`] }));
      batch(() => {
        rows.value = linked;
        count.value = res.count ?? linked.length;
        error.value = '';
        // A link row removed elsewhere leaves the selection.
        selected.value = new Set([...selected.value].filter((id) => linked.some((r) => r.linkId === id)));
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

  /** The other side's records for the pick dialog; those already linked are flagged. */
  const candidates = async (text: string): Promise<Array<{ id: string; name: string; linked: boolean }>> => {
    const res = await api.fetch(candidatesQuery(m, text));
    const linked = new Set((rows.value ?? []).map((r) => r.id));
    return res.records.map((r) => ({ id: String(r.id), name: String(r.name ?? ''), linked: linked.has(String(r.id)) }));
  };

  const write = async (items: Parameters<typeof api.executeMultiple>[0]): Promise<LinkResult> => {
    if (items.length === 0) return { _tag: 'Done', errors: [] };
    busy.value = true;
    try {
      const results = await api.executeMultiple(items);
      await load();
      return { _tag: 'Done', errors: results.flatMap((r) => (r.error ? [r.error] : [])) };
    } catch (error) {
      return { _tag: 'Failed', error };
    } finally {
      busy.value = false;
    }
  };

  /** Links the picked records (those not linked yet): a link row each. */
  const add = (ids: readonly string[]): Promise<LinkResult> => {
    const linked = new Set((rows.value ?? []).map((r) => r.id));
    return write(
      [...new Set(ids)].filter((id) => !linked.has(id)).map((id) => ({ operation: 'create' as const, name: m.link, object: { [m.parentField]: parentId, [m.otherField]: id } })),
    );
  };

  /** Unlinks the selected records: deletes their link rows (the records themselves stay). */
  const removeSelected = async (): Promise<LinkResult> => {
    const chosen = (rows.value ?? []).filter((r) => selected.value.has(r.linkId));
    const r = await write(chosen.map((x) => ({ operation: 'delete' as const, name: m.link, object: { id: x.linkId, ...(x.linkVersion !== undefined && x.linkVersion !== null ? { versionnumber: x.linkVersion as number } : {}) } })));
    if (r._tag === 'Done') selected.value = new Set();
    return r;
  };

  return {
    m,
    rows: rows as ReadonlySignal<LinkedRecord[] | null>,
    count: count as ReadonlySignal<number>,
    error: error as ReadonlySignal<string>,
    selected: selected as ReadonlySignal<ReadonlySet<string>>,
    busy: busy as ReadonlySignal<boolean>,
    canEdit,
    load,
    toggle,
    candidates,
    add,
    removeSelected,
  };
};
