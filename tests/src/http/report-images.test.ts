import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_INVOICE_TEMPLATE, DEMO_LOGO_NAME, DEMO_LOGO_PNG, type ReportBody } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

const PW = 'shared-password-1';

/** A body with one image block naming a report image. */
const naming = (name: string): string => JSON.stringify({ content: [{ type: 'image', image: { name } }, { type: 'text', text: '{{name}}' }] } satisfies ReportBody);

/**
 * Spec 002 section 3 "Report image: body.": a template names a report_image record, read as the
 * caller; an image that cannot be read is 400 "Cannot load image" (spec 002 section 8), never 500.
 */
describe('report images in POST /api/document (spec 002 sections 3 and 8)', () => {
  let h: Harness;
  let admin: Api;
  let other: Api;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg('img-a', { email: 'admin@img-a.test', password: PW }, ['demo']);
    await h.createOrg('img-b', { email: 'admin@img-b.test', password: PW }, ['demo']);
    admin = new Api(h.url);
    await admin.login('img-a', 'admin@img-a.test', PW);
    other = new Api(h.url);
    await other.login('img-b', 'admin@img-b.test', PW);
    ids.account = await admin.create('account', { name: 'Čačina s.r.o.' });
    ids.invoice = await admin.create('invoice', { name: 'Pump service', customerid: { id: ids.account, name: 'account' }, invoicedate: '2026-11-05' });
    await admin.create('report_image', { name: DEMO_LOGO_NAME, body: DEMO_LOGO_PNG });
    await admin.create('report_image', { name: 'Broken', body: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' });
    ids.template = await admin.create('report_template', { name: 'Invoice', objectname: 'invoice', format: 1, body: JSON.stringify(DEMO_INVOICE_TEMPLATE) });
    // Another organization's image of a name the first one lacks.
    await other.create('report_image', { name: 'Stamp', body: DEMO_LOGO_PNG });
  }, 120_000);
  afterAll(async () => h?.close());

  it('a stored template naming a report image draws it: the PDF holds an image, the Word file a PNG part', async () => {
    const pdf = await admin.post('document', { entity: 'invoice', id: ids.invoice, template: ids.template });
    expect(pdf.status, await pdf.clone().text()).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
    const docx = await admin.post('document', { entity: 'invoice', id: ids.invoice, template: ids.template, format: 'docx' });
    expect(docx.status).toBe(200);
    expect(Buffer.from(await docx.arrayBuffer()).toString('latin1')).toMatch(/media\/[^"]*\.png/);
  });

  it("the editor's layout carries the image's data URL", async () => {
    const r = await admin.post('document', { entity: 'invoice', id: ids.invoice, body: naming(DEMO_LOGO_NAME), format: 'layout' });
    expect(r.status).toBe(200);
    const model = (await r.json()) as { blocks: Array<{ kind: string; data?: string }> };
    expect(model.blocks[0]).toMatchObject({ kind: 'image', data: DEMO_LOGO_PNG });
  });

  it("a missing image, one that is not a PNG/JPEG data URL, or another organization's image is 400 'Cannot load image'", async () => {
    for (const name of ['Nope', 'Broken', 'Stamp']) {
      const r = await admin.post('document', { entity: 'invoice', id: ids.invoice, body: naming(name) });
      const answer = await r.text();
      expect([r.status, answer.startsWith('ERR_INPUT: Cannot load image')], `${name}: ${answer}`).toEqual([400, true]);
    }
    // The image exists in the other organization, where the same body draws.
    const theirs = await other.create('account', { name: 'Theirs' });
    const ok = await other.post('document', { entity: 'account', id: theirs, body: naming('Stamp'), format: 'layout' });
    expect(ok.status).toBe(200);
  });
});
