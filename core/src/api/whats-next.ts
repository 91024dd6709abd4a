import * as t from 'io-ts';
import { WhatsNextScheduled } from '../whatsnext/reference-date.js';
import { Guid } from './guid.js';

/** A page number of a list: a whole number from 1 (a page past the end is empty, not an error). */
const PageNumber = new t.Type<number, number, unknown>(
  'page number (1 to 100000)',
  (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 100_000,
  (u, c) => (typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 100_000 ? t.success(u) : t.failure(u, c)),
  (a) => a,
);

/** A short name (an entity, a time zone): at most `max` characters. */
const shortText = (max: number) =>
  new t.Type<string, string, unknown>(
    `text(≤${max})`,
    (u): u is string => typeof u === 'string' && u.length <= max,
    (u, c) => (typeof u === 'string' && u.length <= max ? t.success(u) : t.failure(u, c)),
    (a) => a,
  );

/**
 * POST /api/whatsnext: the filters of the What's Next screen (spec 002 sections 2 and 4). Every
 * key is optional: scheduled today, owner the caller (null: every owner), every category
 * (null), page 1, time zone UTC (the browser sends its own: tomorrow's midnight is a local one).
 */
export const WhatsNextRequest = t.exact(
  t.partial({
    scheduled: WhatsNextScheduled,
    owner: t.union([Guid, t.null]),
    category: t.union([shortText(100), t.null]),
    page: PageNumber,
    timeZone: shortText(64),
  }),
  'whatsnext request',
);
export type WhatsNextRequest = t.TypeOf<typeof WhatsNextRequest>;

/** One row of the list: a record a rule lists, or a virtual one (id "0" with its init values). */
export const WhatsNextItem = t.intersection(
  [
    t.type({
      id: t.string,
      objectName: t.string,
      name: t.union([t.string, t.null]),
      createdon: t.union([t.string, t.null]),
      info: t.union([t.string, t.null]),
      rule: t.string,
    }),
    t.partial({ init: t.UnknownRecord }),
  ],
  'whatsnext item',
);

/** The answer: a page of the list, its count, the categories present, the New command's entity, notes on rules that failed. */
export const WhatsNextAnswer = t.type(
  {
    records: t.array(WhatsNextItem),
    count: t.number,
    page: t.number,
    pageSize: t.number,
    moreRecords: t.boolean,
    categories: t.array(t.string),
    createEntity: t.union([t.string, t.null]),
    reference: t.string,
    notes: t.array(t.string),
  },
  'whatsnext answer',
);
export type WhatsNextAnswer = t.TypeOf<typeof WhatsNextAnswer>;
