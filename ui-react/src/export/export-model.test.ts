import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity, ExportJobAnswer, ExportLinkAnswer, ExportRequestBody, FetchRequest, FetchResult } from '../core.js';
import { fullCaller } from '../testing/store-client.js';
import { checkQueryText, exportPageEntities, exportModel, exportQueryOf, type ExportApi } from './export-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'city', displayName: 'City', type: 'String' },
    { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
    { logicalName: 'logo', displayName: 'Logo', type: 'Binary' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const link: Entity = { logicalName: 'account_contact', displayName: 'Link', displayNamePlural: 'Links', type: 'many', properties: [{ logicalName: 'id', displayName: 'Id', type: 'Guid' }] };
const secret: Entity = { logicalName: 'payroll', displayName: 'Payroll', displayNamePlural: 'Payrolls', properties: [{ logicalName: 'id', displayName: 'Id', type: 'Guid' }] };
const settings: Entity = { logicalName: 'inu_orgsettings', displayName: 'Settings', displayNamePlural: 'Settings', properties: [{ logicalName: 'id', displayName: 'Id', type: 'Guid' }, { logicalName: 'export_options', displayName: 'Export options', type: 'String' }] };
const entities = { account, account_contact: link, payroll: secret, inu_orgsettings: settings };
const listQuery: FetchRequest = {
  entity: { name: 'account', attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'city', operator: 'eq', value: 'Brno' }] }, orders: [{ attribute: 'name' }] },
  page: 1,
  pageSize: 50,
  count: true,
};

/** The export calls answered in memory: what was sent, and a job that runs for `jobPolls` polls. */
const fakeApi = (o: { options?: string | null; jobPolls?: number; jobFails?: boolean; settingsFail?: boolean } = {}) => {
  const sent: { links: Array<ExportRequestBody | { job: string }>; starts: ExportRequestBody[]; fetches: FetchRequest[]; polls: number } = { links: [], starts: [], fetches: [], polls: 0 };
  const job = (state: ExportJobAnswer['state'], rows: number): ExportJobAnswer => ({ id: 'job-1', state, rows, total: 30, fileName: 'Accounts.pdf', ...(state === 'failed' ? { message: 'the export failed while writing' } : {}) });
  const api: ExportApi = {
    fetch: async (r: FetchRequest): Promise<FetchResult> => {
      sent.fetches.push(r);
      if (o.settingsFail) throw new Error('403');
      return { records: o.options === undefined ? [] : [{ id: 's', export_options: o.options }], count: null, moreRecords: false } as unknown as FetchResult;
    },
    exportLink: async (b): Promise<ExportLinkAnswer> => {
      sent.links.push(b);
      return { url: `/api/export/file?ticket=t${sent.links.length}`, fileName: 'job' in b ? 'Accounts.pdf' : `${b.options?.fileName ?? 'Accounts'}.${b.format ?? 'csv'}`, expires: '' };
    },
    exportStart: async (b) => {
      sent.starts.push(b);
      return job('running', 0);
    },
    exportJob: async () => {
      sent.polls++;
      if (sent.polls < (o.jobPolls ?? 2)) return job('running', sent.polls * 10);
      return o.jobFails ? job('failed', 10) : job('ready', 30);
    },
  };
  return { api, sent };
};

const setup = (o: Parameters<typeof fakeApi>[0] & { selected?: string[]; caller?: ReturnType<typeof fullCaller> } = {}) => {
  const { api, sent } = fakeApi(o);
  const downloads: Array<{ url: string; fileName: string }> = [];
  const model = exportModel({
    api,
    caller: o.caller ?? fullCaller(ME, ['account', 'inu_orgsettings']),
    entities,
    entity: account,
    query: exportQueryOf(account, listQuery, ['name', 'city', 'versionnumber', 'primarycontactid.fullname']),
    selectedIds: o.selected,
    download: (url, fileName) => downloads.push({ url, fileName }),
    sleep: async () => undefined,
  });
  return { model, sent, downloads };
};

describe('the export page lists (spec 002 section 2)', () => {
  it('only entities the user may read and that are not link entities', () => {
    const caller = fullCaller(ME, ['account', 'account_contact']);
    expect(exportPageEntities(Object.values(entities), caller).map((e) => e.logicalName)).toEqual(['account']);
  });
});

