import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@tessera/cli';

/** Runs the command line in-process, capturing what it prints. */
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

describe('tessera org, user and demo commands', () => {
  let data: string;
  beforeAll(() => {
    data = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
    process.env.TESSERA_LOG_LEVEL = 'silent';
  });
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it('each command has --help and exits 0', async () => {
    for (const argv of [['serve', '--help'], ['org', 'create', '--help'], ['user', 'add', '--help'], ['user', 'invite', '--help'], ['user', 'passwd', '--help'], ['demo', '--help']]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out + r.err).toContain('Usage: tessera');
    }
  });

  it('org create makes the database with the system pack, the admin role and user; a second create of the name fails with exit 1', async () => {
    const r = await cli('org', 'create', 'Acme', '--admin-email', 'Boss@Acme.test', '--admin-password', 'boss-password', '--data', data);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('created organization acme');
    expect(readdirSync(join(data, 'orgs'))).toContain('acme.sqlite');
    const again = await cli('org', 'create', 'acme', '--admin-email', 'x@acme.test', '--admin-password', 'boss-password', '--data', data);
    expect(again.code).toBe(1);
    expect(again.err.trim()).toBe('tessera: Organization acme exists already');
    expect(again.err.trim().split('\n')).toHaveLength(1);
  });

  it('wrong usage exits 2 with a one-line error: a missing option, a bad name, an unknown pack', async () => {
    expect((await cli('org', 'create', 'x', '--admin-email', 'a@b.test', '--data', data)).code).toBe(2);
    const bad = await cli('org', 'create', '../etc', '--admin-email', 'a@b.test', '--admin-password', 'long-enough', '--data', data);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^tessera: Invalid organization name/);
    expect((await cli('org', 'create', 'y', '--admin-email', 'a@b.test', '--admin-password', 'long-enough', '--pack', 'nope', '--data', data)).code).toBe(2);
    expect((await cli('serve', '--port', 'x')).code).toBe(2);
    expect((await cli('serve', '--db', 'mssql', '--data', data)).code).toBe(2);
    expect((await cli('org', 'list', '--connection', 'Server=x', '--data', data)).code).toBe(2);
  });

  it('user add, passwd and invite work on one organization', async () => {
    const add = await cli('user', 'add', '--org', 'acme', '--email', 'ann@acme.test', '--password', 'ann-password', '--role', 'admin', '--data', data);
    expect(add.code, add.err).toBe(0);
    const dup = await cli('user', 'add', '--org', 'acme', '--email', 'ANN@acme.test', '--data', data);
    expect(dup.code).toBe(1);
    const role = await cli('user', 'add', '--org', 'acme', '--email', 'bob@acme.test', '--role', 'nosuchrole', '--data', data);
    expect([role.code, role.err.trim()]).toEqual([1, 'tessera: No role named nosuchrole']);
    const pw = await cli('user', 'passwd', '--org', 'acme', '--email', 'ann@acme.test', '--password', 'ann-password-2', '--data', data);
    expect(pw.code, pw.err).toBe(0);
    const invite = await cli('user', 'invite', '--org', 'acme', '--email', 'cid@acme.test', '--data', data);
    expect(invite.code, invite.err).toBe(0);
    expect(invite.out).toMatch(/\/magic\?o=acme&u=cid%40acme\.test&q=ml_[\w-]+&reason=INVITE/);
    const mail = readdirSync(join(data, 'outbox'));
    expect(readFileSync(join(data, 'outbox', mail[0]), 'utf8')).toContain('Magic links work only for 5 minutes.');
    const noOrg = await cli('user', 'add', '--org', 'nosuch', '--email', 'a@b.test', '--data', data);
    expect([noOrg.code, noOrg.err.trim()]).toEqual([1, 'tessera: no organization nosuch']);
  });

  it('with --db mssql the organization goes to the SQL Server of --connection; an unreachable one fails in one line with exit 1', async () => {
    const r = await cli('org', 'create', 'sqlco', '--admin-email', 'a@b.test', '--admin-password', 'long-enough', '--db', 'mssql', '--connection', 'Server=127.0.0.1,1;User Id=sa;Password=x;Encrypt=false', '--data', data);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(/^tessera: organization sqlco not created: Failed to connect to 127\.0\.0\.1:1/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('serve listens, answers the API, and stops cleanly on SIGTERM with exit 0', async () => {
    let out = '';
    // The test goes on when serve prints its address (an event), not after a number of sleeps.
    let served: (url: string) => void = () => undefined;
    const serving = new Promise<string>((ok) => (served = ok));
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((x: string | Uint8Array) => {
      out += String(x);
      const m = /Tessera serves (http:\/\/\S+)/.exec(out);
      if (m) served(m[1]);
      return true;
    });
    try {
      const running = runCli(['serve', '--port', '0', '--host', '127.0.0.1', '--data', data]);
      const url = await Promise.race([serving, running.then((code) => Promise.reject(new Error(`serve ended with ${code}: ${out}`)))]);
      const r = await fetch(`${url.replace('localhost', '127.0.0.1')}/api/401`);
      expect([r.status, r.statusText]).toEqual([401, 'NOT AUTHORIZED']);
      const login = await fetch(`${url.replace('localhost', '127.0.0.1')}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'organization=acme&username=boss%40acme.test&password=boss-password',
      });
      expect(login.status).toBe(200);
      process.emit('SIGTERM');
      expect(await running).toBe(0);
    } finally {
      o.mockRestore();
    }
  });

  it('demo creates the organization demo with a few hundred records, two teams and users of different roles', async () => {
    const r = await cli('demo', '--data', data);
    expect(r.code, r.err).toBe(0);
    const total = Number(/with (\d+) records/.exec(r.out)![1]);
    expect(total).toBeGreaterThanOrEqual(200);
    expect(r.out).toContain('admin@demo.test');
    expect(r.out).toContain('Salesperson, team North');
    expect(r.out).toContain('Technician, team South');
    expect((await cli('demo', '--data', data)).code).toBe(1);
  });
});
