import { describe, expect, it } from 'vitest';
import type { Entity } from '../core.js';
import { packMask } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { manyToManyModel, manyToManyOf } from './many-to-many.js';

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
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, parentId: nina, caller: () => api.caller });
    await model.load();
    expect(model.error.value).toBe('');
    expect(model.rows.value?.map((r) => [r.id, r.name])).toEqual([[sales, 'Salesperson']]);
    expect(model.count.value).toBe(1);
  });

  it('a role form lists its users', async () => {
    const { api, sam, tech } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'roleid')!, parentId: tech, caller: () => api.caller });
    await model.load();
    expect(model.rows.value?.map((r) => r.id)).toEqual([sam]);
  });

  it('Add writes one link row per picked record not linked yet; the list then shows them', async () => {
    const { api, nina, sales, tech, admin } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, parentId: nina, caller: () => api.caller });
    await model.load();
    api.calls.length = 0;
    const r = await model.add([tech, admin, sales, tech]);
    expect(r).toEqual({ _tag: 'Done', errors: [] });
    expect(model.rows.value?.map((x) => x.name)).toEqual(['Administrator', 'Salesperson', 'Technician']);
    const links = (await api.fetch({ entity: { name: 'systemuserroles', allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'systemuserid', operator: 'eq', value: nina }] } } })).records;
    expect(links).toHaveLength(3);
  });

  it('the pick dialog offers the other side by starts-with, flagging the records already linked', async () => {
    const { api, nina } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, parentId: nina, caller: () => api.caller });
    await model.load();
    expect(await model.candidates('')).toEqual([
      expect.objectContaining({ name: 'Administrator', linked: false }),
      expect.objectContaining({ name: 'Salesperson', linked: true }),
      expect.objectContaining({ name: 'Technician', linked: false }),
    ]);
    expect((await model.candidates('tech')).map((c) => c.name)).toEqual(['Technician']);
  });

  it('Remove deletes the link rows of the selected records; the records themselves stay', async () => {
    const { api, nina, sales, tech } = await setup();
    const model = manyToManyModel({ api, m: manyToManyOf(userRoles, 'systemuserid')!, parentId: nina, caller: () => api.caller });
    await model.load();
    await model.add([tech]);
    const salesLink = model.rows.value!.find((r) => r.id === sales)!.linkId;
    model.toggle(salesLink);
    expect(model.selected.value.has(salesLink)).toBe(true);
    expect(await model.removeSelected()).toEqual({ _tag: 'Done', errors: [] });
    expect(model.rows.value?.map((r) => r.id)).toEqual([tech]);
    expect(model.selected.value.size).toBe(0);
    expect(await api.stored('inu_role', sales)).toBeDefined();
  });

  it('spec 001 section 6: editable only with create permission on the link entity', async () => {
    const { api, nina } = await setup();
    const m = manyToManyOf(userRoles, 'systemuserid')!;
    const readOnly = { ...api.caller, permissions: { ...api.caller.permissions, permissions: { ...api.caller.permissions.permissions, systemuserroles: packMask({ create: 0, read: 3, update: 0, delete: 0 }) } } };
    expect(manyToManyModel({ api, m, parentId: nina, caller: () => api.caller }).canEdit.value).toBe(true);
    expect(manyToManyModel({ api, m, parentId: nina, caller: () => readOnly }).canEdit.value).toBe(false);
    expect(manyToManyModel({ api, m, parentId: nina, caller: () => null }).canEdit.value).toBe(false);
  });
});
