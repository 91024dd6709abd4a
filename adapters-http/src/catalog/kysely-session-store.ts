import { createHash, randomBytes } from 'node:crypto';
import {
  LINK_TOKEN_PREFIX,
  type LinkPurpose,
  type LinkRedemption,
  type NewSession,
  type OneTimeLink,
  type SessionInfo,
  type SessionStore,
} from '@tessera/core';
import type { CatalogDb, CatalogTables } from './catalog-database.js';

/** 256 random bits, URL-safe: far past the 128 bits asked for. */
const newToken = (prefix = ''): string => prefix + randomBytes(32).toString('base64url');
/** Tokens are random, so a fast hash suffices: nothing to brute-force. */
const tokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** The `read` time is written at most this often, so reading a page costs no catalog write. */
const READ_TOUCH_MS = 30_000;

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

/** The SessionStore port on the catalog (Kysely: the embedded SQLite file by default). */
export class KyselySessionStore implements SessionStore {
  constructor(private readonly db: CatalogDb) {}

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
    const row = await this.db.selectFrom('session').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!row) return null;
    const t = now.getTime();
    if (t - row.read > maxIdleMs) {
      await this.db.deleteFrom('session').where('token_hash', '=', hash).execute();
      return null;
    }
    if (t - row.read >= READ_TOUCH_MS) {
      await this.db.updateTable('session').set({ read: t }).where('token_hash', '=', hash).execute();
      row.read = t;
    }
    return toInfo(row);
  }

  async touchModified(name: string, now: Date): Promise<void> {
    await this.db.updateTable('session').set({ modified: now.getTime() }).where('name', '=', name).execute();
  }

  async end(token: string): Promise<void> {
    await this.db.deleteFrom('session').where('token_hash', '=', tokenHash(token)).execute();
  }

  async endByName(orgName: string, name: string): Promise<boolean> {
    const r = await this.db.deleteFrom('session').where('org_name', '=', orgName).where('name', '=', name).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async endForUser(orgName: string, userId: string, exceptName?: string): Promise<number> {
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
    await this.db.deleteFrom('link').where('expires', '<', Date.now() - 24 * 3600_000).execute();
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
    await this.db.deleteFrom('puzzle').where('expires', '<', Date.now()).execute();
    const r = await this.db.insertInto('puzzle').values({ id: puzzleId, expires: expires.getTime() }).onConflict((c) => c.doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
