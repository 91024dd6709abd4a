import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LINK_TOKEN_PREFIX, type Clock, type SessionStore } from '@tessera/core/internal';
import { KyselySessionStore, openCatalog } from '@tessera/adapters-sql';

/**
 * The SessionStore port's contract (core/src/ports/session-store.ts; spec 000 section 3 "Session
 * record"; issue 6), the same body for every implementation: the catalog on SQLite in memory and
 * on disk. Times are the `now` each call passes, and the store's own clock (cache, clean-up) is
 * the same fixed clock, so nothing here depends on how fast it runs.
 */
type Fixture = { store: SessionStore; close(): Promise<void> };
const T0 = Date.UTC(2026, 0, 1, 12);
const at = (ms: number) => new Date(T0 + ms);
const clock: Clock = { now: () => at(0) };

const IMPLEMENTATIONS: Array<[string, () => Promise<Fixture>]> = [
  [
    'KyselySessionStore on SQLite in memory',
    async () => {
      const db = await openCatalog(':memory:');
      return { store: new KyselySessionStore(db, clock), close: () => db.destroy() };
    },
  ],
  [
    'KyselySessionStore on a SQLite file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tessera-sessions-'));
      const db = await openCatalog(join(dir, 'catalog.sqlite'));
      return {
        store: new KyselySessionStore(db, clock),
        close: async () => {
          await db.destroy();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

const session = (userId = 'u1', orgName = 'acme') => ({ orgName, userId, userName: `User ${userId}`, ip: '10.0.0.1', agent: 'test agent' });
const HOUR = 3600_000;

describe.each(IMPLEMENTATIONS)('SessionStore contract: %s', (_name, make) => {
  let f: Fixture;
  const open = async () => (f = await make());
  afterEach(async () => f?.close());

  it('a new session has a fresh token of at least 128 random bits, and resolves to who opened it', async () => {
    const { store } = await open();
    const a = await store.create(session(), at(0));
    const b = await store.create(session(), at(0));
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(22);
    expect(await store.resolve(a, at(1000), HOUR)).toMatchObject({ orgName: 'acme', userId: 'u1', userName: 'User u1', ip: '10.0.0.1', agent: 'test agent', created: at(0) });
  });

  it('an unknown, empty or oversized token resolves to nothing', async () => {
    const { store } = await open();
    await store.create(session(), at(0));
    expect(await store.resolve('no-such-token', at(0), HOUR)).toBeNull();
    expect(await store.resolve('', at(0), HOUR)).toBeNull();
    expect(await store.resolve('x'.repeat(5000), at(0), HOUR)).toBeNull();
  });

  it('a session idle longer than maxIdleMs is ended: it resolves to nothing, then and later', async () => {
    const { store } = await open();
    const token = await store.create(session(), at(0));
    expect(await store.resolve(token, at(HOUR - 1), HOUR)).not.toBeNull();
    // Each use restarts the idle time (written at least every 30 seconds).
    expect(await store.resolve(token, at(2 * HOUR - 2), HOUR)).not.toBeNull();
    expect(await store.resolve(token, at(3 * HOUR), HOUR)).toBeNull();
    expect(await store.resolve(token, at(3 * HOUR), 100 * HOUR)).toBeNull();
  });

  it('logout ends exactly the session of its token', async () => {
    const { store } = await open();
    const a = await store.create(session(), at(0));
    const b = await store.create(session(), at(0));
    await store.resolve(a, at(1), HOUR);
    await store.end(a);
    expect(await store.resolve(a, at(2), HOUR)).toBeNull();
    expect(await store.resolve(b, at(2), HOUR)).not.toBeNull();
  });

  it('the list holds the sessions of one organization, most recently used first; ending one by name works once and only in its organization', async () => {
    const { store } = await open();
    const a = await store.create(session('u1'), at(0));
    const b = await store.create(session('u2'), at(0));
    await store.create(session('u3', 'other'), at(0));
    await store.resolve(b, at(60_000), HOUR);
    const list = await store.list('acme');
    expect(list.map((s) => s.userId)).toEqual(['u2', 'u1']);
    expect(list.every((s) => s.orgName === 'acme')).toBe(true);
    const nameOfA = list[1].name;
    expect(nameOfA).not.toBe(a);
    expect(await store.endByName('other', nameOfA)).toBe(false);
    expect(await store.endByName('acme', nameOfA)).toBe(true);
    expect(await store.endByName('acme', nameOfA)).toBe(false);
    expect(await store.resolve(a, at(60_001), HOUR)).toBeNull();
  });

  it("ending a user's sessions ends all of them but the named one, in that organization only", async () => {
    const { store } = await open();
    const keep = await store.create(session('u1'), at(0));
    const gone1 = await store.create(session('u1'), at(0));
    const gone2 = await store.create(session('u1'), at(0));
    const elsewhere = await store.create(session('u1', 'other'), at(0));
    const kept = await store.resolve(keep, at(1), HOUR);
    expect(await store.endForUser('acme', 'u1', kept!.name)).toBe(2);
    for (const t of [gone1, gone2]) expect(await store.resolve(t, at(2), HOUR)).toBeNull();
    expect(await store.resolve(keep, at(2), HOUR)).not.toBeNull();
    expect(await store.resolve(elsewhere, at(2), HOUR)).not.toBeNull();
    expect(await store.endForUser('acme', 'u1')).toBe(1);
  });

  it('a write marks the session as modified', async () => {
    const { store } = await open();
    const token = await store.create(session(), at(0));
    const { name } = (await store.resolve(token, at(0), HOUR))!;
    await store.touchModified(name, at(5 * 60_000));
    expect((await store.list('acme'))[0].modified).toEqual(at(5 * 60_000));
  });

  it('a one-time link redeems once, in its organization (or any, for null), and not after it expires', async () => {
    const { store } = await open();
    const link = { orgName: 'acme', userId: 'u1', purpose: 'SIGN_IN' as const };
    const token = await store.createLink(link, at(5 * 60_000));
    expect(token.startsWith(LINK_TOKEN_PREFIX)).toBe(true);
    expect(await store.redeemLink('other', token, at(0))).toEqual({ _tag: 'Unknown' });
    expect(await store.redeemLink('acme', 'ml_unknown', at(0))).toEqual({ _tag: 'Unknown' });
    expect(await store.redeemLink('acme', token, at(0), true)).toEqual({ _tag: 'Redeemed', link });
    expect(await store.redeemLink(null, token, at(0))).toEqual({ _tag: 'Redeemed', link });
    expect(await store.redeemLink('acme', token, at(1))).toEqual({ _tag: 'Expired' });
    const late = await store.createLink(link, at(5 * 60_000));
    expect(await store.redeemLink('acme', late, at(5 * 60_000))).toEqual({ _tag: 'Expired' });
  });

  it('of parallel redemptions of one link exactly one succeeds', async () => {
    const { store } = await open();
    const token = await store.createLink({ orgName: 'acme', userId: 'u1', purpose: 'INVITE' }, at(60_000));
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.redeemLink('acme', token, at(0))));
    expect(outcomes.filter((o) => o._tag === 'Redeemed')).toHaveLength(1);
  });

  it('a sign-up puzzle is used once', async () => {
    const { store } = await open();
    expect(await store.usePuzzle('p1', at(60_000))).toBe(true);
    expect(await store.usePuzzle('p1', at(60_000))).toBe(false);
    expect(await store.usePuzzle('p2', at(60_000))).toBe(true);
  });
});
