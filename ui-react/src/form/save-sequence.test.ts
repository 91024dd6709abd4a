import { describe, expect, it } from 'vitest';
import type { Entity, EntityRecord } from '../core.js';
import { defaultFormOf } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import type { FormEvent, FormScriptAnswer, FormScriptRunner } from '../scripts/form-scripts.js';
import { recordFormModel } from './record-form-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const opportunity: Entity = {
  logicalName: 'opportunity',
  displayName: 'Opportunity',
  displayNamePlural: 'Opportunities',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'quantity', displayName: 'Quantity', type: 'Decimal' },
    { logicalName: 'price', displayName: 'Price', type: 'Decimal' },
    { logicalName: 'estimatedvalue', displayName: 'Value', type: 'Decimal' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};

/** Scripts as plain functions, each run logged as `event:fields`. */
const fakeScripts = (handlers: Partial<Record<FormEvent, (r: EntityRecord, changed: readonly string[]) => Promise<FormScriptAnswer>>>) => {
  const log: string[] = [];
  const runner: FormScriptRunner = async (event, record, changed) => {
    log.push(`${event}:${[...changed].sort().join(',')}`);
    return handlers[event] ? handlers[event](record, changed) : { _tag: 'None' };
  };
  return { runner, log };
};

const setup = async (scripts: FormScriptRunner) => {
  const api = new StoreClient([opportunity], fullCaller(ME, ['opportunity']));
  const id = await api.update('create', 'opportunity', { name: 'Deal', quantity: 1, price: 10 });
  const model = recordFormModel({ api, entity: opportunity, id, form: defaultFormOf(opportunity, []), caller: () => api.caller, scripts });
  await model.load();
  return { api, id, model };
};

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the save sequence with scripts (spec 001 section 4)', () => {
  it('runs in order: validate, change, beforeSave, save, afterSave, postsave', async () => {
    const { runner, log } = fakeScripts({});
    const { model } = await setup(runner);
    model.participate({
      beforeSave: async () => (log.push('beforeSave'), {}),
      afterSave: async () => void log.push('afterSave'),
    });
    model.setValue('name', 'Big deal');
    expect((await model.save())._tag).toBe('Saved');
    expect(log).toEqual(['change:name', 'validate:name', 'beforeSave', 'afterSave', 'postsave:name']);
  });

  it('a validate veto stops the save with its message and sends nothing', async () => {
    const { runner } = fakeScripts({ validate: async () => ({ _tag: 'Vetoed', message: 'A closed deal needs a reason', patch: {} }) });
    const { api, id, model } = await setup(runner);
    model.setValue('name', 'Other');
    expect(await model.save()).toEqual({ _tag: 'Vetoed', message: 'A closed deal needs a reason' });
    expect(model.status.value).toBe('ready');
    const stored = await api.fetch({ entity: { name: 'opportunity', allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } });
    expect(stored.records[0]?.name).toBe('Deal');
  });

  it('a validate script that fails stops the save', async () => {
    const { runner } = fakeScripts({ validate: async () => ({ _tag: 'Failed', failure: { _tag: 'ScriptTimedOut', script: 'opportunity.validate', seconds: 5 } }) });
    const { model } = await setup(runner);
    model.setValue('name', 'Other');
    expect((await model.save())._tag).toBe('ScriptFailed');
  });

  it('the change event\'s fields are saved: the save waits for a running change run', async () => {
    let release = () => {};
    const { runner } = fakeScripts({
      change: (r) => new Promise((resolve) => (release = () => resolve({ _tag: 'Done', patch: { estimatedvalue: Number(r.quantity) * Number(r.price) } }))),
    });
    const { api, id, model } = await setup(runner);
    model.setValue('quantity', 3);
    const saving = model.save();
    await tick();
    release();
    expect((await saving)._tag).toBe('Saved');
    const stored = await api.fetch({ entity: { name: 'opportunity', allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } });
    expect(Number(stored.records[0]?.estimatedvalue)).toBe(30);
  });

  it('change events run one at a time; edits during a run start one more run with those fields', async () => {
    const releases: Array<() => void> = [];
    const { runner, log } = fakeScripts({ change: () => new Promise((resolve) => releases.push(() => resolve({ _tag: 'Done', patch: {} }))) });
    const { model } = await setup(runner);
    model.setValue('quantity', 2);
    model.setValue('price', 5);
    model.setValue('name', 'x');
    expect(log).toEqual(['change:quantity']);
    releases[0]();
    await tick();
    expect(log).toEqual(['change:quantity', 'change:name,price']);
    releases[1]();
    await tick();
    expect(log.length).toBe(2);
  });

  it('a field the user edits while the change script runs keeps the user\'s value', async () => {
    let release = () => {};
    const { runner } = fakeScripts({
      change: () => new Promise((resolve) => (release = () => resolve({ _tag: 'Done', patch: { price: 99, estimatedvalue: 1 } }))),
    });
    const { model } = await setup(runner);
    model.setValue('quantity', 2);
    model.setValue('price', 7);
    release();
    await tick();
    expect(model.edited.value.price).toBe(7);
    expect(model.edited.value.estimatedvalue).toBe(1);
  });

  it('delete fires postsave with the record without its id', async () => {
    const seen: EntityRecord[] = [];
    const { runner } = fakeScripts({ postsave: async (r) => (seen.push(r), { _tag: 'Done', patch: {} }) });
    const { model } = await setup(runner);
    expect((await model.remove())._tag).toBe('Done');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.id).toBeUndefined();
    expect(seen[0]?.name).toBe('Deal');
  });
});
