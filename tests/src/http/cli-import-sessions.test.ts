import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '@tessera/cli';
import { STATE_INACTIVE } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

const ORG = 'console';
const ADMIN = { email: 'admin@console.test', password: 'console-password-1' };

/** Runs the command line in-process, capturing what it prints. */
const cli = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  try {
    return { code: await runCli(argv), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
};

describe('tessera import follows the core rules of the HTTP import', () => {
  let h: Harness;
  let admin: Api;

  beforeAll(async () => {
    process.env.TESSERA_LOG_LEVEL = 'silent';
    h = await startHarness();
    await h.createOrg(ORG, ADMIN);
    admin = new Api(h.url);
    await admin.login(ORG, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => h?.close());

  it('spec 002 section 5: a link entity cannot be imported (the same text as the HTTP import)', async () => {
    const file = join(h.dataDir, 'links.csv');
    writeFileSync(file, 'systemuserid;roleid\n');
    const r = await cli('import', '--org', ORG, '--entity', 'systemuserroles', '--file', file, '--yes', '--data', h.dataDir);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe('tessera: systemuserroles is a link entity and cannot be imported');
    const http = await fetch(`${h.url}/api/import/upload?entity=systemuserroles`, { method: 'POST', headers: { 'x-accessptoken': admin.token }, body: 'systemuserid;roleid\n' });
    expect([http.status, await http.text()]).toEqual([400, 'ERR_INPUT: systemuserroles is a link entity and cannot be imported']);
  });

  it('issue 6: a file that deactivates a user ends their sessions', async () => {
    const email = 'leaver@console.test';
    const id = await admin.create('systemuser', { name: 'leaver', emailaddress: email });
    expect((await admin.form('changepassword', { userId: id, newPassword: 'first-password-1' })).status).toBe(200);
    const user = new Api(h.url);
    const signedIn = await user.form('mustchangepassword', { organization: ORG, username: email, password: 'first-password-1', newPassword: 'second-password-1' });
    expect(signedIn.status).toBe(200);
    user.token = signedIn.headers.get('x-accessptoken')!;
    expect((await user.get('getusercontext')).status).toBe(200);
    const names = async () => ((await (await admin.get('cache_debug')).json()) as Array<{ username: string }>).map((s) => s.username);
    expect(await names()).toContain('leaver');

    const file = join(h.dataDir, 'leavers.csv');
    writeFileSync(file, `emailaddress;statecode\n${email};${STATE_INACTIVE}\n`);
    const r = await cli('import', '--org', ORG, '--entity', 'systemuser', '--file', file, '--match', 'emailaddress', '--yes', '--data', h.dataDir);
    expect(r.code, r.err + r.out).toBe(0);
    // The ended session is gone from the catalog at once (the server trusts a resolved session for 2 s).
    expect(await names()).not.toContain('leaver');
  });
});
