import { findColumn, findTable, type Column, type Index, type MigrationStep, type Schema, type Table } from '@tessera/core';
import { METADATA_TABLE, type DdlDialect } from './ddl-dialect.js';

/**
 * SQLite DDL. Declared types are the nearest SQLite has, chosen so that each kind keeps a
 * distinct declared type (read back by `readSqliteSchema`) and the right affinity.
 */
const TYPE: Record<Exclude<Column['kind'], 'string'>, string> = {
  datetime: 'DATETIME',
  money: 'MONEY',
  decimal: 'DECIMAL(23,10)',
  float: 'FLOAT',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  guid: 'CHAR(36)',
  binary: 'BLOB',
  versionnumber: 'BIGINT',
};

/** A random (version 4) UUID in lower case: the key's default, as SQL Server's NEWSEQUENTIALID() is there. */
export const SQLITE_NEW_ID =
  "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || " +
  "substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))";

const quote = (id: string): string => `"${id.replace(/"/g, '""')}"`;

const columnType = (c: Column): string => (c.kind === 'string' ? (c.max === null ? 'TEXT' : `VARCHAR(${c.max})`) : TYPE[c.kind]);

const columnDefinition = (t: Table, c: Column): string => {
  if (c.name === t.primaryKey) return `${quote(c.name)} ${columnType(c)} NOT NULL PRIMARY KEY DEFAULT (${SQLITE_NEW_ID})`;
  // versionnumber is kept by the record store: a counter that each write increases.
  if (c.kind === 'versionnumber') return `${quote(c.name)} ${columnType(c)} NOT NULL DEFAULT 0`;
  return `${quote(c.name)} ${columnType(c)}${c.nullable ? '' : ' NOT NULL'}`;
};

const createTableAs = (name: string, t: Table): string =>
  `CREATE TABLE ${quote(name)} (${t.columns.map((c) => columnDefinition(t, c)).join(', ')})`;

const createIndex = (table: string, i: Index): string =>
  `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${quote(i.name)} ON ${quote(table)} (${i.columns.map(quote).join(', ')})`;

/** SQLite cannot alter a column: the table is built again with the new length, its rows copied, its indexes re-made. */
const rebuild = (t: Table, column: string, to: number | null): string[] => {
  const next: Table = { ...t, columns: t.columns.map((c) => (c.name === column ? { ...c, max: to } : c)) };
  const scratch = `tessera_rebuild_${t.name}`;
  const names = t.columns.map((c) => quote(c.name)).join(', ');
  // Values are cut to the new length, as SQL Server does after its UPDATE ... LEFT().
  const values = t.columns
    .map((c) => (c.name === column && to !== null ? `substr(${quote(c.name)}, 1, ${to})` : quote(c.name)))
    .join(', ');
  return [
    createTableAs(scratch, next),
    `INSERT INTO ${quote(scratch)} (${names}) SELECT ${values} FROM ${quote(t.name)}`,
    `DROP TABLE ${quote(t.name)}`,
    `ALTER TABLE ${quote(scratch)} RENAME TO ${quote(t.name)}`,
    ...t.indexes.map((i) => createIndex(t.name, i)),
  ];
};

export const sqliteDdl: DdlDialect = {
  name: 'sqlite',
  quote,
  columnType,
  createTable: (t) => [createTableAs(t.name, t), ...t.indexes.map((i) => createIndex(t.name, i))],
  step(step: MigrationStep, before: Schema): string[] {
    switch (step.kind) {
      case 'createTable':
        return this.createTable(step.table);
      case 'dropTable':
        return [`DROP TABLE ${quote(step.table)}`];
      case 'addColumn': {
        const t = findTable(before, step.table) as Table;
        return [`ALTER TABLE ${quote(t.name)} ADD COLUMN ${columnDefinition(t, step.column)}`];
      }
      case 'dropColumn':
        return [`ALTER TABLE ${quote(step.table)} DROP COLUMN ${quote(step.column)}`];
      case 'alterStringLength': {
        const t = findTable(before, step.table) as Table;
        return rebuild(t, (findColumn(t, step.column) as Column).name, step.to);
      }
      case 'createIndex':
        return [createIndex(step.table, step.index)];
      case 'dropIndex':
        return [`DROP INDEX ${quote(step.index)}`];
    }
  },
  metadataTable: () => [
    `CREATE TABLE IF NOT EXISTS ${quote(METADATA_TABLE)} ("version" INTEGER NOT NULL PRIMARY KEY, "appliedon" TEXT NOT NULL, "metadata" TEXT NOT NULL)`,
  ],
  countAtRisk(step) {
    switch (step.kind) {
      case 'dropTable':
        return `SELECT COUNT(*) AS n FROM ${quote(step.table)}`;
      case 'dropColumn':
        return `SELECT COUNT(*) AS n FROM ${quote(step.table)} WHERE ${quote(step.column)} IS NOT NULL`;
      case 'alterStringLength':
        return step.to === null
          ? null
          : `SELECT COUNT(*) AS n FROM ${quote(step.table)} WHERE length(${quote(step.column)}) > ${step.to}`;
      default:
        return null;
    }
  },
};
