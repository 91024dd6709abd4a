import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { Api, startHarness, type Harness } from '../http/http-harness.js';

const ORG = 'impex';
const ADMIN = { email: 'admin@impex.test', password: 'admin-password-1' };

describe('issue 7 section 5: the import and export calls over HTTP (docs/api.md)', () => {
  let h: Harness;
  let api: Api;

  const upload = async (body: string, query: string): Promise<Response> =>
    fetch(`${h.url}/api/import/upload?${query}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'x-accessptoken': api.token }, body });

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    api = new Api(h.url);
    await api.login(ORG, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => h?.close());

  it('GET import/template gives import_{object}.csv with the field names joined by semicolons', async () => {
    const r = await api.get('import/template?entity=account');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toContain('filename="import_account.csv"');
    const text = await r.text();
    expect(text.startsWith('\uFEFFid;name;')).toBe(false); // fetch decodes the BOM away
    expect(text.split('\r\n')[0].split(';')).toEqual(expect.arrayContaining(['id', 'name', 'revenue']));
    expect(text).not.toMatch(/createdon|modifiedby/);
  });

  it('upload answers the parsed, marked preview; commit writes it and answers the result text', async () => {
    const csv = 'name;revenue;shoe\nČačina;1 000,50;x\nŽilina;lots;y\nŤažký;3;z\n';
    const r = await upload(csv, 'entity=account&fileName=accounts.csv');
    expect(r.status).toBe(200);
    const preview = (await r.json()) as Record<string, any>;
    expect(preview).toMatchObject({
      rows: 3,
      create: 2,
      update: 0,
      errors: 1,
      confirmation: 'Import will Create 2 record(s) Update 0 record(s) continue?',
      ignoredColumns: ['Column ignored: shoe (no such field)'],
      errorLines: ["Line 3, revenue: 'lots' is not a number"],
    });
    expect(preview.sample.map((s: any) => [s.line, s.action])).toEqual([
      [2, 'create'],
      [3, 'error'],
      [4, 'create'],
    ]);
    const c = await api.post('import/commit', { uploadId: preview.uploadId });
    expect(c.status).toBe(200);
    const outcome = (await c.json()) as Record<string, any>;
    expect(outcome.text).toBe("Imported: 2 records\nErrors: 1\nLine 3, revenue: 'lots' is not a number");
    const found = await api.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'name' }, { attribute: 'revenue' }], filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'Čačina' }] } } });
    expect(found.records).toMatchObject([{ name: 'Čačina', revenue: 1000.5 }]);
    // An upload is committed once.
    expect((await api.post('import/commit', { uploadId: preview.uploadId })).status).toBe(404);
  });

  it('with a match field the preview marks updates, and the commit updates instead of duplicating', async () => {
    const r = await upload('name;revenue\nČačina;7\nNová;8\n', 'entity=account&fileName=a.csv&match=name&mode=update');
    const preview = (await r.json()) as Record<string, any>;
    expect(preview).toMatchObject({ create: 1, update: 1, confirmation: 'Import will Create 1 record(s) Update 1 record(s) continue?' });
    const outcome = (await (await api.post('import/commit', { uploadId: preview.uploadId, match: 'name' })).json()) as Record<string, any>;
    expect(outcome).toMatchObject({ created: 1, updated: 1, text: 'Imported: 2 records' });
    const found = await api.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'revenue' }], filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'Čačina' }] } } });
    expect(found.records).toMatchObject([{ revenue: 7 }]);
  });

  it('refuses unknown and link entities, and needs a session', async () => {
    expect((await upload('name\nA\n', 'entity=nothing')).status).toBe(400);
    const anonymous = await fetch(`${h.url}/api/import/upload?entity=account`, { method: 'POST', body: 'name\nA\n' });
    expect(anonymous.status).toBe(401);
    expect((await api.post('import/commit', { uploadId: 'not-an-upload' })).status).toBe(404);
  });

  it('export streams CSV with a BOM, the lookup columns expanded, under the default file name', async () => {
    const r = await api.post('export', { query: { entity: { name: 'account', attributes: [{ attribute: 'name' }, { attribute: 'revenue' }, { attribute: 'ownerid' }], orders: [{ attribute: 'name' }] } }, format: 'csv', options: { decimalSeparator: ',', csvHeader: true } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    expect(r.headers.get('content-disposition')).toContain('filename="Accounts.csv"');
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    expect(lines[0]).toBe('sep=;');
    expect(lines[1]).toBe('name;revenue;ownerid;owneridTarget;owneridLabel');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Čačina;7;[0-9a-f-]{36};systemuser;Admin$/)]));
  });

  it('export as JSON is an array of records as /api/fetch returns them; PDF is a PDF', async () => {
    const query = { entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'Ťažký' }] } } };
    const j = await api.post('export', { query, format: 'json' });
    expect(await j.json()).toEqual((await api.fetchRecords(query)).records);
    const p = await api.post('export', { query, format: 'pdf', options: { orientation: 'landscape' } });
    expect(p.headers.get('content-type')).toBe('application/pdf');
    const doc = await getDocument({ data: new Uint8Array(await p.arrayBuffer()) }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain('Ťažký');
  });

  it('export options come from inu_orgsettings.export_options; invalid options JSON is a clear error', async () => {
    const id = await api.create('inu_orgsettings', { name: 'Settings', export_options: '{"format":"json"}' });
    const r = await api.post('export', { query: { entity: { name: 'account', attributes: [{ attribute: 'name' }] } } });
    expect(r.headers.get('content-disposition')).toContain('filename="Accounts.json"');
    const current = await api.fetchRecords({ entity: { name: 'inu_orgsettings', attributes: [{ attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } });
    const u = await api.post('update', { operation: 'update', name: 'inu_orgsettings', object: { id, versionnumber: current.records[0].versionnumber, export_options: '{format: json' } });
    expect(u.status).toBe(200);
    const bad = await api.post('export', { query: { entity: { name: 'account' } } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^ERR_INPUT: Invalid export options in inu_orgsettings.export_options: /);
  });
});
