import { afterEach, describe, expect, it } from 'vitest';
import type { Caller, Entity, EntityRecord } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { listModel, type ListMemory } from './list-model.js';
import { listEditModel, linkColumnOf, EDIT_ON, SUPER_EDIT, EDIT_OFF } from './list-edit-model.js';
import type { NamedView } from './list-query.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String', max: 20, flags: ['Required'] },
    { logicalName: 'city', displayName: 'City', type: 'String' },
    { logicalName: 'employees', displayName: 'Employees', type: 'Integer' },
    { logicalName: 'modifiedby', displayName: 'Modified By', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const tag: Entity = {
  logicalName: 'tag',
  displayName: 'Tag',
  displayNamePlural: 'Tags',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const accountTag: Entity = {
  logicalName: 'accounttag',
  displayName: 'Account Tag',
  displayNamePlural: 'Account Tags',
  type: 'many',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'accountid', displayName: 'Account', type: 'Lookup', targets: ['account'] },
    { logicalName: 'tagid', displayName: 'Tag', type: 'Lookup', targets: ['tag'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const entities = [account, tag, accountTag];
const entityOf = (n: string) => entities.find((e) => e.logicalName === n);
const TAGS = 'accounttag.accountid';
const view: NamedView = {
  name: 'all',
  label: 'All',
  body: {
    query: { name: 'account', orders: [{ attribute: 'name' }] },
    columns: [{ name: 'name' }, { name: 'city' }, { name: 'employees' }, { name: TAGS }],
  },
};

const memoryOf = (): ListMemory => {
  const map = new Map<string, string>();
  return { get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v) };
};
const settled = async () => {
  for (let i = 0; i < 8; i++) await new Promise((r) => setTimeout(r, 0));
};

let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

const setup = async (n = 4, editCaller?: Caller) => {
  const api = new StoreClient(entities, fullCaller(ME, ['account', 'tag', 'accounttag', 'systemuser']));
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await api.update('create', 'account', { name: `Account ${i}`, city: 'Praha', employees: i }));
  const red = await api.update('create', 'tag', { name: 'Red' });
  const blue = await api.update('create', 'tag', { name: 'Blue' });
  await api.update('create', 'accounttag', { accountid: ids[0], tagid: red });
  api.calls.length = 0;
  const list = listModel({
    api,
    entity: () => account,
    views: () => [view],
    filters: () => [],
    caller: () => api.caller,
    memory: memoryOf(),
    refreshDelayMs: 10,
  });
  const postsaves: Array<{ entity: string; ids: string[] }> = [];
  let seq = 0;
  const edit = listEditModel({
    list,
    api,
    caller: () => editCaller ?? api.caller,
    entityOf,
    newId: () => `10000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`,
    onPostSave: (s) => postsaves.push(s),
  });
  stops.push(list.start(), edit.start());
  await settled();
  edit.setMode(EDIT_ON);
  return { api, list, edit, ids, red, blue, postsaves };
};
const stored = async (api: StoreClient, id: string): Promise<EntityRecord | undefined> => api.stored('account', id);

describe('list edit model (issue 13 section 1: editing in the list)', () => {
  it('reads a column {link}.{parentField} over a link entity as many-to-many', () => {
    expect(linkColumnOf('account', TAGS, entityOf)).toEqual({
      link: 'accounttag',
      parentField: 'accountid',
      otherField: 'tagid',
      other: 'tag',
    });
    expect(linkColumnOf('account', 'accounttag.tagid', entityOf)).toBeUndefined();
    expect(linkColumnOf('account', 'primarycontactid.name', entityOf)).toBeUndefined();
  });

  it('edit three cells and a delete: ONE atomic executemultiple, then the postsave event and a reload (spec 001 section 2)', async () => {
    const { api, list, edit, ids, postsaves } = await setup();
    edit.setValue(ids[0], 'city', 'Brno');
    edit.setValue(ids[1], 'employees', 42);
    edit.setValue(ids[2], 'name', 'Renamed');
    edit.remove(ids[3]);
    expect(edit.pending.value).toBe(4);
    const r = await edit.save();
    expect(r).toEqual({ _tag: 'Saved', written: 4 });
    expect(api.batches).toHaveLength(1);
    expect(api.batches[0].atomic).toBe(true);
    expect(api.batches[0].items.map((i) => i.operation)).toEqual(['update', 'update', 'update', 'delete']);
    expect(api.batches[0].items[0].object).toEqual({ city: 'Brno', id: ids[0], versionnumber: '1' });
    expect(postsaves).toEqual([{ entity: 'account', ids: [ids[0], ids[1], ids[2], ids[3]] }]);
    expect((await stored(api, ids[0]))?.city).toBe('Brno');
    expect(await stored(api, ids[3])).toBeUndefined();
    expect(edit.dirty.value).toBe(false);
    expect(list.rows.value?.map((x) => x.name)).toEqual(['Account 0', 'Account 1', 'Renamed']);
  });

  it('a row created then deleted is dropped; a new row is created with its client id', async () => {
    const { api, edit } = await setup(1);
    const gone = edit.add();
    edit.setValue(gone, 'name', 'Gone');
    edit.remove(gone);
    const kept = edit.add();
    edit.setValue(kept, 'name', 'Kept');
    expect(edit.rows.value?.[0]).toMatchObject({ id: kept, name: 'Kept' });
    await edit.save();
    expect(api.batches[0].items).toEqual([
      { operation: 'create', name: 'account', object: { id: kept, name: 'Kept' } },
    ]);
    expect((await stored(api, kept))?.name).toBe('Kept');
  });

  it('a failing batch keeps every edit with the error next to its row; nothing is half-saved', async () => {
    const { api, edit, ids } = await setup();
    edit.setValue(ids[0], 'city', 'Brno');
    edit.setValue(ids[1], 'name', 'A name far too long for twenty');
    const r = await edit.save();
    expect(r._tag).toBe('RowsFailed');
    expect(Object.keys(edit.errors.value)).toEqual([ids[1]]);
    expect(edit.errors.value[ids[1]]).toMatchObject({ _tag: 'Server' });
    expect((await stored(api, ids[0]))?.city).toBe('Praha');
    expect(edit.pending.value).toBe(2);
    expect(edit.rows.value?.find((x) => x.id === ids[0])?.city).toBe('Brno');
    // editing the row clears its error
    edit.setValue(ids[1], 'name', 'Short');
    expect(edit.errors.value).toEqual({});
    expect((await edit.save())._tag).toBe('Saved');
    expect((await stored(api, ids[0]))?.city).toBe('Brno');
  });

  it('empty required fields stop the save before sending (spec 001 section 5)', async () => {
    const { api, edit, ids } = await setup(1);
    edit.setValue(ids[0], 'name', '');
    const r = await edit.save();
    expect(r).toEqual({ _tag: 'RowsFailed', errors: { [ids[0]]: { _tag: 'Required', labels: ['Name'] } } });
    expect(api.batches).toHaveLength(0);
  });

  it('after a save the reload shows as many rows as were shown, new rows included (spec 001 section 2: the page size grows)', async () => {
    const { list, edit } = await setup(50);
    expect(list.rows.value).toHaveLength(50);
    const a = edit.add();
    edit.setValue(a, 'name', 'Zz 1');
    const b = edit.add();
    edit.setValue(b, 'name', 'Zz 2');
    expect((await edit.save())._tag).toBe('Saved');
    await settled();
    expect(list.pageSize.value).toBe(52);
    expect(list.rows.value).toHaveLength(52);
  });

  it('ERR_8001 on a row goes through the merge: another field changed on the server merges and saves', async () => {
    const { api, edit, ids } = await setup(2);
    edit.setValue(ids[0], 'city', 'Brno');
    edit.setValue(ids[1], 'employees', 7);
    await api.otherUserEdits('account', { id: ids[0], employees: 99 });
    const r = await edit.save();
    expect(r._tag).toBe('Saved');
    expect(api.batches).toHaveLength(2);
    expect(await stored(api, ids[0])).toMatchObject({ city: 'Brno', employees: 99 });
    expect((await stored(api, ids[1]))?.employees).toBe(7);
  });

  it('ERR_8001 with the same field changed on both sides: This record was modified by, edits kept', async () => {
    const { api, edit, ids } = await setup(2);
    edit.setValue(ids[0], 'city', 'Brno');
    edit.setValue(ids[1], 'city', 'Linz');
    await api.otherUserEdits('account', { id: ids[0], city: 'Wien' });
    const r = await edit.save();
    expect(r._tag).toBe('RowsFailed');
    expect(edit.errors.value[ids[0]]).toMatchObject({ _tag: 'ModifiedBy' });
    expect((await stored(api, ids[1]))?.city).toBe('Praha');
    expect(edit.pending.value).toBe(2);
  });

  it('many-to-many: toggles are marked, toggling back clears, saved as create/delete of link rows', async () => {
    const { api, edit, ids, red, blue } = await setup(2);
    expect(edit.membersOf(ids[0], TAGS)).toEqual([red]);
    edit.toggle(ids[1], TAGS, blue, 'Blue');
    edit.toggle(ids[1], TAGS, blue);
    expect(edit.dirty.value).toBe(false);
    edit.toggle(ids[1], TAGS, blue, 'Blue');
    edit.toggle(ids[0], TAGS, red);
    expect(edit.membersOf(ids[0], TAGS)).toEqual([]);
    expect(edit.membersOf(ids[1], TAGS)).toEqual([blue]);
    await edit.save();
    expect(api.batches[0].items.map((i) => `${i.operation} ${i.name}`)).toEqual([
      'create accounttag',
      'delete accounttag',
    ]);
    await settled();
    expect(edit.membersOf(ids[0], TAGS)).toEqual([]);
    expect(edit.membersOf(ids[1], TAGS)).toEqual([blue]);
    expect(edit.labels.value[blue]).toBe('Blue');
  });

  it('a many-to-many cell is editable only with create on the link entity (spec 001 section 6)', async () => {
    const full = await setup(1);
    expect(full.edit.editableCell(full.ids[0], TAGS)).toBe(true);
    const { edit, ids } = await setup(1, fullCaller(ME, ['account', 'tag']));
    expect(edit.editableCell(ids[0], TAGS)).toBe(false);
    expect(edit.editableCell(ids[0], 'city')).toBe(true);
    expect(edit.editableCell(ids[0], 'versionnumber')).toBe(false);
  });

  it('super edit: mass set a field and mass delete on the selected rows, in one batch', async () => {
    const { api, list, edit, ids } = await setup(4);
    edit.setMode(SUPER_EDIT);
    expect(edit.mode.value).toBe(SUPER_EDIT);
    list.toggle(ids[0]);
    list.toggle(ids[1]);
    expect(edit.massSet('city', 'Graz')).toBe(2);
    list.toggle(ids[0]);
    list.toggle(ids[1]);
    list.toggle(ids[2]);
    expect(edit.massDelete()).toBe(1);
    await edit.save();
    expect(api.batches).toHaveLength(1);
    expect(api.batches[0].items.map((i) => i.operation)).toEqual(['update', 'update', 'delete']);
    expect((await stored(api, ids[1]))?.city).toBe('Graz');
  });

  it('mass edit supports link objects: links a picked record on every selected row', async () => {
    const { api, list, edit, ids, red } = await setup(3);
    edit.setMode(SUPER_EDIT);
    ids.forEach((id) => list.toggle(id));
    edit.massLink(TAGS, [red], 'add', { [red]: 'Red' });
    expect(api.batches).toHaveLength(0);
    await edit.save();
    // the first row had Red already: two link rows
    expect(api.batches[0].items.map((i) => `${i.operation} ${i.name}`)).toEqual([
      'create accounttag',
      'create accounttag',
    ]);
    await settled();
    expect(ids.map((id) => edit.membersOf(id, TAGS))).toEqual([[red], [red], [red]]);
  });

  it('leaving edit mode discards; without the edit permission (level 2 update) there is no edit mode', async () => {
    const { edit, ids } = await setup(1);
    edit.setValue(ids[0], 'city', 'Brno');
    edit.setMode(EDIT_OFF);
    expect(edit.dirty.value).toBe(false);
    expect(edit.editableCell(ids[0], 'city')).toBe(false);
    expect(edit.canEdit.value).toBe(true);
  });
});
