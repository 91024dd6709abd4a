import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { builtInPacks, catalogueOf, en, localizeMetadata, withSystemFields, type Entity, type InuViewRecord, type LocalizableMetadata, type LocalizedTexts, type UserContext } from '@tessera/core/internal';
import { StoreClient, fullCaller } from '../testing/store-client.js';
import { metadataTexts } from './localizable-texts.js';
import { englishOf, filterRows, foldText, isMissing, shownText, textRows, writesOf, type FetchedText } from './localization-rows.js';
import { localizationModel, LOCALIZE_ENTITY } from './localization-model.js';
import { isOverridable, uiTextKey, uiTextOverrides } from './ui-texts.js';

/** The metadata of the built-in packs (system and demo) as a user context carries it. */
const packMetadata = (): LocalizableMetadata & { list: Entity[] } => {
  const packs = builtInPacks();
  const list = packs.flatMap((p) => p.entities);
  const gui: InuViewRecord[] = packs.flatMap((p) =>
    (p.views ?? []).map((v) => ({
      kind: v.kind,
      name: v.name,
      label: v.label ?? null,
      objectname: v.objectname ?? null,
      appid: v.appid ? { id: '00000000-0000-4000-8000-000000000001', name: 'inu_app', label: v.appid } : null,
      body: JSON.stringify(v.body),
    })),
  );
  return { entities: Object.fromEntries(list.map((e) => [e.logicalName, e])), gui, list };
};

/** A map that answers every key with a marker naming it: what localizeMetadata applies shows in its output. */
class EveryKey extends Map<string, string> implements LocalizedTexts {
  override get size() {
    return 1;
  }
  override get(key: string) {
    return `\u00ab${key}\u00bb`;
  }
}

describe('issue 15: the texts the localization editor offers are the keys localizeMetadata translates', () => {
  it('every metadata key listed is applied by localizeMetadata, and every key it applies is listed (demo and system packs)', () => {
    const m = packMetadata();
    const listed = new Set(metadataTexts(m).map((x) => x.key));
    const out = JSON.stringify(localizeMetadata({ entities: m.entities, gui: m.gui }, new EveryKey()));
    const applied = new Set([...out.matchAll(/\u00ab([^\u00bb]*)\u00bb/g)].map((x) => x[1]));
    expect([...applied].filter((k) => !listed.has(k))).toEqual([]);
    expect([...listed].filter((k) => !applied.has(k))).toEqual([]);
    expect(listed.size).toBeGreaterThan(500);
  });

  it("lists the metadata's own English beside each key (entity, plural, field, option, view, menu)", () => {
    const texts = new Map(metadataTexts(packMetadata()).map((x) => [x.key, x.text]));
    expect(texts.get('account')).toBe('Account');
    expect(texts.get('account.plural')).toBe('Accounts');
    expect(texts.get('inu_localize.lang')).toBe('Language');
    expect(texts.get('menu.Customize.customizelocalization')).toBe('Localize');
    expect(texts.get('view.account.active')).toEqual(expect.any(String));
  });
});

describe('issue 15: a ui.{key} record overrides a built-in catalogue text (docs/ui.md "Localization editor")', () => {
  it("the chosen language's record wins; an English record applies only where the language has no built-in text", () => {
    const records = [
      { name: 'ui.CmdSave', lang: 'sk', text: 'Uložiť záznam' },
      { name: 'ui.CmdSave', lang: 'en', text: 'Store' },
      { name: 'ui.CmdCancel', lang: 'en', text: 'Never mind' },
      { name: 'ui.LblSearch', lang: 'sk', text: '' },
      { name: 'ui.NoSuchKey', lang: 'sk', text: 'x' },
      { name: 'account', lang: 'sk', text: 'Firma' },
      { name: 'ui.MsgRecordCount', lang: 'sk', text: 'záznamy' },
    ];
    expect([...uiTextOverrides(records, 'sk')]).toEqual([['CmdSave', 'Uložiť záznam']]);
    expect([...uiTextOverrides(records, 'en')]).toEqual([
      ['CmdSave', 'Store'],
      ['CmdCancel', 'Never mind'],
    ]);
    // Texts with a count keep their plural forms: not overridable.
    expect(isOverridable('MsgRecordCount')).toBe(false);
    expect(isOverridable('CmdSave')).toBe(true);
  });
});

