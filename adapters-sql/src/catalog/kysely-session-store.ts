import { createHash, randomBytes } from 'node:crypto';
import {
  LINK_TOKEN_PREFIX,
  type LinkPurpose,
  type LinkRedemption,
  type NewSession,
  type OneTimeLink,
  type SessionInfo,
  systemClock,
  type Clock,
  type SessionStore,
} from '@tessera/core/internal';
import type { CatalogDb, CatalogTables } from './catalog-database.js';

/** 256 random bits, URL-safe: far past the 128 bits asked for. */
const newToken = (prefix = ''): string => prefix + randomBytes(32).toString('base64url');
/** Tokens are random, so a fast hash suffices: nothing to brute-force. */
const tokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** The `read` and `modified` times are written at most this often, so a request costs no catalog write. */
const TOUCH_MS = 30_000;
/**
 * ...and at most a tenth of the idle limit apart, so a short idle limit (below 30 s) never ends
 * a session that is in use: its last recorded activity is never more than a tenth old (issue 22 item 10).
 */
export const activityInterval = (maxIdleMs: number): number => Math.max(0, Math.min(TOUCH_MS, Math.floor(maxIdleMs / 10)));
/**
 * A resolved session is trusted this long without asking the catalog again. Sessions ended by this
 * process are forgotten at once; ended by another process (the CLI), within this time.
 */
const RESOLVE_CACHE_MS = 2_000;
const RESOLVE_CACHE_SIZE = 10_000;

type Cached = { row: CatalogTables['session']; at: number };

const toInfo = (r: CatalogTables['session']): SessionInfo => ({
  name: r.name,
  orgName: r.org_name,
  userId: r.user_id,
  userName: r.user_name,
  created: new Date(r.created),
  modified: new Date(r.modified),
  read: new Date(r.read),
  ip: r.ip,
  agent: r.agent,
});

/**
 * The SessionStore port on the catalog (Kysely: the embedded SQLite file by default). The clock
 * times the resolve cache and the clean-up of old links and puzzles; the session times are the
 * `now` the caller passes.
 */
export class KyselySessionStore implements SessionStore {
  private readonly cache = new Map<string, Cached>();
  /** The same cached rows by session name. */
  private readonly byName = new Map<string, Cached>();

  constructor(
    private readonly db: CatalogDb,
    private readonly clock: Clock = systemClock,
  ) {}

  private forgetWhere(match: (row: CatalogTables['session']) => boolean): void {
    for (const [hash, c] of this.cache)
      if (match(c.row)) {
        this.cache.delete(hash);
        this.byName.delete(c.row.name);
      }
  }

  async create(s: NewSession, now: Date): Promise<string> {
    const token = newToken();
    const t = now.getTime();
    await this.db
      .insertInto('session')
      .values({
        name: randomBytes(12).toString('base64url'),
        token_hash: tokenHash(token),
        org_name: s.orgName,
        user_id: s.userId,
        user_name: s.userName,
        created: t,
        modified: t,
        read: t,
        ip: s.ip.slice(0, 100),
        agent: s.agent.slice(0, 500),
      })
      .execute();
    return token;
  }

  async resolve(token: string, now: Date, maxIdleMs: number): Promise<SessionInfo | null> {
    if (!token || token.length > 200) return null;
    const hash = tokenHash(token);
    const t = now.getTime();
    const cached = this.cache.get(hash);
    let row = cached && this.clock.now().getTime() - cached.at < RESOLVE_CACHE_MS ? cached.row : undefined;
    if (!row) {
      row = await this.db.selectFrom('session').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      if (!row) return null;
      if (this.cache.size >= RESOLVE_CACHE_SIZE) {
        this.cache.clear();
        this.byName.clear();
      }
      const entry = { row, at: this.clock.now().getTime() };
      this.cache.set(hash, entry);
      this.byName.set(row.name, entry);
    }
    if (t - row.read > maxIdleMs) {
      this.forgetWhere((r) => r.token_hash === hash);
      await this.db.deleteFrom('session').where('token_hash', '=', hash).execute();
      return null;
    }
    if (t - row.read >= activityInterval(maxIdleMs)) {
      await this.db.updateTable('session').set({ read: t }).where('token_hash', '=', hash).execute();
      row.read = t;
    }
    return toInfo(row);
  }

  async touchModified(name: string, now: Date): Promise<void> {
    const t = now.getTime();
    const cached = this.byName.get(name);
    if (cached && t - cached.row.modified < TOUCH_MS) return;
    await this.db.updateTable('session').set({ modified: t }).where('name', '=', name).execute();
    if (cached) cached.row.modified = t;
  }

  async end(token: string): Promise<void> {
    const hash = tokenHash(token);
    this.forgetWhere((r) => r.token_hash === hash);
    await this.db.deleteFrom('session').where('token_hash', '=', tokenHash(token)).execute();
  }

  async endByName(orgName: string, name: string): Promise<boolean> {
    this.forgetWhere((r) => r.org_name === orgName && r.name === name);
    const r = await this.db.deleteFrom('session').where('org_name', '=', orgName).where('name', '=', name).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async endForUser(orgName: string, userId: string, exceptName?: string): Promise<number> {
    this.forgetWhere((r) => r.org_name === orgName && r.user_id === userId && r.name !== exceptName);
    let q = this.db.deleteFrom('session').where('org_name', '=', orgName).where('user_id', '=', userId);
    if (exceptName) q = q.where('name', '!=', exceptName);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async list(orgName: string): Promise<SessionInfo[]> {
    const rows = await this.db.selectFrom('session').selectAll().where('org_name', '=', orgName).orderBy('read', 'desc').execute();
    return rows.map(toInfo);
  }

  async createLink(link: OneTimeLink, expires: Date): Promise<string> {
    const token = newToken(LINK_TOKEN_PREFIX);
    await this.db
      .insertInto('link')
      .values({ token_hash: tokenHash(token), org_name: link.orgName, user_id: link.userId, purpose: link.purpose, expires: expires.getTime() })
      .execute();
    // Links past their time are of no use: forget them as new ones come.
    await this.db.deleteFrom('link').where('expires', '<', this.clock.now().getTime() - 24 * 3600_000).execute();
    return token;
  }

  async redeemLink(orgName: string | null, token: string, now: Date, peek = false): Promise<LinkRedemption> {
    if (!token.startsWith(LINK_TOKEN_PREFIX) || token.length > 200) return { _tag: 'Unknown' };
    const hash = tokenHash(token);
    const row = await this.db.selectFrom('link').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!row || (orgName !== null && row.org_name !== orgName)) return { _tag: 'Unknown' };
    if (row.used || row.expires <= now.getTime()) return { _tag: 'Expired' };
    const link = { orgName: row.org_name, userId: row.user_id, purpose: row.purpose as LinkPurpose };
    if (peek) return { _tag: 'Redeemed', link };
    // One conditional UPDATE decides: of two parallel redemptions only one changes the row.
    const r = await this.db
      .updateTable('link')
      .set({ used: 1 })
      .where('token_hash', '=', hash)
      .where('used', '=', 0)
      .where('expires', '>', now.getTime())
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? { _tag: 'Redeemed', link } : { _tag: 'Expired' };
  }

  async usePuzzle(puzzleId: string, expires: Date): Promise<boolean> {
    await this.db.deleteFrom('puzzle').where('expires', '<', this.clock.now().getTime()).execute();
    const r = await this.db.insertInto('puzzle').values({ id: puzzleId, expires: expires.getTime() }).onConflict((c) => c.doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
