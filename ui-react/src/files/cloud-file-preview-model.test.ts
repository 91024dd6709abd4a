import { describe, expect, it } from 'vitest';
import { cloudFilePreviewModel, type PreviewFile } from './cloud-file-preview-model.js';
import type { PreparedImage } from './image-resize.js';

/** A zip of one file, a.txt (5 bytes, 2024-03-15 10:30:42), written by Python's zipfile. */
const ZIP = 'UEsDBBQAAAAAANVTb1iGphA2BQAAAAUAAAAFAAAAYS50eHRoZWxsb1BLAQIUAxQAAAAAANVTb1iGphA2BQAAAAUAAAAFAAAAAAAAAAAAAACAAQAAAABhLnR4dFBLBQYAAAAAAQABADMAAAAoAAAAAAA=';
const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

const files: PreviewFile[] = [
  { key: 'image', name: 'photo.jpg', url: 'u:photo' },
  { key: 'archive', name: 'bundle.zip', url: 'u:zip' },
  { key: 'sheet', name: 'sheet.pdf', url: 'u:pdf' },
  { key: 'doc', name: 'offer.docx', url: 'u:doc' },
];

const settle = () => new Promise((r) => setTimeout(r, 0));

const setup = (start = 0, withSave = true) => {
  const loaded: string[] = [];
  const saved: Array<{ key: string; turns: number }> = [];
  const model = cloudFilePreviewModel(files, start, {
    load: async (url) => {
      loaded.push(url);
      if (url === 'u:zip') return new Blob([bytes(ZIP)], { type: 'application/zip' });
      if (url === 'u:broken') throw new Error('Server Error: gone');
      return new Blob(['x'], { type: url === 'u:pdf' ? 'application/pdf' : 'image/jpeg' });
    },
    rotate: async (blob, fileName, quarterTurns): Promise<PreparedImage> => ({ blob, fileName, width: quarterTurns, height: 0, resized: true }),
    onSave: withSave
      ? async (f, image) => {
          saved.push({ key: f.key, turns: image.width });
        }
      : undefined,
  });
  return { model, loaded, saved };
};

describe('CloudFilePreview (spec 001 section 2: previous and next, rotate by 90 degrees either way, save; section 8: No more files)', () => {
  it("previous and next move through the files; at either end it says 'No more files' and stays", async () => {
    const { model } = setup();
    expect(model.previous()).toBe(false);
    expect(model.notice.value).toBe('noMoreFiles');
    expect(model.next()).toBe(true);
    expect(model.notice.value).toBe('');
    expect(model.current.value?.key).toBe('archive');
    model.next();
    model.next();
    expect(model.next()).toBe(false);
    expect(model.current.value?.key).toBe('doc');
    expect(model.notice.value).toBe('noMoreFiles');
  });

  it('rotates by 90 degrees either way (images only), and Save hands the turned image to the owner', async () => {
    const { model, saved } = setup();
    expect(model.canSave.value).toBe(false);
    model.rotate(-1);
    expect(model.turns.value).toBe(3);
    model.rotate(1);
    model.rotate(1);
    expect(model.turns.value).toBe(1);
    expect(model.canSave.value).toBe(true);
    expect(await model.save()).toBe('Saved');
    expect(saved).toEqual([{ key: 'image', turns: 1 }]);
    expect(model.turns.value).toBe(0);
    expect(model.notice.value).toBe('saved');
    // a zip does not turn
    model.next();
    model.rotate(1);
    expect(model.turns.value).toBe(0);
  });

  it('without an owner that saves there is no Save; moving on drops an unsaved turn', async () => {
    const { model } = setup(0, false);
    model.rotate(1);
    expect(model.canSaveAtAll).toBe(false);
    expect(await model.save()).toBe('Nothing');
    model.next();
    model.previous();
    expect(model.turns.value).toBe(0);
  });

  it('a zip shows its entries (name, modified date, size); a pdf and others are shown from their address (nothing loaded)', async () => {
    const { model, loaded } = setup(1);
    await settle();
    expect(model.content.value).toEqual({ _tag: 'Zip', listing: { _tag: 'Listed', total: 1, entries: [{ name: 'a.txt', modified: '2024-03-15T10:30:42', size: 5 }] } });
    model.next();
    await settle();
    expect(model.content.value).toEqual({ _tag: 'Pdf' });
    model.next();
    expect(model.content.value).toEqual({ _tag: 'Other' });
    expect(loaded).toEqual(['u:zip']);
  });

  it('a file the browser holds (not uploaded yet) is read from its bytes, not fetched', async () => {
    const loaded: string[] = [];
    const model = cloudFilePreviewModel([{ key: 'z', name: 'x.zip', url: 'blob:local', blob: new Blob([bytes(ZIP)]) }], 0, {
      load: async (url) => {
        loaded.push(url);
        throw new Error('refused by the content security policy');
      },
      rotate: async () => {
        throw new Error('unused');
      },
    });
    await settle();
    expect(model.content.value._tag).toBe('Zip');
    expect(loaded).toEqual([]);
  });

  it('a failed load says why; a file that is not a zip after all says so', async () => {
    const model = cloudFilePreviewModel([{ key: 'z', name: 'x.zip', url: 'u:broken' }, { key: 'y', name: 'y.zip', url: 'u:pdf' }], 0, {
      load: async (url) => {
        if (url === 'u:broken') throw new Error('Server Error: gone');
        return new Blob(['%PDF-1.7 not a zip']);
      },
      rotate: async () => {
        throw new Error('unused');
      },
    });
    await settle();
    expect(model.content.value).toEqual({ _tag: 'Failed', message: 'Server Error: gone' });
    model.next();
    await settle();
    expect(model.content.value).toEqual({ _tag: 'NotZip' });
  });

  it("the owner's new files (a saved image's new address) keep the same file shown", async () => {
    const { model } = setup(0);
    model.setFiles([{ key: 'first', name: 'a.png', url: 'u:a' }, { ...files[0], url: 'u:photo2' }]);
    expect(model.current.value).toMatchObject({ key: 'image', url: 'u:photo2' });
    expect(model.index.value).toBe(1);
  });
});
