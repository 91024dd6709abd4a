import { describe, expect, it } from 'vitest';
import { isLeft } from 'fp-ts/lib/Either.js';
import { builtInPacks, InMemoryRecordStore, systemCaller, type EntityRecord, type FetchRequest } from '@tessera/core/internal';
import { activityFeedModel, mergeItems, type FeedApi, type FeedItem } from './activity-feed-model.js';
import { ATTACHMENT_MAX_IMAGE_SIZE, fitWithin, renamed } from '../files/image-resize.js';

const entities = builtInPacks().flatMap((p) => p.entities);
const ACCOUNT = '00000000-0000-4000-8000-00000000a001';

/** The feed's API over an in-memory store acting as the system, with an upload that records what it got. */
const storeApi = () => {
  let n = 0;
  let clock = Date.parse('2026-11-25T05:00:00Z');
  const store = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), { now: () => new Date((clock += 1000)) }, { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
  const uploads: Array<{ entity: string; field: string; name: string; size: number }> = [];
  let uploadFails = false;
  const unwrap = <T,>(r: { _tag: 'Left'; left: { message: string } } | { _tag: 'Right'; right: T }): T => {
    if (isLeft(r as never)) throw new Error(`Server Error: ${(r as { left: { message: string } }).left.message}`);
    return (r as { right: T }).right;
  };
  const api: FeedApi = {
    fetch: async (req: FetchRequest) => unwrap(await store.retrieveMultiple(systemCaller(), req) as never),
    update: async (op, name, object) => unwrap((op === 'update' ? await store.update(systemCaller(), name, object) : await store.create(systemCaller(), name, object)) as never),
    executeMultiple: async (items, options) => unwrap((await store.executeMultiple(systemCaller(), items, options)) as never),
    uploadBlob: async (entity, field, file, fileName) => {
      if (uploadFails) throw new Error('Server Error: ERR_TOO_LARGE: the file is larger than allowed');
      uploads.push({ entity, field, name: fileName, size: file.size });
      return { name: `b${uploads.length}.jpg`, size: file.size, contentType: 'image/jpeg', fileName };
    },
  };
  return { api, store, uploads, failUploads: () => (uploadFails = true) };
};

const model = (api: FeedApi, pageSize = 20) => {
  let id = 0;
  return activityFeedModel({
    api,
    objectName: 'account',
    objectId: ACCOUNT,
    now: () => new Date('2026-11-25T21:00:00Z'),
    timeZone: 'Europe/Bratislava',
    downscale: async (file, name) => ({ file, name: renamed(name, 'image/jpeg') }),
    newId: () => `10000000-0000-4000-8000-${String(++id).padStart(12, '0')}`,
    pageSize,
  });
};

