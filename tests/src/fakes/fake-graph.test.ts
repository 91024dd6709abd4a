import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph, type FakeGraph } from './fake-graph.js';

/** The fake answers as Graph's documentation shows, so gateway tests against it mean something. */
describe('fake Microsoft Graph', () => {
  let g: FakeGraph;
  let token: string;
  const call = (path: string, init: RequestInit = {}) => fetch(`${g.graphUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });

  beforeAll(async () => {
    g = await startFakeGraph();
    const r = await fetch(g.tokenUrl, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: g.clientId, client_secret: g.clientSecret, scope: 'https://graph.microsoft.com/.default' }) });
    token = ((await r.json()) as { access_token: string }).access_token;
  });
  afterAll(() => g.close());

  it('the token endpoint answers the identity platform shape, and invalid_client for a wrong secret', async () => {
    const bad = await fetch(g.tokenUrl, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: g.clientId, client_secret: 'nope' }) });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: string }).error).toBe('invalid_client');
    expect(token).toMatch(/fake-app-/);
  });

  it('on-behalf-of needs a known assertion and requested_token_use on_behalf_of', async () => {
    g.assertions.set('user-assertion', 'ann@contoso.test');
    const form = (assertion: string) => new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', client_id: g.clientId, client_secret: g.clientSecret, assertion, requested_token_use: 'on_behalf_of', scope: 'https://graph.microsoft.com/.default' });
    const ok = await fetch(g.tokenUrl, { method: 'POST', body: form('user-assertion') });
    expect(ok.status).toBe(200);
    const bad = await fetch(g.tokenUrl, { method: 'POST', body: form('forged') });
    expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
  });

  it('Graph calls need a bearer token: 401 InvalidAuthenticationToken; /me needs a delegated token', async () => {
    const none = await fetch(`${g.graphUrl}/me/drive/root/children`);
    expect([none.status, ((await none.json()) as { error: { code: string } }).error.code]).toEqual([401, 'InvalidAuthenticationToken']);
    const me = await call('/me/drive/root/children');
    expect(me.status).toBe(400);
  });

  it('children page by an absolute @odata.nextLink and filter by startswith(name)', async () => {
    for (let i = 0; i < 5; i++) g.seed(['Paged', `IMG_${i}.jpg`], `photo ${i}`);
    g.seed(['Paged', 'notes.txt'], 'text');
    g.pageSize = 2;
    const first = (await (await call(`/users/ann%40contoso.test/drive/root:/Paged:/children?$filter=${encodeURIComponent("startswith(name,'img')")}`)).json()) as { value: Array<{ name: string }>; '@odata.nextLink'?: string };
    expect(first.value.map((v) => v.name)).toEqual(['IMG_0.jpg', 'IMG_1.jpg']);
    expect(first['@odata.nextLink']).toMatch(new RegExp(`^${g.graphUrl}`));
    g.pageSize = 200;
  });

  it('429 with Retry-After while throttled, then answers again', async () => {
    g.throttle(1, 3);
    const r = await call('/users/ann%40contoso.test/drive/root/children');
    expect([r.status, r.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await call('/users/ann%40contoso.test/drive/root/children')).status).toBe(200);
  });

  it('an upload URL refuses a bearer token and fragments that are not multiples of 320 KiB', async () => {
    const s = (await (await call('/drives/d1/root:/Big/file.bin:/createUploadSession', { method: 'POST', body: '{}' })).json()) as { uploadUrl: string };
    const withToken = await fetch(s.uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-range': 'bytes 0-9/20' }, body: Buffer.alloc(10) });
    expect(withToken.status).toBe(401);
    const odd = await fetch(s.uploadUrl, { method: 'PUT', headers: { 'content-range': 'bytes 0-9/20' }, body: Buffer.alloc(10) });
    expect(odd.status).toBe(400);
  });

  it('expired tokens answer 401 Access token has expired', async () => {
    g.expireTokens();
    const r = await call('/users/ann%40contoso.test/calendars');
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: { message: string } }).error.message).toBe('Access token has expired or is not yet valid.');
  });
});
