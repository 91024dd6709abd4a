import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { RESERVED_TABLE_PREFIXES, fullTextIndexName, nameKey, type Column, type ColumnKind, type Index, type Schema, type Table } from '@tessera/core/internal';
import type { SqliteDatabase } from '../sqlite/open-sqlite.js';

const KIND_OF_DECLARED: Record<string, ColumnKind> = {
  DATETIME: 'datetime',
  MONEY: 'money',
  'DECIMAL(23,10)': 'decimal',
  FLOAT: 'float',
  INTEGER: 'integer',
  BOOLEAN: 'boolean',
  'CHAR(36)': 'guid',
  BLOB: 'binary',
  BIGINT: 'versionnumber',
  TEXT: 'string',
};

type ColumnInfo = { name: string; type: string; notnull: number; pk: number };
type IndexListRow = { name: string; unique: number; origin: string };
type IndexInfoRow = { seqno: number; name: string };

const columnOf = (table: string, info: ColumnInfo): Either<string, Column> => {
  const declared = info.type.toUpperCase();
  const bounded = /^VARCHAR\((\d+)\)$/.exec(declared);
  const kind: ColumnKind | undefined = bounded ? 'string' : KIND_OF_DECLARED[declared];
  if (!kind) return left(`${table}.${info.name} has the type ${info.type}, which Tessera does not write`);
  return right({ name: info.name, kind, max: bounded ? Number(bounded[1]) : null, nullable: info.notnull === 0 && info.pk === 0 });
};

/**
 * The schema an SQLite database really has, read from its own catalogue (sqlite_master and the
 * table_info / index_list / index_info pragmas), in the terms of the schema model. It finds
 * tables changed by hand, and lets the tests compare the DDL's result with the model.
 */
export const readSqliteSchema = (db: SqliteDatabase): Either<string, Schema> => {
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
    .all()
    .map((r) => (r as { name: string }).name)
    .filter((n) => !RESERVED_TABLE_PREFIXES.some((p) => nameKey(n).startsWith(p)));
  const tables: Table[] = [];
  for (const name of names) {
    const infos = db.prepare(`SELECT * FROM pragma_table_info(?)`).all(name) as ColumnInfo[];
    const columns: Column[] = [];
    for (const info of infos) {
      const c = columnOf(name, info);
      if (c._tag === 'Left') return c;
      columns.push(c.right);
    }
    const keys = infos.filter((i) => i.pk > 0);
    if (keys.length !== 1) return left(`${name} has ${keys.length} primary key columns; Tessera writes exactly one`);
    const indexes: Index[] = (db.prepare(`SELECT * FROM pragma_index_list(?)`).all(name) as IndexListRow[])
      .filter((i) => i.origin === 'c')
      .map((i) => ({
        name: i.name,
        unique: i.unique === 1,
        columns: (db.prepare(`SELECT * FROM pragma_index_info(?)`).all(i.name) as IndexInfoRow[])
          .sort((a, b) => a.seqno - b.seqno)
          .map((c) => c.name),
      }));
    // The full-text index is an FTS5 table of its own (sqlite-ddl.ts), its columns those it indexes.
    const fts = fullTextIndexName(name);
    if (db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(fts)) {
      const ftsColumns = (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(fts) as Array<{ name: string }>).map((c) => c.name);
      indexes.push({ name: fts, unique: false, columns: ftsColumns, fullText: true });
    }
    tables.push({ name, primaryKey: keys[0].name, columns, indexes });
  }
  return right({ tables });
};