describe('activity feed (issue 18, spec 001 "Activity feed")', () => {
  it('Send is disabled while the body is empty or blank (spec 001 section 4)', async () => {
    const m = model(storeApi().api);
    expect(m.canSend.value).toBe(false);
    m.setDraft('  \n ');
    expect(m.canSend.value).toBe(false);
    m.setDraft('Hello');
    expect(m.canSend.value).toBe(true);
  });

  it('a sent comment regards the record, shows newest first, and clears the composer', async () => {
    const { api } = storeApi();
    const m = model(api);
    await m.load();
    expect(m.status.value).toBe('ready');
    m.setDraft('first\nsecond line');
    expect(await m.send()).toBe(true);
    m.setDraft('later');
    await m.send();
    expect(m.items.value.map((x) => x.body)).toEqual(['later', 'first\nsecond line']);
    expect(m.draft.value).toBe('');
    const again = model(api);
    await again.load();
    expect(again.items.value.map((x) => x.body)).toEqual(['later', 'first\nsecond line']);
  });

  it('an attachment is uploaded first, then its document and the comment are written in one atomic batch', async () => {
    const { api, store, uploads } = storeApi();
    const m = model(api);
    await m.load();
    m.attach(new Blob(['xyz']), 'photo.png');
    expect(m.draft.value).toBe('photo.png');
    m.setDraft('See the photo');
    await m.send();
    expect(uploads).toEqual([{ entity: 'document', field: 'file', name: 'photo.jpg', size: 3 }]);
    const [item] = m.items.value;
    expect(item.attachment).toMatchObject({ name: 'photo.jpg', file: 'b1.jpg', contentType: 'image/jpeg', size: 3 });
    const doc = await store.retrieveById(systemCaller(), 'document', item.attachment!.documentId);
    expect(!isLeft(doc) && doc.right).toMatchObject({ objectname: 'account', objectid: ACCOUNT, file: 'b1.jpg' });
    expect(m.pending.value).toBe(null);
  });

  it('a failed upload writes nothing and keeps the comment and its file for another try', async () => {
    const s = storeApi();
    s.failUploads();
    const m = model(s.api);
    await m.load();
    m.setDraft('with a file');
    m.attach(new Blob(['x']), 'a.png');
    expect(await m.send()).toBe(false);
    expect(m.sendError.value).toBe('Server Error: ERR_TOO_LARGE: the file is larger than allowed');
    expect(m.draft.value).toBe('with a file');
    expect(m.pending.value?.name).toBe('a.png');
    const r = await s.store.retrieveMultiple(systemCaller(), { entity: { name: 'activity' } });
    expect(!isLeft(r) && r.right.records).toEqual([]);
  });

  it('pages: newest first, Show older loads the next page, an item arriving live is shown once', async () => {
    const { api } = storeApi();
    const writer = model(api);
    for (const b of ['1', '2', '3', '4', '5']) {
      writer.setDraft(b);
      await writer.send();
    }
    const m = model(api, 2);
    await m.load();
    expect(m.items.value.map((x) => x.body)).toEqual(['5', '4']);
    expect(m.more.value).toBe(true);
    writer.setDraft('6');
    await writer.send();
    await m.changed(writer.items.value[0].id, 'create');
    expect(m.items.value.map((x) => x.body)).toEqual(['6', '5', '4']);
    await m.loadMore();
    await m.loadMore();
    await m.loadMore();
    expect(m.items.value.map((x) => x.body)).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(m.more.value).toBe(false);
  });

  it("a live change of another record's activity does not enter this feed; a deletion leaves it", async () => {
    const { api } = storeApi();
    const other = activityFeedModel({ api, objectName: 'account', objectId: '00000000-0000-4000-8000-00000000a002', now: () => new Date(), timeZone: 'UTC', downscale: async (file, name) => ({ file, name }), newId: () => '20000000-0000-4000-8000-000000000001' });
    other.setDraft('elsewhere');
    await other.send();
    const m = model(api);
    await m.load();
    await m.changed('20000000-0000-4000-8000-000000000001', 'create');
    expect(m.items.value).toEqual([]);
    m.setDraft('here');
    await m.send();
    await m.changed(m.items.value[0].id, 'delete');
    expect(m.items.value).toEqual([]);
  });

  it('the reminder bell proposes the next day at 06:00 (local), sets and clears the reminder', async () => {
    const { api, store } = storeApi();
    const m = model(api);
    m.setDraft('call back');
    await m.send();
    const item = m.items.value[0];
    // 21:00 UTC is 22:00 in Bratislava on the 25th: the 26th at 06:00 local.
    expect(m.reminderProposal(item).toISOString()).toBe('2026-11-26T05:00:00.000Z');
    expect(await m.setReminder(item.id, '2026-11-27T07:30:00.000Z')).toBe(true);
    expect(m.items.value[0].reminder).toBe('2026-11-27T07:30:00.000Z');
    expect(m.reminderProposal(m.items.value[0]).toISOString()).toBe('2026-11-27T07:30:00.000Z');
    const stored = await store.retrieveById(systemCaller(), 'activity', item.id);
    expect(!isLeft(stored) && (stored.right as EntityRecord).scheduledstart).toBe('2026-11-27T07:30:00.000Z');
    await m.setReminder(item.id, null);
    expect(m.items.value[0].reminder).toBe(null);
  });

  it('Show More / Show Less toggles one item', () => {
    const m = model(storeApi().api);
    m.toggleExpanded('a');
    expect([...m.expanded.value]).toEqual(['a']);
    m.toggleExpanded('a');
    expect([...m.expanded.value]).toEqual([]);
  });
});

describe('attachments: images are downscaled to 1024 px JPEG before upload (spec 001 sections 5 and 9)', () => {
  it('the larger side becomes 1024, the ratio is kept; an image that fits is sent as it is', () => {
    expect(fitWithin(4032, 3024, ATTACHMENT_MAX_IMAGE_SIZE)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin(800, 3000, ATTACHMENT_MAX_IMAGE_SIZE)).toEqual({ width: 273, height: 1024 });
    expect(fitWithin(1024, 1024, ATTACHMENT_MAX_IMAGE_SIZE)).toEqual({ width: 1024, height: 1024 });
    expect(fitWithin(640, 480, ATTACHMENT_MAX_IMAGE_SIZE)).toEqual({ width: 640, height: 480 });
  });
  it('a downscaled file is named .jpg', () => {
    expect(renamed('IMG_0001.PNG', 'image/jpeg')).toBe('IMG_0001.jpg');
    expect(renamed('scan', 'image/jpeg')).toBe('scan.jpg');
    expect(renamed('a.b.webp', 'image/jpeg')).toBe('a.b.jpg');
  });
  it('items merge newest first by createdon then id, each id once', () => {
    const it = (id: string, createdon: string): FeedItem => ({ id, type: 1, body: id, owner: null, createdon, reminder: null, attachment: null });
    expect(mergeItems([it('a', '2026-01-01'), it('b', '2026-01-03')], [it('A', '2026-01-02'), it('c', '2026-01-03')]).map((x) => x.id)).toEqual(['c', 'b', 'A']);
  });
});