describe("a list's Export starts from the list's query (issue 17)", () => {
  it("keeps the filter and order, exports the view's exportable columns in order, drops the paging", () => {
    const q = exportQueryOf(account, listQuery, ['city', 'name', 'versionnumber', 'logo', 'primarycontactid.fullname']);
    expect(q).toEqual({ entity: { name: 'account', attributes: [{ attribute: 'city' }, { attribute: 'name' }], filter: listQuery.entity.filter, orders: [{ attribute: 'name' }] } });
  });
  it('every field when the view shows none that can be exported', () => {
    expect(exportQueryOf(account, listQuery, ['logo']).entity).toMatchObject({ name: 'account', allattrs: true });
    expect(exportQueryOf(account, listQuery, ['logo']).entity.attributes).toBeUndefined();
  });
});

describe('Edit Query is checked with the core rules before anything is sent', () => {
  it('bad JSON, another entity, an unknown field, a field that cannot be exported: each a problem; a good query passes', () => {
    const check = (text: string) => checkQueryText(text, account, entities);
    const json = check('{"entity": ');
    expect(isLeft(json) && json.left._tag).toBe('Json');
    const other = check(JSON.stringify({ entity: { name: 'payroll' } }));
    expect(isLeft(other) && other.left).toEqual({ _tag: 'Entity', entity: 'account' });
    const shape = check(JSON.stringify({ entity: { name: 'account', attributes: 'name' } }));
    expect(isLeft(shape) && shape.left._tag).toBe('Invalid');
    const unknown = check(JSON.stringify({ entity: { name: 'account', attributes: [{ attribute: 'shoe' }] } }));
    expect(isLeft(unknown) && unknown.left).toEqual({ _tag: 'Invalid', error: 'Field not found:account.shoe' });
    const binary = check(JSON.stringify({ entity: { name: 'account', attributes: [{ attribute: 'logo' }] } }));
    expect(isLeft(binary) && binary.left._tag).toBe('Invalid');
    expect(isRight(check(JSON.stringify({ entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'revenue', operator: 'gt', value: 5 }] } } })))).toBe(true);
  });
});

