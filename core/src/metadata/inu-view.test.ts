import { describe, expect, it } from 'vitest';
import { isLeft } from 'fp-ts/lib/Either.js';
import { builtInPacks } from '../packs/packs.js';
import { EURO, Currency } from './currency.js';
import { FormField, formEvents, Panel, parsePastedCommand, parsePastedPanel } from './form.js';
import { InuViewRecord, parseViewBody, viewDefinitionOf, viewRecordOf, ViewDefinition } from './inu-view.js';
import { RoleRecord } from './role.js';
import { UserContext } from './user-context.js';
import { metaDictOf } from './metadata-set.js';
import { packsMetadataSet } from './pack.js';

describe('inu_view records (spec 000 section 3: id, name, label, kind, objectname, appid, body as JSON text, isprivate)', () => {
  it('every metadata object of the built-in packs becomes a record with JSON text and back', () => {
    for (const pack of builtInPacks())
      for (const d of pack.views ?? []) {
        const record = viewRecordOf(d);
        expect(typeof record.body).toBe('string');
        expect(InuViewRecord.is(record)).toBe(true);
        const back = viewDefinitionOf({
          ...record,
          id: 'x',
          appid: d.appid ? { id: 'a', name: 'inu_app', label: d.appid } : null,
        });
        expect(back).toEqual({ _tag: 'Right', right: d });
      }
  });

  it('a body that is not JSON, or not of its kind, is an error value', () => {
    const r = parseViewBody('form', '{"name":');
    expect(isLeft(r) && r.left.message).toMatch(/^Invalid form body: /);
    const s = parseViewBody('chart', JSON.stringify({ type: 'pie', series: [], groups: [] }));
    expect(isLeft(s) && s.left.message).toBe('Invalid chart body: type: expected ChartType, got "pie"');
  });

  it('a record with a parsedBody and an app lookup decodes', () => {
    const r = InuViewRecord.decode({
      id: '1',
      name: 'active',
      label: 'Active',
      kind: 'view',
      objectname: 'account',
      appid: { id: '2', name: 'inu_app', label: 'Sales' },
      body: '{}',
      parsedBody: {},
      isprivate: false,
    });
    expect(r._tag).toBe('Right');
  });

  it('the definition codec rejects a body that does not fit its kind', () => {
    const r = ViewDefinition.decode({
      kind: 'filter',
      name: 'f',
      objectname: 'account',
      body: { filters: [{ name: 'x' }] },
    });
    expect(r._tag).toBe('Left');
  });
});

describe('forms and panels (spec 001 section 3)', () => {
  it("form events default to '{entity}.change', '{entity}.validate' and '{entity}.postsave'", () => {
    expect(formEvents('account')).toEqual({
      change: 'account.change',
      validate: 'account.validate',
      postsave: 'account.postsave',
    });
    expect(formEvents('lead', { events: { validate: 'checkLead' } })).toEqual({
      change: 'lead.change',
      validate: 'checkLead',
      postsave: 'lead.postsave',
    });
  });

  it('a form field may be written as its name; it decodes to { name }', () => {
    expect(FormField.decode('emailaddress1')).toEqual({ _tag: 'Right', right: { name: 'emailaddress1' } });
    expect(FormField.decode({ name: '-', cssClass: 'sep' })).toEqual({
      _tag: 'Right',
      right: { name: '-', cssClass: 'sep' },
    });
  });

  it('panels of every type decode with their own properties', () => {
    const panels = [
      { name: 'f', type: 'Fields', fields: ['a'], gridColumns: '1fr 1fr', minColumnWidth: 400, showLabel: true },
      {
        name: 'l',
        type: 'AssociatedList',
        field: 'contact.parentcustomerid',
        initialView: 'active',
        allowedViews: ['active'],
        excludedColumns: ['x'],
        newParams: { a: 1 },
        extraFetch: { filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] } },
      },
      { name: 't', type: 'Tabs', mode: 'Wizard', panels: [{ name: 'x', type: 'Fields' }] },
      { name: 's', type: 'Split', sizes: ['2fr', '3fr'], panels: [] },
      { name: 'x', type: 'Flex', direction: 'column', sizes: ['1', '2'] },
      {
        name: 'c',
        type: 'CloudFiles',
        rootFolder: 'A',
        folderField: 'name',
        fileFilter: 'IMG',
        emptyMessage: 'none',
        maxImageSize: 1200,
      },
      {
        name: 'u',
        type: 'Custom',
        customComponent: 'familybudget',
        customComponentParameters: { a: 1 },
        wizardNextCommand: 'next',
      },
    ];
    for (const p of panels) expect(Panel.decode(p)._tag, p.type).toBe('Right');
    expect(Panel.decode({ name: 't', type: 'Tabs', mode: 'Carousel' })._tag).toBe('Left');
  });
});

