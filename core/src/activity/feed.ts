import type { EntityRecord } from '../metadata/entity.js';
import { REGARDING_ID_FIELD, REGARDING_NAME_FIELD } from '../permissions/regarding.js';
import type { Condition, FetchRequest } from '../query/query.js';
import { ACTIVITY_OPEN } from './reminder.js';

/** The entity of the feed's items and of their attachments (core/src/packs/system.json). */
export const ACTIVITY_ENTITY = 'activity';
export const DOCUMENT_ENTITY = 'document';
/** activity.type: a comment (the composer writes these). */
export const ACTIVITY_COMMENT = 1;

/** Items per page of the feed (newest first; "Show older" loads the next page). */
export const FEED_PAGE_SIZE = 20;

/** What a feed item shows: the activity, its attachment (the document lookup joined as `doc.`). */
export const FEED_ATTRIBUTES = ['id', 'type', 'body', 'name', 'ownerid', 'createdon', 'scheduledstart', 'status', 'document'] as const;

/**
 * The feed of one record: its activities with their attachment, newest first, one page. Items that
 * arrive live push older ones to later pages; the feed keeps items by id, so a repeated one is shown once.
 */
export const feedRequest = (objectName: string, objectId: string, page = 1, pageSize: number = FEED_PAGE_SIZE): FetchRequest => ({
  entity: {
    name: ACTIVITY_ENTITY,
    attributes: FEED_ATTRIBUTES.map((attribute) => ({ attribute })),
    filter: {
      type: 'and',
      conditions: [
        { attribute: REGARDING_NAME_FIELD, operator: 'eq', value: objectName },
        { attribute: REGARDING_ID_FIELD, operator: 'eq', value: objectId },
      ],
    },
    links: [
      {
        name: DOCUMENT_ENTITY,
        from: 'document',
        to: 'id',
        alias: 'doc',
        type: 'outer',
        attributes: [{ attribute: 'name' }, { attribute: 'file' }, { attribute: 'contenttype' }, { attribute: 'size' }],
      },
    ],
    orders: [
      { attribute: 'createdon', descending: true },
      { attribute: 'id', descending: true },
    ],
  },
  page,
  pageSize,
});

/** One activity of the feed by id, as the feed shows it (an item announced by the realtime stream); none when it is another record's. */
export const feedItemRequest = (objectName: string, objectId: string, id: string): FetchRequest => {
  const base = feedRequest(objectName, objectId, 1, 1);
  const filter = base.entity.filter ?? {};
  return { ...base, entity: { ...base.entity, filter: { ...filter, conditions: [...(filter.conditions ?? []), { attribute: 'id', operator: 'eq', value: id }] } } };
};

/**
 * The open activities of `owner` (null: every owner the caller may read) whose reminder falls at
 * or before `until`, soonest last (newest reminder first): What's Next and the reminder notifications.
 */
export const dueRemindersRequest = (owner: string | null, until: Date, pageSize: number): FetchRequest => {
  const conditions: Condition[] = [
    { attribute: 'scheduledstart', operator: 'not-null' },
    { attribute: 'scheduledstart', operator: 'le', value: until.toISOString() },
  ];
  if (owner !== null) conditions.push({ attribute: 'ownerid', operator: 'eq', value: owner });
  return {
    entity: {
      name: ACTIVITY_ENTITY,
      attributes: ['id', 'name', 'body', 'scheduledstart', 'status', 'ownerid', REGARDING_NAME_FIELD, REGARDING_ID_FIELD].map((attribute) => ({ attribute })),
      filter: {
        type: 'and',
        conditions,
        filters: [{ type: 'or', conditions: [{ attribute: 'status', operator: 'null' }, { attribute: 'status', operator: 'eq', value: ACTIVITY_OPEN }] }],
      },
      orders: [
        { attribute: 'scheduledstart', descending: true },
        { attribute: 'id' },
      ],
    },
    page: 1,
    pageSize,
  };
};

/** The first line of a body, cut to `max` characters with '…' (a reminder's title). */
export const bodyExcerpt = (body: unknown, max = 80): string => {
  const text = typeof body === 'string' ? body.trim().split(/\r?\n/)[0] ?? '' : '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** Where a reminder leads: the record it regards (the feed is on its form), else the activity itself. */
export const reminderTarget = (a: EntityRecord): { objectName: string; id: string } => {
  const name = a[REGARDING_NAME_FIELD];
  const id = a[REGARDING_ID_FIELD];
  return typeof name === 'string' && name !== '' && typeof id === 'string' && id !== ''
    ? { objectName: name, id }
    : { objectName: ACTIVITY_ENTITY, id: String(a.id) };
};
