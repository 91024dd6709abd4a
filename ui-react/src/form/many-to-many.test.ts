import { describe, expect, it } from 'vitest';
import type { Entity } from '../core.js';
import { packMask } from '../core.js';
import { defaultFormOf } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { linksParticipant, manyToManyModel, manyToManyOf } from './many-to-many.js';
import { NEW_ID, recordFormModel } from './record-form-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const sys = (logicalName: string, displayName: string, extra: Entity['properties'] = []): Entity => ({
  logicalName,
  displayName,
  displayNamePlural: `${displayName}s`,
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    ...extra,
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
});
const user = sys('systemuser', 'User');
const role = sys('inu_role', 'Role');
/** The system pack's link entity: no name, two lookups. */
const userRoles: Entity = {
  logicalName: 'systemuserroles',
  displayName: 'User Role',
  displayNamePlural: 'User Roles',
  type: 'many',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'systemuserid', displayName: 'User', type: 'Lookup', targets: ['systemuser'], flags: ['Required'] },
    { logicalName: 'roleid', displayName: 'Role', type: 'Lookup', targets: ['inu_role'], flags: ['Required'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const entities = [user, role, userRoles];

const setup = async () => {
  const api = new StoreClient(entities, fullCaller(ME, entities.map((e) => e.logicalName)));
  const nina = await api.update('create', 'systemuser', { name: 'Nina North' });
  const sam = await api.update('create', 'systemuser', { name: 'Sam South' });
  const sales = await api.update('create', 'inu_role', { name: 'Salesperson' });
  const tech = await api.update('create', 'inu_role', { name: 'Technician' });
  const admin = await api.update('create', 'inu_role', { name: 'Administrator' });
  await api.update('create', 'systemuserroles', { systemuserid: nina, roleid: sales });
  await api.update('create', 'systemuserroles', { systemuserid: sam, roleid: tech });
  return { api, nina, sam, sales, tech, admin };
};

describe('many-to-many associated lists (issue 23 item 1: the user form Roles tab lists the other side)', () => {
  it('an associated list over a link entity reads the other lookup: a user form lists roles, a role form lists users', () => {
    expect(manyToManyOf(userRoles, 'systemuserid')).toEqual({ link: 'systemuserroles', parentField: 'systemuserid', otherField: 'roleid', other: 'inu_role' });
    expect(manyToManyOf(userRoles, 'roleid')).toEqual({ link: 'systemuserroles', parentField: 'roleid', otherField: 'systemuserid', other: 'systemuser' });
    expect(manyToManyOf(role, 'x')).toBeUndefined();
  });

  it('lists the linked records by name (not the nameless link rows), only those of this record', async () => {
    const { api, nina, sales } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    await model.load(nina);
    expect(model.error.value).toBe('');
    expect(model.rows.value?.map((r) => [r.id, r.name])).toEqual([[sales, 'Salesperson']]);
    expect(model.count.value).toBe(1);
  });

  it('a role form lists its users', async () => {
    const { api, sam, tech } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'roleid')!, caller: () => api.caller });
    await model.load(tech);
    expect(model.rows.value?.map((r) => r.id)).toEqual([sam]);
  });

  it('the pick dialog offers the other side by starts-with, flagging the records already linked', async () => {
    const { api, nina } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    await model.load(nina);
    expect(await model.candidates('')).toEqual([
      expect.objectContaining({ name: 'Administrator', linked: false }),
      expect.objectContaining({ name: 'Salesperson', linked: true }),
      expect.objectContaining({ name: 'Technician', linked: false }),
    ]);
    expect((await model.candidates('tech')).map((c) => c.name)).toEqual(['Technician']);
  });

  it('spec 001 section 6: editable only with create permission on the link entity', async () => {
    const { api } = await setup();
    const m = manyToManyOf(userRoles, 'systemuserid')!;
    const readOnly = { ...api.caller, permissions: { ...api.caller.permissions, permissions: { ...api.caller.permissions.permissions, systemuserroles: packMask({ create: 0, read: 3, update: 0, delete: 0 }) } } };
    expect(manyToManyModel({ api, m, caller: () => api.caller }).canEdit.value).toBe(true);
    expect(manyToManyModel({ api, m, caller: () => readOnly }).canEdit.value).toBe(false);
    expect(manyToManyModel({ api, m, caller: () => null }).canEdit.value).toBe(false);
  });

  it('Add only marks the picked records pending (nothing written, the list shows them as added); duplicates and links already stored are ignored', async () => {
    const { api, nina, tech, admin, sales } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    await model.load(nina);
    api.batches.length = 0;
    model.add([
      { id: tech, name: 'Technician' },
      { id: admin, name: 'Administrator' },
      { id: sales, name: 'Salesperson' },
      { id: tech, name: 'Technician' },
    ]);
    expect(api.batches).toEqual([]);
    expect(model.dirty.value).toBe(true);
    expect(model.view.value?.map((r) => [r.name, r.state])).toEqual([
      ['Administrator', 'added'],
      ['Salesperson', 'linked'],
      ['Technician', 'added'],
    ]);
    expect(model.count.value).toBe(3);
    expect((await model.candidates('')).filter((c) => c.linked).map((c) => c.name)).toEqual(['Administrator', 'Salesperson', 'Technician']);
  });

  it('Remove marks the selected links removed on save; undo takes back an add or a remove; picking a removed one keeps it', async () => {
    const { api, nina, tech, sales } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    await model.load(nina);
    const salesLink = model.rows.value!.find((r) => r.id === sales)!.linkId;
    model.toggle(salesLink);
    model.removeSelected();
    expect(model.selected.value.size).toBe(0);
    expect(model.view.value?.map((r) => [r.name, r.state])).toEqual([['Salesperson', 'removed']]);
    expect(model.count.value).toBe(0);
    expect(model.dirty.value).toBe(true);
    model.undo(model.view.value![0]!);
    expect(model.dirty.value).toBe(false);
    model.removeSelected();
    model.toggle(salesLink);
    model.removeSelected();
    model.add([{ id: sales, name: 'Salesperson' }]);
    expect(model.view.value?.map((r) => r.state)).toEqual(['linked']);
    model.add([{ id: tech, name: 'Technician' }]);
    model.undo(model.view.value!.find((r) => r.state === 'added')!);
    expect(model.dirty.value).toBe(false);
    expect(model.writes(nina)).toEqual([]);
  });
});

