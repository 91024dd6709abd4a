import { describe, expect, it, vi } from 'vitest';
import type { Entity, MetadataApplyBody, MetadataChangeBody, MetadataPlanAnswer } from '../core.js';
import { FIELD_TYPES } from '../core.js';
import {
  ADDABLE_TYPES,
  allConfirmed,
  changeOf,
  facetsOf,
  metadataEditorModel,
  nameProblem,
  optionLinesOf,
  previewOptions,
  retyped,
  toggledFlag,
  withOptionLines,
} from './metadata-editor-model.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String', max: 200 },
    { logicalName: 'rating', displayName: 'Rating', type: 'Integer', flags: ['OptionSet'], richOptions: [{ value: 1, label: 'Hot', color: '#c62828', icon: 'heart' }] },
  ],
};
const contact: Entity = { logicalName: 'contact', displayName: 'Contact', displayNamePlural: 'Contacts', properties: [] };

const plan = (destructive: MetadataPlanAnswer['destructive'] = []): MetadataPlanAnswer => ({
  version: 4,
  dialect: 'sqlite',
  steps: destructive.length ? destructive.map((d) => ({ description: d.step, dataLoss: true })) : [{ description: 'add column account.loyalty', dataLoss: false }],
  ddl: '-- metadata editor',
  destructive,
});
const dropLoyalty = { step: 'drop column account.loyalty', kind: 'dropColumn', table: 'account', column: 'loyalty', rows: 3, description: 'column account.loyalty has values in 3 rows' };

const fakeApi = (answer: MetadataPlanAnswer = plan()) => {
  const api = {
    metaDict: { account, contact } as Record<string, Entity>,
    getUserContext: vi.fn(async () => ({ metaDict: api.metaDict })),
    metadataPlan: vi.fn(async (_c: MetadataChangeBody) => answer),
    metadataApply: vi.fn(async (_b: MetadataApplyBody) => ({ version: answer.version + 1, steps: answer.steps.length })),
  };
  return api;
};

