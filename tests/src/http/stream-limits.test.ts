import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens, type RecordStore } from '@tessera/core/internal';
import { resolve } from '@tessera/cli';
import { Api, openStream, startHarness, type Harness, type OpenStream } from './http-harness.js';

const ORG = 'streams';
const ADMIN = { email: 'admin@streams.test', password: 'stream-password-1' };

const streamToken = async (api: Api): Promise<string> => {
  const r = await api.get('ssetoken');
  expect(r.status).toBe(200);
  return ((await r.json()) as { token: string }).token;
};

/** Opens a stream and answers its status without reading it (a refused one has a text body). */
const tryStream = async (base: string, token: string): Promise<{ status: number; text: string; retryAfter: string | null; stop: () => void }> => {
  const ctrl = new AbortController();
  const r = await fetch(`${base}/api/stream?token=${encodeURIComponent(token)}`, { signal: ctrl.signal });
  const text = r.status === 200 ? '' : await r.text();
  return { status: r.status, text, retryAfter: r.headers.get('retry-after'), stop: () => ctrl.abort() };
};

describe('issue 22 item 7: realtime streams are capped per session and per user, visibility is decided once per user', () => {
  let h: Harness;
  let admin: Api;
  const open: OpenStream[] = [];

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN);
    admin = new Api(h.url);
    expect((await admin.login(ORG, ADMIN.email, ADMIN.password)).status).toBe(200);
  });
  afterAll(async () => {
    for (const s of open) await s.stop();
    await h?.close();
  });

  it('five streams of a session open; the 6th answers 429 ERR_TOO_MANY_STREAMS with Retry-After', async () => {
    const token = await streamToken(admin);
    for (let i = 0; i < 5; i++) open.push(await openStream(h.url, token));
    const sixth = await tryStream(h.url, token);
    expect(sixth.status).toBe(429);
    expect(sixth.text).toBe('ERR_TOO_MANY_STREAMS: at most 5 realtime streams per session at once');
    expect(Number(sixth.retryAfter)).toBeGreaterThan(0);
    // A second stream token of the same session counts against the same session.
    expect((await tryStream(h.url, await streamToken(admin))).status).toBe(429);
  });

  it('another session of the same user is refused too (5 per user); another user is not', async () => {
    const again = new Api(h.url);
    expect((await again.login(ORG, ADMIN.email, ADMIN.password)).status).toBe(200);
    const refused = await tryStream(h.url, await streamToken(again));
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('ERR_TOO_MANY_STREAMS: at most 5 realtime streams per user at once');

    const otherId = await admin.create('systemuser', { name: 'Other', emailaddress: 'other@streams.test' });
    await admin.form('changepassword', { userId: otherId, newPassword: 'other-password-2' });
    const other = new Api(h.url);
    const r = await other.form('mustchangepassword', { organization: ORG, username: 'other@streams.test', password: 'other-password-2', newPassword: 'other-password-3' });
    expect(r.status).toBe(200);
    other.token = r.headers.get('x-accessptoken')!;
    const s = await tryStream(h.url, await streamToken(other));
    expect(s.status).toBe(200);
    s.stop();
  });

  it('a write with five streams open reaches every stream with at most one visibility read for the user (none at the organization level)', async () => {
    // A spy on the organization's RecordStore port: the visibility check reads records by id, one
    // query for a batch of changes; a reader of every team (the administrator) needs no read at all.
    const tenant = await resolve(h.server.container, Tokens.TenantRegistry).open(ORG);
    const store = tenant.store as RecordStore;
    const byId = store.retrieveById.bind(store);
    const multiple = store.retrieveMultiple.bind(store);
    let reads = 0;
    store.retrieveById = (caller, entity, id) => {
      reads++;
      return byId(caller, entity, id);
    };
    store.retrieveMultiple = (caller, request) => {
      if (request.entity.filter?.conditions?.some((c) => c.attribute === 'id' && c.operator === 'in')) reads++;
      return multiple(caller, request);
    };
    try {
      const id = await admin.create('team', { name: 'Seen by five streams' });
      for (const s of open) await s.until((events) => events.some((e) => e.id === id));
      expect(reads).toBe(0);
    } finally {
      store.retrieveById = byId;
      store.retrieveMultiple = multiple;
    }
  });

  it('a closed stream frees its place', async () => {
    const token = await streamToken(admin);
    await open.pop()!.stop();
    // The server sees the close a moment later: the test waits for it, not for a fixed time.
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      const s = await tryStream(h.url, token);
      status = s.status;
      s.stop();
      if (status !== 200) await new Promise((ok) => setTimeout(ok, 20));
    }
    expect(status).toBe(200);
  });
});
