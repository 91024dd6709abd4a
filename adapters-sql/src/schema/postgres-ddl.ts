import { findColumn, findTable, nameKey, type Column, type Index, type MigrationStep, type Schema, type Table } from '@tessera/core/internal';
import { METADATA_TABLE, type DdlDialect } from './ddl-dialect.js';

/**
 * PostgreSQL DDL (issue 25, docs/postgres.md) with the column types of spec 000 section 3 in
 * PostgreSQL's words. Text compares in code-point order (COLLATE "C", as SQLite's BINARY), whatever
 * the database's locale, so sorts and comparisons answer as on SQLite and the reference evaluator.
 */
const TYPE: Record<Exclude<Column['kind'], 'string'>, string> = {
  datetime: 'timestamptz',
  money: 'numeric(19,4)',
  decimal: 'numeric(23,10)',
  float: 'double precision',
  integer: 'integer',
  boolean: 'boolean',
  guid: 'uuid',
  binary: 'bytea',
  // kept by the record store: a counter each write increases (as on SQLite)
  versionnumber: 'bigint',
};

const quote = (id: string): string => `"${id.replace(/"/g, '""')}"`;

const columnType = (c: Column): string => (c.kind === 'string' ? `${c.max === null ? 'text' : `varchar(${c.max})`} COLLATE "C"` : TYPE[c.kind]);

const columnDefinition = (t: Table, c: Column): string => {
  if (c.name === t.primaryKey) return `${quote(c.name)} ${columnType(c)} NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY`;
  if (c.kind === 'versionnumber') return `${quote(c.name)} ${columnType(c)} NOT NULL DEFAULT 0`;
  return `${quote(c.name)} ${columnType(c)}${c.nullable ? '' : ' NOT NULL'}`;
};

const isFullTextName = (name: string): boolean => nameKey(name).startsWith('tessera_fts_');

/**
 * Case-insensitive search is `lower(column) LIKE folded pattern` (sql-query.ts): under the C collation
 * lower() folds ASCII only, as SQLite's LIKE does. So the name index (lookup search, a starts-with) is
 * on lower(name), which serves the prefix; a full-text index (issue 24's 'contains') is a pg_trgm GIN
 * index on the lowered columns, which serves '%text%'. pg_trgm ships with Debian's server package and
 * is a trusted extension: the database's owner may create it.
 */
const createIndex = (table: string, i: Index): string[] => {
  if (i.fullText)
    return [
      // Once per database, in public: every organization's schema names its operator class there.
      'CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public',
      `CREATE INDEX ${quote(i.name)} ON ${quote(table)} USING gin (${i.columns.map((c) => `lower(${quote(c)}) public.gin_trgm_ops`).join(', ')})`,
    ];
  const cols = i.columns.length === 1 && i.columns[0].toLowerCase() === 'name' && !i.unique ? [`lower(${quote(i.columns[0])})`] : i.columns.map(quote);
  return [`CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${quote(i.name)} ON ${quote(table)} (${cols.join(', ')})`];
};

export const postgresDdl: DdlDialect = {
  name: 'postgres',
  quote,
  columnType,
  createTable: (t) => [
    `CREATE TABLE ${quote(t.name)} (${t.columns.map((c) => columnDefinition(t, c)).join(', ')})`,
    ...t.indexes.flatMap((i) => createIndex(t.name, i)),
  ],
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
        const c = findColumn(t, step.column) as Column;
        const next = { ...c, max: step.to };
        // A shorter length keeps the start of each value: the loss the step declares (as SQL Server's LEFT()).
        const using = step.to !== null && step.dataLoss ? ` USING left(${quote(c.name)}, ${step.to})` : '';
        return [`ALTER TABLE ${quote(t.name)} ALTER COLUMN ${quote(c.name)} TYPE ${columnType(next)}${using}`];
      }
      case 'createIndex':
        return createIndex(step.table, step.index);
      case 'dropIndex':
        return [`DROP INDEX ${isFullTextName(step.index) ? 'IF EXISTS ' : ''}${quote(step.index)}`];
    }
  },
  metadataTable: () => [
    `CREATE TABLE IF NOT EXISTS ${quote(METADATA_TABLE)} ("version" integer NOT NULL PRIMARY KEY, "appliedon" timestamptz NOT NULL, "metadata" text NOT NULL)`,
  ],
  countAtRisk(step) {
    switch (step.kind) {
      case 'dropTable':
        return `SELECT COUNT(*) AS "n" FROM ${quote(step.table)}`;
      case 'dropColumn':
        return `SELECT COUNT(*) AS "n" FROM ${quote(step.table)} WHERE ${quote(step.column)} IS NOT NULL`;
      case 'alterStringLength':
        return step.to === null ? null : `SELECT COUNT(*) AS "n" FROM ${quote(step.table)} WHERE char_length(${quote(step.column)}) > ${step.to}`;
      default:
        return null;
    }
  },
};
