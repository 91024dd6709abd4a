import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FULL_MASK, OPERATIONS, packMask, rolePermissions, withSystemFields, type CustomOwner, type Entity, type Level, type Levels, type RoleDocument } from '@tessera/core/internal';
import { StoreClient, fullCaller } from '../testing/store-client.js';
import { adminGrid, documentOfGrid, gridEntities, gridOfDocument, levelOf, setLevel, setRow, type RoleGrid } from './role-grid.js';
import { roleEditorModel, ROLE_ENTITY, type GridEntity } from './role-editor-model.js';

const level = fc.constantFrom<Level>(0, 1, 2, 3);
const levels: fc.Arbitrary<Levels> = fc.record({ create: level, read: level, update: level, delete: level });
const entityName = fc.constantFrom('account', 'contact', 'lead', 'invoice', 'workorder', 'systemuser');
const rule: fc.Arbitrary<CustomOwner> = fc.record({ objectName: entityName, operation: fc.constantFrom(...OPERATIONS), fieldName: fc.constantFrom('ownerid', 'primarycontactid', 'createdby') });
const grid: fc.Arbitrary<RoleGrid> = fc.record({
  levels: fc.dictionary(entityName, levels).map((d) => Object.fromEntries(Object.entries(d).filter(([, l]) => OPERATIONS.some((op) => l[op] !== 0)))),
  customOwners: fc.array(rule, { maxLength: 3 }),
});
/** Any stored document: masks of any integer (bits outside the levels included), with or without rules. */
const document: fc.Arbitrary<RoleDocument> = fc.oneof(
  fc.dictionary(entityName, fc.integer({ min: 0, max: 0xffff })),
  fc.record({ permissions: fc.dictionary(entityName, fc.integer({ min: 0, max: 0xffff })), customOwners: fc.array(rule, { maxLength: 3 }) }),
);
const KNOWN = ['account', 'contact', 'lead', 'invoice', 'workorder', 'systemuser'];

describe('issue 15: the role grid and the role body document (spec 000 section 6)', () => {
  it('property: a grid written as a document reads back as the same grid', () => {
    fc.assert(
      fc.property(grid, (g) => {
        expect(gridOfDocument(documentOfGrid(g))).toEqual(g);
      }),
    );
  });

  it('property: any stored document read as a grid and written again grants exactly the same permissions', () => {
    fc.assert(
      fc.property(document, (d) => {
        const again = documentOfGrid(gridOfDocument(d));
        expect(rolePermissions({ name: 'r', body: again }, KNOWN)).toEqual(rolePermissions({ name: 'r', body: d }, KNOWN));
        // and it is already canonical: writing it once more changes nothing
        expect(documentOfGrid(gridOfDocument(again))).toEqual(again);
      }),
    );
  });

  it('writes a map of entity to mask without rules, and { permissions, customOwners } with them', () => {
    const g = setLevel(setRow({ levels: {}, customOwners: [] }, 'account', 3), 'lead', 'read', 1);
    expect(documentOfGrid(g)).toEqual({ account: FULL_MASK, lead: packMask({ create: 0, read: 1, update: 0, delete: 0 }) });
    const withRule = { ...g, customOwners: [{ objectName: 'account', operation: 'update' as const, fieldName: 'primarycontactid' }] };
    expect(documentOfGrid(withRule)).toEqual({ permissions: { account: FULL_MASK, lead: 16 }, customOwners: withRule.customOwners });
    // a row set back to none leaves the document
    expect(documentOfGrid(setRow(g, 'account', 0))).toEqual({ lead: 16 });
  });

  it('reads the demo Salesperson document: account read at organization (3), update at owner (1)', () => {
    const g = gridOfDocument({ permissions: { account: 4401, inu_localize: 48 }, customOwners: [{ objectName: 'account', operation: 'update', fieldName: 'primarycontactid' }] });
    expect([levelOf(g, 'account', 'create'), levelOf(g, 'account', 'read'), levelOf(g, 'account', 'update'), levelOf(g, 'account', 'delete')]).toEqual([1, 3, 1, 1]);
    expect(levelOf(g, 'inu_localize', 'read')).toBe(3);
    expect(levelOf(g, 'lead', 'read')).toBe(0);
  });

  it('the admin role shows full access on every entity; entities the document names but the metadata lacks are kept', () => {
    expect(documentOfGrid(adminGrid(['account', 'lead']))).toEqual({ account: FULL_MASK, lead: FULL_MASK });
    expect(gridEntities(['account'], gridOfDocument({ gone: 1, account: 1 }))).toEqual([
      { name: 'account', known: true },
      { name: 'gone', known: false },
    ]);
  });
});