describe('the Export dialog (spec 002 sections 2, 5, 9)', () => {
  it('defaults: csv of csv and pdf, All, the plural name as file name, no totals, when the organization sets nothing', async () => {
    const { model } = setup();
    await model.init();
    expect([model.formats.value, model.format.value, model.records.value, model.fileName.value, model.totals.value, model.canSelect]).toEqual([['csv', 'pdf'], 'csv', 'all', 'Accounts', false, false]);
  });

  it('Selected is offered only when rows are selected, and then chosen by default', async () => {
    const { model } = setup({ selected: ['a', 'b'] });
    await model.init();
    expect([model.canSelect, model.records.value, model.selectedCount]).toEqual([true, 'selected', 2]);
  });

  it('takes the defaults of inu_orgsettings export_options (formats, format, records, file name, totals)', async () => {
    const { model, sent } = setup({ selected: ['a'], options: JSON.stringify({ formats: ['csv', 'json', 'pdf'], format: 'json', records: 'all', fileName: 'Firmy', totals: ['revenue'] }) });
    await model.init();
    expect(sent.fetches[0].entity.name).toBe('inu_orgsettings');
    expect([model.formats.value, model.format.value, model.records.value, model.fileName.value, model.totals.value]).toEqual([['csv', 'json', 'pdf'], 'json', 'all', 'Firmy', true]);
    // the organization's column list for totals travels as it is while the box stays ticked
    expect(model.body()?.options?.totals).toEqual(['revenue']);
  });

  it('reads no defaults without read permission on inu_orgsettings (spec 002 section 6)', async () => {
    const { model, sent } = setup({ caller: fullCaller(ME, ['account']), options: JSON.stringify({ format: 'pdf' }) });
    await model.init();
    expect(sent.fetches).toHaveLength(0);
    expect(model.format.value).toBe('csv');
  });

  it('invalid options JSON is reported for the alert (spec 002 sections 5 and 8), and the fields keep the built-in defaults', async () => {
    const { model } = setup({ options: '{ format: pdf' });
    await model.init();
    expect(model.optionsError.value).toMatch(/^Invalid export options in inu_orgsettings\.export_options: /);
    expect(model.format.value).toBe('csv');
    expect(model.status.value._tag).toBe('Idle');
  });

  it('Selected sends the ids; the typed file name and totals go with the body; CSV downloads from the link at once', async () => {
    const { model, sent, downloads } = setup({ selected: ['a', 'b'] });
    await model.init();
    model.setFileName('Chosen');
    model.totals.value = true;
    expect(await model.start()).toBe(true);
    expect(sent.links).toHaveLength(1);
    const body = sent.links[0] as ExportRequestBody;
    expect(body).toMatchObject({ format: 'csv', ids: ['a', 'b'], options: { fileName: 'Chosen', totals: true, records: 'selected' } });
    expect(body.query.entity.attributes).toEqual([{ attribute: 'name' }, { attribute: 'city' }]);
    expect(downloads).toEqual([{ url: '/api/export/file?ticket=t1', fileName: 'Chosen.csv' }]);
    expect(model.status.value).toEqual({ _tag: 'Started', fileName: 'Chosen.csv' });
  });

  it('All sends no ids, and the default file name follows the format (no fileName sent)', async () => {
    const { model, sent } = setup({ selected: ['a'] });
    await model.init();
    model.records.value = 'all';
    model.format.value = 'pdf';
    expect(model.fileName.value).toBe('Accounts');
    const body = model.body()!;
    expect(body.ids).toBeUndefined();
    expect(body.options?.fileName).toBeUndefined();
    expect(sent.links).toHaveLength(0);
  });

  it('PDF runs as a job: its progress is shown, then the ready file downloads from a link of the job', async () => {
    const { model, sent, downloads } = setup({ jobPolls: 3 });
    await model.init();
    model.format.value = 'pdf';
    const seen: string[] = [];
    const stop = model.status.subscribe((s) => seen.push(s._tag === 'Preparing' ? `${s.rows}/${s.total}` : s._tag));
    expect(await model.start()).toBe(true);
    stop();
    expect(sent.starts[0]).toMatchObject({ format: 'pdf' });
    expect(sent.links).toEqual([{ job: 'job-1' }]);
    expect(downloads).toEqual([{ url: '/api/export/file?ticket=t1', fileName: 'Accounts.pdf' }]);
    expect(seen).toEqual(['Idle', '0/30', '10/30', '20/30', 'Started']);
  });

  it('a failed job, or a refused link, shows the failure; nothing downloads', async () => {
    const failing = setup({ jobFails: true });
    await failing.model.init();
    failing.model.format.value = 'pdf';
    expect(await failing.model.start()).toBe(false);
    expect(failing.model.status.value).toEqual({ _tag: 'Failed', message: 'the export failed while writing' });
    expect(failing.downloads).toHaveLength(0);

    const refused = setup();
    await refused.model.init();
    refused.model.editing.value = true;
    refused.model.queryText.value = '{"entity":{"name":"account","attributes":[{"attribute":"shoe"}]}}';
    expect(refused.model.canDownload.value).toBe(false);
    expect(await refused.model.start()).toBe(false);
    expect(refused.sent.links).toHaveLength(0);
  });

  it('closing while a job runs stops following it (no download after the dialog is gone)', async () => {
    const { model, downloads } = setup({ jobPolls: 50 });
    await model.init();
    model.format.value = 'pdf';
    const running = model.start();
    await Promise.resolve();
    model.stop();
    expect(await running).toBe(false);
    expect(downloads).toHaveLength(0);
  });

  it('an edited query is what is exported', async () => {
    const { model, sent } = setup();
    await model.init();
    model.editing.value = true;
    model.queryText.value = JSON.stringify({ entity: { name: 'account', attributes: [{ attribute: 'revenue' }] } });
    expect(await model.start()).toBe(true);
    expect((sent.links[0] as ExportRequestBody).query).toEqual({ entity: { name: 'account', attributes: [{ attribute: 'revenue' }] } });
  });
});
