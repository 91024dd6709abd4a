import { systemClock, type AttemptLedger, type AttemptTally, type Clock } from '@tessera/core/internal';
import type { CatalogDb } from './catalog-database.js';

/** Tallies untouched this long are of no use to any limit (the longest window or forget time is an hour). */
const KEEP_MS = 24 * 3600_000;
/** Old tallies are swept at most this often, by the process that happens to write. */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The AttemptLedger port on the catalog (issue 22 items 3, 4, 8). The compare-and-set is one
 * conditional statement (an INSERT that does nothing on conflict, an UPDATE or DELETE whose
 * WHERE names the expected tally), so it is atomic in SQLite and SQL Server alike, across
 * connections and processes, with no transaction held open.
 */
export class KyselyAttemptLedger implements AttemptLedger {
  private sweptAt = 0;

  constructor(
    private readonly db: CatalogDb,
    private readonly clock: Clock = systemClock,
  ) {}

  async read(key: string): Promise<AttemptTally | null> {
    const row = await this.db.selectFrom('attempt').select(['count', 'started', 'last']).where('key', '=', key).executeTakeFirst();
    return row ? { count: Number(row.count), started: Number(row.started), last: Number(row.last) } : null;
  }

  async swap(key: string, expected: AttemptTally | null, next: AttemptTally | null): Promise<boolean> {
    if (key.length > 500) throw new Error('an attempt key is at most 500 characters');
    await this.sweep();
    if (expected === null) {
      if (next === null) return (await this.read(key)) === null;
      const r = await this.db
        .insertInto('attempt')
        .values({ key, ...next })
        .onConflict((c) => c.doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
    }
    const where = <Q extends { where: (...a: any[]) => Q }>(q: Q): Q =>
      q.where('key', '=', key).where('count', '=', expected.count).where('started', '=', expected.started).where('last', '=', expected.last);
    if (next === null) {
      const r = await where(this.db.deleteFrom('attempt')).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    }
    const r = await where(this.db.updateTable('attempt').set({ ...next })).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Forgets tallies nobody touched for a day, so the table holds recent keys only. */
  private async sweep(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    await this.db.deleteFrom('attempt').where('last', '<', now - KEEP_MS).execute();
  }
}
