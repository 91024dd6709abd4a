import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { builtInPacks } from '../packs/packs.js';
import { defaultForm } from './default-form.js';
import { allFormFields, associatedListTarget, Form, type Panel } from './form.js';
import { packsMetadataSet } from './pack.js';

const set = () => {
  const s = packsMetadataSet(builtInPacks());
  if (isLeft(s)) throw new Error(s.left.message);
  return s.right;
};
const form = (name: string) => {
  const f = defaultForm(set(), name);
  if (isLeft(f)) throw new Error(f.left.message);
  return f.right;
};

describe('the default generated form (spec 001 section 2)', () => {
  it('holds all fields except id and versionnumber, for every entity of the built-in packs', () => {
    for (const e of set().entities) {
      const fields = allFormFields(form(e.logicalName).panels).map((f) => f.name);
      const expected = e.properties
        .filter((p) => p.secret !== true)
        .map((p) => p.logicalName)
        .filter((n) => n !== 'id' && n !== 'versionnumber');
      expect(fields, e.logicalName).toEqual(expected);
    }
  });

  it('has a tab per associated list, for every entity of the built-in packs', () => {
    for (const e of set().entities) {
      const lists = set().associatedLists(e.logicalName);
      const tabs = form(e.logicalName).panels.find((p) => p.type === 'Tabs');
      const tabTargets = (tabs?.panels ?? []).map((p: Panel) =>
        p.type === 'AssociatedList' ? associatedListTarget(p) : undefined,
      );
      expect(tabTargets, e.logicalName).toEqual(lists);
    }
  });

  it('account: its fields, then the tabs of contacts, opportunities, work orders, equipment, invoices and subsidiaries', () => {
    const f = form('account');
    expect(f.panels.map((p) => p.type)).toEqual(['Fields', 'Tabs']);
    expect(f.panels[1].panels?.map((p) => p.label)).toEqual(
      expect.arrayContaining(['Contacts', 'Opportunities', 'Work Orders', 'Equipment', 'Invoices', 'Accounts']),
    );
  });

  it('an entity without associated lists has no tabs', () => {
    expect(form('currency').panels.map((p) => p.type)).toEqual(['Fields']);
  });

  it('a child with two lookups to the entity names the lookup in each tab label', () => {
    expect(form('route_location').panels[1].panels?.map((p) => p.label)).toEqual([
      'Users',
      'Travel Reports (Start Location)',
      'Travel Reports (End Location)',
    ]);
  });

  it('secret fields (the password hash) are never on a form; the audit fields are shown disabled', () => {
    const fields = allFormFields(form('systemuser').panels);
    expect(fields.map((f) => f.name)).not.toContain('passwordhash');
    expect(fields.find((f) => f.name === 'createdon')?.disabled).toBe(true);
    expect(fields.find((f) => f.name === 'name')?.disabled).toBeUndefined();
  });

  it('the generated form is a valid form (it encodes and decodes)', () => {
    const f = form('account');
    expect(Form.decode(Form.encode(f))).toEqual({ _tag: 'Right', right: f });
  });

  it("an unknown entity is 'No Object:{name}'", () => {
    const f = defaultForm(set(), 'nothing');
    expect(isLeft(f) && f.left.message).toBe('No Object:nothing');
    expect(isRight(defaultForm(set(), 'audit'))).toBe(true);
  });
});