const SK_SAVE = catalogueOf('sk').CmdSave as string;
const metadata = [
  { key: 'account', text: 'Account' },
  { key: 'account.plural', text: 'Accounts' },
  { key: 'lead', text: 'Lead' },
];
const stored: FetchedText[] = [
  { id: 'r1', name: 'account', lang: 'sk', text: 'Firma' },
  { id: 'r2', name: 'account', lang: 'en', text: 'Company' },
  { id: 'r3', name: uiTextKey('CmdSave'), lang: 'sk', text: 'Uložiť navždy' },
  { id: 'r4', name: 'custom.thing', lang: 'sk', text: 'Vec' },
];

describe('issue 15: the lines of the localization editor', () => {
  const rows = textRows(metadata, stored, 'sk');
  const row = (key: string) => rows.find((r) => r.key === key)!;

  it('side by side: English (its record, else the built-in) and the chosen language (its record, else the built-in)', () => {
    expect([englishOf(row('account')), shownText(row('account'))]).toEqual(['Company', 'Firma']);
    expect([englishOf(row('lead')), shownText(row('lead')), isMissing(row('lead'))]).toEqual(['Lead', '', true]);
    expect([englishOf(row('ui.CmdSave')), row('ui.CmdSave').builtIn, shownText(row('ui.CmdSave'))]).toEqual(['Save', SK_SAVE, 'Uložiť navždy']);
    expect(isMissing(row('ui.CmdCancel'))).toBe(false);
    // A stored record of a key neither the metadata nor the catalogue knows is listed, not hidden.
    expect(row('custom.thing')).toMatchObject({ kind: 'other', record: { id: 'r4', text: 'Vec' } });
    expect(rows.filter((r) => r.kind === 'ui').length).toBe(Object.keys(en).filter((k) => isOverridable(k as keyof typeof en)).length);
  });

  it("search finds words in the key, the English or the translation, without accents; 'missing translation' keeps the untranslated", () => {
    expect(filterRows(rows, { search: 'ulozit navzdy', missingOnly: false, kind: 'all' }).map((r) => r.key)).toEqual(['ui.CmdSave']);
    expect(filterRows(rows, { search: 'ACCOUNT', missingOnly: false, kind: 'metadata' }).map((r) => r.key)).toEqual(['account', 'account.plural']);
    expect(filterRows(rows, { search: '', missingOnly: true, kind: 'metadata' }).map((r) => r.key)).toEqual(['account.plural', 'lead']);
    // A line being typed into stays among the missing ones.
    expect(filterRows(rows, { search: '', missingOnly: true, kind: 'metadata' }, new Map([['lead', 'Záujemca']])).map((r) => r.key)).toEqual(['account.plural', 'lead']);
    expect(foldText('Čítať Ľudí')).toBe('citat ludi');
  });

  it('saving writes only what changed: a new text creates, a changed one updates, an emptied or built-in one deletes', () => {
    const edits = new Map([
      ['lead', 'Záujemca'],
      ['account', 'Spoločnosť'],
      ['ui.CmdSave', SK_SAVE],
      ['custom.thing', ''],
      ['ui.CmdCancel', catalogueOf('sk').CmdCancel as string],
      ['account.plural', '   '],
    ]);
    expect(writesOf(rows, edits, 'sk')).toEqual([
      { operation: 'create', object: { name: 'lead', lang: 'sk', text: 'Záujemca' } },
      { operation: 'update', object: { id: 'r1', text: 'Spoločnosť' } },
      { operation: 'delete', object: { id: 'r3' } },
      { operation: 'delete', object: { id: 'r4' } },
    ]);
  });

  it('property: after the writes of any edits are stored, every edited line shows its new text (or the built-in one when emptied)', () => {
    const keys = ['account', 'account.plural', 'lead', 'ui.CmdSave', 'ui.CmdCancel', 'custom.thing'];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), fc.oneof(fc.constant(''), fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== ''))), (edit) => {
        const edits = new Map(Object.entries(edit));
        let n = 0;
        const after = [...stored];
        for (const w of writesOf(rows, edits, 'sk')) {
          if (w.operation === 'create') after.push({ id: `n${++n}`, ...w.object });
          else if (w.operation === 'update') after.splice(after.findIndex((r) => r.id === w.object.id), 1, { ...after.find((r) => r.id === w.object.id)!, text: w.object.text });
          else after.splice(after.findIndex((r) => r.id === w.object.id), 1);
        }
        const again = textRows(metadata, after, 'sk');
        for (const [key, text] of edits) {
          const r = again.find((x) => x.key === key);
          // A key only a record knew is gone with its record.
          if (r) expect(shownText(r)).toBe(text === '' ? (r.builtIn ?? '') : text);
          else expect([key, text]).toEqual(['custom.thing', '']);
        }
      }),
    );
  });
});

