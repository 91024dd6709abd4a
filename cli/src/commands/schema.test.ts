import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pkg from 'node-sql-parser';
import { openOrgDatabase, createOrganizationDatabase } from '@tessera/adapters-sql';
import { systemPack, type Entity } from '@tessera/core/internal';
import { runCli } from '../program.js';

/** `tessera schema export|diff|apply` against real organization databases in a temporary data folder. */
let data: string;
let stdout: string;
let stderr: string;
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'tessera-cli-schema-'));
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(data, { recursive: true, force: true });
});

const entity = (logicalName: string, properties: Entity['properties']): Entity => ({
  logicalName,
  displayName: logicalName,
  displayNamePlural: logicalName,
  properties,
});
const v1 = [
  entity('account', [
    { logicalName: 'notes', displayName: 'Notes', type: 'String' },
    { logicalName: 'score', displayName: 'Score', type: 'Integer' },
  ]),
  entity('lead', []),
  // the system fields' lookups (createdby, modifiedby) target systemuser: a metadata file must have it
  entity('systemuser', []),
];
const tessera = (...args: string[]) => runCli(['schema', ...args, '--data', data]);
const sql = (statement: string) => {
  const db = openOrgDatabase(data, 'acme');
  if (db._tag === 'Left') throw new Error(db.left.message);
  try {
    const st = db.right.prepare(statement);
    return st.reader ? st.all() : (st.run(), []);
  } finally {
    db.right.close();
  }
};
const writeMetadata = (name: string, entities: Entity[]) => {
  const path = join(data, name);
  writeFileSync(path, JSON.stringify({ name: 'acme', entities }));
  return path;
};

