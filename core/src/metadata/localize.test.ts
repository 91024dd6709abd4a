import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { localizeMetadata, localizedTextsOf, type LocalizableMetadata } from './localize.js';
import type { Entity } from './entity.js';
import type { InuViewRecord } from './inu-view.js';
import { builtInPacks } from '../packs/packs.js';
import { loadPack } from './pack.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { seedPack } from '../services/organization-setup.js';
import { systemCaller } from '../ports/record-store.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    {
      logicalName: 'customertype',
      displayName: 'Relationship',
      type: 'Integer',
      flags: ['OptionSet'],
      richOptions: [
        { value: 1, label: 'Prospect', color: '#123456' },
        { value: 2, label: 'Customer' },
      ],
    },
    { logicalName: 'industry', displayName: 'Industry', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Retail' }] },
  ],
};
const view = (kind: InuViewRecord['kind'], name: string, body: unknown, extra: Partial<InuViewRecord> = {}): InuViewRecord => ({
  kind,
  name,
  body: JSON.stringify(body),
  objectname: 'account',
  ...extra,
});
const metadata: LocalizableMetadata = {
  entities: { account },
  gui: [
    view('view', 'active', { query: { name: 'account' }, label: 'Active', columns: [{ name: 'name', label: 'Account Name' }, { name: 'industry' }] }, { label: 'Active Accounts' }),
    view('filter', 'quickfilters', {
      filters: [
        { name: 'search', type: 'text', propertyName: 'name', label: 'Search' },
        { name: 'when', type: 'date', propertyName: 'createdon', label: 'Created', directOptions: [{ value: 'today', label: 'Today' }] },
      ],
    }),
    view('form', 'main', {
      name: 'main',
      panels: [{ name: 'top', type: 'Tabs', panels: [{ name: 'summary', type: 'Fields', label: 'Summary', fields: ['name', { name: 'industry', label: 'Sector' }] }] }],
      commands: [{ kind: 'custom', name: 'qualify', label: 'Qualify' }],
    }, { label: 'Account' }),
    view('home', 'home', { items: [{ kind: 'entity', name: 'account', uniqueName: 'accounts', label: 'Accounts' }, { kind: 'section', label: 'Data', items: [{ kind: 'page', name: 'import', label: 'Import' }] }] }, {
      objectname: null,
      appid: { id: 'a1', name: 'inu_app', label: 'Sales' },
    }),
  ],
};
const sk = new Map(
  Object.entries({
    account: 'Firma',
    'account.plural': 'Firmy',
    'account.customertype': 'Vzťah',
    'account.customertype.1': 'Potenciálny zákazník',
    'account.industry.1': 'Maloobchod',
    'view.account.active': 'Aktívne firmy',
    'view.account.active.name': 'Názov firmy',
    'filter.account.search': 'Hľadať',
    'filter.account.when.today': 'Dnes',
    'form.account.main': 'Firma',
    'panel.account.main.summary': 'Prehľad',
    'form.account.main.industry': 'Sektor',
    'command.account.qualify': 'Kvalifikovať',
    'menu.Sales.accounts': 'Firmy',
    'menu.Sales.Data': 'Dáta',
    'menu.Sales.import': 'Import údajov',
  }),
);
type Body = Record<string, never>;
const bodyOf = (m: LocalizableMetadata, kind: string) => m.gui.find((g) => g.kind === kind)!.parsedBody as Body;

