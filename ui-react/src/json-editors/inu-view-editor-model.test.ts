import { describe, expect, it } from 'vitest';
import type { Entity, FetchRequest } from '../core.js';
import { bodySummary, inuViewEditorModel, previewRequest, starterBody } from './inu-view-editor-model.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'statecode', displayName: 'State', type: 'Integer' },
  ],
};
const entities = () => ({ account });
const stored = { id: 'v1', name: 'active', label: 'Active', kind: 'view', objectname: 'account', isprivate: false, body: JSON.stringify({ query: { name: 'account' }, columns: [{ name: 'name' }] }) };

const fakeApi = () => {
  const writes: Array<{ op: string; name: string; object: Record<string, unknown> }> = [];
  const fetches: FetchRequest[] = [];
  const api = {
    fetch: async (q: FetchRequest) => {
      fetches.push(q);
      return q.entity.name === 'inu_view' ? { records: [stored] } : { records: [{ id: 'a1', name: 'Acme' }], count: 1 };
    },
    update: async (op: string, name: string, object: Record<string, unknown>) => {
      writes.push({ op, name, object });
      return 'v1';
    },
  };
  return { api: api as never, writes, fetches };
};

describe('the inu_view editor model (spec 000 section 2, issue 15)', () => {
  it('loads the record; the body checks; an edit with an unknown column shows its path and blocks Save', async () => {
    const { api, writes } = fakeApi();
    const m = inuViewEditorModel({ api, id: 'v1', entities, userId: 'u1' });
    await m.load();
    expect(m.status.value).toBe('ready');
    expect(m.check.value._tag).toBe('Valid');
    expect(m.dirty.value).toBe(false);
    m.body.value = JSON.stringify({ query: { name: 'account' }, columns: [{ name: 'name' }, { name: 'nope' }] });
    expect(m.check.value).toMatchObject({ _tag: 'Invalid', path: 'columns[1].name' });
    expect(await m.save()).toBeNull();
    expect(writes).toHaveLength(0);
  });

  it("a view's query stays on the record's entity", async () => {
    const { api } = fakeApi();
    const m = inuViewEditorModel({ api, id: 'v1', entities, userId: 'u1' });
    await m.load();
    m.body.value = JSON.stringify({ query: { name: 'systemuser' }, columns: [] });
    expect(m.check.value).toMatchObject({ _tag: 'Invalid' });
  });

  it('Save updates the record by id with the body text; a new record is created (spec 000 section 3)', async () => {
    const { api, writes } = fakeApi();
    const m = inuViewEditorModel({ api, id: 'v1', entities, userId: 'u1' });
    await m.load();
    m.label.value = 'Active accounts';
    expect(m.dirty.value).toBe(true);
    expect(await m.save()).toBe('v1');
    expect(writes[0]).toMatchObject({ op: 'update', name: 'inu_view', object: { id: 'v1', label: 'Active accounts', kind: 'view', body: stored.body } });
    expect(m.dirty.value).toBe(false);
    const n = inuViewEditorModel({ api, id: '0', entities, userId: 'u1' });
    n.name.value = 'mine';
    n.setEntity('account');
    expect(n.body.value).toBe(starterBody('view', 'account'));
    await n.save();
    expect(writes[1]).toMatchObject({ op: 'create', object: { name: 'mine', objectname: 'account', kind: 'view' } });
  });

  it("the Setup Query dialog edits a view's query and the rest of the body stays", async () => {
    const { api } = fakeApi();
    const m = inuViewEditorModel({ api, id: 'v1', entities, userId: 'u1' });
    await m.load();
    expect(m.viewQuery()).toEqual({ entity: { name: 'account' } });
    m.applyViewQuery({ entity: { name: 'account', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] } } });
    expect(JSON.parse(m.body.value)).toEqual({ query: { name: 'account', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] } }, columns: [{ name: 'name' }] });
  });

  it("the preview of a view is its first rows with its columns, placeholders filled with the user's", async () => {
    const { api, fetches } = fakeApi();
    const m = inuViewEditorModel({ api, id: 'v1', entities, userId: 'u1' });
    await m.load();
    await m.refreshPreview();
    expect(m.preview.value).toMatchObject({ _tag: 'Rows', columns: ['name'], count: 1 });
    const q = previewRequest({ query: { name: 'account', filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }] } }, columns: [{ name: 'name' }, { name: 'x.y' }] }, account, 'u9');
    expect(q).toMatchObject({ entity: { attributes: [{ attribute: 'id' }, { attribute: 'name' }], filter: { conditions: [{ value: 'u9' }] } }, pageSize: 10 });
    expect(fetches.length).toBe(2);
  });

  it('other kinds preview as a structured summary', () => {
    expect(bodySummary('form', { name: 'main', panels: [{ name: 'g', type: 'Fields', label: 'General', fields: [{ name: 'name' }, { name: '-' }] }] } as never)).toEqual([{ depth: 0, text: 'Fields General: name, —' }]);
    expect(bodySummary('chart', { series: [{ aggregateField: 'id', aggregateMethod: 'count' }], groups: [{ field: 'createdon', method: 'month' }], type: 'bar' } as never).map((l) => l.text)).toEqual(['Y: count(id)', 'X: createdon (month)', 'type: bar']);
  });
});
