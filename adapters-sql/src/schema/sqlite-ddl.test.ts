import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canonicalSchema,
  diffSchema,
  emptySchema,
  findTable,
  type Column,
  type Schema,
  type Table,
} from '@tessera/core/internal';
import { metadataPairArb } from '../../../core/src/schema/metadata-arbitrary.test.js';
import { openSqlite, type SqliteDatabase } from '../sqlite/open-sqlite.js';
import { compilePlan } from './ddl-dialect.js';
import { sqliteDdl } from './sqlite-ddl.js';
import { readSqliteSchema } from './sqlite-schema-reader.js';
import { entity, prop, schema } from '../../../tests/src/fixtures/metadata-builders.js';


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

const VALUE: Record<Column['kind'], unknown> = {
  datetime: '2024-01-02T03:04:05.000Z',
  money: 12.5,
  decimal: 1.25,
  float: 0.5,
  integer: 7,
  boolean: 1,
  guid: '00000000-0000-4000-8000-000000000001',
  string: 'abcdefghijklmnop',
  binary: Buffer.from([1, 2, 3]),
  versionnumber: 3,
};
type Rows = Record<string, Record<string, unknown> | null>;
/** One row in every table, a value in every column. */
const fillEveryTable = (db: SqliteDatabase, s: Schema): Rows => {
  const rows: Rows = {};
  for (const t of s.tables) {
    const value = (c: Column) => (c.kind === 'string' && c.max !== null ? String(VALUE.string).slice(0, c.max) : VALUE[c.kind]);
    const row = Object.fromEntries(t.columns.map((c) => [c.name, c.name === t.primaryKey ? `${t.name}-1` : value(c)]));
    db.prepare(`INSERT INTO "${t.name}" (${t.columns.map((c) => `"${c.name}"`).join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`).run(
      ...Object.values(row),
    );
    rows[t.name] = row;
  }
  return rows;
};
const readRows = (db: SqliteDatabase, s: Schema): Rows =>
  Object.fromEntries(s.tables.map((t) => [t.name, (db.prepare(`SELECT * FROM "${t.name}"`).all()[0] as Record<string, unknown>) ?? null]));
