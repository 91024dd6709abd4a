import { describe, expect, it, vi } from 'vitest';
import { INVOICE_TEMPLATE, layoutReport, type FetchRequest } from '@tessera/core/internal';
import { ServerError } from '../api/client.js';
import { failureMessage, printModel } from './print-model.js';
import { NEW_TEMPLATE_ID, STARTER_BODY, templateEditorModel } from './template-editor-model.js';

const INVOICE = '11111111-1111-4111-8111-111111111111';
const T1 = '22222222-2222-4222-8222-222222222222';
const T2 = '33333333-3333-4333-8333-333333333333';
const page = (records: Array<Record<string, unknown>>) => ({ records, count: records.length, page: 1, pageSize: 50, moreRecords: false });

describe('issue 20: the Print dialog model', () => {
  it("offers the entity's templates, picks the first with its own format, sends one document call", async () => {
    const fetch = vi.fn(async (_: FetchRequest) => page([{ id: T1, name: 'Invoice', format: 1 }, { id: T2, name: 'Invoice (Word)', format: 2 }]));
    const document = vi.fn(async () => ({ blob: new Blob(['%PDF-']), fileName: 'Invoice INV-00001.pdf' }));
    const m = printModel({ api: { fetch, document } as never, entity: 'invoice', recordId: INVOICE, language: 'sk' });
    await m.load();
    const asked = fetch.mock.calls[0][0];
    expect(asked.entity.name).toBe('report_template');
    expect(asked.entity.filter?.conditions).toEqual([{ attribute: 'objectname', operator: 'eq', value: 'invoice' }]);
    expect([m.chosen.value, m.format.value]).toEqual([T1, 'pdf']);
    m.choose(T2);
    expect(m.format.value).toBe('docx');
    const file = await m.generate();
    expect(file?.fileName).toBe('Invoice INV-00001.pdf');
    expect(document).toHaveBeenCalledWith({ entity: 'invoice', id: INVOICE, template: T2, format: 'docx', language: 'sk', timeZone: expect.any(String) });
  });
  it('no templates is an empty list (the dialog says so); a failure keeps the server text without its code', async () => {
    const m = printModel({ api: { fetch: async () => page([]), document: async () => { throw new ServerError(400, 'Bad Request', 'ERR_INPUT: Invalid formatted text'); } } as never, entity: 'lead', recordId: INVOICE, language: 'en' });
    await m.load();
    expect(m.templates.value).toEqual([]);
    expect(m.chosen.value).toBeNull();
    expect(await m.generate()).toBeNull();
    expect(failureMessage(new ServerError(404, 'Not Found', 'ERR_NOT_FOUND: executePdfTemplate template not found'))).toBe('executePdfTemplate template not found');
  });
});

describe('issue 20: the report template editor model', () => {
  const layout = layoutReport(INVOICE_TEMPLATE, { invoicenumber: 'INV-1' });
  const api = () => ({
    fetch: vi.fn(async (r: FetchRequest) => (r.entity.name === 'invoice' ? page([{ id: INVOICE, name: 'Pump service' }]) : page([]))),
    update: vi.fn(async () => T1),
    document: vi.fn(async () => ({ blob: new Blob([JSON.stringify(layout._tag === 'Right' ? layout.right : null)]), fileName: 'x' })),
  });
  it('a new template starts valid; the body is checked as typed with the spec texts', () => {
    const m = templateEditorModel({ api: api() as never, id: NEW_TEMPLATE_ID, language: 'sk' });
    expect(m.body.value).toBe(STARTER_BODY);
    expect(m.problem.value).toBeNull();
    m.body.value = JSON.stringify({ content: [{ type: 'text', text: 'Total {{totalamount' }] });
    expect(m.problem.value).toMatch(/^Invalid formatted text/);
    m.body.value = '{';
    expect(m.problem.value).toMatch(/^Invalid template format/);
    m.body.value = JSON.stringify({ content: [{ type: 'text', text: '[each lines]x' }] });
    expect(m.problem.value).toMatch(/^Not enough end statements\./);
  });
  it("the preview fills the body from the entity's latest record as layout; save creates the record", async () => {
    const a = api();
    const m = templateEditorModel({ api: a as never, id: NEW_TEMPLATE_ID, language: 'sk' });
    m.objectname.value = 'invoice';
    m.name.value = 'My invoice';
    await m.loadRecords();
    expect(m.previewId.value).toBe(INVOICE);
    await m.refreshPreview();
    expect(m.preview.value._tag).toBe('Ready');
    expect(a.document.mock.calls[0]).toEqual([{ entity: 'invoice', id: INVOICE, body: STARTER_BODY, format: 'layout', language: 'sk', timeZone: expect.any(String) }, expect.anything()]);
    expect(m.dirty.value).toBe(true);
    expect(await m.save()).toBe(T1);
    expect(a.update).toHaveBeenCalledWith('create', 'report_template', { name: 'My invoice', objectname: 'invoice', format: 1, body: STARTER_BODY });
    expect(m.dirty.value).toBe(false);
  });
  it('an invalid body shows its problem in the preview without asking the server', async () => {
    const a = api();
    const m = templateEditorModel({ api: a as never, id: NEW_TEMPLATE_ID, language: 'sk' });
    m.objectname.value = 'invoice';
    await m.loadRecords();
    m.body.value = '[';
    await m.refreshPreview();
    expect(m.preview.value).toEqual({ _tag: 'Failed', message: expect.stringMatching(/^Invalid template format/) });
    expect(a.document).not.toHaveBeenCalled();
  });
});
