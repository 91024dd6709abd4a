import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerMismatch, ApiClient, ServerError } from './client.js';

/** The next answers of the server, in order; the requests made are recorded. */
const serverAnswering = (...answers: Array<{ status?: number; body: string }>) => {
  const requests: Array<{ url: string; method: string; body?: string }> = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    requests.push({ url, method: init.method ?? 'GET', body: init.body as string | undefined });
    const a = answers.shift() ?? { body: '' };
    return new Response(a.body, { status: a.status ?? 200 });
  });
  return requests;
};

afterEach(() => vi.unstubAllGlobals());

describe('issue 12 point 4: the client decodes answers with the contract\'s codecs', () => {
  it('a fetch answer that matches the contract comes back as sent', async () => {
    const page = { records: [{ id: 'a', name: 'A' }], count: 1, page: 1, pageSize: 50, moreRecords: false };
    const requests = serverAnswering({ body: JSON.stringify(page) });
    expect(await new ApiClient().fetch({ entity: { name: 'account' } })).toEqual(page);
    expect(requests[0]).toMatchObject({ url: '/api/fetch', method: 'POST' });
  });

  it('an answer off the contract is a clear client error (ERR_CONTRACT naming the call and the path), not a crash', async () => {
    serverAnswering({ body: JSON.stringify({ records: 'oops', count: 1, page: 1, pageSize: 50, moreRecords: false }) });
    const e = await new ApiClient().fetch({ entity: { name: 'account' } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AnswerMismatch);
    expect(e).toBeInstanceOf(ServerError);
    expect((e as ServerError).code).toBe('ERR_CONTRACT');
    expect((e as Error).message).toMatch(/^Server Error: ERR_CONTRACT: the answer of POST \/api\/fetch does not match the contract: records: expected/);
  });

  it('a page that is not JSON (a proxy\'s) is the same client error', async () => {
    serverAnswering({ body: '<html>gateway</html>' });
    const e = await new ApiClient().cacheDebug().catch((x: unknown) => x);
    expect((e as ServerError).text).toBe('ERR_CONTRACT: the answer of GET /api/cache_debug does not match the contract: the answer is not JSON');
  });

  it('error answers stay ServerError with the server\'s text', async () => {
    serverAnswering({ status: 409, body: 'ERR_8001: This record was modified by Ann' });
    const e = await new ApiClient().update('update', 'account', { id: 'a' }).catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(AnswerMismatch);
    expect([(e as ServerError).status, (e as ServerError).code]).toEqual([409, 'ERR_8001']);
  });

  it('text answers (update: the id) and the stream token come through', async () => {
    serverAnswering({ body: '0b9c2f4e-0000-4000-8000-000000000001' }, { body: JSON.stringify({ token: 'ml_t', expires: '2026-11-24T10:00:00.000Z' }) });
    const api = new ApiClient();
    expect(await api.update('create', 'account', { name: 'A' })).toBe('0b9c2f4e-0000-4000-8000-000000000001');
    expect(await api.sseToken()).toBe('ml_t');
  });

  it('executemultiple answers one { id } or { error } per item', async () => {
    serverAnswering({ body: JSON.stringify([{ id: 'a' }, { error: 'ERR_INPUT: x' }]) }, { body: JSON.stringify([{ nothing: 1 }]) });
    const api = new ApiClient();
    expect(await api.executeMultiple([])).toEqual([{ id: 'a' }, { error: 'ERR_INPUT: x' }]);
    await expect(api.executeMultiple([])).rejects.toBeInstanceOf(AnswerMismatch);
  });
});
