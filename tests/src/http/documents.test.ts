import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_TEMPLATE, MAX_REPORT_BODY_CHARS, MAX_TEMPLATE_DEPTH } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

const PW = 'shared-password-1';

/** POST /api/document (issue 20): the document of a record, only for who may read it; bad templates are 400, never 500. */
describe('POST /api/document (issue 20)', () => {
  let h: Harness;
  let admin: Api;
  let other: Api;
  let technician: Api;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg('doc-a', { email: 'admin@doc-a.test', password: PW }, ['demo']);
    await h.createOrg('doc-b', { email: 'admin@doc-b.test', password: PW }, ['demo']);
    admin = new Api(h.url);
    await admin.login('doc-a', 'admin@doc-a.test', PW);
    other = new Api(h.url);
    await other.login('doc-b', 'admin@doc-b.test', PW);
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const roleId = roles.records.find((r) => r.name === 'Technician')!.id as string;
    const tom = await admin.create('systemuser', { name: 'Tom', emailaddress: 'tom@doc-a.test' });
    await admin.create('systemuserroles', { systemuserid: { id: tom, name: 'systemuser' }, roleid: { id: roleId, name: 'inu_role' } });
    await admin.form('changepassword', { userId: tom, newPassword: PW + 'x' });
    technician = new Api(h.url);
    const r = await technician.form('mustchangepassword', { organization: 'doc-a', username: 'tom@doc-a.test', password: PW + 'x', newPassword: PW });
    technician.token = r.headers.get('x-accessptoken')!;

    ids.account = await admin.create('account', { name: 'Čačina s.r.o.' });
    ids.invoice = await admin.create('invoice', { name: 'Pump service', customerid: { id: ids.account, name: 'account' }, invoicedate: '2026-11-05' });
    ids.product = await admin.create('product', { name: 'Ventil' });
    for (let k = 0; k < 3; k++) await admin.create('invoicedetail', { invoiceid: { id: ids.invoice, name: 'invoice' }, productid: { id: ids.product, name: 'product' }, quantity: 2, priceperunit: 10, baseamount: 20, totalamount: 20 });
    ids.template = await admin.create('report_template', { name: 'Invoice', objectname: 'invoice', format: 1, body: JSON.stringify(INVOICE_TEMPLATE) });
    ids.travelTemplate = await admin.create('report_template', { name: 'Travel', objectname: 'route_route', format: 1, body: JSON.stringify(INVOICE_TEMPLATE) });
  }, 120_000);
  afterAll(async () => h?.close());

  it('a stored template gives the PDF, the Word format on request, named after the title', async () => {
    const pdf = await admin.post('document', { entity: 'invoice', id: ids.invoice, template: ids.template });
    expect(pdf.status, await pdf.clone().text()).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain('.pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    const docx = await admin.post('document', { entity: 'invoice', id: ids.invoice, template: ids.template, format: 'docx' });
    expect(docx.status).toBe(200);
    expect(docx.headers.get('content-type')).toContain('wordprocessingml');
    expect(Buffer.from(await docx.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
  });

  it("format 'layout' answers the filled layout model as JSON (the editor's preview), with the record's values", async () => {
    const r = await admin.post('document', { entity: 'invoice', id: ids.invoice, body: JSON.stringify(INVOICE_TEMPLATE), format: 'layout', language: 'en' });
    expect(r.status).toBe(200);
    const model = (await r.json()) as { title: string; blocks: Array<{ kind: string; rows?: string[][]; totals?: string[] }> };
    expect(model.title).toMatch(/^Invoice /);
    const table = model.blocks.find((b) => b.kind === 'table')!;
    expect(table.rows).toHaveLength(3);
    expect(table.totals?.[5]).toBe('60.00 €');
    expect(JSON.stringify(model)).toContain('Čačina s.r.o.');
  });

  it('only a user who may read the record gets its document: another organization and a role without invoices get 404', async () => {
    const theirs = await other.post('document', { entity: 'invoice', id: ids.invoice, body: JSON.stringify(INVOICE_TEMPLATE) });
    expect(theirs.status).toBe(404);
    const tom = await technician.post('document', { entity: 'invoice', id: ids.invoice, body: JSON.stringify(INVOICE_TEMPLATE) });
    expect(tom.status).toBe(404);
    const anonymous = await new Api(h.url).post('document', { entity: 'invoice', id: ids.invoice, template: ids.template });
    expect(anonymous.status).toBe(401);
  });

  it("a missing template, or one for another entity, is 404 'executePdfTemplate template not found'", async () => {
    for (const template of ['00000000-0000-4000-8000-000000000001', ids.travelTemplate]) {
      const r = await admin.post('document', { entity: 'invoice', id: ids.invoice, template });
      expect([r.status, await r.text()]).toEqual([404, 'ERR_NOT_FOUND: executePdfTemplate template not found']);
    }
  });

  it('template errors are 400 with the spec texts; a huge or deeply nested template is 400, never 500', async () => {
    const cases: Array<[unknown, string]> = [
      [{ body: '{oops' }, 'ERR_INPUT: Invalid template format'],
      [{ body: JSON.stringify({ content: [{ type: 'text', text: 'Total {{totalamount' }] }) }, 'ERR_INPUT: Invalid formatted text'],
      [{ body: JSON.stringify({ content: [{ type: 'text', text: '[if name]x' }] }) }, 'ERR_INPUT: Not enough end statements.'],
      [{ body: JSON.stringify({ content: [{ type: 'text', text: '[end]' }] }) }, 'ERR_INPUT: Invalid end statement'],
      [{ body: JSON.stringify({ content: [{ type: 'text', text: '[if name' }] }) }, 'ERR_INPUT: Control statement is not terminated with ]'],
      [{ body: JSON.stringify({ content: [{ type: 'grid', cells: Array.from({ length: 300 }, () => ['row']) }] }) }, 'ERR_INPUT: PDF cannot split grid to page'],
      [{ body: JSON.stringify({ content: [{ type: 'text', text: `${'[if name]'.repeat(MAX_TEMPLATE_DEPTH + 1)}x${'[end]'.repeat(MAX_TEMPLATE_DEPTH + 1)}` }] }) }, 'ERR_INPUT: Invalid template format'],
      [{ body: `{"content":[],"x":${'['.repeat(40)}${']'.repeat(40)}}` }, 'ERR_INPUT: Invalid template format'],
      [{ body: 'x'.repeat(MAX_REPORT_BODY_CHARS + 1) }, 'ERR_INPUT: Invalid document request: body'],
      [{ template: ids.template, body: '{}' }, 'ERR_INPUT: Invalid document request: give one of'],
    ];
    for (const [source, text] of cases) {
      const r = await admin.post('document', { entity: 'invoice', id: ids.invoice, ...(source as object) });
      const answer = await r.text();
      expect([r.status, answer.startsWith(text)], answer.slice(0, 200)).toEqual([400, true]);
    }
  });
});
