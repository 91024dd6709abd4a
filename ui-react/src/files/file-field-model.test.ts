import { describe, expect, it } from 'vitest';
import type { BlobUploadAnswer, Entity } from '../core.js';
import { defaultFormOf } from '../core.js';
import { ServerError } from '../api/client.js';
import { recordFormModel } from '../form/record-form-model.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { fileFieldModel, uploadFailureText, type BlobApi } from './file-field-model.js';
import { drawnType, fitWithin, ImageLoadError, maxImageSizeOf, renamed, resizable, turnedSize, type PreparedImage } from './image-resize.js';
import { fileKind } from './file-kind.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const product: Entity = {
  logicalName: 'product',
  displayName: 'Product',
  displayNamePlural: 'Products',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'image', displayName: 'Image', type: 'String', max: 1000, flags: ['Image'] },
    { logicalName: 'datasheet', displayName: 'Datasheet', type: 'String', max: 1000, flags: ['File'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};

/** An upload API that stores nothing but answers a name, or fails as the server does. */
class FakeBlobs implements BlobApi {
  sent: Array<{ entity: string; field: string; fileName: string; size: number }> = [];
  failWith: ServerError | null = null;
  private n = 0;
  async uploadBlob(entity: string, field: string, file: Blob, fileName: string, onProgress?: (loaded: number, total: number) => void): Promise<BlobUploadAnswer> {
    onProgress?.(file.size / 2, file.size);
    if (this.failWith) throw this.failWith;
    this.sent.push({ entity, field, fileName, size: file.size });
    onProgress?.(file.size, file.size);
    return { name: `blob${++this.n}.${fileName.split('.').pop()}`, size: file.size, contentType: file.type, fileName };
  }
}

/** The canvas step as a test double: an image is "drawn" at the size the rules give. */
const fakePrepare = async (file: Blob, fileName: string, max: number): Promise<PreparedImage> => {
  if (file.type === 'image/broken') throw new ImageLoadError();
  const [w, h] = [4000, 3000];
  const fit = fitWithin(w, h, max);
  const resized = fit.width !== w && resizable(file.type);
  const type = resized ? drawnType(file.type) : file.type;
  return { blob: resized ? new Blob([new Uint8Array(10)], { type }) : file, fileName: resized ? renamed(fileName, type) : fileName, width: resized ? fit.width : w, height: resized ? fit.height : h, resized };
};
const urls = { create: () => 'blob:test', revoke: () => {} };
const failureText = (e: unknown) => uploadFailureText(e, (text) => `Server Error: ${text}`);

const setup = async () => {
  const api = new StoreClient([product], fullCaller(ME, ['product']));
  const id = await api.update('create', 'product', { name: 'Drill' });
  const model = recordFormModel({ api, entity: product, id, form: defaultFormOf(product, []), caller: () => api.caller });
  await model.load();
  const blobs = new FakeBlobs();
  const image = fileFieldModel({ api: blobs, entity: 'product', field: 'image', image: true, maxImageSize: 1200, failureText, prepare: fakePrepare, urls });
  const datasheet = fileFieldModel({ api: blobs, entity: 'product', field: 'datasheet', image: false, maxImageSize: 1200, failureText, prepare: fakePrepare, urls });
  model.participate(image.participant);
  model.participate(datasheet.participant);
  const stored = async () => (await api.fetch({ entity: { name: 'product', allattrs: true }, page: 1, pageSize: 1 })).records[0];
  return { api, id, model, blobs, image, datasheet, stored };
};

describe('file and image fields: the blob is uploaded before the record is saved (spec 001 section 4)', () => {
  it('a chosen image is made smaller to the field maximum (aspect kept, JPEG) and pending: the form is dirty, nothing is sent yet', async () => {
    const { model, image, blobs } = await setup();
    expect(await image.choose(new Blob([new Uint8Array(100)], { type: 'image/bmp' }), 'photo.bmp')).toBeNull();
    expect(image.pending.value).toMatchObject({ fileName: 'photo.jpg', contentType: 'image/jpeg', width: 1200, height: 900, resized: true });
    expect(model.dirty.value).toBe(true);
    expect(blobs.sent).toEqual([]);
  });

  it('Save uploads first, then stores the record with the blob NAME in the field; the file is no longer pending', async () => {
    const { model, image, datasheet, blobs, stored } = await setup();
    await image.choose(new Blob([new Uint8Array(100)], { type: 'image/png' }), 'logo.png');
    await datasheet.choose(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'Sheet.pdf');
    const r = await model.save();
    expect(r._tag).toBe('Saved');
    expect(blobs.sent.map((s) => [s.field, s.fileName])).toEqual([
      ['image', 'logo.png'],
      ['datasheet', 'Sheet.pdf'],
    ]);
    expect(await stored()).toMatchObject({ image: 'blob1.png', datasheet: 'blob2.pdf' });
    expect(image.pending.value).toBeNull();
    expect(model.dirty.value).toBe(false);
  });

  it("an upload failure vetoes the save with 'Server Error: {text}' and the status; the record is not saved, the file stays pending", async () => {
    const { api, model, image, blobs, stored } = await setup();
    model.setValue('name', 'Drill 2');
    await image.choose(new Blob([new Uint8Array(100)], { type: 'image/jpeg' }), 'big.jpg');
    blobs.failWith = new ServerError(413, 'Payload Too Large', 'ERR_TOO_LARGE: the file is larger than 25 MB');
    const writes = api.calls.length;
    const r = await model.save();
    expect(r).toEqual({ _tag: 'Vetoed', message: 'Server Error: ERR_TOO_LARGE: the file is larger than 25 MB (413)' });
    expect(api.calls.length).toBe(writes);
    expect(await stored()).toMatchObject({ name: 'Drill' });
    expect((await stored()).image ?? null).toBeNull();
    expect(image.error.value).toBe('Server Error: ERR_TOO_LARGE: the file is larger than 25 MB (413)');
    expect(image.pending.value?.fileName).toBe('big.jpg');
    expect(model.dirty.value).toBe(true);
    // the next save, with the server well again, stores both
    blobs.failWith = null;
    expect((await model.save())._tag).toBe('Saved');
    expect(await stored()).toMatchObject({ name: 'Drill 2', image: 'blob1.jpg' });
  });

  it('a required file field with a file chosen passes the required check, and the upload then fills it (spec 001: the blob first)', async () => {
    const api = new StoreClient([product], fullCaller(ME, ['product']));
    const form = defaultFormOf(product, []);
    const required = { ...form, panels: form.panels.map((p) => ({ ...p, fields: p.fields?.map((f) => (f.name === 'datasheet' ? { ...f, required: true } : f)) })) };
    const id = await api.update('create', 'product', { name: 'Saw' });
    const model = recordFormModel({ api, entity: product, id, form: required as typeof form, caller: () => api.caller });
    await model.load();
    model.setValue('name', 'Saw 2');
    const blobs = new FakeBlobs();
    const datasheet = fileFieldModel({ api: blobs, entity: 'product', field: 'datasheet', image: false, maxImageSize: 0, failureText, prepare: fakePrepare, urls });
    model.participate(datasheet.participant);
    expect((await model.save())._tag).toBe('RequiredFieldsMissing');
    await datasheet.choose(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'manual.pdf');
    const saved = await model.save();
    expect(saved, JSON.stringify(saved)).toMatchObject({ _tag: 'Saved' });
    expect(blobs.sent).toHaveLength(1);
  });

  it('a file uploaded before another participant vetoed is not uploaded again by the next save', async () => {
    const { model, image, blobs } = await setup();
    let veto = true;
    model.participate({ beforeSave: async (): Promise<{ veto: string } | { patch?: undefined }> => (veto ? { veto: 'Quantity must be positive' } : {}) });
    await image.choose(new Blob([new Uint8Array(5)], { type: 'image/png' }), 'a.png');
    expect((await model.save())._tag).toBe('Vetoed');
    veto = false;
    expect((await model.save())._tag).toBe('Saved');
    expect(blobs.sent.length).toBe(1);
  });

  it('an Image field takes images only; one the browser cannot read is Cannot load image; a File field takes anything', async () => {
    const { image, datasheet } = await setup();
    expect(await image.choose(new Blob(['x'], { type: 'application/pdf' }), 'a.pdf')).toEqual({ _tag: 'NotAnImage' });
    expect(await image.choose(new Blob(['x'], { type: 'image/broken' }), 'a.png')).toEqual({ _tag: 'CannotLoadImage' });
    expect(image.pending.value).toBeNull();
    expect(await datasheet.choose(new Blob(['x'], { type: 'image/broken' }), 'scan.png')).toBeNull();
    expect(datasheet.pending.value).toMatchObject({ fileName: 'scan.png', resized: false });
    // a File field never makes an image smaller (maximum 0 for it)
    expect(await datasheet.choose(new Blob(['x'], { type: 'image/jpeg' }), 'scan.jpg')).toBeNull();
    expect(datasheet.pending.value).toMatchObject({ width: 4000, resized: false });
  });

  it('discard drops the pending file; replace (a turned image from the preview) makes it the pending file', async () => {
    const { model, image } = await setup();
    await image.choose(new Blob(['x'], { type: 'image/png' }), 'a.png');
    image.discard();
    expect(image.pending.value).toBeNull();
    expect(model.dirty.value).toBe(false);
    image.replace({ blob: new Blob(['y'], { type: 'image/png' }), fileName: 'a.png', width: 3, height: 4, resized: true });
    expect(image.pending.value).toMatchObject({ fileName: 'a.png', width: 3, height: 4 });
    expect(model.dirty.value).toBe(true);
  });
});

describe('image sizing rules (spec 001 sections 5 and 9: maximum 1200 px by default, from field parameters, 0 means none)', () => {
  it('fits the longer side within the maximum, keeping the aspect; 0 or a smaller image keeps the size', () => {
    expect(fitWithin(4000, 3000, 1200)).toEqual({ width: 1200, height: 900 });
    expect(fitWithin(3000, 4000, 1200)).toEqual({ width: 900, height: 1200 });
    expect(fitWithin(5000, 3, 1200)).toEqual({ width: 1200, height: 1 });
    expect(fitWithin(800, 600, 1200)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(4000, 3000, 0)).toEqual({ width: 4000, height: 3000 });
  });

  it('the maximum comes from the field parameters (maxImageSize), else 1200; 0 means none; junk falls back', () => {
    expect(maxImageSizeOf(undefined)).toBe(1200);
    expect(maxImageSizeOf({ maxImageSize: 640 })).toBe(640);
    expect(maxImageSizeOf({ maxImageSize: '800' })).toBe(800);
    expect(maxImageSizeOf({ maxImageSize: 0 })).toBe(0);
    expect(maxImageSizeOf({ maxImageSize: -5 })).toBe(1200);
    expect(maxImageSizeOf({ maxImageSize: 'big' })).toBe(1200);
  });

  it('PNG stays PNG, the rest is drawn as JPEG; GIFs are not redrawn to resize; names follow the type', () => {
    expect(drawnType('image/png')).toBe('image/png');
    expect(drawnType('image/webp')).toBe('image/jpeg');
    expect(resizable('image/gif')).toBe(false);
    expect(resizable('image/avif')).toBe(true);
    expect(renamed('photo.bmp', 'image/jpeg')).toBe('photo.jpg');
    expect(renamed('photo.JPEG', 'image/jpeg')).toBe('photo.JPEG');
    expect(renamed('scan', 'image/png')).toBe('scan.png');
    expect(turnedSize(4, 3, 1)).toEqual({ width: 3, height: 4 });
    expect(turnedSize(4, 3, -2)).toEqual({ width: 4, height: 3 });
  });

  it('file kinds: the spec image types by extension, pdf, zip; Office files are not zips to browse', () => {
    for (const ext of ['image', 'jpg', 'jpeg', 'png', 'bmp', 'gif', 'webp', 'avif']) expect(fileKind(`a.${ext}`)).toBe('image');
    expect(fileKind('3f9c.pdf')).toBe('pdf');
    expect(fileKind('a.zip')).toBe('zip');
    expect(fileKind('a.docx')).toBe('other');
    expect(fileKind('noext', 'image/png')).toBe('image');
    expect(fileKind('a.png', 'application/zip')).toBe('zip');
    expect(fileKind('a.png', 'application/octet-stream')).toBe('image');
  });
});
