import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '@tessera/core/internal';
import { DiskBlobStore } from '@tessera/adapters-sql';
import { AzureBlobStore } from '@tessera/adapters-graph';

/**
 * The BlobStore contract (issue 18): the same suite against the embedded disk store and against
 * Azure block blobs on Azurite, which this file starts on a free port with a temporary folder.
 */
const AZURITE = fileURLToPath(new URL('../../../node_modules/.bin/azurite-blob', import.meta.url));
/** Azurite's well-known development account. */
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });

const waitForPort = async (port: number, ms: number): Promise<void> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/devstoreaccount1?comp=list`);
      await r.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`Azurite did not answer on ${port}`);
};

async function* chunks(...parts: Array<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield typeof p === 'string' ? new TextEncoder().encode(p) : p;
}
async function* failing(): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode('half a file');
  throw new Error('connection cut');
}
const readAll = async (body: AsyncIterable<Uint8Array>): Promise<Buffer> => {
  const out: Buffer[] = [];
  for await (const c of body) out.push(Buffer.from(c));
  return Buffer.concat(out);
};

const NAME = '0123456789abcdef0123456789abcdef.txt';
const PNG = 'fedcba9876543210fedcba9876543210.png';

type Subject = { name: string; store: () => BlobStore; leftovers?: () => string[] };

let diskDir = '';
let azurite: ChildProcess | null = null;
let azure: AzureBlobStore | null = null;
let azuriteDir = '';

beforeAll(async () => {
  diskDir = mkdtempSync(join(tmpdir(), 'tessera-blobs-'));
  azuriteDir = mkdtempSync(join(tmpdir(), 'tessera-azurite-'));
  const port = await freePort();
  azurite = spawn(AZURITE, ['--blobHost', '127.0.0.1', '--blobPort', String(port), '--location', azuriteDir, '--skipApiVersionCheck', '--loose', '--silent'], { stdio: 'ignore' });
  await waitForPort(port, 30_000);
  azure = new AzureBlobStore({
    connectionString: `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${AZURITE_KEY};BlobEndpoint=http://127.0.0.1:${port}/devstoreaccount1;`,
    container: 'contract',
  });
});

afterAll(() => {
  azurite?.kill();
  rmSync(diskDir, { recursive: true, force: true });
  rmSync(azuriteDir, { recursive: true, force: true });
});

const subjects: Subject[] = [
  { name: 'disk', store: () => new DiskBlobStore(diskDir), leftovers: () => readdirSync(join(diskDir, 'files', 'acme')).filter((f) => f.startsWith('.')) },
  { name: 'azure (Azurite)', store: () => azure as AzureBlobStore },
];

describe.each(subjects)('BlobStore contract: $name', (subject) => {
  it('put then get: the same bytes, size and content type; exists; delete', async () => {
    const store = subject.store();
    const put = await store.put('acme', NAME, chunks('Dobrý ', 'deň'), { contentType: 'text/plain; charset=utf-8', maxBytes: 1000 });
    const size = Buffer.byteLength('Dobrý deň');
    expect(put).toEqual({ _tag: 'Stored', size });
    expect(await store.exists('acme', NAME)).toBe(true);
    const got = await store.get('acme', NAME);
    expect(got?.size).toBe(size);
    expect(got?.contentType).toBe('text/plain; charset=utf-8');
    expect((await readAll(got!.body)).toString('utf8')).toBe('Dobrý deň');
    expect(await store.delete('acme', NAME)).toBe(true);
    expect(await store.exists('acme', NAME)).toBe(false);
    expect(await store.get('acme', NAME)).toBeNull();
    expect(await store.delete('acme', NAME)).toBe(false);
  });

  it('organizations are apart: a blob of one is not found in another', async () => {
    const store = subject.store();
    await store.put('acme', PNG, chunks(new Uint8Array([0x89, 0x50, 0x4e, 0x47])), { contentType: 'image/png', maxBytes: 100 });
    expect(await store.exists('other', PNG)).toBe(false);
    expect(await store.get('other', PNG)).toBeNull();
    expect(await store.exists('acme', PNG)).toBe(true);
  });

  it('past maxBytes: TooLarge, and nothing is kept', async () => {
    const store = subject.store();
    const big = new Uint8Array(600);
    const r = await store.put('acme', NAME, chunks(big, big), { contentType: 'text/plain', maxBytes: 1000 });
    expect(r).toEqual({ _tag: 'TooLarge', maxBytes: 1000 });
    expect(await store.exists('acme', NAME)).toBe(false);
    expect(subject.leftovers?.() ?? []).toEqual([]);
  });

  it('a stream that fails halfway rejects, and nothing is kept', async () => {
    const store = subject.store();
    await expect(store.put('acme', NAME, failing(), { contentType: 'text/plain', maxBytes: 1000 })).rejects.toThrow('connection cut');
    expect(await store.exists('acme', NAME)).toBe(false);
    expect(subject.leftovers?.() ?? []).toEqual([]);
  });

  it('names that are not blob names reach nothing: traversal and other organizations\' paths', async () => {
    const store = subject.store();
    for (const bad of ['../acme/' + PNG, `${PNG}/../x`, 'x.png', '..', ''])
      for (const org of ['acme', '../acme', 'ACME/..'])
        expect(await store.get(org, bad), `${org} ${bad}`).toBeNull();
    await expect(store.put('acme', '../evil.png', chunks('x'), { contentType: 'image/png', maxBytes: 10 })).rejects.toThrow(RangeError);
    await expect(store.put('../acme', PNG, chunks('x'), { contentType: 'image/png', maxBytes: 10 })).rejects.toThrow(RangeError);
  });

  it('a large file streams in (10 MB in 64 KB chunks)', async () => {
    const store = subject.store();
    const chunk = new Uint8Array(64 * 1024).fill(7);
    async function* tenMb(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 160; i += 1) yield chunk;
    }
    const r = await store.put('acme', PNG, tenMb(), { contentType: 'image/png', maxBytes: 25 * 1024 * 1024 });
    expect(r).toEqual({ _tag: 'Stored', size: 160 * 64 * 1024 });
    const got = await store.get('acme', PNG);
    expect((await readAll(got!.body)).length).toBe(160 * 64 * 1024);
  });
});
