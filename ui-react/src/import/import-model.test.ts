import { describe, expect, it } from 'vitest';
import { isRight } from 'fp-ts/lib/Either.js';
import { withSystemFields, type Entity } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { ImportJob, writeBatchFor, type StoreAnswer, type StoreCall } from './import-job.js';
import { importChoices, importModel, matchFieldChoices, type ImportModel } from './import-model.js';
import type { FromWorker, ToWorker, WorkerPort } from './import-protocol.js';

const entity = (e: Parameters<typeof withSystemFields>[0]): Entity => {
  const r = withSystemFields(e);
  if (!isRight(r)) throw new Error('bad fixture');
  return r.right;
};
const account = entity({ logicalName: 'account', displayName: 'Account', displayNamePlural: 'Accounts', properties: [] });
const contact = entity({
  logicalName: 'contact',
  displayName: 'Contact',
  displayNamePlural: 'Contacts',
  properties: [
    { logicalName: 'birthdate', displayName: 'Birth Date', type: 'DateTime' },
    { logicalName: 'accountid', displayName: 'Account', type: 'Lookup', targets: ['account'] },
    { logicalName: 'code', displayName: 'Code', type: 'String', max: 5 },
  ],
});
const link = entity({ logicalName: 'contact_tag', displayName: 'Contact tag', displayNamePlural: 'Contact tags', type: 'many', properties: [] });
const entities = [account, contact, link];

/** The worker, in-process: the same job and protocol, messages delivered on later turns as a worker's are. */
const inProcessWorker = (): WorkerPort => {
  let job: ImportJob | undefined;
  let ended = false;
  const waiting = new Map<number, (a: StoreAnswer) => void>();
  let next = 0;
  const port: WorkerPort = {
    onmessage: null,
    postMessage: (m: ToWorker) => setTimeout(() => handle(m)),
    terminate: () => (ended = true),
  };
  const emit = (d: FromWorker) => setTimeout(() => !ended && port.onmessage?.({ data: d }));
  const call = (c: StoreCall) =>
    new Promise<StoreAnswer>((resolve) => {
      waiting.set(++next, resolve);
      emit({ type: 'call', id: next, call: c });
    });
  const fail = (e: unknown) => emit({ type: 'failed', message: String(e) });
  const handle = (m: ToWorker) => {
    if (ended) return;
    if (m.type === 'answer') waiting.get(m.id)?.(m.answer);
    else if (m.type === 'check') {
      job = new ImportJob(m.settings, call, (progress) => emit({ type: 'progress', progress }));
      job.check().then((preview) => emit({ type: 'preview', preview }), fail);
    } else if (m.type === 'write') job?.write(m.batchSize).then((outcome) => emit({ type: 'outcome', outcome }), fail);
    else job?.requestStop();
  };
  return port;
};

const setup = (answers: boolean[] = [true]) => {
  const api = new StoreClient(entities, fullCaller('00000000-0000-4000-8000-00000000aaaa', entities.map((e) => e.logicalName)));
  const asked: string[] = [];
  const downloads: Array<[string, string]> = [];
  const model = importModel({
    api,
    caller: api.caller,
    entities,
    startWorker: inProcessWorker,
    lang: () => 'en',
    confirm: async (text) => {
      asked.push(text);
      return answers.shift() ?? true;
    },
    download: (f, c) => downloads.push([f, c]),
  });
  model.setEntity('contact');
  return { api, model, asked, downloads };
};

const file = (name: string, text: string) => new File([text], name);
const until = async (model: ImportModel, phase: string) => {
  for (let i = 0; i < 2000 && model.phase.value !== phase; i++) await new Promise((r) => setTimeout(r, 2));
  expect(model.phase.value, model.error.value ?? '').toBe(phase);
};
const contacts = async (api: StoreClient) =>
  (await api.fetch({ entity: { name: 'contact', allattrs: true, orders: [{ attribute: 'name' }] }, pageSize: 1000 })).records;

