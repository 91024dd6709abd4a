import { computed, signal, type ReadonlySignal } from '@preact/signals-react';
import {
  ACTIVITY_COMMENT,
  ACTIVITY_ENTITY,
  defaultReminder,
  DOCUMENT_ENTITY,
  FEED_PAGE_SIZE,
  feedItemRequest,
  feedRequest,
  type BlobUploadAnswer,
  type EntityRecord,
  type FetchRequest,
  type FetchResult,
  type FieldValue,
} from '../core.js';
import type { ExecuteItem, ExecuteResult } from '../api/client.js';

/**
 * The activity feed of one record (issue 18, spec 001 "Activity feed"): its comments newest first,
 * a page at a time; the composer (a comment needs a non-empty body; one attachment, added by the
 * button, paste or drop, images downscaled before upload); the per-item reminder bell; items that
 * arrive through the realtime stream. The component renders it; the browser parts (canvas, file
 * input, the stream's window events) are passed in, so this runs in vitest without a DOM.
 */

/** The calls the feed makes (the ApiClient has them). */
export type FeedApi = {
  fetch(request: FetchRequest): Promise<FetchResult>;
  update(operation: 'create' | 'update' | 'delete', name: string, object: EntityRecord): Promise<string>;
  executeMultiple(items: ExecuteItem[], options?: { atomic?: boolean }): Promise<ExecuteResult[]>;
  uploadBlob(entity: string, field: string, file: Blob, fileName: string, onProgress?: (loaded: number, total: number) => void): Promise<BlobUploadAnswer>;
};

/** An attachment of an item: the document record and its stored blob. */
export type FeedAttachment = { documentId: string; name: string; file: string; contentType: string; size: number | null };

export type FeedItem = {
  id: string;
  type: number;
  body: string;
  owner: FieldValue;
  createdon: string;
  reminder: string | null;
  attachment: FeedAttachment | null;
};

/** A file chosen for the next comment. */
export type PendingFile = { file: Blob; name: string };

/** Draws an image file smaller (a JPEG), or answers it unchanged; the browser's canvas does it (activity/downscale-image.ts). */
export type Downscale = (file: Blob, name: string) => Promise<PendingFile>;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A row of the feed query (feedRequest, the document joined as `doc.`) as an item. */
export const feedItemOf = (r: EntityRecord): FeedItem => {
  const doc = r.document;
  const docId = doc && typeof doc === 'object' && typeof doc.id === 'string' ? doc.id : null;
  const file = text(r['doc.file']);
  return {
    id: String(r.id),
    type: typeof r.type === 'number' ? r.type : ACTIVITY_COMMENT,
    body: text(r.body),
    owner: (r.ownerid ?? null) as FieldValue,
    createdon: text(r.createdon),
    reminder: typeof r.scheduledstart === 'string' && r.scheduledstart !== '' ? r.scheduledstart : null,
    attachment:
      docId && file
        ? { documentId: docId, name: text(r['doc.name']) || file, file, contentType: text(r['doc.contenttype']), size: typeof r['doc.size'] === 'number' ? r['doc.size'] : null }
        : null,
  };
};

/** Newest first (createdon, then id, both descending: the feed query's order), each id once. */
export const mergeItems = (a: readonly FeedItem[], b: readonly FeedItem[]): FeedItem[] => {
  const byId = new Map<string, FeedItem>();
  for (const x of [...a, ...b]) byId.set(x.id.toLowerCase(), x);
  return [...byId.values()].sort((x, y) => (x.createdon === y.createdon ? (x.id < y.id ? 1 : -1) : x.createdon < y.createdon ? 1 : -1));
};

export type FeedStatus = 'loading' | 'ready' | 'error';

export type ActivityFeedModel = {
  items: ReadonlySignal<readonly FeedItem[]>;
  status: ReadonlySignal<FeedStatus>;
  error: ReadonlySignal<string>;
  more: ReadonlySignal<boolean>;
  loadingMore: ReadonlySignal<boolean>;
  draft: ReadonlySignal<string>;
  pending: ReadonlySignal<PendingFile | null>;
  sending: ReadonlySignal<boolean>;
  /** Upload progress of the attachment being sent, 0 to 1; null when none. */
  progress: ReadonlySignal<number | null>;
  /** The last failure of a send or a reminder ('Server Error: ...'). */
  sendError: ReadonlySignal<string>;
  /** Spec 001 section 4: Send needs a non-empty body. */
  canSend: ReadonlySignal<boolean>;
  /** Items whose long body is shown whole (Show More). */
  expanded: ReadonlySignal<ReadonlySet<string>>;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  setDraft(text: string): void;
  /** Attaches a file for the next comment (replaces one attached before); an empty draft takes the file's name. */
  attach(file: Blob, name: string): void;
  removeAttachment(): void;
  send(): Promise<boolean>;
  toggleExpanded(id: string): void;
  /** The bell's proposal for an item: its reminder, else the next day at 06:00. */
  reminderProposal(item: FeedItem): Date;
  /** Sets (an ISO instant) or clears (null) an item's reminder. */
  setReminder(id: string, at: string | null): Promise<boolean>;
  /** The realtime stream announced a change of an activity. */
  changed(id: string, operation: string): Promise<void>;
};