describe('tessera schema (issue 4, spec 000 section 3)', () => {
  beforeEach(async () => {
    const created = await createOrganizationDatabase(data, 'acme', v1);
    if (created._tag === 'Left') throw new Error(JSON.stringify(created.left));
  });

  it('export writes the applied metadata: the complete set of entities with system fields, as a pack', async () => {
    const out = join(data, 'metadata.json');
    expect(await tessera('export', '--org', 'acme', '--out', out)).toBe(0);
    const pack = JSON.parse(readFileSync(out, 'utf8'));
    expect(pack.name).toBe('acme');
    expect(pack.entities.map((e: Entity) => e.logicalName)).toEqual(['account', 'lead', 'systemuser']);
    expect(pack.entities[0].properties.map((p: { logicalName: string }) => p.logicalName)).toContain('createdon');
    expect(stdout).toMatch(/^wrote 3 entities of acme \(metadata version 1, applied .*\) to .*metadata.json\n$/);
  });

  it('export without --out prints the metadata, and an exported file applies back with no change', async () => {
    expect(await tessera('export', '--org', 'ACME')).toBe(0);
    const path = join(data, 'same.json');
    writeFileSync(path, stdout);
    stdout = '';
    expect(await tessera('apply', '--org', 'acme', '--to', path)).toBe(0);
    expect(stdout).toBe('nothing to apply: acme already has this metadata\n');
  });

  it('diff prints the plan as DDL with each lossy step flagged and its rows counted', async () => {
    sql(`INSERT INTO account (id, score) VALUES ('a1', 3)`);
    const to = writeMetadata('to.json', [entity('account', [{ logicalName: 'notes', displayName: 'Notes', type: 'String', max: 10 }]), v1[1], v1[2]]);
    expect(await tessera('diff', '--org', 'acme', '--to', to)).toBe(0);
    expect(stdout).toContain('-- 2 steps, 2 can lose data (sqlite)');
    expect(stdout).toContain('-- step 1: drop column account.score  -- DATA LOSS: column account.score has values in 1 row\nCREATE TEMP TABLE "tessera_rebuild" AS SELECT "id" AS "id",');
    expect(stdout).toContain('-- (done by the rebuild of its table above)');
    expect(stdout).toContain('-- step 2: alter length of account.notes from max to 10  -- can lose data (no rows hold values now)');
    expect(sql(`SELECT score FROM account`)).toEqual([{ score: 3 }]);
  });

  it('diff --dialect mssql prints T-SQL that parses', async () => {
    const to = writeMetadata('to.json', [...v1, entity('contact', [{ logicalName: 'parentid', displayName: 'P', type: 'Lookup', targets: ['account'] }])]);
    expect(await tessera('diff', '--org', 'acme', '--to', to, '--dialect', 'mssql')).toBe(0);
    const statements = stdout.split('\n').filter((l) => l !== '' && !l.startsWith('--'));
    expect(statements[0]).toMatch(/^CREATE TABLE \[contact\] \(\[id\] uniqueidentifier NOT NULL DEFAULT NEWSEQUENTIALID\(\)/);
    const parser = new pkg.Parser();
    for (const s of statements) parser.astify(s.replace(/;$/, '').replace(/\browversion\b/g, 'timestamp'), { database: 'TransactSQL' });
  });

  it('diff without --to compares the tables with the applied metadata and finds a change made by hand', async () => {
    sql(`DROP INDEX "IX_account_createdon"`);
    expect(await tessera('diff', '--org', 'acme')).toBe(0);
    expect(stdout).toContain('-- step 1: create index IX_account_createdon on account (createdon)');
    stdout = '';
    expect(await tessera('apply', '--org', 'acme')).toBe(0);
    expect(stdout).toContain('step 1/1: create index IX_account_createdon on account (createdon)');
    stdout = '';
    await tessera('diff', '--org', 'acme');
    expect(stdout).toContain('-- no changes: the tables already match');
  });

  it('apply refuses a drop of a column or table holding data, naming each and its rows, and changes nothing', async () => {
    sql(`INSERT INTO account (id, score) VALUES ('a1', 3), ('a2', 4)`);
    sql(`INSERT INTO lead (id) VALUES ('l1')`);
    const to = writeMetadata('to.json', [entity('account', [{ logicalName: 'notes', displayName: 'Notes', type: 'String' }]), v1[2]]);
    expect(await tessera('apply', '--org', 'acme', '--to', to)).toBe(1);
    expect(stderr).toBe(
      'tessera: refused: the plan would lose data: column account.score has values in 2 rows; table lead holds 1 row. ' +
        'Check with "tessera schema diff", then run again with --allow-data-loss to apply it\n',
    );
    expect(sql(`SELECT version FROM tessera_metadata`)).toEqual([{ version: 1 }]);
    expect(sql(`SELECT COUNT(*) AS n FROM lead`)).toEqual([{ n: 1 }]);
  });

  it('apply --allow-data-loss applies it, printing one progress line per step', async () => {
    sql(`INSERT INTO lead (id) VALUES ('l1')`);
    const to = writeMetadata('to.json', [v1[0], v1[2], entity('contact', [])]);
    expect(await tessera('apply', '--org', 'acme', '--to', to, '--allow-data-loss')).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('step 1/6: drop table lead');
    expect(lines[1]).toBe('step 2/6: create table contact (11 columns)');
    expect(lines[lines.length - 1]).toMatch(/^applied metadata version 2 to acme: 6 steps, at \d{4}-\d\d-\d\dT/);
    expect(sql(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)).toEqual([
      { name: 'account' },
      { name: 'contact' },
      { name: 'systemuser' },
      { name: 'tessera_metadata' },
    ]);
  });

  it('apply --dry-run prints the plan and changes nothing', async () => {
    const to = writeMetadata('to.json', [...v1, entity('contact', [])]);
    expect(await tessera('apply', '--org', 'acme', '--to', to, '--dry-run')).toBe(0);
    expect(stdout).toContain('CREATE TABLE "contact"');
    expect(stdout).toMatch(/dry run: 5 steps planned, nothing applied\n$/);
    expect(sql(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'contact'`)).toEqual([{ n: 0 }]);
  });

  it('a statement that fails names its step and the database message, and leaves everything as it was', async () => {
    sql(`CREATE TABLE contact (x TEXT)`);
    const to = writeMetadata('to.json', [...v1, entity('contact', [])]);
    expect(await tessera('apply', '--org', 'acme', '--to', to)).toBe(1);
    expect(stderr).toMatch(/^tessera: step 1 \(create table contact \(11 columns\)\) failed: table "contact" already exists; nothing was changed\n$/);
    expect(sql(`SELECT version FROM tessera_metadata`)).toEqual([{ version: 1 }]);
  });

  it('an unknown organization is one line with what to do, exit code 1', async () => {
    expect(await tessera('export', '--org', 'nobody')).toBe(1);
    expect(stderr).toBe(`tessera: Unknown organization nobody in ${data}: check --org and --data (organizations are DATA/orgs/{name}.sqlite)\n`);
  });

  it('a metadata file that does not decode names the path inside it, exit code 1', async () => {
    const path = join(data, 'bad.json');
    writeFileSync(path, JSON.stringify({ name: 'x', entities: [{ logicalName: 'a', displayName: 'A', displayNamePlural: 'As', properties: [{ logicalName: 'b', displayName: 'B', type: 'Strin' }] }] }));
    expect(await tessera('diff', '--org', 'acme', '--to', path)).toBe(1);
    expect(stderr).toBe(`tessera: Invalid pack ${path}: entities.0(a).properties.0(b).type: expected PropertyType, got "Strin"; fix the file and run again\n`);
    writeFileSync(path, '{ not json');
    expect(await tessera('diff', '--org', 'acme', '--to', path)).toBe(1);
    expect(stderr).toMatch(/bad.json is not JSON: /);
  });

  it('wrong usage exits with 2: a missing --org, a bad dialect, a bad organization name, mssql without a connection', async () => {
    expect(await tessera('diff')).toBe(2);
    expect(await tessera('diff', '--org', 'acme', '--dialect', 'oracle')).toBe(2);
    expect(await tessera('diff', '--org', '../acme')).toBe(2);
    expect(await tessera('diff', '--org', 'acme', '--db', 'mssql')).toBe(2);
    expect(await tessera('diff', '--org', 'acme', '--connection', 'Server=x')).toBe(2);
  });

  it('apply and diff refuse metadata that removes an entity or field of the system pack, even an empty one, even with --allow-data-loss', async () => {
    const created = await createOrganizationDatabase(data, 'sys', systemPack().entities);
    if (created._tag === 'Left') throw new Error(JSON.stringify(created.left));
    const out = join(data, 'sys.json');
    expect(await runCli(['schema', 'export', '--org', 'sys', '--out', out, '--data', data])).toBe(0);
    const pack = JSON.parse(readFileSync(out, 'utf8')) as { entities: Entity[] };
    const edited = pack.entities
      .filter((e) => e.logicalName !== 'inu_localize')
      .map((e) => (e.logicalName === 'systemuser' ? { ...e, properties: e.properties.filter((p) => p.logicalName !== 'language') } : e));
    const to = writeMetadata('edited.json', edited);
    const expected =
      'tessera: The metadata removes what every organization needs (the system pack): field systemuser.language; entity inu_localize. ' +
      'Keep them as they are; fix the metadata and run again\n';
    for (const cmd of [['apply', '--allow-data-loss'], ['diff']]) {
      stderr = '';
      expect(await runCli(['schema', ...cmd, '--org', 'sys', '--to', to, '--data', data])).toBe(1);
      expect(stderr).toBe(expected);
    }
    const db = openOrgDatabase(data, 'sys');
    if (db._tag === 'Left') throw new Error(db.left.message);
    try {
      expect(db.right.prepare(`SELECT MAX(version) AS v FROM tessera_metadata`).get()).toEqual({ v: 1 });
      expect(db.right.prepare(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'inu_localize'`).get()).toEqual({ n: 1 });
    } finally {
      db.right.close();
    }
  });

  it('--help on every schema command exits with 0', async () => {
    for (const cmd of [[], ['export'], ['diff'], ['apply']]) expect(await runCli(['schema', ...cmd, '--help'])).toBe(0);
    expect(stdout).toContain('--allow-data-loss');
    expect(stdout).toContain('--dialect <dialect>');
  });
});