describe('the metadata editor model (issue 15: /{appid}/customizemetadata)', () => {
  it('the field-type registry drives the editors: length for text columns, targets for lookups, options for integer columns; VersionNumber is not offered', () => {
    for (const type of ADDABLE_TYPES) expect(FIELD_TYPES[type].serverSet).toBe(false);
    expect(ADDABLE_TYPES).not.toContain('VersionNumber');
    expect(facetsOf('String')).toEqual({ length: true, precision: false, targets: false, options: false });
    expect(facetsOf('Lookup').targets).toBe(true);
    expect(facetsOf('Integer').options).toBe(true);
    expect(facetsOf('Money').precision).toBe(true);
  });

  it('a new name follows the schema rules: a letter first, at most 60, not reserved, not taken (without case)', () => {
    expect(nameProblem('loyalty', ['name'])).toBeNull();
    expect(nameProblem('1st', [])).toBe('MetaNameInvalid');
    expect(nameProblem('a'.repeat(61), [])).toBe('MetaNameInvalid');
    expect(nameProblem('tessera_x', [])).toBe('MetaNameReserved');
    expect(nameProblem('Name', ['name'])).toBe('MetaNameTaken');
  });

  it('the change holds only what differs: created, updated (unchanged drafts are not sent) and removed entities', () => {
    const applied = { account, contact };
    const lead: Entity = { logicalName: 'lead', displayName: 'Lead', displayNamePlural: 'Leads', properties: [] };
    const renamed = { ...account, displayName: 'Customer' };
    expect(changeOf(applied, { account: renamed, contact, lead }, new Set(['lead']), new Set())).toEqual({ create: [lead], update: [renamed], remove: [] });
    expect(changeOf(applied, {}, new Set(), new Set(['contact']))).toEqual({ create: [], update: [], remove: ['contact'] });
  });

  it('Extended Options: lines VALUE;LABEL;COLOR;ICON;DEPENDENT_FIELD;DEPENDENT_FIELD_VALUE round-trip, a bad line is the error, the preview shows the lines that parse', () => {
    const rating = account.properties[2];
    expect(optionLinesOf(rating)).toBe('1;Hot;#c62828;heart');
    const r = withOptionLines(rating, '1;Hot;#c62828;heart\n2;Cold;#1565c0;;stage;3');
    expect(r).toEqual({ property: { ...rating, richOptions: [{ value: 1, label: 'Hot', color: '#c62828', icon: 'heart' }, { value: 2, label: 'Cold', color: '#1565c0', depfield: 'stage', depvalue: '3' }] } });
    expect(withOptionLines(rating, 'x;Bad')).toEqual({ error: "Invalid option line 1: the value 'x' is not an integer" });
    expect(previewOptions('1;A;red\nbad\n2;B').map((o) => o.label)).toEqual(['A', 'B']);
  });

  it('retyping drops what the old type had; flags toggle', () => {
    const s = { logicalName: 'code', displayName: 'Code', type: 'String' as const, max: 20 };
    expect(retyped(s, 'Lookup', 'contact')).toEqual({ logicalName: 'code', displayName: 'Code', type: 'Lookup', targets: ['contact'] });
    expect(retyped(s, 'Integer')).toEqual({ logicalName: 'code', displayName: 'Code', type: 'Integer' });
    expect(toggledFlag(toggledFlag(s, 'Required'), 'Required')).toEqual(s);
  });

  it('edit, review, apply: the plan of the change is asked, the apply sends its version; an edit after review goes back to editing', async () => {
    const api = fakeApi();
    const m = metadataEditorModel(api);
    await m.load();
    expect(m.phase.value).toBe('editing');
    m.select('account');
    expect(m.addProperty('loyalty', 'Loyalty', 'String')).toBeNull();
    expect(m.addProperty('Loyalty', 'Again', 'String')).toBe('MetaNameTaken');
    expect(m.stateOf('account')).toBe('changed');
    expect(m.changeCount.value).toBe(1);
    await m.review();
    expect(api.metadataPlan).toHaveBeenCalledWith({ create: [], update: [expect.objectContaining({ logicalName: 'account' })], remove: [] });
    expect([m.phase.value, m.canApply.value]).toEqual(['review', true]);
    m.updateEntity({ displayName: 'Customer' });
    expect([m.phase.value, m.plan.value]).toEqual(['editing', null]);
    await m.review();
    await m.apply();
    expect(api.metadataApply).toHaveBeenCalledWith(expect.objectContaining({ version: 4, confirm: [] }));
    expect(api.getUserContext).toHaveBeenCalledTimes(2);
    expect([m.changeCount.value, m.appliedVersion.value]).toEqual([0, 5]);
  });

  it('a destructive step is applied only after it is confirmed, and the confirmation names it', async () => {
    const api = fakeApi(plan([dropLoyalty]));
    const m = metadataEditorModel(api);
    await m.load();
    m.select('account');
    m.removeProperty('rating');
    await m.review();
    expect(m.canApply.value).toBe(false);
    await m.apply();
    expect(api.metadataApply).not.toHaveBeenCalled();
    m.toggleConfirm(dropLoyalty.step);
    expect(allConfirmed(m.plan.value, m.confirmed.value)).toBe(true);
    await m.apply();
    expect(api.metadataApply).toHaveBeenCalledWith(expect.objectContaining({ confirm: ['drop column account.loyalty'] }));
  });

  it("the server's validation message is shown and nothing is applied; a failed load can be retried", async () => {
    const api = fakeApi();
    api.metadataPlan.mockRejectedValueOnce(Object.assign(new Error('Server Error'), { text: 'ERR_INPUT: Invalid metadata: account.partner: target No Object:nope' }));
    const m = metadataEditorModel(api);
    await m.load();
    m.select('account');
    m.addProperty('partner', 'Partner', 'Lookup');
    await m.review();
    expect([m.phase.value, m.error.value]).toEqual(['editing', 'Invalid metadata: account.partner: target No Object:nope']);
    expect(api.metadataApply).not.toHaveBeenCalled();
    api.getUserContext.mockRejectedValueOnce(new Error('Network Error'));
    await m.load();
    expect([m.phase.value, m.error.value]).toEqual(['failed', 'Network Error']);
    await m.load();
    expect(m.phase.value).toBe('editing');
  });

  it('a new entity is a draft until applied; removing it again forgets it; an applied one is marked removed and can be kept', async () => {
    const m = metadataEditorModel(fakeApi());
    await m.load();
    expect(m.createEntity('project', 'Project', 'Projects')).toBeNull();
    expect(m.createEntity('account', 'A', 'As')).toBe('MetaNameTaken');
    expect([m.selected.value, m.stateOf('project')]).toEqual(['project', 'new']);
    expect(m.change.value.create.map((e) => e.logicalName)).toEqual(['project']);
    m.removeEntity('project');
    expect(m.allNames.value).toEqual(['account', 'contact']);
    m.removeEntity('contact');
    expect(m.change.value.remove).toEqual(['contact']);
    m.restoreEntity('contact');
    expect(m.changeCount.value).toBe(0);
  });
});