describe('issue 17: the Import screen model (spec 002 sections 2, 4, 5, 8)', () => {
  it('offers no link entities, and matching by the id and importable text, number and lookup fields', () => {
    const { api } = setup();
    expect(importChoices(entities, api.caller).map((e) => e.logicalName)).toEqual(['account', 'contact']);
    expect(matchFieldChoices(contact).map((p) => p.logicalName)).toEqual(expect.arrayContaining(['id', 'name', 'accountid', 'code']));
    expect(matchFieldChoices(contact).map((p) => p.logicalName)).not.toContain('birthdate');
  });

  it('Download Template: import_{object}.csv with the property names (the core rule the server uses)', () => {
    const { model, downloads } = setup();
    model.downloadTemplate();
    expect(downloads[0][0]).toBe('import_contact.csv');
    expect(downloads[0][1]).toMatch(/^\uFEFFid;name;.*birthdate;accountid;code/);
  });

  it('a CSV with a lookup by name and a bad date: the preview marks the rows and names both problems; Import asks, writes and says the result', async () => {
    const { api, model, asked } = setup();
    await api.executeMultiple([{ operation: 'create', name: 'account', object: { name: 'Acme' } }]);
    api.batches.length = 0;
    model.chooseFile(file('people.csv', 'name;birthdate;accountid;code;shoe size\nAda;1.2.1990;Acme;ABCDEFG;42\nBob;31.02.xx;Nobody;B;43\n'));
    expect(model.phase.value).toBe('checking');
    await until(model, 'ready');
    const p = model.preview.value!;
    expect(p).toMatchObject({ rows: 2, create: 2, update: 0, skip: 0, errors: 0 });
    expect(p.ignoredColumns).toEqual(['Column ignored: shoe size (no such field)']);
    expect(p.columns.map((c) => c.ignored)).toEqual([false, false, false, false, true]);
    expect(p.rowsShown[0]).toMatchObject({ line: 2, action: 'create', cells: ['Ada', '1.2.1990', 'Acme', 'ABCDEFG', '42'] });
    expect(p.rowsShown[0].problems).toEqual(['code: the text of 7 characters was cut to 5']);
    expect(p.rowsShown[1].problems).toEqual(["birthdate: '31.02.xx' is not a date; left empty", "accountid: 'Nobody' no account is named so; left empty"]);
    expect(api.batches).toEqual([]); // checking writes nothing
    await model.importRows();
    expect(asked).toEqual(['Import will Create 2 record(s) Update 0 record(s) continue?']);
    await until(model, 'done');
    expect(model.outcome.value!.text).toBe('Imported: 2 records');
    const rows = await contacts(api);
    expect(rows.map((r) => [r.name, r.code, (r.accountid as { id?: string } | null)?.id ?? null])).toEqual([
      ['Ada', 'ABCDE', expect.any(String)],
      ['Bob', 'B', null],
    ]);
    expect(api.batches.every((b) => b.atomic)).toBe(true);
  });

  it('Create New vs Update Existing: with a match field a known name updates, under Create New it is created again', async () => {
    const { api, model } = setup();
    await api.executeMultiple([{ operation: 'create', name: 'contact', object: { name: 'Ada', code: 'OLD' } }]);
    model.setMatchField('name');
    model.chooseFile(file('c.csv', 'name;code\nAda;NEW\nEve;E\n'));
    await until(model, 'ready');
    expect(model.preview.value).toMatchObject({ create: 1, update: 1 });
    expect(model.preview.value!.rowsShown.map((r) => r.action)).toEqual(['update', 'create']);
    model.setMode('create');
    await until(model, 'ready');
    expect(model.preview.value).toMatchObject({ create: 2, update: 0 });
    model.setMode('skip');
    await until(model, 'ready');
    expect(model.preview.value!.rowsShown.map((r) => r.action)).toEqual(['skip', 'create']);
    model.setMode('update');
    await until(model, 'ready');
    await model.importRows();
    await until(model, 'done');
    expect((await contacts(api)).map((r) => [r.name, r.code])).toEqual([
      ['Ada', 'NEW'],
      ['Eve', 'E'],
    ]);
  });

  it('declining the confirmation processes nothing, and Import can be asked again', async () => {
    const { api, model, asked } = setup([false]);
    model.chooseFile(file('c.json', '[{"name":"Ada"},{"name":"Bob","code":7}]'));
    await until(model, 'ready');
    expect(model.preview.value!.columns.map((c) => c.header)).toEqual(['name', 'code']);
    await model.importRows();
    expect(asked).toHaveLength(1);
    expect(model.phase.value).toBe('ready');
    await new Promise((r) => setTimeout(r, 20));
    expect(api.batches).toEqual([]);
    expect(await contacts(api)).toEqual([]);
  });

  it('Cancel mid-way: no batch starts after it, the batches written stay, and the result says how many rows were not imported', async () => {
    const { api, model } = setup();
    // A server that takes a while per batch, as a real one does.
    const write = api.executeMultiple.bind(api);
    api.executeMultiple = async (...a) => {
      await new Promise((r) => setTimeout(r, 30));
      return write(...a);
    };
    const text = 'name\n' + Array.from({ length: 250 }, (_, i) => `P${i}`).join('\n') + '\n';
    model.chooseFile(file('many.csv', text));
    await until(model, 'ready');
    expect(writeBatchFor(250)).toBe(100);
    await model.importRows();
    for (let i = 0; i < 2000 && (model.progress.value?.done ?? 0) === 0; i++) await new Promise((r) => setTimeout(r, 1));
    model.cancel();
    expect(model.stopping.value).toBe(true);
    await until(model, 'done');
    const o = model.outcome.value!;
    expect(o.cancelled).toBe(true);
    expect(o.imported % 100).toBe(0);
    expect(o.imported).toBeLessThan(250);
    expect(o.text).toBe(`Imported: ${o.imported} records\nCancelled: ${250 - o.imported} rows were not imported`);
    expect(await contacts(api)).toHaveLength(o.imported);
  });

  it('Cancel while the file is being checked ends the worker: nothing was written, the screen is back to choosing a file', async () => {
    const { api, model } = setup();
    model.chooseFile(file('c.csv', 'name\nA\n'));
    expect(model.phase.value).toBe('checking');
    model.cancel();
    expect(model.phase.value).toBe('idle');
    expect(model.file.value).toBeNull();
    await new Promise((r) => setTimeout(r, 30));
    expect(model.phase.value).toBe('idle'); // the ended worker's preview never lands
    expect(model.preview.value).toBeNull();
    expect(api.batches).toEqual([]);
  });

  it('only csv and json files are taken; a file that cannot be imported says why and offers no Import', async () => {
    const { model } = setup();
    model.chooseFile(file('notes.txt', 'x'));
    expect(model.wrongFile.value).toBe(true);
    expect(model.phase.value).toBe('idle');
    model.chooseFile(file('c.csv', 'shoe size\n42\n'));
    await until(model, 'ready');
    expect(model.preview.value!.fatal).toBe('Line 1: no column of the header names a field of contact');
    expect(model.canImport.value).toBe(false);
  });

  it('writes in the spec batch of 100 rows, larger for large files, at most 1000 per atomic call', () => {
    expect([1, 250, 10_000, 20_000, 100_000, 1_000_000].map(writeBatchFor)).toEqual([100, 100, 100, 200, 1000, 1000]);
  });
});