describe("many-to-many links save with the record (issue 16: the save sequence's afterSave step writes them)", () => {
  const formOf = async (api: StoreClient, id: string) => {
    const links = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    const form = recordFormModel({ api, entity: user, id, form: defaultFormOf(user, []), caller: () => api.caller });
    form.participate(linksParticipant(links));
    await form.load();
    await links.load(id === NEW_ID ? undefined : id);
    return { links, form };
  };

  it('pending links make the form dirty; Save writes them after the record in one atomic executemultiple', async () => {
    const { api, nina, tech, sales } = await setup();
    const { links, form } = await formOf(api, nina);
    expect(form.dirty.value).toBe(false);
    links.add([{ id: tech, name: 'Technician' }]);
    links.toggle(links.rows.value!.find((r) => r.id === sales)!.linkId);
    links.removeSelected();
    expect(form.dirty.value).toBe(true);
    form.setValue('name', 'Nina Newname');
    api.calls.length = 0;
    api.batches.length = 0;
    expect((await form.save())._tag).toBe('Saved');
    expect(api.calls.map((c) => c.operation)).toEqual(['update']);
    expect(api.batches).toHaveLength(1);
    expect(api.batches[0]!.atomic).toBe(true);
    expect(api.batches[0]!.items.map((i) => i.operation)).toEqual(['create', 'delete']);
    expect(links.view.value?.map((r) => [r.name, r.state])).toEqual([['Technician', 'linked']]);
    expect(form.dirty.value).toBe(false);
  });

  it('a new record collects links; they are written after the create, with the new id', async () => {
    const { api, tech, admin } = await setup();
    const { links, form } = await formOf(api, NEW_ID);
    expect(links.view.value).toEqual([]);
    links.add([
      { id: tech, name: 'Technician' },
      { id: admin, name: 'Administrator' },
    ]);
    expect(form.dirty.value).toBe(true);
    form.setValue('name', 'Olga Onboarded');
    api.calls.length = 0;
    api.batches.length = 0;
    const saved = await form.save();
    expect(saved._tag).toBe('Saved');
    const id = saved._tag === 'Saved' ? saved.id : '';
    expect(api.calls.map((c) => c.operation)).toEqual(['create']);
    expect(api.batches).toHaveLength(1);
    expect(api.batches[0]!.items.map((i) => i.object.systemuserid)).toEqual([id, id]);
    const stored = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    await stored.load(id);
    expect(stored.rows.value?.map((r) => r.name)).toEqual(['Administrator', 'Technician']);
  });

  it('a failed link batch leaves the record saved and the pending links kept (atomic: none of them written), the failure answered', async () => {
    const { api, nina, tech, sales } = await setup();
    const { links, form } = await formOf(api, nina);
    links.add([{ id: tech, name: 'Technician' }]);
    const salesLink = links.rows.value!.find((r) => r.id === sales)!;
    links.toggle(salesLink.linkId);
    links.removeSelected();
    // Another user removes the same link meanwhile: the delete of the batch fails.
    await api.update('delete', 'systemuserroles', { id: salesLink.linkId, versionnumber: salesLink.linkVersion as number });
    form.setValue('name', 'Nina Renamed');
    const r = await form.save();
    expect(r).toMatchObject({ _tag: 'Failed', saved: { id: nina, created: false } });
    expect(String((await api.stored('systemuser', nina))?.name)).toBe('Nina Renamed');
    // The form took the stored record: only the pending links keep it dirty.
    expect(form.loaded.value.name).toBe('Nina Renamed');
    expect(links.dirty.value).toBe(true);
    expect(form.dirty.value).toBe(true);
    const stored = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    await stored.load(nina);
    expect(stored.rows.value).toEqual([]);
  });

  it('a new record whose links fail is created all the same: the failure names the new id, and the pending links are carried to it', async () => {
    const { api, tech } = await setup();
    const refusing = { fetch: api.fetch.bind(api), executeMultiple: async () => Promise.reject(new Error('ERR_5001: no create on systemuserroles')) };
    const links = manyToManyModel({ api: refusing, m: manyToManyOf(userRoles, 'systemuserid')!, caller: () => api.caller });
    const form = recordFormModel({ api, entity: user, id: NEW_ID, form: defaultFormOf(user, []), caller: () => api.caller });
    const carried: string[] = [];
    form.participate(linksParticipant(links, (id) => carried.push(id)));
    await form.load();
    await links.load(undefined);
    links.add([{ id: tech, name: 'Technician' }]);
    form.setValue('name', 'Paul Pending');
    const r = await form.save();
    expect(r._tag).toBe('Failed');
    const saved = r._tag === 'Failed' ? r.saved : undefined;
    expect(saved).toMatchObject({ created: true, name: 'Paul Pending' });
    expect(await api.stored('systemuser', saved!.id)).toBeDefined();
    expect(carried).toEqual([saved!.id]);
    expect(links.dirty.value).toBe(true);
    expect(form.status.value).toBe('ready');
  });
});
