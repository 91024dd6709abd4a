import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Mailer, MailMessage } from '@tessera/core/internal';
export { isLeft };
import { ScryptPasswordHasher } from '@tessera/adapters-http';
import { CliTokens, defaultHostConfig, packsFor, startServer, type OrganizationCreator, type RunningServer } from '@tessera/cli';

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

export const startHarness = async (options: { mailer?: Mailer; sessionIdleMs?: number; clock?: ShiftedClock; staticDir?: string } = {}): Promise<Harness> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-http-'));
  const mailer = new MemoryMailer();
  const config = { ...defaultHostConfig(dataDir, {}), logLevel: 'silent', ...(options.sessionIdleMs ? { sessionIdleMs: options.sessionIdleMs } : {}) };
  const server = await startServer(
    { ...config, port: 0, host: '127.0.0.1', staticDir: options.staticDir ?? join(dataDir, 'no-ui') },
    { mailer: options.mailer ?? mailer, logger: pino({ level: 'silent' }), hasher: testHasher, clock: options.clock },
  );
  const orgs = server.container.get<{ createWithPacks: OrganizationCreator }>(CliTokens.Organizations);
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
