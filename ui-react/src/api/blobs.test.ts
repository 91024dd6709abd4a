import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, ServerError } from './client.js';

afterEach(() => vi.unstubAllGlobals());

const ctx = { orgName: 'acme', sas: 'sv=1&su=u1&so=acme&se=1900000000&sig=abc' };

describe('issue 18: the client of file and image fields', () => {
  it('blobUrl: /api/blob/{orgName}/{name}?{sas}; an empty value is no address; an old URL value stays as it is', () => {
    const api = new ApiClient();
    expect(api.blobUrl(ctx, '0123456789abcdef0123456789abcdef.png')).toBe(`/api/blob/acme/0123456789abcdef0123456789abcdef.png?${ctx.sas}`);
    expect(api.blobUrl(ctx, '')).toBe('');
    expect(api.blobUrl(ctx, 'https://example.com/logo.png')).toBe('https://example.com/logo.png');
  });

  it('uploadBlob sends the raw file as octet-stream with the session token and decodes the answer', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    vi.stubGlobal('XMLHttpRequest', undefined);
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(JSON.stringify({ name: 'a'.repeat(32) + '.png', size: 3, contentType: 'image/png', fileName: 'logo.png' }), { status: 200 });
    });
    const answer = await new ApiClient().uploadBlob('account', 'logo', new Blob([new Uint8Array([1, 2, 3])]), 'logo.png');
    expect(answer).toEqual({ name: 'a'.repeat(32) + '.png', size: 3, contentType: 'image/png', fileName: 'logo.png' });
    expect(seen[0].url).toBe('/api/blob?entity=account&field=logo&fileName=logo.png');
    expect(seen[0].init.method).toBe('POST');
    expect((seen[0].init.headers as Record<string, string>)['Content-Type']).toBe('application/octet-stream');
  });

  it('a refused upload is "Server Error: {text}" with the status (spec 001 section 8)', async () => {
    vi.stubGlobal('XMLHttpRequest', undefined);
    vi.stubGlobal('fetch', async () => new Response('ERR_TOO_LARGE: the file is over the limit of 25 MB', { status: 413, statusText: 'Payload Too Large' }));
    const e = await new ApiClient().uploadBlob('account', 'logo', new Blob(['x']), 'big.png').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServerError);
    expect((e as ServerError).status).toBe(413);
    expect((e as Error).message).toBe('Server Error: ERR_TOO_LARGE: the file is over the limit of 25 MB');
  });
});