export type FeedDeps = {
  api: FeedApi;
  objectName: string;
  objectId: string;
  now: () => Date;
  timeZone: string;
  downscale: Downscale;
  newId: () => string;
  pageSize?: number;
};

export const activityFeedModel = (deps: FeedDeps): ActivityFeedModel => {
  const { api, objectName, objectId } = deps;
  const pageSize = deps.pageSize ?? FEED_PAGE_SIZE;
  const items = signal<readonly FeedItem[]>([]);
  const status = signal<FeedStatus>('loading');
  const error = signal('');
  const more = signal(false);
  const loadingMore = signal(false);
  const draft = signal('');
  const pending = signal<PendingFile | null>(null);
  const sending = signal(false);
  const progress = signal<number | null>(null);
  const sendError = signal('');
  const expanded = signal<ReadonlySet<string>>(new Set());
  let pages = 0;

  const readPage = async (page: number): Promise<FetchResult> => api.fetch(feedRequest(objectName, objectId, page, pageSize));

  const load = async (): Promise<void> => {
    status.value = 'loading';
    try {
      const r = await readPage(1);
      pages = 1;
      items.value = mergeItems([], (r.records as EntityRecord[]).map(feedItemOf));
      more.value = r.moreRecords;
      error.value = '';
      status.value = 'ready';
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      status.value = 'error';
    }
  };

  const loadMore = async (): Promise<void> => {
    if (loadingMore.value || !more.value) return;
    loadingMore.value = true;
    try {
      // Items that arrived live push older ones down a page; merging by id shows each once.
      const r = await readPage(pages + 1);
      pages++;
      items.value = mergeItems(items.value, (r.records as EntityRecord[]).map(feedItemOf));
      more.value = r.moreRecords;
    } catch (e) {
      sendError.value = e instanceof Error ? e.message : String(e);
    } finally {
      loadingMore.value = false;
    }
  };

  const canSend = computed(() => draft.value.trim() !== '' && !sending.value);

  const send = async (): Promise<boolean> => {
    if (!canSend.value) return false;
    sending.value = true;
    sendError.value = '';
    try {
      const body = draft.value;
      const writes: ExecuteItem[] = [];
      const activityId = deps.newId();
      const activity: EntityRecord = { id: activityId, type: ACTIVITY_COMMENT, body, objectname: objectName, objectid: objectId };
      const file = pending.value;
      if (file) {
        // The blob first: the records are written only once it is stored (no dangling reference).
        const ready = await deps.downscale(file.file, file.name);
        progress.value = 0;
        const stored = await api.uploadBlob(DOCUMENT_ENTITY, 'file', ready.file, ready.name, (loaded, total) => {
          progress.value = total > 0 ? loaded / total : null;
        });
        const documentId = deps.newId();
        writes.push({
          operation: 'create',
          name: DOCUMENT_ENTITY,
          object: { id: documentId, name: stored.fileName, file: stored.name, contenttype: stored.contentType, size: stored.size, objectname: objectName, objectid: objectId },
        });
        activity.document = { id: documentId, name: DOCUMENT_ENTITY };
      }
      writes.push({ operation: 'create', name: ACTIVITY_ENTITY, object: activity });
      const results = await api.executeMultiple(writes, { atomic: true });
      const failed = results.find((r) => r.error);
      if (failed) throw new Error(`Server Error: ${failed.error}`);
      draft.value = '';
      pending.value = null;
      await changed(activityId, 'create');
      return true;
    } catch (e) {
      sendError.value = e instanceof Error ? e.message : String(e);
      return false;
    } finally {
      sending.value = false;
      progress.value = null;
    }
  };

  const changed = async (id: string, operation: string): Promise<void> => {
    if (operation === 'delete') {
      items.value = items.value.filter((x) => x.id.toLowerCase() !== id.toLowerCase());
      return;
    }
    try {
      const r = await api.fetch(feedItemRequest(objectName, objectId, id));
      const found = (r.records as EntityRecord[]).map(feedItemOf);
      // Another record's activity (or one this user may not read) finds nothing here.
      if (found.length > 0) items.value = mergeItems(items.value, found);
    } catch {
      // The stream is a convenience: a reload shows the item.
    }
  };

  const setReminder = async (id: string, at: string | null): Promise<boolean> => {
    sendError.value = '';
    try {
      await api.update('update', ACTIVITY_ENTITY, { id, scheduledstart: at });
      items.value = items.value.map((x) => (x.id === id ? { ...x, reminder: at } : x));
      return true;
    } catch (e) {
      sendError.value = e instanceof Error ? e.message : String(e);
      return false;
    }
  };

  return {
    items,
    status,
    error,
    more,
    loadingMore,
    draft,
    pending,
    sending,
    progress,
    sendError,
    canSend,
    expanded,
    load,
    loadMore,
    setDraft: (t) => {
      draft.value = t;
    },
    attach: (file, name) => {
      pending.value = { file, name };
      if (draft.value.trim() === '') draft.value = name;
    },
    removeAttachment: () => {
      pending.value = null;
    },
    send,
    toggleExpanded: (id) => {
      const next = new Set(expanded.value);
      if (!next.delete(id)) next.add(id);
      expanded.value = next;
    },
    reminderProposal: (item) => (item.reminder ? new Date(item.reminder) : defaultReminder(deps.now(), deps.timeZone)),
    setReminder,
    changed,
  };
};
