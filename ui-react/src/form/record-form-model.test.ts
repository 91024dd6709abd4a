import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entity, EntityRecord, Form } from '../core.js';
import { defaultFormOf } from '../core.js';
import { ServerError } from '../api/client.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { NEW_ID, recordFormModel, STAGE_FIELD } from './record-form-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String', flags: ['Required'] },
    { logicalName: 'city', displayName: 'City', type: 'String' },
    { logicalName: 'phone', displayName: 'Phone', type: 'String' },
    { logicalName: 'statuscode', displayName: 'Status', type: 'Integer', defaultValue: 1 },
    { logicalName: STAGE_FIELD, displayName: 'Stage', type: 'Integer' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const form: Form = defaultFormOf(account, []);

const setup = async (record: EntityRecord = { name: 'Contoso', city: 'Brno', phone: '1' }) => {
  const api = new StoreClient([account], fullCaller(ME, ['account']));
  const id = await api.update('create', 'account', record);
  api.calls.length = 0;
  const model = recordFormModel({ api, entity: account, id, form, caller: () => api.caller, user: { id: ME, name: 'Me' } });
  await model.load();
  return { api, id, model };
};

describe('record form model (spec 001 section 4: states and the save sequence)', () => {
  it('loads the record: status ready, clean, the stored values shown', async () => {
    const { model } = await setup();
    expect(model.status.value).toBe('ready');
    expect(model.dirty.value).toBe(false);
    expect(model.edited.value.name).toBe('Contoso');
  });

  it('a record that does not exist (or may not be read) ends in the error state', async () => {
    const api = new StoreClient([account], fullCaller(ME, ['account']));
    const model = recordFormModel({ api, entity: account, id: '00000000-0000-4000-8000-000000000099', form, caller: () => api.caller });
    await model.load();
    expect(model.status.value).toBe('error');
  });

  it('the dirty flag is set on edit and cleared when the value goes back, after load or save', async () => {
    const { model } = await setup();
    model.setValue('city', 'Praha');
    expect(model.dirty.value).toBe(true);
    model.setValue('city', 'Brno');
    expect(model.dirty.value).toBe(false);
    model.setValue('city', 'Praha');
    expect((await model.save())._tag).toBe('Saved');
    expect(model.dirty.value).toBe(false);
  });

  it('only changed fields are sent, with the id and the loaded versionnumber', async () => {
    const { api, id, model } = await setup();
    const version = model.loaded.value.versionnumber;
    model.setValue('phone', '2');
    await model.save();
    expect(api.calls).toEqual([{ operation: 'update', name: 'account', object: { phone: '2', id, versionnumber: version } }]);
    expect(model.loaded.value.phone).toBe('2');
    expect(model.loaded.value.versionnumber).not.toBe(version);
  });

  it('a save with nothing changed sends nothing', async () => {
    const { api, model } = await setup();
    expect((await model.save())._tag).toBe('Saved');
    expect(api.calls).toEqual([]);
  });

  it('missing required fields block the save with MsgRequiredFieldEmpty, mark the fields, and an edit clears the mark', async () => {
    const { api, model } = await setup();
    model.setValue('name', '');
    expect(model.missingRequired.value?.fields).toEqual(['name']);
    const r = await model.save();
    expect(r).toMatchObject({ _tag: 'RequiredFieldsMissing', key: 'MsgRequiredFieldEmpty', fields: ['name'], labels: ['Name'] });
    expect(api.calls).toEqual([]);
    expect([...model.marked.value]).toEqual(['name']);
    model.setValue('name', 'Fabrikam');
    expect(model.marked.value.size).toBe(0);
    expect(model.missingRequired.value).toBeUndefined();
  });

  it('a stale version merges local changes onto the server record and saves again with the server version', async () => {
    const { api, id, model } = await setup();
    model.setValue('phone', '2');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    const r = await model.save();
    expect(r._tag).toBe('Saved');
    const stored = await api.stored('account', id);
    expect(stored).toMatchObject({ phone: '2', city: 'Praha' });
    expect(model.edited.value).toMatchObject({ phone: '2', city: 'Praha' });
    expect(model.dirty.value).toBe(false);
    // the second update carries only the local change, under the server's version
    expect(api.calls.at(-1)?.object).toMatchObject({ phone: '2', id });
    expect(Object.keys(api.calls.at(-1)!.object).sort()).toEqual(['id', 'phone', 'versionnumber']);
  });

  it("a field changed on both sides fails the save with 'This record was modified by {modifier}' and keeps the local value", async () => {
    const { api, id, model } = await setup();
    model.setValue('city', 'Ostrava');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    const r = await model.save();
    expect(r._tag).toBe('ModifiedBy');
    expect(model.edited.value.city).toBe('Ostrava');
    expect(model.status.value).toBe('ready');
    expect((await api.stored('account', id))?.city).toBe('Praha');
  });

  it('a failure other than a version conflict is answered as Failed with the server error', async () => {
    const { api, model } = await setup();
    api.update = async () => {
      throw new ServerError(403, 'Forbidden', 'ERR_PERMISSION: no');
    };
    model.setValue('city', 'X');
    const r = await model.save();
    expect(r._tag).toBe('Failed');
    expect(model.status.value).toBe('ready');
  });

  it('a new record starts with defaults and owner, is dirty only once edited (or given init values), and a create sends the non-empty values', async () => {
    const api = new StoreClient([account], fullCaller(ME, ['account']));
    const model = recordFormModel({ api, entity: account, id: NEW_ID, form, caller: () => api.caller });
    await model.load();
    expect(model.edited.value.statuscode).toBe(1);
    expect(model.dirty.value).toBe(false);
    model.setValue('name', 'New one');
    model.setValue('city', '');
    expect(model.dirty.value).toBe(true);
    const r = await model.save();
    expect(r).toMatchObject({ _tag: 'Saved', created: true, name: 'New one' });
    expect(api.calls[0]).toEqual({ operation: 'create', name: 'account', object: { statuscode: 1, name: 'New one' } });
    // the form then moves to the created record's route (a fresh model there)
    expect(model.status.value).toBe('ready');
    const seeded = recordFormModel({ api, entity: account, id: NEW_ID, form, caller: () => api.caller, init: { name: 'From a parent' } });
    await seeded.load();
    expect(seeded.dirty.value).toBe(true);
  });

  it('a wizard step saves with process_stage_index set (spec 001 section 4, Wizard)', async () => {
    const { api, model } = await setup();
    await model.save({ patch: { [STAGE_FIELD]: 2 } });
    expect(api.calls[0].object[STAGE_FIELD]).toBe(2);
  });

  it('save and close keeps the saved values as loaded (no reload), so leaving is not blocked', async () => {
    const { api, model } = await setup();
    model.setValue('city', 'Praha');
    const fetches = api.fetches;
    await model.save({ close: true });
    expect(api.fetches).toBe(fetches);
    expect(model.dirty.value).toBe(false);
  });

  it('delete sends the id with the loaded versionnumber; clone names the copy', async () => {
    const { api, id, model } = await setup();
    expect(model.cloneValues((n) => `Copy of ${n}`).name).toBe('Copy of Contoso');
    expect((await model.remove())._tag).toBe('Done');
    expect(api.calls[0]).toEqual({ operation: 'delete', name: 'account', object: { id, versionnumber: model.loaded.value.versionnumber } });
    expect(await api.stored('account', id)).toBeUndefined();
  });
});

describe('record form model (spec 001 section 4: server change notification)', () => {
  it('a clean record takes the server version (Record was updated)', async () => {
    const { api, id, model } = await setup();
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    expect((await model.serverChanged(id))._tag).toBe('Reloaded');
    expect(model.edited.value.city).toBe('Praha');
    expect(model.dirty.value).toBe(false);
  });

  it('a dirty record keeps the local changes, merged onto the server record', async () => {
    const { api, id, model } = await setup();
    model.setValue('phone', '2');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    expect((await model.serverChanged(id))._tag).toBe('Merged');
    expect(model.edited.value).toMatchObject({ phone: '2', city: 'Praha' });
    expect(model.dirty.value).toBe(true);
  });

  it('a dirty record changed on the same field answers the conflict and keeps the local value', async () => {
    const { api, id, model } = await setup();
    model.setValue('city', 'Ostrava');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    expect((await model.serverChanged(id))._tag).toBe('ModifiedBy');
    expect(model.edited.value.city).toBe('Ostrava');
  });

  it('another record, the same version, or a form that is saving ignores the notification', async () => {
    const { api, id, model } = await setup();
    expect((await model.serverChanged('00000000-0000-4000-8000-000000000099'))._tag).toBe('Ignored');
    expect((await model.serverChanged(id))._tag).toBe('Ignored');
    model.setValue('city', 'Praha');
    const saving = model.save();
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, phone: '9' }).catch(() => undefined);
    expect((await model.serverChanged(id))._tag).toBe('Ignored');
    await saving;
  });

  it('property: whatever fields the two sides change, a merge never loses a local change and never sends an unchanged field', async () => {
    const fields = ['city', 'phone'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ city: fc.option(fc.constantFrom('A', 'B'), { nil: undefined }), phone: fc.option(fc.constantFrom('1', '2', '3'), { nil: undefined }) }),
        fc.record({ city: fc.option(fc.constantFrom('A', 'C'), { nil: undefined }), phone: fc.option(fc.constantFrom('1', '4'), { nil: undefined }) }),
        async (mine, theirs) => {
          const { api, id, model } = await setup({ name: 'N', city: 'Brno', phone: '1' });
          for (const f of fields) if (mine[f] !== undefined) model.setValue(f, mine[f]!);
          const serverChanges = Object.fromEntries(fields.filter((f) => theirs[f] !== undefined).map((f) => [f, theirs[f]]));
          await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, ...serverChanges });
          const before = { ...model.edited.value };
          const r = await model.save();
          const local = fields.filter((f) => mine[f] !== undefined && mine[f] !== (f === 'city' ? 'Brno' : '1'));
          const clash = local.some((f) => serverChanges[f] !== undefined && serverChanges[f] !== (f === 'city' ? 'Brno' : '1') && serverChanges[f] !== mine[f]);
          if (clash) {
            expect(r._tag).toBe('ModifiedBy');
            expect(model.edited.value).toEqual(before);
          } else {
            expect(r._tag).toBe('Saved');
            const stored = (await api.stored('account', id))!;
            for (const f of local) expect(stored[f]).toBe(mine[f]);
            for (const c of api.calls.filter((x) => x.operation === 'update')) for (const k of Object.keys(c.object)) expect(['id', 'versionnumber', ...local]).toContain(k);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('record form model, issue 23 (items 9 and 11)', () => {
  it('item 11: a conflict answers the fields both sides changed and is kept for the user to choose', async () => {
    const { api, id, model } = await setup();
    model.setValue('city', 'Ostrava');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    const r = await model.save();
    expect(r).toMatchObject({ _tag: 'ModifiedBy', fields: ['city'] });
    expect(model.conflict.value?.fields).toEqual(['city']);
  });

  it('item 11: Reload shows the server record and drops the local changes', async () => {
    const { api, id, model } = await setup();
    model.setValue('city', 'Ostrava');
    model.setValue('phone', '5');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    await model.save();
    model.resolveConflict('reload');
    expect(model.conflict.value).toBeNull();
    expect(model.edited.value).toMatchObject({ city: 'Praha', phone: '1' });
    expect(model.dirty.value).toBe(false);
  });

  it("item 11: Keep mine puts the local changes on the server record (their other changes kept), marks the clash for review, and the next save writes mine", async () => {
    const { api, id, model } = await setup();
    model.setValue('city', 'Ostrava');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha', phone: '9' });
    await model.save();
    model.resolveConflict('keepMine');
    expect(model.edited.value).toMatchObject({ city: 'Ostrava', phone: '9' });
    expect(model.dirty.value).toBe(true);
    expect([...(model.review.value?.fields ?? [])]).toEqual(['city']);
    expect((await model.save())._tag).toBe('Saved');
    expect(await api.stored('account', id)).toMatchObject({ city: 'Ostrava', phone: '9' });
    expect(model.review.value).toBeNull();
  });

  it('item 11: a server change notification that clashes offers the same choice', async () => {
    const { api, id, model } = await setup();
    model.setValue('city', 'Ostrava');
    await api.otherUserEdits('account', { id, versionnumber: model.loaded.value.versionnumber, city: 'Praha' });
    expect((await model.serverChanged(id))._tag).toBe('ModifiedBy');
    model.resolveConflict('keepMine');
    expect((await model.save())._tag).toBe('Saved');
    expect((await api.stored('account', id))?.city).toBe('Ostrava');
  });

  it("item 9: a new record's title reads New {entity} until it has a name; a stored nameless one reads (Unknown)", async () => {
    const api = new StoreClient([account], fullCaller(ME, ['account']));
    const model = recordFormModel({ api, entity: account, id: NEW_ID, form, caller: () => api.caller, user: { id: ME, name: 'Me' } });
    expect(model.title.value).toEqual({ _tag: 'Loading' });
    await model.load();
    expect(model.title.value).toEqual({ _tag: 'New' });
    model.setValue('name', '  ');
    expect(model.title.value).toEqual({ _tag: 'New' });
    model.setValue('name', 'Alpine Works');
    expect(model.title.value).toEqual({ _tag: 'Name', name: 'Alpine Works' });
    const { model: stored } = await setup({ city: 'Brno' });
    expect(stored.title.value).toEqual({ _tag: 'Unnamed' });
  });
});