const entity = (logicalName: string, properties: Entity['properties'] = []): Entity => {
  const r = withSystemFields({ logicalName, displayName: logicalName, displayNamePlural: logicalName, properties });
  if (r._tag === 'Left') throw new Error(r.left.message);
  return r.right;
};
const ROLE = entity('inu_role', [
  { logicalName: 'appid', displayName: 'App', type: 'Lookup', targets: ['inu_app'] },
  { logicalName: 'body', displayName: 'Permissions', type: 'String', flags: ['MultiLine', 'Json'] },
]);
const APP = entity('inu_app', [{ logicalName: 'label', displayName: 'Label', type: 'String', max: 200 }]);
const GRID_ENTITIES: GridEntity[] = [
  { name: 'account', label: 'Accounts', lookups: [{ name: 'primarycontactid', label: 'Primary Contact' }, { name: 'ownerid', label: 'Owner' }] },
  { name: 'lead', label: 'Leads', lookups: [] },
];

describe('issue 15: the role editor model', () => {
  const setup = async (name: string, body: string) => {
    const client = new StoreClient([ROLE, APP], fullCaller('11111111-1111-4111-8111-111111111111', ['inu_role', 'inu_app']));
    const app = await client.update('create', 'inu_app', { name: 'Sales', label: 'Sales' });
    const id = await client.update('create', ROLE_ENTITY, { name, appid: app, body });
    const m = roleEditorModel({ api: client, id, entities: GRID_ENTITIES });
    await m.load();
    return { client, app, id, m };
  };

  it('changes a read level with the grid and saves the body document on the role', async () => {
    const { client, id, m, app } = await setup('Salesperson', JSON.stringify({ permissions: { account: 4401 }, customOwners: [{ objectName: 'account', operation: 'update', fieldName: 'primarycontactid' }] }));
    expect(m.status.value).toBe('ready');
    expect(m.appId.value).toBe(app);
    expect(m.apps.value).toEqual([{ id: app, label: 'Sales' }]);
    expect(m.dirty.value).toBe(false);
    m.set('account', 'read', 1);
    m.set('lead', 'read', 3);
    expect(m.dirty.value).toBe(true);
    expect(await m.save()).toEqual({ _tag: 'Saved', id });
    const stored = await client.stored(ROLE_ENTITY, id);
    expect(JSON.parse(String(stored?.body))).toEqual({ permissions: { account: 4369, lead: 48 }, customOwners: [{ objectName: 'account', operation: 'update', fieldName: 'primarycontactid' }] });
    expect(m.dirty.value).toBe(false);
  });

  it('custom-owner rules: added, completed and removed; an incomplete rule is not saved', async () => {
    const { client, id, m } = await setup('Clerk', JSON.stringify({ account: 16 }));
    m.addRule();
    expect(await m.save()).toEqual({ _tag: 'RuleIncomplete' });
    m.updateRule(0, { objectName: 'account' });
    m.updateRule(0, { operation: 'delete', fieldName: 'ownerid' });
    expect(m.lookupsOf('account').map((l) => l.name)).toEqual(['primarycontactid', 'ownerid']);
    expect((await m.save())._tag).toBe('Saved');
    expect(JSON.parse(String((await client.stored(ROLE_ENTITY, id))?.body))).toEqual({ permissions: { account: 16 }, customOwners: [{ objectName: 'account', operation: 'delete', fieldName: 'ownerid' }] });
    m.removeRule(0);
    await m.save();
    expect(JSON.parse(String((await client.stored(ROLE_ENTITY, id))?.body))).toEqual({ account: 16 });
  });

  it('the admin role shows read-only full access and its document is left as stored', async () => {
    const { client, id, m } = await setup('admin', '{}');
    expect(m.admin.value).toBe(true);
    expect(levelOf(m.shownGrid.value, 'account', 'delete')).toBe(3);
    m.set('account', 'read', 0);
    m.setWholeRow('lead', 0);
    expect(levelOf(m.shownGrid.value, 'account', 'read')).toBe(3);
    expect(m.dirty.value).toBe(false);
    m.appId.value = null;
    await m.save();
    expect((await client.stored(ROLE_ENTITY, id))?.body).toBe('{}');
  });

  it('a stored body that does not decode says so and starts from no access; a missing name is refused', async () => {
    const { m } = await setup('Broken', '{"account": "all"}');
    expect(m.bodyProblem.value).toBeTruthy();
    expect(m.grid.value).toEqual({ levels: {}, customOwners: [] });
    m.name.value = '  ';
    expect(await m.save()).toEqual({ _tag: 'NameMissing' });
  });
});
