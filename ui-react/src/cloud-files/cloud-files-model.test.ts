import { describe, expect, it } from 'vitest';
import type { DriveFileAnswer, Panel } from '@tessera/core/internal';
import { ServerError } from '../api/client.js';
import { cloudFilesModel, maxImageSizeOfPanel, type DriveApi } from './cloud-files-model.js';

const file = (name: string, over: Partial<DriveFileAnswer> = {}): DriveFileAnswer => ({
  id: `id-${name}`,
  name,
  folder: false,
  childCount: null,
  size: 10,
  lastModifiedDateTime: '2026-11-20T10:00:00Z',
  downloadUrl: `https://dl/${name}`,
  webUrl: null,
  createdBy: 'Ann',
  mimeType: 'image/jpeg',
  thumbnail: null,
  ...over,
});

const panel: Panel = { name: 'files', type: 'CloudFiles', rootFolder: 'Accounts', folderField: 'name', fileFilter: 'IMG' };
const target = { entity: 'account', id: 'a1', panel: 'files' };

const fakeApi = () => {
  const calls: Array<[string, unknown]> = [];
  let listing: DriveFileAnswer[] = [file('b.jpg'), file('Docs', { folder: true, childCount: 2, mimeType: null, downloadUrl: null }), file('a.jpg')];
  let fail: ServerError | null = null;
  const api: DriveApi = {
    driveList: async (b) => {
      calls.push(['list', b]);
      return { folder: ['Accounts', 'Contoso'], items: listing, missing: false };
    },
    driveFolder: async (b) => {
      calls.push(['folder', b]);
      if (fail) throw fail;
      return file(b.name, { folder: true });
    },
    driveRename: async (b) => {
      calls.push(['rename', b]);
      return file(b.newName);
    },
    driveDelete: async (b) => {
      calls.push(['delete', b]);
    },
    driveUpload: async (t, blob, name, replace) => {
      calls.push(['upload', { t, size: blob.size, type: blob.type, name, replace }]);
      return file(name);
    },
  };
  return { api, calls, setListing: (l: DriveFileAnswer[]) => (listing = l), failWith: (e: ServerError | null) => (fail = e) };
};

const downscale = async (blob: Blob, fileName: string, max: number) => ({ blob: new Blob([`small ${max}`], { type: 'image/jpeg' }), fileName: fileName.replace(/\.\w+$/, '.jpg'), width: max, height: max / 2, resized: true });

describe('CloudFiles panel model (spec 001 "Cloud file browser")', () => {
  it('lists the record folder with the panel\'s fileFilter as startswith, folders first', async () => {
    const f = fakeApi();
    const m = cloudFilesModel(panel, target, { api: f.api, downscale });
    await m.load();
    expect(m.items.value.map((i) => i.name)).toEqual(['Docs', 'a.jpg', 'b.jpg']);
    expect(f.calls[0]).toEqual(['list', { ...target, path: undefined, startsWith: 'IMG', thumbnails: true }]);
    expect(m.folder.value).toEqual(['Accounts', 'Contoso']);
  });

  it('a new record (no id) has no folder: the empty state, and no call', async () => {
    const f = fakeApi();
    const m = cloudFilesModel(panel, null, { api: f.api, downscale });
    await m.load();
    expect([m.missing.value, m.canChange, f.calls.length]).toEqual([true, false, 0]);
  });

  it('opening a folder lists it below the record folder; the breadcrumb goes back', async () => {
    const f = fakeApi();
    const m = cloudFilesModel(panel, target, { api: f.api, downscale });
    await m.load();
    m.open(m.items.value[0]);
    await Promise.resolve();
    expect((f.calls.at(-1)![1] as { path: string[] }).path).toEqual(['Docs']);
    m.up(0);
    expect((f.calls.at(-1)![1] as { path?: string[] }).path).toBeUndefined();
  });

  it('opening a file previews it among the files (folders are not previewed)', async () => {
    const m = cloudFilesModel(panel, target, { api: fakeApi().api, downscale });
    await m.load();
    m.open(m.items.value[2]);
    expect(m.previewIndex.value).toBe(1);
    expect(m.previewFiles.value.map((p) => p.url)).toEqual(['https://dl/a.jpg', 'https://dl/b.jpg']);
  });

  it('images are downscaled to maxImageSize before upload (default 1200, 0 none); other files go as they are', async () => {
    expect([maxImageSizeOfPanel({}), maxImageSizeOfPanel({ maxImageSize: 0 }), maxImageSizeOfPanel({ maxImageSize: 800 })]).toEqual([1200, 0, 800]);
    const f = fakeApi();
    const m = cloudFilesModel({ ...panel, maxImageSize: 800 }, target, { api: f.api, downscale });
    await m.upload([new File(['x'.repeat(5000)], 'photo.png', { type: 'image/png' }), new File(['pdf'], 'offer.pdf', { type: 'application/pdf' })]);
    const ups = f.calls.filter((c) => c[0] === 'upload').map((c) => c[1] as { name: string; size: number });
    expect(ups.map((u) => [u.name, u.size])).toEqual([
      ['photo.jpg', 'small 800'.length],
      ['offer.pdf', 3],
    ]);
    const none = fakeApi();
    await cloudFilesModel({ ...panel, maxImageSize: 0 }, target, { api: none.api, downscale }).upload([new File(['x'.repeat(5000)], 'photo.png', { type: 'image/png' })]);
    expect((none.calls.find((c) => c[0] === 'upload')![1] as { size: number }).size).toBe(5000);
  });

  it('create folder, rename and delete call the drive and reload; a failure shows Server Error: {text}', async () => {
    const f = fakeApi();
    const m = cloudFilesModel(panel, target, { api: f.api, downscale });
    await m.load();
    expect(await m.createFolder(' Offers ')).toBe(true);
    expect(f.calls.find((c) => c[0] === 'folder')![1]).toMatchObject({ name: 'Offers' });
    expect(await m.rename(m.items.value[1], 'c.jpg')).toBe(true);
    expect(await m.rename(m.items.value[1], m.items.value[1].name)).toBe(false);
    expect(await m.remove(m.items.value[1])).toBe(true);
    f.failWith(new ServerError(403, 'Forbidden', 'ERR_PERMISSION: No update permission on account'));
    expect(await m.createFolder('Nope')).toBe(false);
    expect(m.error.value).toBe('Server Error: ERR_PERMISSION: No update permission on account');
    expect(f.calls.filter((c) => c[0] === 'list').length).toBe(5);
  });

  it('the preview Save replaces the drive file with the turned image', async () => {
    const f = fakeApi();
    const m = cloudFilesModel(panel, target, { api: f.api, downscale });
    await m.load();
    await m.saveTurned(m.previewFiles.value[0], { blob: new Blob(['turned'], { type: 'image/jpeg' }), fileName: 'a.jpg', width: 1, height: 1, resized: true });
    expect(f.calls.find((c) => c[0] === 'upload')![1]).toMatchObject({ name: 'a.jpg', replace: true });
  });

  it('a server without Graph (501) shows the empty state without tools', async () => {
    const f = fakeApi();
    f.api.driveList = async () => Promise.reject(new ServerError(501, 'Not Implemented', 'ERR_NOT_CONFIGURED: the cloud drive and calendar are not configured on this server'));
    const m = cloudFilesModel(panel, target, { api: f.api, downscale });
    await m.load();
    expect([m.notConfigured.value, m.missing.value, m.error.value]).toEqual([true, true, '']);
  });
});
