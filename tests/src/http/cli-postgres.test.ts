import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runCli } from '@tessera/cli';
import { postgresMissing, startPostgres, type PostgresServer } from '../fixtures/postgres-server.js';

/** Runs the command line in-process, capturing what it prints (as cli-commands.test.ts). */
const cli = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  try {
    const code = await runCli(argv);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
};

const MISSING = postgresMissing();
if (MISSING) console.warn(MISSING);

/** Issue 25: `tessera org create` and `org list` with `--db postgres --connection URL` on a real server. */
describe.skipIf(MISSING !== null)('tessera org on PostgreSQL (issue 25)', () => {
  let server: PostgresServer;
  let data: string;
  let url: string;
  beforeAll(async () => {
    server = await startPostgres();
    url = server.url(server.createDatabase('tessera'));
    data = mkdtempSync(join(tmpdir(), 'tessera-cli-pg-'));
    process.env.TESSERA_LOG_LEVEL = 'silent';
  }, 60_000);
  afterAll(() => {
    server?.stop();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it('org create makes the organization schema with its tables and administrator; org list names it', async () => {
    const r = await cli('org', 'create', 'Acme-Corp', '--admin-email', 'Boss@Acme.test', '--admin-password', 'boss-password', '--db', 'postgres', '--connection', url, '--data', data);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('created organization acme-corp');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const users = await c.query(`SELECT emailaddress FROM o_acme_corp.systemuser`);
      expect(users.rows.map((x) => x.emailaddress)).toContain('boss@acme.test');
      const version = await c.query(`SELECT MAX(version) AS v FROM o_acme_corp.tessera_metadata`);
      expect(Number(version.rows[0].v)).toBeGreaterThanOrEqual(1);
    } finally {
      await c.end();
    }
    const list = await cli('org', 'list', '--db', 'postgres', '--connection', url, '--data', data);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toContain('acme-corp');
  });

  it('--db postgres without --connection is a usage error (exit 2)', async () => {
    expect((await cli('org', 'list', '--db', 'postgres', '--data', data)).code).toBe(2);
  });
});
