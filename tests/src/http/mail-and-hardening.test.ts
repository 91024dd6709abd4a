import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Writable } from 'node:stream';
import { InMemoryChangeFeed, SignInService, systemClock, type RecordStore, type TenantRegistry } from '@tessera/core/internal';
import { createApp, PuzzleSeal } from '@tessera/adapters-http';
import { LocalImportFiles, OutboxMailer, SmtpMailer, StreamExportWriter } from '@tessera/adapters-graph';
import { Api, MemoryMailer, startHarness, testHasher, type Harness } from './http-harness.js';

const ORG = 'mailco';
const ADMIN = { email: 'admin@mailco.test', password: 'mail-password-1' };

describe('mail through a real SMTP server on loopback', () => {
  let smtp: SMTPServer;
  const received: string[] = [];
  /** Resolves with the next message the SMTP server accepts: the test waits on delivery, not on a timer. */
  let delivered: (text: string) => void = () => undefined;
  const nextMessage = () => new Promise<string>((ok) => (delivered = ok));
  let h: Harness;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let text = '';
        stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
        stream.on('end', () => {
          received.push(text);
          done();
          delivered(text);
        });
      },
    });
    await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', () => ok()));
    const port = (smtp.server.address() as AddressInfo).port;
    h = await startHarness({ mailer: new SmtpMailer({ host: '127.0.0.1', port, secure: false, from: 'tessera@mailco.test' }) });
    await h.createOrg(ORG, ADMIN);
  });
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((ok) => smtp.close(() => ok()));
  });

  it('the sign-in link arrives by SMTP, and following it signs in', async () => {
    const arrived = nextMessage();
    const r = await new Api(h.url).form('getmagic', { organization: ORG, username: ADMIN.email });
    expect(await r.text()).toBe('OK_CHECK_EMAIL');
    const message = await arrived;
    expect(message).toContain(`To: ${ADMIN.email}`);
    // Quoted-printable may fold long lines: unfold before reading the link.
    const unfolded = message.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = new URL(/https?:\/\/\S+\/magic\?\S+/.exec(unfolded)![0]);
    const api = new Api(h.url);
    const signedIn = await api.login(link.searchParams.get('o')!, link.searchParams.get('u')!, link.searchParams.get('q')!);
    expect(signedIn.status).toBe(200);
    expect((await api.get('getusercontext')).status).toBe(200);
  });
});

describe('the embedded outbox', () => {
  it('writes each message into the data folder and logs the link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-outbox-'));
    const logged: Array<string | undefined> = [];
    try {
      await new OutboxMailer(join(dir, 'outbox'), (_line, link) => logged.push(link)).send({ to: 'a@b.test', subject: 'Sign in', text: 'open http://x/magic?q=1', link: 'http://x/magic?q=1' });
      const files = readdirSync(join(dir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(readFileSync(join(dir, 'outbox', files[0]), 'utf8')).toContain('http://x/magic?q=1');
      expect(logged).toEqual(['http://x/magic?q=1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('hardening', () => {
  it('a bug answers 500 ERR_SERVER quoting the request id of the log line, with no stack trace', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _e, cb) => (lines.push(String(chunk)), cb()) }));
    const broken: RecordStore = new Proxy({} as RecordStore, { get: () => () => Promise.reject(new Error('secret internal detail')) });
    const tenants: TenantRegistry = { open: async () => ({ name: 'x', store: broken, feed: new InMemoryChangeFeed(), entities: () => [] }), close: async () => undefined };
    const session = { name: 's', orgName: 'x', userId: 'u', userName: 'U', created: new Date(), modified: new Date(), read: new Date(), ip: '', agent: '' };
    const signIn = { authenticate: async () => session } as unknown as SignInService;
    const app = createApp({
      signIn,
      sessions: {} as never,
      directory: {} as never,
      tenants,
      organizations: {} as never,
      puzzles: new PuzzleSeal(),
      importFiles: new LocalImportFiles(),
      exports: new StreamExportWriter(),
      clock: systemClock,
      logger,
      config: { buildDate: new Date().toISOString() },
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    try {
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/getusercontext`, { headers: { 'x-accessptoken': 't' } });
      const text = await r.text();
      expect(r.status).toBe(500);
      const id = r.headers.get('x-request-id')!;
      expect(text).toBe(`ERR_SERVER: an unexpected error happened (request ${id})`);
      expect(text).not.toContain('secret internal detail');
      const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; msg: string; err?: { message: string } });
      expect(logged.find((l) => l.msg === 'unexpected error' && l.reqId === id)?.err?.message).toBe('secret internal detail');
      expect(logged.find((l) => l.msg === 'request' && l.reqId === id)).toBeTruthy();
    } finally {
      server.close();
    }
  });

  it('past the per-address limit of failed sign-ins, every account answers 429 from that address', async () => {
    const h = await startHarness();
    try {
      await h.createOrg(ORG, ADMIN);
      const api = new Api(h.url);
      let status = 0;
      let n = 0;
      while (status !== 429 && n < 400) {
        const r = await api.form('login', { organization: ORG, username: `user${n}@mailco.test`, password: 'wrong-password' });
        status = r.status;
        n++;
      }
      // Issue 22: 100 free failures per address, then growing delays.
      expect(n).toBe(101);
      const right = await api.login(ORG, ADMIN.email, ADMIN.password);
      expect(right.status).toBe(429);
      expect(right.headers.get('retry-after')).toBeTruthy();
    } finally {
      await h.close();
    }
  });

  it('the production hasher stores scrypt with N=2^17, r=8, p=1 and verifies', async () => {
    const { ScryptPasswordHasher } = await import('@tessera/adapters-http');
    const hasher = new ScryptPasswordHasher();
    const stored = await hasher.hash('a fine password');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await hasher.verify('a fine password', stored)).toBe(true);
    expect(await hasher.verify('another password', stored)).toBe(false);
    expect(await hasher.verify('a fine password', 'scrypt$1048577$8$1$AAAA$AAAA')).toBe(false);
    expect(await testHasher.verify('x', stored.replace('scrypt', 'bcrypt'))).toBe(false);
    expect(new MemoryMailer().sent).toEqual([]);
  });
});
