import { describe, expect, it } from 'vitest';
import type { Entity, FetchRequest } from '../core.js';
import { prettyJson, setupQueryModel } from './setup-query-model.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'secretnote', displayName: 'Note', type: 'Binary' },
  ],
};
const entities = { account };
const query: FetchRequest = { entity: { name: 'account', attributes: [{ attribute: 'name' }] } };

describe('the Setup Query dialog model (spec 002 section 2, issue 15)', () => {
  it('opens on the query as indented JSON, valid and not dirty', () => {
    const m = setupQueryModel({ initial: query, entities });
    expect(m.text.value).toBe(JSON.stringify(query, null, 2));
    expect(m.status.value).toEqual({ _tag: 'Valid', request: query });
    expect(m.dirty.value).toBe(false);
  });

  it('a typed unknown field shows the engine error with its path', () => {
    const m = setupQueryModel({ initial: query, entities });
    m.text.value = JSON.stringify({ entity: { name: 'account', filter: { conditions: [{ attribute: 'nope', operator: 'null' }] } } });
    expect(m.status.value).toMatchObject({ _tag: 'Invalid', path: 'entity.filter.conditions[0].attribute', message: 'Field not found:account.nope' });
    expect(m.dirty.value).toBe(true);
  });

  it('spec 002 section 9: importing a file that is not JSON is refused (the dialog alerts) and the text stays', () => {
    const m = setupQueryModel({ initial: query, entities });
    const before = m.text.value;
    expect(m.importText('{ not json')._tag).toBe('NotJson');
    expect(m.text.value).toBe(before);
    expect(m.importText('{"entity":{"name":"account"}}')).toEqual({ _tag: 'Imported' });
    expect(m.text.value).toBe('{\n  "entity": {\n    "name": "account"\n  }\n}');
  });

  it('Export gives fetch.json with the indented text, nothing when the text is not JSON', () => {
    const m = setupQueryModel({ initial: '{"entity":{"name":"account"}}', entities });
    expect(m.exportFile()).toEqual({ name: 'fetch.json', text: '{\n  "entity": {\n    "name": "account"\n  }\n}\n' });
    m.text.value = '{';
    expect(m.exportFile()).toBeNull();
    expect(m.saveResult()._tag).toBe('Json');
  });

  it("the opening screen's own rule refuses a valid query, and the entity is locked", () => {
    const m = setupQueryModel({ initial: query, entities, entity: 'account', extraCheck: (r) => (r.entity.attributes?.some((a) => a.attribute === 'secretnote') ? 'Not exportable: secretnote' : null) });
    m.text.value = JSON.stringify({ entity: { name: 'account', attributes: [{ attribute: 'secretnote' }] } });
    expect(m.status.value).toEqual({ _tag: 'Refused', message: 'Not exportable: secretnote' });
    m.text.value = JSON.stringify({ entity: { name: 'systemuser' } });
    expect(m.status.value).toMatchObject({ _tag: 'Invalid', path: 'entity.name' });
  });

  it('Format indents JSON and leaves other text as typed', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('{a')).toBe('{a');
  });
});
