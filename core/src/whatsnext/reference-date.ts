import * as t from 'io-ts';
import { addDays } from '../dates/civil.js';
import { civilDateOf, instantOfWallTime, startOfDayInstant, wallTimeOf } from '../dates/zoned.js';

/** The scheduled quick filter of What's Next (spec 002 section 2): today, tomorrow, next-week. */
export const WhatsNextScheduled = t.keyof({ today: null, tomorrow: null, 'next-week': null }, 'WhatsNextScheduled');
export type WhatsNextScheduled = t.TypeOf<typeof WhatsNextScheduled>;

/** The default scheduled filter is today (spec 002 section 4). */
export const DEFAULT_WHATS_NEXT_SCHEDULED: WhatsNextScheduled = 'today';

/** What's Next lists 10 records a page, newest createdon first. */
export const WHATS_NEXT_PAGE_SIZE = 10;

/**
 * The reference instant the What's Next rules compare against (spec 002 section 4): today is `now`;
 * tomorrow shifts it to 2 days ahead at midnight (so all of tomorrow is included); next-week shifts
 * it to 8 days ahead at the same local wall time, read in `timeZone` so a DST change in between
 * does not move it by an hour.
 */
export const whatsNextReferenceDate = (scheduled: WhatsNextScheduled, now: Date, timeZone: string): Date => {
  switch (scheduled) {
    case 'today':
      return now;
    case 'tomorrow':
      return startOfDayInstant(addDays(civilDateOf(now, timeZone), 2), timeZone);
    case 'next-week': {
      const wall = wallTimeOf(now, timeZone);
      return instantOfWallTime({ ...wall, ...addDays(wall, 8) }, timeZone);
    }
  }
};

/** A rule's relatedmaxage / nullrelatedmaxage threshold (days) as the oldest instant still in range. */
export const ruleAgeThreshold = (reference: Date, maxAgeDays: number, timeZone: string): Date => {
  const wall = wallTimeOf(reference, timeZone);
  return instantOfWallTime({ ...wall, ...addDays(wall, -maxAgeDays) }, timeZone);
};