describe('metadata localization (spec 002: inu_localize name, lang, text)', () => {
  const out = localizeMetadata(metadata, sk);

  it('translates entity names, field labels and option labels by {entity}, {entity}.plural, {entity}.{field}, {entity}.{field}.{value}', () => {
    const e = out.entities.account!;
    expect([e.displayName, e.displayNamePlural]).toEqual(['Firma', 'Firmy']);
    expect(e.properties.map((p) => p.displayName)).toEqual(['Name', 'Vzťah', 'Industry']);
    expect(e.properties[1]!.richOptions).toEqual([
      { value: 1, label: 'Potenciálny zákazník', color: '#123456' },
      { value: 2, label: 'Customer' },
    ]);
    expect(e.properties[2]!.options).toEqual([{ value: 1, label: 'Maloobchod' }]);
  });

  it('translates view labels and columns, quick filters and their options, form panels, field overrides, commands and menu items', () => {
    expect(out.gui.map((g) => g.label)).toEqual(['Aktívne firmy', undefined, 'Firma', undefined]);
    const unlabelled = localizeMetadata({ entities: {}, gui: [{ ...metadata.gui[0]!, label: null }] }, sk);
    expect(unlabelled.gui[0]!.label).toBe('Aktívne firmy');
    expect(bodyOf(out, 'view')).toMatchObject({ label: 'Aktívne firmy', columns: [{ name: 'name', label: 'Názov firmy' }, { name: 'industry' }] });
    expect(bodyOf(out, 'filter')).toMatchObject({
      filters: [{ label: 'Hľadať' }, { label: 'Created', directOptions: [{ value: 'today', label: 'Dnes' }] }],
    });
    expect(bodyOf(out, 'form')).toMatchObject({
      panels: [{ name: 'top', panels: [{ label: 'Prehľad', fields: ['name', { name: 'industry', label: 'Sektor' }] }] }],
      commands: [{ label: 'Kvalifikovať' }],
    });
    expect(bodyOf(out, 'home')).toMatchObject({ items: [{ label: 'Firmy' }, { label: 'Dáta', items: [{ label: 'Import údajov' }] }] });
  });

  it('keeps the stored body text and the input unchanged', () => {
    expect(out.gui.map((g) => g.body)).toEqual(metadata.gui.map((g) => g.body));
    expect(metadata.entities.account!.displayName).toBe('Account');
    expect(metadata.gui[0]!.parsedBody).toBeUndefined();
  });

  it('an empty map of texts changes nothing (the metadata text is the fallback)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.record({ value: fc.integer(), label: fc.string() }), { maxLength: 4 }), (name, label, options) => {
        const e: Entity = { ...account, displayName: label, properties: [{ logicalName: 'f', displayName: name, type: 'Integer', flags: ['OptionSet'], options }] };
        const m: LocalizableMetadata = { entities: { e }, gui: [view('view', name, { columns: [{ name: 'f', label }] }, { label })] };
        expect(localizeMetadata(m, new Map())).toEqual(m);
      }),
    );
  });

  it('a key without a translation keeps the metadata text', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().map((k) => `nosuch.${k}`), fc.string()), (texts) => {
        const m = localizeMetadata(metadata, new Map(Object.entries(texts)));
        expect(m.entities).toEqual(metadata.entities);
        expect(m.gui.map((g) => g.label)).toEqual(metadata.gui.map((g) => g.label));
      }),
    );
  });

  it('the chosen language wins over English, English fills the rest', () => {
    const texts = localizedTextsOf(
      [
        { name: 'account', lang: 'en', text: 'Company' },
        { name: 'account', lang: 'sk', text: 'Firma' },
        { name: 'account.plural', lang: 'en', text: 'Companies' },
        { name: 'account.plural', lang: 'de', text: 'Firmen' },
        { name: 'lead', lang: 'sk', text: '' },
      ],
      'sk',
    );
    expect([...texts]).toEqual([
      ['account', 'Firma'],
      ['account.plural', 'Companies'],
    ]);
  });
});

describe('pack translations', () => {
  it('the built-in packs carry sk, cz and de for the main demo entities and the system pack', () => {
    const [system, demo] = builtInPacks();
    for (const lang of ['sk', 'cz', 'de']) {
      expect(demo!.translations?.[lang]).toMatchObject({ 'account.plural': expect.any(String), 'account.customertype.1': expect.any(String) });
      expect(system!.translations?.[lang]).toMatchObject({ 'systemuser.plural': expect.any(String), 'menu.Customize.systemuser': expect.any(String) });
    }
    expect(demo!.translations?.sk?.['account.plural']).toBe('Firmy');
  });

  it('a pack without translations stays valid, and translations decode as language to name to text', () => {
    expect(isRight(loadPack({ name: 'empty', entities: [] }))).toBe(true);
    expect(isRight(loadPack({ name: 'x', entities: [], translations: { sk: { a: 'b' } } }))).toBe(true);
    expect(isRight(loadPack({ name: 'x', entities: [], translations: { sk: { a: 1 } } }))).toBe(false);
  });
});

describe('organization set-up', () => {
  it('writes a pack\'s translations as inu_localize records (name, lang, text) that the spec\'s fetch finds', async () => {
    const [system] = builtInPacks();
    const entities = new Map(system!.entities.map((e) => [e.logicalName, e]));
    let n = 0;
    const store = new InMemoryRecordStore((name) => entities.get(name), { now: () => new Date('2026-11-21T10:00:00Z') }, {
      newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    });
    await seedPack(store, { name: 'tiny', entities: [], translations: { sk: { systemuser: 'Používateľ' }, de: { systemuser: 'Benutzer' } } });
    const found = await store.retrieveMultiple(systemCaller(), {
      entity: {
        name: 'inu_localize',
        attributes: [{ attribute: 'name' }, { attribute: 'lang' }, { attribute: 'text' }],
        filter: { conditions: [{ attribute: 'lang', operator: 'in', value: ['en', 'sk'] }] },
        orders: [{ attribute: 'name' }],
      },
    });
    expect(isRight(found) && found.right.records.map((r) => [r.name, r.lang, r.text])).toEqual([['systemuser', 'sk', 'Používateľ']]);
  });
});
