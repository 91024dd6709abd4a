import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Api, openStream, startHarness, type Harness } from './http-harness.js';

const PW = 'tenant-password-1';

/** Every row of every table of an organization's database, hashed: any change shows. */
const fingerprint = (file: string, except: string[] = []): string => {
  const db = new Database(file, { readonly: true });
  try {
    const hash = createHash('sha256');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
    for (const { name } of tables) {
      // Full-text tables (issue 24) are derived from the tables hashed here (and some have no rowid).
      if (except.includes(name) || name.startsWith('tessera_fts_')) continue;
      hash.update(name);
      for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()) hash.update(JSON.stringify(row));
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
};

describe('tenancy: a token reaches only its own organization', () => {
  let h: Harness;
  let a: Api;
  let b: Api;
  const aIds: string[] = [];
  const bIds: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg('alpha', { email: 'admin@alpha.test', password: PW }, ['demo']);
    await h.createOrg('beta', { email: 'admin@beta.test', password: PW }, ['demo']);
    a = new Api(h.url);
    b = new Api(h.url);
    expect((await a.login('alpha', 'admin@alpha.test', PW)).status).toBe(200);
    expect((await b.login('beta', 'admin@beta.test', PW)).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      aIds.push(await a.create('account', { name: `Alpha account ${i}` }));
      bIds.push(await b.create('account', { name: `Beta secret ${i}` }));
    }
    bIds.push(await b.create('contact', { name: 'Beta secret contact', lastname: 'Secret' }));
  });
  afterAll(async () => h?.close());

  it('a user of one organization cannot sign in to another with the same credentials', async () => {
    const r = await new Api(h.url).login('beta', 'admin@alpha.test', PW);
    expect(r.status).toBe(401);
  });

  it('1000 generated fetch, update and executemultiple calls as A, with ids of B, read and change nothing of B, and A\'s stream carries no event of B', async () => {
    const bFile = join(h.dataDir, 'orgs', 'beta.sqlite');
    const anyId = fc.oneof(fc.constantFrom(...aIds), fc.constantFrom(...bIds), fc.uuid());
    const entity = fc.constantFrom('account', 'contact', 'systemuser', 'inu_role');
    const fetchCall = fc.record({
      kind: fc.constant('fetch' as const),
      entity,
      ids: fc.array(anyId, { minLength: 1, maxLength: 5 }),
      like: fc.constantFrom('Beta%', '%secret%', 'Alpha%', '%'),
    });
    const updateCall = fc.record({
      kind: fc.constant('update' as const),
      operation: fc.constantFrom('update', 'delete'),
      entity,
      id: anyId,
      name: fc.string({ maxLength: 20 }),
    });
    const batchCall = fc.record({
      kind: fc.constant('batch' as const),
      atomic: fc.boolean(),
      items: fc.array(fc.record({ operation: fc.constantFrom('update', 'delete'), id: anyId, name: fc.string({ maxLength: 10 }) }), { minLength: 1, maxLength: 4 }),
    });
    const calls = fc.sample(fc.oneof(fetchCall, updateCall, batchCall), { numRuns: 1000, seed: 20261121 });

    // B's own writes during the run go to its leads; everything else of B must stay as it is.
    // B's lead writes are audited (issue 23 item 6): its audit rows other than of leads must stay as they are.
    const otherAudit = { entity: { name: 'audit', filter: { conditions: [{ attribute: 'logicalname', operator: 'ne', value: 'lead' }] } }, count: true };
    const auditBefore = (await b.fetchRecords(otherAudit)).count;
    const before = fingerprint(bFile, ['lead', 'audit']);
    const tokenRes = await a.get('ssetoken');
    const stream = await openStream(h.url, ((await tokenRes.json()) as { token: string }).token);
    // B keeps working meanwhile: its changes must not reach A's stream.
    const bWrites: string[] = [];
    const bWork = (async () => {
      for (let i = 0; i < 10; i++) bWrites.push(await b.create('lead', { name: `Beta during ${i}`, status: 1 }));
    })();

    const bSet = new Set([...bIds]);
    for (const call of calls) {
      let r: Response;
      if (call.kind === 'fetch') {
        r = await a.post('fetch', {
          entity: {
            name: call.entity,
            allattrs: true,
            filter: { type: 'or', conditions: [{ attribute: 'id', operator: 'in', value: call.ids }, { attribute: 'name', operator: 'like', value: call.like }] },
          },
          count: true,
        });
        expect(r.status).toBe(200);
        const page = (await r.json()) as { records: Array<Record<string, unknown>> };
        for (const rec of page.records) expect(bSet.has(String(rec.id))).toBe(false);
        expect(JSON.stringify(page)).not.toContain('Beta');
      } else if (call.kind === 'update') {
        r = await a.post('update', { operation: call.operation, name: call.entity, object: { id: call.id, name: call.name } });
        if (bSet.has(call.id)) expect(r.status).toBe(404);
        expect(await r.text()).not.toContain('Beta');
      } else {
        r = await a.post('executemultiple', { atomic: call.atomic, records: call.items.map((i) => ({ operation: i.operation, name: 'account', object: { id: i.id, name: i.name } })) });
        expect(r.status).toBe(200);
        const out = (await r.json()) as Array<{ id?: string; error?: string }>;
        call.items.forEach((item, k) => {
          if (bSet.has(item.id)) expect(out[k].id).toBeUndefined();
        });
        expect(JSON.stringify(out)).not.toContain('Beta');
      }
    }
    await bWork;
    // A change of A made after all of B's: once A's stream has it, anything of B's would have come before.
    const marker = await a.create('lead', { name: 'Alpha marker', status: 1 });
    await stream.until((events) => events.some((e) => e.id === marker));
    await stream.stop();

    expect(fingerprint(bFile, ['lead', 'audit'])).toBe(before);
    expect((await b.fetchRecords(otherAudit)).count).toBe(auditBefore);
    const bAccounts = await b.fetchRecords({ entity: { name: 'account', filter: { conditions: [{ attribute: 'id', operator: 'in', value: bIds.slice(0, 20) }] } }, count: true });
    expect(bAccounts.count).toBe(20);
    expect(bAccounts.records.every((r) => String(r.name).startsWith('Beta secret'))).toBe(true);
    const bWriteSet = new Set([...bWrites, ...bIds]);
    expect(stream.events.filter((e) => bWriteSet.has(e.id))).toEqual([]);
  });
});
