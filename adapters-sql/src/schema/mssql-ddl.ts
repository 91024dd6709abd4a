import { findColumn, findTable, type Column, type Index, type MigrationStep, type Schema, type Table } from '@tessera/core/internal';
import { METADATA_TABLE, type DdlDialect } from './ddl-dialect.js';

/** SQL Server DDL with the column types of spec 000 section 3. Binary is varbinary(max) (docs/schema.md). */
const TYPE: Record<Exclude<Column['kind'], 'string'>, string> = {
  datetime: 'datetimeoffset',
  money: 'money',
  decimal: 'decimal(23,10)',
  float: 'float',
  integer: 'int',
  boolean: 'bit',
  guid: 'uniqueidentifier',
  binary: 'varbinary(max)',
  versionnumber: 'rowversion',
};

const quote = (id: string): string => `[${id.replace(/]/g, ']]')}]`;

const columnType = (c: Column): string => (c.kind === 'string' ? `nvarchar(${c.max ?? 'max'})` : TYPE[c.kind]);

const columnDefinition = (t: Table, c: Column): string => {
  // NEWSEQUENTIALID() keeps the clustered key growing at its end, unlike NEWID().
  if (c.name === t.primaryKey) return `${quote(c.name)} ${columnType(c)} NOT NULL DEFAULT NEWSEQUENTIALID()`;
  return `${quote(c.name)} ${columnType(c)} ${c.nullable ? 'NULL' : 'NOT NULL'}`;
};

// A full-text index writes nothing on SQL Server: its full-text search needs a catalog and a
// service that not every edition has, so 'contains' stays a LIKE there (docs/schema.md "Contains search").
const createIndex = (table: string, i: Index): string[] =>
  i.fullText ? [] : [`CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${quote(i.name)} ON ${quote(table)} (${i.columns.map(quote).join(', ')})`];

export const mssqlDdl: DdlDialect = {
  name: 'mssql',
  quote,
  columnType,
  createTable: (t) => [
    `CREATE TABLE ${quote(t.name)} (${t.columns.map((c) => columnDefinition(t, c)).join(', ')}, ` +
      `CONSTRAINT ${quote(`PK_${t.name}`)} PRIMARY KEY (${quote(t.primaryKey)}))`,
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
        return [`ALTER TABLE ${quote(t.name)} ADD ${columnDefinition(t, step.column)}`];
      }
      case 'dropColumn':
        return [`ALTER TABLE ${quote(step.table)} DROP COLUMN ${quote(step.column)}`];
      case 'alterStringLength': {
        const t = findTable(before, step.table) as Table;
        const c = findColumn(t, step.column) as Column;
        const next = { ...c, max: step.to };
        // ALTER COLUMN refuses to truncate: values are cut first, which is the loss the step declares.
        const cut =
          step.to !== null && step.dataLoss
            ? [`UPDATE ${quote(t.name)} SET ${quote(c.name)} = LEFT(${quote(c.name)}, ${step.to}) WHERE DATALENGTH(${quote(c.name)}) > ${2 * step.to}`]
            : [];
        return [...cut, `ALTER TABLE ${quote(t.name)} ALTER COLUMN ${quote(c.name)} ${columnType(next)} ${c.nullable ? 'NULL' : 'NOT NULL'}`];
      }
      case 'createIndex':
        return createIndex(step.table, step.index);
      case 'dropIndex':
        return step.index.toLowerCase().startsWith('tessera_fts_') ? [] : [`DROP INDEX ${quote(step.index)} ON ${quote(step.table)}`];
    }
  },
  metadataTable: () => [
    `IF OBJECT_ID(N'${METADATA_TABLE}', N'U') IS NULL CREATE TABLE ${quote(METADATA_TABLE)} ([version] int NOT NULL, [appliedon] datetimeoffset NOT NULL, [metadata] nvarchar(max) NOT NULL, CONSTRAINT ${quote(`PK_${METADATA_TABLE}`)} PRIMARY KEY ([version]))`,
  ],
  countAtRisk(step) {
    switch (step.kind) {
      case 'dropTable':
        return `SELECT COUNT(*) AS [n] FROM ${quote(step.table)}`;
      case 'dropColumn':
        return `SELECT COUNT(*) AS [n] FROM ${quote(step.table)} WHERE ${quote(step.column)} IS NOT NULL`;
      case 'alterStringLength':
        // DATALENGTH counts bytes (two per character) and, unlike LEN, keeps trailing spaces.
        return step.to === null
          ? null
          : `SELECT COUNT(*) AS [n] FROM ${quote(step.table)} WHERE DATALENGTH(${quote(step.column)}) > ${2 * step.to}`;
      default:
        return null;
    }
  },
};
