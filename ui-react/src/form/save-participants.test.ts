import { signal } from '@preact/signals-react';
import { describe, expect, it } from 'vitest';
import type { Entity } from '../core.js';
import { defaultFormOf } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { recordFormModel } from './record-form-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const invoice: Entity = {
  logicalName: 'invoice',
  displayName: 'Invoice',
  displayNamePlural: 'Invoices',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'totalamount', displayName: 'Total', type: 'Decimal' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};

const setup = async () => {
  const api = new StoreClient([invoice], fullCaller(ME, ['invoice']));
  const id = await api.update('create', 'invoice', { name: 'F-1' });
  const model = recordFormModel({ api, entity: invoice, id, form: defaultFormOf(invoice, []), caller: () => api.caller });
  await model.load();
  return { api, id, model };
};

describe('save participants: panels that save with the record (spec 001 section 4, custom panels)', () => {
  it('a participant with unsaved rows makes the form dirty; unregistering it does not', async () => {
    const { model } = await setup();
    const rows = signal(true);
    const leave = model.participate({ dirty: rows });
    expect(model.dirty.value).toBe(true);
    leave();
    expect(model.dirty.value).toBe(false);
  });

  it('beforeSave patches the record that is sent, afterSave gets the stored id after the record is saved', async () => {
    const { api, id, model } = await setup();
    const seen: string[] = [];
    model.participate({
      beforeSave: async () => {
        seen.push('before');
        return { patch: { totalamount: 42 } };
      },
      afterSave: async (savedId, created) => {
        seen.push(`after ${savedId === id} ${created}`);
      },
    });
    model.setValue('name', 'F-2');
    expect((await model.save())._tag).toBe('Saved');
    expect(seen).toEqual(['before', 'after true false']);
    const stored = await api.fetch({ entity: { name: 'invoice', allattrs: true }, page: 1, pageSize: 5 });
    expect(Number(stored.records[0]?.totalamount)).toBe(42);
  });

  it('a veto stops the save before anything is sent and answers its message', async () => {
    const { api, model } = await setup();
    model.participate({ beforeSave: async () => ({ veto: 'Quantity must be positive' }) });
    model.setValue('name', 'F-3');
    const before = api.calls.length;
    expect(await model.save()).toEqual({ _tag: 'Vetoed', message: 'Quantity must be positive' });
    expect(api.calls.length).toBe(before);
    expect(model.status.value).toBe('ready');
    expect(model.dirty.value).toBe(true);
  });
});