describe('issue 15: the localization editor model', () => {
  const localize: Entity = {
    logicalName: 'inu_localize',
    displayName: 'Localization',
    displayNamePlural: 'Localizations',
    properties: [
      { logicalName: 'lang', displayName: 'Language', type: 'String', max: 10 },
      { logicalName: 'text', displayName: 'Text', type: 'String', max: 4000 },
    ],
  };
  const account: Entity = { logicalName: 'account', displayName: 'Account', displayNamePlural: 'Accounts', properties: [] };
  const setup = () => {
    const full = [localize, account].map((e) => {
      const r = withSystemFields(e);
      if (r._tag === 'Left') throw new Error(r.left.message);
      return r.right;
    });
    const client = new StoreClient(full, fullCaller('11111111-1111-4111-8111-111111111111', ['inu_localize']));
    const context = { metaDict: { account }, gui: [] } as unknown as UserContext;
    const api = { fetch: client.fetch.bind(client), executeMultiple: client.executeMultiple.bind(client), getUserContext: vi.fn(async () => context) };
    return { client, api };
  };

  it('loads English and Slovak, saves edits in one atomic batch through the write path, and reads the records again', async () => {
    const { client, api } = setup();
    await client.update('create', LOCALIZE_ENTITY, { name: 'account', lang: 'sk', text: 'Firma' });
    await client.update('create', LOCALIZE_ENTITY, { name: 'account', lang: 'de', text: 'Firma' });
    const m = localizationModel({ api, language: 'en' });
    expect(m.lang.value).toBe('sk');
    await m.load();
    expect(m.status.value).toBe('ready');
    const row = (key: string) => m.rows.value.find((r) => r.key === key)!;
    expect(shownText(row('account'))).toBe('Firma');
    expect(isMissing(row('account.plural'))).toBe(true);
    m.edit('account.plural', 'Firmy');
    m.edit('ui.CmdSave', 'Uložiť záznam');
    expect(m.dirty.value).toBe(true);
    expect(await m.save()).toBe(true);
    expect(client.batches.at(-1)).toMatchObject({ atomic: true, items: [{ operation: 'create', name: 'inu_localize' }, { operation: 'create', name: 'inu_localize' }] });
    expect(m.dirty.value).toBe(false);
    expect(shownText(row('account.plural'))).toBe('Firmy');
    expect(row('ui.CmdSave').record?.text).toBe('Uložiť záznam');
    m.setSearch('firmy');
    expect(m.filtered.value.map((r) => r.key)).toEqual(['account.plural']);
  });

  it('another language reads its own records; a failed save keeps the edits and says why', async () => {
    const { client, api } = setup();
    const m = localizationModel({ api, language: 'sk' });
    await m.load();
    await m.chooseLanguage('de');
    expect(m.lang.value).toBe('de');
    expect(m.rows.value.find((r) => r.key === 'ui.CmdSave')?.builtIn).toBe(catalogueOf('de').CmdSave);
    m.edit('account', 'x'.repeat(5000));
    expect(await m.save()).toBe(false);
    expect(m.saveError.value).toBeTruthy();
    expect(m.edits.value.get('account')).toHaveLength(5000);
    expect(client.calls.length).toBe(0);
  });
});
