import { isLeft, isRight, left, right, type Either } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import type { FetchRequest } from '../query/query.js';
import { DEMO_INVOICE_TEMPLATE, DEMO_LOGO_NAME, DEMO_LOGO_PNG } from './demo-templates.js';
import { prepareDocument } from './generate-document.js';
import { checkImageDataUrl, loadReportImages, REPORT_IMAGE_ENTITY, reportImageNames } from './report-images.js';
import { layoutReport, type ReportBody } from './report-template.js';
import { DEFAULT_TEXT_FORMAT } from './text-template.js';

const caller = { userId: 'u1' } as unknown as Caller;
const entity = (logicalName: string): Entity => ({ logicalName, displayName: logicalName, properties: [] }) as unknown as Entity;
const ENTITIES = [entity(REPORT_IMAGE_ENTITY), entity('invoice'), entity('invoicedetail'), entity('report_template')];

/** A store holding report images; counts its queries (the images of a body are one query). */
const storeWith = (images: Array<{ name: string; body: string }>, answer?: DomainError) => {
  const queries: FetchRequest[] = [];
  const store: Pick<RecordStore, 'retrieveById' | 'retrieveMultiple'> = {
    retrieveMultiple: async (_c, request) => {
      queries.push(request);
      if (request.entity.name !== REPORT_IMAGE_ENTITY) return right({ records: [], count: null } as never);
      if (answer) return left(answer);
      const names = request.entity.filter?.conditions?.[0]?.value as string[];
      return right({ records: images.filter((i) => names.includes(i.name)), count: null } as never);
    },
    retrieveById: async (_c, name, id) => right({ id, name: name === 'invoice' ? 'INV-1' : 'x' }),
  };
  return { store, queries };
};

/** A PNG's first bytes with a chosen size (enough for the header check). */
const pngOf = (width: number, height: number): string => {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return `data:image/png;base64,${btoa(String.fromCharCode(...b))}`;
};
/** A JPEG start with an APP0 segment, then a start-of-frame with the size. */
const jpegOf = (width: number, height: number): string => {
  const bytes = [0xff, 0xd8, 0xff, 0xe0, 0, 16, ...Array(14).fill(0), 0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, ...Array(9).fill(0)];
  return `data:image/jpeg;base64,${btoa(String.fromCharCode(...bytes))}`;
};

const message = <A>(x: Either<{ message: string }, A>): string => (isLeft(x) ? x.left.message : 'no error');

describe('spec 002 section 3 "Report image: body.": images stored as report_image records', () => {
  it('a body names report images by { name }: each once, in block order; inline images are not names', () => {
    const body: ReportBody = {
      images: { inline: pngOf(1, 1) },
      content: [
        { type: 'image', image: { name: 'Logo' } },
        { type: 'image', image: 'inline' },
        { type: 'image', image: { name: 'Stamp' } },
        { type: 'image', image: { name: 'Logo' } },
      ],
    };
    expect(reportImageNames(body)).toEqual(['Logo', 'Stamp']);
  });

  it('a report image body is a PNG or JPEG data URL of at most 2000 px (spec 002 section 9)', () => {
    expect(checkImageDataUrl(DEMO_LOGO_PNG)).toEqual(right({ type: 'png', width: 64, height: 64 }));
    expect(checkImageDataUrl(pngOf(2000, 10))).toEqual(right({ type: 'png', width: 2000, height: 10 }));
    expect(checkImageDataUrl(jpegOf(300, 200))).toEqual(right({ type: 'jpeg', width: 300, height: 200 }));
    expect(isLeft(checkImageDataUrl(pngOf(2001, 10)))).toBe(true);
    expect(isLeft(checkImageDataUrl(jpegOf(10, 2001)))).toBe(true);
    expect(isLeft(checkImageDataUrl(pngOf(1, 1).replace('image/png', 'image/gif')))).toBe(true);
    expect(isLeft(checkImageDataUrl(pngOf(1, 1).replace('image/png', 'image/jpeg')))).toBe(true);
    expect(isLeft(checkImageDataUrl('data:image/png;base64,not base64!'))).toBe(true);
    expect(isLeft(checkImageDataUrl(DEMO_LOGO_PNG.slice('data:image/png;base64,'.length)))).toBe(true);
    expect(isLeft(checkImageDataUrl(`data:image/png;base64,${'A'.repeat(3_000_000)}`))).toBe(true);
  });

  it('the named images are read as the caller in one query, name to data URL', async () => {
    const { store, queries } = storeWith([{ name: 'Logo', body: DEMO_LOGO_PNG }, { name: 'Stamp', body: jpegOf(20, 20) }, { name: 'Other', body: pngOf(1, 1) }]);
    const images = await loadReportImages({ store, entities: ENTITIES }, caller, ['Logo', 'Stamp']);
    expect(images).toEqual(right({ Logo: DEMO_LOGO_PNG, Stamp: jpegOf(20, 20) }));
    expect(queries).toHaveLength(1);
    expect(queries[0].entity.filter?.conditions).toEqual([{ attribute: 'name', operator: 'in', value: ['Logo', 'Stamp'] }]);
  });

  it("spec 002 section 8: a missing, unreadable or malformed report image is 'Cannot load image'", async () => {
    const load = (images: Array<{ name: string; body: string }>, answer?: DomainError, entities = ENTITIES) => loadReportImages({ store: storeWith(images, answer).store, entities }, caller, ['Logo']);
    expect(message(await load([]))).toBe('Cannot load image');
    expect(message(await load([{ name: 'Logo', body: 'data:image/gif;base64,R0lGOD==' }]))).toBe('Cannot load image');
    expect(message(await load([{ name: 'Logo', body: pngOf(4000, 4000) }]))).toBe('Cannot load image');
    expect(message(await load([{ name: 'Logo', body: DEMO_LOGO_PNG }], { _tag: 'PermissionDenied', code: 'ERR_PERMISSION', message: 'no' }))).toBe('Cannot load image');
    expect(message(await load([{ name: 'Logo', body: DEMO_LOGO_PNG }], undefined, [entity('invoice')]))).toBe('Cannot load image');
    expect(message(layoutReport({ content: [{ type: 'image', image: { name: 'Logo' } }] }, {}))).toBe('Cannot load image');
  });

  it("prepareDocument resolves the demo invoice's logo into the layout, and a missing one is ERR_INPUT 'Cannot load image'", async () => {
    const order = { entity: 'invoice', id: 'i1', source: { body: JSON.stringify(DEMO_INVOICE_TEMPLATE) } };
    const ok = await prepareDocument({ store: storeWith([{ name: DEMO_LOGO_NAME, body: DEMO_LOGO_PNG }]).store, entities: ENTITIES }, caller, order, DEFAULT_TEXT_FORMAT);
    expect(isRight(ok) && ok.right.model.blocks[0]).toEqual({ kind: 'image', data: DEMO_LOGO_PNG, width: 48, align: 'right' });
    const missing = await prepareDocument({ store: storeWith([]).store, entities: ENTITIES }, caller, order, DEFAULT_TEXT_FORMAT);
    expect(isLeft(missing) && [missing.left.code, missing.left.message]).toEqual(['ERR_INPUT', "Cannot load image: no report image named 'Logo'"]);
  });
});