/** What a migration keeps: the rows of kept tables, the values of columns that keep their kind (strings cut). */
const expectedRows = (before: Rows, a: Schema, b: Schema): Rows =>
  Object.fromEntries(
    b.tables.map((t) => {
      const old = findTable(a, t.name);
      if (!old || old.primaryKey !== t.primaryKey) return [t.name, null];
      return [
        t.name,
        Object.fromEntries(
          t.columns.map((c) => {
            const o = old.columns.find((x) => x.name === c.name);
            const v = before[t.name]?.[c.name];
            if (!o || o.kind !== c.kind) return [c.name, c.kind === 'versionnumber' ? 0 : null];
            return [c.name, typeof v === 'string' && c.max !== null ? v.slice(0, c.max) : v];
          }),
        ),
      ];
    }),
  );

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

  it('rebuilds a table once for all of its column changes, without ALTER TABLE; a retyped column starts empty', () => {
    const db = memory();
    const a = schema([entity('a', [prop('title', 'String', { max: 100 }), prop('score', 'Integer'), prop('gone', 'String')])]);
    const b = schema([entity('a', [prop('title', 'String', { max: 300 }), prop('score', 'String'), prop('added', 'Money')])]);
    migrate(db, emptySchema, a);
    db.prepare(`INSERT INTO a (id, name, title, score, gone) VALUES ('1', 'one', 'kept', 7, 'lost')`).run();
    const compiled = compilePlan(sqliteDdl, a, diffSchema(a, b));
    if (compiled._tag === 'Left') throw new Error(compiled.left);
    const statements = compiled.right.flatMap((c) => [...c.statements]);
    expect(statements.filter((s) => s.startsWith('ALTER TABLE'))).toEqual([]);
    expect(statements.filter((s) => s.startsWith('CREATE TEMP TABLE'))).toHaveLength(1);
    migrate(db, a, b);
    expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(b));
    expect(db.prepare(`SELECT id, name, title, score, added FROM a`).all()).toEqual([{ id: '1', name: 'one', title: 'kept', score: null, added: null }]);
  });

  it('applying the DDL of diff(a, b) to a database of schema a gives a database of schema b, keeping the values of kept columns', () => {
    fc.assert(
      fc.property(metadataPairArb, ([a, b]) => {
        const db = openSqlite(':memory:');
        try {
          migrate(db, emptySchema, schema(a));
          expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(schema(a)));
          const rows = fillEveryTable(db, schema(a));
          migrate(db, schema(a), schema(b));
          expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(schema(b)));
          expect(readRows(db, schema(b))).toEqual(expectedRows(rows, schema(a), schema(b)));
        } finally {
          db.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("the full-text index of 'contains' search (issue 24, docs/schema.md \"Contains search\")", () => {
  const withText = (extra: Parameters<typeof entity>[2] = {}) =>
    schema([entity('item', [prop('city', 'String', { max: 100 }), prop('notes', 'String', { flags: ['MultiLine'] })], { fullText: ['name', 'notes'], ...extra })]);
  const matches = (db: SqliteDatabase, phrase: string): string[] =>
    (db.prepare(`SELECT i.name FROM item i WHERE i.rowid IN (SELECT rowid FROM tessera_fts_item WHERE tessera_fts_item MATCH ?) ORDER BY i.name`).all(phrase) as Array<{ name: string }>).map((r) => r.name);

  it('is made with the table, read back as the model says, and kept in step by every insert, update and delete', () => {
    const db = openSqlite(':memory:');
    try {
      migrate(db, emptySchema, withText());
      expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(withText()));
      const ins = db.prepare(`INSERT INTO item (id, name, notes, versionnumber) VALUES (?, ?, ?, 1)`);
      ins.run('a', 'Čačina Žilina', 'first');
      ins.run('b', 'Acme Labs', 'second note');
      expect(matches(db, 'name : "acme"')).toEqual(['Acme Labs']); // case folded
      expect(matches(db, 'notes : "cond no"')).toEqual(['Acme Labs']); // any substring of three or more
      db.prepare(`UPDATE item SET name = ? WHERE id = ?`).run('Beta Works', 'b');
      expect(matches(db, 'name : "acme"')).toEqual([]);
      expect(matches(db, 'name : "eta wo"')).toEqual(['Beta Works']);
      db.prepare(`DELETE FROM item WHERE id = ?`).run('a');
      expect(matches(db, 'name : "žilin"')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a table rebuilt for a dropped column keeps a working index of the rows it had; dropping the index removes its table', () => {
    const db = openSqlite(':memory:');
    try {
      migrate(db, emptySchema, withText());
      db.prepare(`INSERT INTO item (id, name, city, versionnumber) VALUES ('a', 'Acme Labs', 'Brno', 1)`).run();
      const without = schema([entity('item', [prop('notes', 'String', { flags: ['MultiLine'] })], { fullText: ['name', 'notes'] })]);
      migrate(db, withText(), without);
      expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(without));
      expect(matches(db, 'name : "cme la"')).toEqual(['Acme Labs']);
      db.prepare(`INSERT INTO item (id, name, versionnumber) VALUES ('b', 'Acme Two', 1)`).run();
      expect(matches(db, 'name : "acme"')).toEqual(['Acme Labs', 'Acme Two']);
      const plain = schema([entity('item', [prop('notes', 'String', { flags: ['MultiLine'] })])]);
      migrate(db, without, plain);
      expect(canonicalSchema(readBack(db))).toEqual(canonicalSchema(plain));
      expect(db.prepare(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name LIKE 'tessera_fts_%'`).get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
