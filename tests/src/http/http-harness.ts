import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Mailer, MailMessage, PasswordHasher } from '@tessera/core/internal';
export { isLeft };
import { ScryptPasswordHasher } from '@tessera/adapters-http';
import { CliTokens, defaultHostConfig, packsFor, resolve, startServer, type HostConfig, type RunningServer } from '@tessera/cli';

/** Mail kept in memory, for tests that follow links without an SMTP server. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(m: MailMessage): Promise<void> {
    this.sent.push(m);
  }
  lastTo(to: string): MailMessage | undefined {
    return [...this.sent].reverse().find((m) => m.to === to);
  }
}

/**
 * The HTTP suites run with scrypt at N=2^10: the rules under test (uniform failures, limits,
 * links) do not depend on the cost, and hundreds of sign-ins at N=2^17 would take minutes. The
 * production parameters are checked by the hasher's own test.
 */
export const testHasher = new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });

/**
 * A hasher that counts its verifications: sign-in refusals that must cost the same (unknown
 * organization, unknown user, wrong password) are checked by the work done, one verification
 * each, not by a stopwatch.
 */
export class CountingHasher implements PasswordHasher {
  verifications = 0;
  constructor(private readonly inner: PasswordHasher = testHasher) {}
  hash(password: string): Promise<string> {
    return this.inner.hash(password);
  }
  verify(password: string, stored: string): Promise<boolean> {
    this.verifications++;
    return this.inner.verify(password, stored);
  }
}

export type Harness = {
  server: RunningServer;
  url: string;
  dataDir: string;
  mailer: MemoryMailer;
  createOrg(name: string, admin: { email: string; password: string; name?: string }, packs?: string[]): Promise<string>;
  close(): Promise<void>;
};

/** Real time plus an offset the test moves forward (link expiry, puzzle expiry). */
export class ShiftedClock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

export const startHarness = async (
  options: { mailer?: Mailer; sessionIdleMs?: number; clock?: ShiftedClock; staticDir?: string; hasher?: PasswordHasher; limits?: HostConfig['limits']; env?: Record<string, string> } = {},
): Promise<Harness> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-http-'));
  const mailer = new MemoryMailer();
  const config = {
    ...defaultHostConfig(dataDir, {}),
    logLevel: 'silent',
    ...(options.sessionIdleMs ? { sessionIdleMs: options.sessionIdleMs } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  };
  const server = await startServer(
    { ...config, port: 0, host: '127.0.0.1', staticDir: options.staticDir ?? join(dataDir, 'no-ui'), ...(options.env ? { env: { ...process.env, ...options.env } } : {}) },
    { mailer: options.mailer ?? mailer, logger: pino({ level: 'silent' }), hasher: options.hasher ?? testHasher, clock: options.clock },
  );
  const orgs = resolve(server.container, CliTokens.Organizations);
  return {
    server,
    url: server.url.replace('localhost', '127.0.0.1'),
    dataDir,
    mailer,
    createOrg: async (name, admin, packs = []) => {
      const r = await orgs.createWithPacks({ orgName: name, admin: { name: admin.name ?? 'Admin', email: admin.email, password: admin.password } }, packsFor(packs));
      if (isLeft(r)) throw new Error(r.left.message);
      return r.right.adminId;
    },
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** A small client of the /api contract. */
export class Api {
  token = '';
  constructor(readonly base: string) {}

  async form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.base}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.token ? { 'x-accessptoken': this.token } : {}), ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async login(organization: string, username: string, password: string): Promise<Response> {
    const r = await this.form('login', { organization, username, password });
    const t = r.headers.get('x-accessptoken');
    if (t) this.token = t;
    return r;
  }

  async get(path: string): Promise<Response> {
    return fetch(`${this.base}/api/${path}`, { headers: this.token ? { 'x-accessptoken': this.token } : {} });
  }

  async post(path: string, body: unknown): Promise<Response> {
    return fetch(`${this.base}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(this.token ? { 'x-accessptoken': this.token } : {}) },
      body: JSON.stringify(body),
    });
  }

  async fetchRecords(query: unknown): Promise<{ records: Array<Record<string, unknown>>; count: number | null }> {
    const r = await this.post('fetch', query);
    if (r.status !== 200) throw new Error(`fetch ${r.status}: ${await r.text()}`);
    return (await r.json()) as { records: Array<Record<string, unknown>>; count: number | null };
  }

  async create(name: string, object: Record<string, unknown>): Promise<string> {
    const r = await this.post('update', { operation: 'create', name, object });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`create ${name} ${r.status}: ${text}`);
    return text;
  }
}

/** One change as /api/stream sends it. */
export type StreamChange = { entity: string; id: string; operation: string; stamp: string };

/** An open /api/stream of Server-Sent Events, read as they come. */
export type OpenStream = {
  readonly events: StreamChange[];
  /** Resolves once `done(events)` holds; rejects after `timeoutMs` (a safety net for a failing test, not a timing). */
  until(done: (events: readonly StreamChange[]) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Opens /api/stream and resolves once the server has answered: it subscribes to the feed before
 * it sends its headers, so every change made after this resolves reaches the stream. Tests wait on
 * the events they expect (and, to show one did not come, on a later one: a stream sends changes in
 * the order they were made), never on a sleep.
 */
export const openStream = async (base: string, token: string, since?: string): Promise<OpenStream> => {
  const ctrl = new AbortController();
  const url = `${base}/api/stream?token=${encodeURIComponent(token)}${since ? `&since=${encodeURIComponent(since)}` : ''}`;
  const r = await fetch(url, { signal: ctrl.signal });
  if (r.status !== 200 || !/^text\/event-stream/.test(r.headers.get('content-type') ?? '')) throw new Error(`stream answered ${r.status}`);
  const events: StreamChange[] = [];
  const waiting = new Set<() => void>();
  const reading = (async () => {
    const reader = r.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let i;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer.slice(0, i).split('\n').find((l) => l.startsWith('data: '));
          buffer = buffer.slice(i + 2);
          if (data) events.push(JSON.parse(data.slice(6)) as StreamChange);
        }
        for (const w of [...waiting]) w();
      }
    } catch (e) {
      if ((e as Error).name !== 'AbortError') throw e;
    }
  })();
  return {
    events,
    until: (done, timeoutMs = 15_000) =>
      new Promise<void>((ok, fail) => {
        const check = () => {
          if (!done(events)) return;
          waiting.delete(check);
          clearTimeout(timer);
          ok();
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          fail(new Error(`the expected events did not come; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiting.add(check);
        check();
      }),
    stop: async () => {
      ctrl.abort();
      await reading;
    },
  };
};