describe('roles, currency and the user context', () => {
  it('a role record: name, appid lookup, body as JSON text', () => {
    expect(
      RoleRecord.decode({
        id: '1',
        name: 'Sales',
        appid: { id: '2', name: 'inu_app', label: 'Sales' },
        body: '{"account":13107}',
      })._tag,
    ).toBe('Right');
  });

  it('the default currency is Euro with precision 2; mode is 0 to 3', () => {
    expect(EURO).toMatchObject({ name: 'Euro', code: 'EUR', precision: 2, isdefault: true });
    expect(Currency.decode(EURO)._tag).toBe('Right');
    expect(Currency.decode({ ...EURO, mode: 4 })._tag).toBe('Left');
  });

  it('a user context with every field of getusercontext decodes', () => {
    const set = packsMetadataSet(builtInPacks());
    if (isLeft(set)) throw new Error(set.left.message);
    const context = {
      user: { id: 'u1', name: 'Ada', emailaddress: 'ada@example.org' },
      orgName: 'demo',
      appId: 'Sales',
      apps: ['Sales', 'Customize'],
      metaDict: metaDictOf(set.right),
      gui: builtInPacks().flatMap((p) => (p.views ?? []).map(viewRecordOf)),
      permDict: { account: 13107 },
      languages: ['en', 'de', 'sk'],
      owners: [{ objectName: 'account', operation: 'update', fieldName: 'primarycontactid' }],
      currencyDict: { [EURO.id]: EURO },
      sas: '',
      buildDate: '2026-11-21T10:00:00.000Z',
    };
    expect(UserContext.decode(context)._tag).toBe('Right');
    const { buildDate: _b, ...missing } = context;
    expect(UserContext.decode(missing)._tag).toBe('Left');
  });
});

describe('customize mode paste (spec 001 sections 2 and 5)', () => {
  it("a panel paste accepts only Tabs, Fields, AssociatedList, Split and Flex; anything else is 'Cannot paste object'", () => {
    for (const type of ['Tabs', 'Fields', 'AssociatedList', 'Split', 'Flex'])
      expect(parsePastedPanel(JSON.stringify({ name: 'p', type }))._tag, type).toBe('Right');
    for (const text of [
      JSON.stringify({ name: 'c', type: 'CloudFiles' }),
      JSON.stringify({ name: 'u', type: 'Custom' }),
      '{"name":',
      '"text"',
    ])
      expect(parsePastedPanel(text)).toEqual({
        _tag: 'Left',
        left: { _tag: 'InputError', code: 'ERR_INPUT', message: 'Cannot paste object' },
      });
  });

  it('a pasted command needs a name and a kind of custom or std', () => {
    expect(parsePastedCommand('{"kind":"custom","name":"run"}')._tag).toBe('Right');
    for (const text of ['{"kind":"macro","name":"run"}', '{"kind":"std","name":" "}', '{"kind":"std"}', 'nonsense']) {
      const r = parsePastedCommand(text);
      expect(isLeft(r) && r.left.message, text).toBe('Cannot paste object');
    }
  });
});
