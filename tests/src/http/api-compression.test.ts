import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 23 item 5 asks on-the-fly compression of large /api answers to be considered "only if
 * cheap and safe (do not break SSE /api/stream — it must never be buffered)". Decided: JSON
 * answers of 16 KB or more (the user context: the whole metadata) are compressed; smaller ones,
 * errors, and streams are sent as they are. Requests through node:http, so the bytes checked are
 * the ones on the wire.
 */
const ORG = 'squeeze';
const ADMIN = { email: 'admin@squeeze.test', password: 'shared-password-1' };

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

let h: Harness;
let admin: Api;

const raw = (path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Answer> =>
  new Promise((ok, fail) => {
    const url = new URL(h.url);
    const req = request({ host: url.hostname, port: url.port, path, method, headers: { 'x-accessptoken': admin.token, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });

beforeAll(async () => {
  h = await startHarness();
  await h.createOrg(ORG, ADMIN, ['demo']);
  admin = new Api(h.url);
  await admin.login(ORG, ADMIN.email, ADMIN.password);
});
afterAll(async () => h?.close());

describe('large JSON answers are compressed on the fly', () => {
  it('GET /api/getusercontext: br or gzip as accepted, decoding to the very answer sent without compression', async () => {
    const plain = await raw('/api/getusercontext', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(16 * 1024);
    const answer = JSON.parse(plain.body.toString()) as unknown;

    const br = await raw('/api/getusercontext', { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.status, br.headers['content-encoding'], br.headers['content-type']]).toEqual([200, 'br', 'application/json; charset=utf-8']);
    expect(br.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(answer);

    const gz = await raw('/api/getusercontext', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(answer);
  });

  it('small answers and error texts are sent as they are', async () => {
    await admin.create('account', { name: 'Small Answer Ltd' });
    const page = await raw(
      '/api/fetch',
      { 'accept-encoding': 'br, gzip', 'content-type': 'application/json' },
      'POST',
      JSON.stringify({ entity: { name: 'account', attributes: [{ attribute: 'name' }] }, page: 1, pageSize: 5 }),
    );
    expect([page.status, page.headers['content-encoding']]).toEqual([200, undefined]);
    expect((JSON.parse(page.body.toString()) as { records: unknown[] }).records.length).toBeGreaterThan(0);
    const missing = await raw('/api/nosuch', { 'accept-encoding': 'br, gzip' });
    expect([missing.status, missing.headers['content-encoding']]).toEqual([404, undefined]);
    expect(missing.body.toString()).toMatch(/^ERR_NOT_FOUND/);
  });

  it('the change feed is never compressed nor buffered: its first bytes arrive while it stays open', async () => {
    const token = ((await (await admin.get('ssetoken')).json()) as { token: string }).token;
    const url = new URL(h.url);
    const first = await new Promise<{ headers: Record<string, string | string[] | undefined>; chunk: string }>((ok, fail) => {
      const req = request({ host: url.hostname, port: url.port, path: `/api/stream?token=${encodeURIComponent(token)}`, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
        res.once('data', (c: Buffer) => {
          ok({ headers: res.headers, chunk: c.toString() });
          req.destroy();
        });
        res.on('error', () => undefined);
      });
      req.on('error', (e) => (req.destroyed ? undefined : fail(e)));
      req.setTimeout(5000, () => fail(new Error('the stream sent nothing in 5 s')));
      req.end();
    });
    expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.chunk).toContain(': open');
  });
});
