import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canonicalSchema,
  diffSchema,
  emptySchema,
  findTable,
  schemaOfMetadata,
  type Entity,
  type Property,
  type Schema,
  type Table,
} from '@tessera/core';
import { metadataPairArb } from '../../../core/src/schema/metadata-arbitrary.test.js';
import { openSqlite, type SqliteDatabase } from '../sqlite/open-sqlite.js';
import { compilePlan } from './ddl-dialect.js';
import { sqliteDdl } from './sqlite-ddl.js';
import { readSqliteSchema } from './sqlite-schema-reader.js';

const schema = (m: readonly Entity[]): Schema => {
  const s = schemaOfMetadata(m);
  if (s._tag === 'Left') throw new Error(s.left.message);
  return s.right;
};
const entity = (logicalName: string, properties: Property[], extra: Partial<Entity> = {}): Entity => ({
  logicalName,
  displayName: logicalName,
  displayNamePlural: logicalName,
  properties,
  ...extra,
});
const prop = (logicalName: string, type: Property['type'], extra: Partial<Property> = {}): Property => ({
  logicalName,
  displayName: logicalName,
  type,
  ...extra,
});

/** Runs the DDL of the plan from `from` to `to` on the database, as one transaction. */
const migrate = (db: SqliteDatabase, from: Schema, to: Schema): void => {
  const compiled = compilePlan(sqliteDdl, from, diffSchema(from, to));
  if (compiled._tag === 'Left') throw new Error(compiled.left);
  db.transaction(() => {
    for (const step of compiled.right) for (const s of step.statements) db.exec(s);
  })();
};
const readBack = (db: SqliteDatabase): Schema => {
  const s = readSqliteSchema(db);
  if (s._tag === 'Left') throw new Error(s.left);
  return s.right;
};

const open: SqliteDatabase[] = [];
const memory = (): SqliteDatabase => {
  const db = openSqlite(':memory:');
  open.push(db);
  return db;
};
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const crm = [
  entity('account', [
    prop('ownerid', 'Lookup', { targets: ['systemuser'] }),
    prop('teamid', 'Lookup', { targets: ['team'] }),
    prop('revenue', 'Money'),
    prop('rate', 'Decimal'),
    prop('score', 'Float'),
    prop('employees', 'Integer'),
    prop('active', 'Boolean'),
    prop('externalid', 'Guid'),
    prop('closedon', 'DateTime'),
    prop('notes', 'String'),
    prop('logo', 'Binary'),
  ]),
  entity('contact', [prop('parentcustomerid', 'Lookup', { targets: ['account'] }), prop('email', 'String', { max: 100 })]),
  entity('accountcontact', [prop('accountid', 'Lookup'), prop('contactid', 'Lookup')], { type: 'many' }),
];

describe('SQLite DDL, executed and read back through sqlite_master and the table pragmas', () => {
  it('creates the tables, columns, keys and indexes of the model exactly', () => {
    const db = memory();
    migrate(db, emptySchema, schema(crm));
    expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(schema(crm)));
  });

  it('declares the nearest SQLite type of each kind, keeping the affinity of the value', () => {
    const db = memory();
    migrate(db, emptySchema, schema(crm));
    const types = Object.fromEntries(
      (db.prepare(`SELECT name, type FROM pragma_table_info('account')`).all() as Array<{ name: string; type: string }>).map((r) => [r.name, r.type]),
    );
    expect(types).toMatchObject({
      id: 'CHAR(36)',
      name: 'VARCHAR(200)',
      ownerid: 'CHAR(36)',
      owneridTarget: 'VARCHAR(200)',
      revenue: 'MONEY',
      rate: 'DECIMAL(23,10)',
      score: 'FLOAT',
      employees: 'INTEGER',
      active: 'BOOLEAN',
      externalid: 'CHAR(36)',
      closedon: 'DATETIME',
      notes: 'TEXT',
      logo: 'BLOB',
      versionnumber: 'BIGINT',
    });
    db.prepare(`INSERT INTO account (id, closedon, externalid, score) VALUES ('a', '2024-05-01T10:00:00.000Z', '12345678-1234-4234-8234-123456789012', 1)`).run();
    expect(db.prepare(`SELECT typeof(closedon) AS d, typeof(externalid) AS g, typeof(score) AS f FROM account`).get()).toEqual({
      d: 'text',
      g: 'text',
      f: 'real',
    });
  });

  it('gives the primary key the default of a newly generated id (a version 4 UUID)', () => {
    const db = memory();
    migrate(db, emptySchema, schema(crm));
    db.prepare(`INSERT INTO contact (name) VALUES ('x'), ('y')`).run();
    const ids = (db.prepare(`SELECT id FROM contact`).all() as Array<{ id: string }>).map((r) => r.id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(2);
  });

  it('keeps versionnumber as a counter starting at 0, for the record store to increase', () => {
    const db = memory();
    migrate(db, emptySchema, schema(crm));
    db.prepare(`INSERT INTO contact (name) VALUES ('x')`).run();
    expect(db.prepare(`SELECT versionnumber FROM contact`).get()).toEqual({ versionnumber: 0 });
  });

  it('refuses a second link row for the same pair (the unique pair of link tables)', () => {
    const db = memory();
    migrate(db, emptySchema, schema(crm));
    const insert = db.prepare(`INSERT INTO accountcontact (accountid, contactid) VALUES (?, ?)`);
    insert.run('a1', 'c1');
    insert.run('a1', 'c2');
    expect(() => insert.run('a1', 'c1')).toThrow(/UNIQUE constraint failed: accountcontact.accountid, accountcontact.contactid/);
  });

  it('changes a string length by rebuilding the table: rows and other indexes stay, longer values are cut', () => {
    const db = memory();
    const a = schema([entity('a', [prop('title', 'String', { max: 100 }), prop('ownerid', 'Lookup')])]);
    const b = schema([entity('a', [prop('title', 'String', { max: 5 }), prop('ownerid', 'Lookup')])]);
    migrate(db, emptySchema, a);
    db.prepare(`INSERT INTO a (id, name, title, ownerid) VALUES ('1', 'one', 'a long title', 'u1'), ('2', 'two', 'ok', NULL)`).run();
    migrate(db, a, b);
    expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(b));
    expect(db.prepare(`SELECT id, name, title, ownerid FROM a ORDER BY id`).all()).toEqual([
      { id: '1', name: 'one', title: 'a lon', ownerid: 'u1' },
      { id: '2', name: 'two', title: 'ok', ownerid: null },
    ]);
    expect(findTable(readBack(db), 'a')?.indexes.map((i) => i.name).sort()).toEqual(
      (findTable(b, 'a') as Table).indexes.map((i) => i.name).sort(),
    );
  });

  it('applying the DDL of diff(a, b) to a database of schema a gives a database of schema b', () => {
    fc.assert(
      fc.property(metadataPairArb, ([a, b]) => {
        const db = openSqlite(':memory:');
        try {
          migrate(db, emptySchema, schema(a));
          expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(schema(a)));
          migrate(db, schema(a), schema(b));
          expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(schema(b)));
        } finally {
          db.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
