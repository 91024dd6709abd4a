import {
  applyStep,
  findColumn,
  findTable,
  nameKey,
  type Column,
  type Index,
  type MigrationPlan,
  type MigrationStep,
  type Schema,
  type Table,
} from '@tessera/core/internal';
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

// Lookup search is a case-insensitive starts-with on name (spec 001 section 9): SQLite uses an index for
// that range only when the index itself compares without case, so the name index is COLLATE NOCASE.
const indexedColumn = (column: string): string =>
  column.toLowerCase() === 'name' ? `${quote(column)} COLLATE NOCASE` : quote(column);

/**
 * A full-text index (issue 24, docs/schema.md "Contains search"): an FTS5 table with the trigram
 * tokenizer over the table's own rows (external content, keyed by rowid), kept in step by three
 * triggers, so every writer (the store, imports, raw SQL) updates it in the same transaction. It is
 * built from the rows already there. Made again from scratch when asked twice (a rebuilt table).
 */
const createFullText = (table: string, i: Index): string[] => {
  const fts = quote(i.name);
  const cols = i.columns.map(quote).join(', ');
  const newValues = i.columns.map((c) => `new.${quote(c)}`).join(', ');
  const oldValues = i.columns.map((c) => `old.${quote(c)}`).join(', ');
  const trigger = (suffix: string) => quote(`${i.name}_${suffix}`);
  return [
    ...dropFullText(i.name),
    `CREATE VIRTUAL TABLE ${fts} USING fts5(${cols}, content=${quote(table)}, content_rowid='rowid', tokenize='trigram')`,
    `CREATE TRIGGER ${trigger('ai')} AFTER INSERT ON ${quote(table)} BEGIN INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rowid, ${newValues}); END`,
    `CREATE TRIGGER ${trigger('ad')} AFTER DELETE ON ${quote(table)} BEGIN INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rowid, ${oldValues}); END`,
    `CREATE TRIGGER ${trigger('au')} AFTER UPDATE OF ${cols} ON ${quote(table)} BEGIN INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rowid, ${oldValues}); INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rowid, ${newValues}); END`,
    `INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`,
  ];
};

const dropFullText = (name: string): string[] => [
  ...['ai', 'ad', 'au'].map((s) => `DROP TRIGGER IF EXISTS ${quote(`${name}_${s}`)}`),
  `DROP TABLE IF EXISTS ${quote(name)}`,
];

const isFullTextName = (name: string): boolean => nameKey(name).startsWith('tessera_fts_');

// Only the name index of its own compares without case (the search); an index of several columns
// serves a list's ORDER BY, which sorts as the column does (BINARY), so it keeps the column's collation.
const createIndex = (table: string, i: Index): string[] =>
  i.fullText
    ? createFullText(table, i)
    : [`CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${quote(i.name)} ON ${quote(table)} (${i.columns.map(i.columns.length === 1 ? indexedColumn : quote).join(', ')})`];

/** The scratch table of a rebuild, in the connection's temp schema. */
const SCRATCH = `temp.${quote('tessera_rebuild')}`;

/**
 * SQLite cannot alter a column, and each ALTER TABLE re-reads the whole schema (slow with hundreds
 * of tables). So a table whose columns are dropped or resized is built again, without ALTER: its
 * rows are kept in a temp table, the table is dropped and created in its new shape, the rows come
 * back and its indexes are made again. A column keeps its values when its kind stays; a string
 * cut shorter keeps the start of each value (as SQL Server's UPDATE ... LEFT() before its ALTER).
 */
export const rebuildTable = (from: Table, to: Table): string[] => {
  const kept = to.columns.flatMap((c) => {
    const old = findColumn(from, c.name);
    if (!old || old.kind !== c.kind) return [];
    const cut = c.kind === 'string' && c.max !== null && (old.max === null || c.max < old.max);
    return [{ name: c.name, value: cut ? `substr(${quote(old.name)}, 1, ${c.max})` : quote(old.name) }];
  });
  const names = kept.map((k) => quote(k.name)).join(', ');
  return [
    `CREATE TEMP TABLE ${quote('tessera_rebuild')} AS SELECT ${kept.map((k) => `${k.value} AS ${quote(k.name)}`).join(', ')} FROM ${quote(from.name)}`,
    `DROP TABLE ${quote(from.name)}`,
    createTableAs(to.name, to),
    `INSERT INTO ${quote(to.name)} (${names}) SELECT ${names} FROM ${SCRATCH}`,
    `DROP TABLE ${SCRATCH}`,
    ...from.indexes.flatMap((i) => createIndex(to.name, i)),
  ];
};

const isColumnStep = (s: MigrationStep): s is Extract<MigrationStep, { kind: 'addColumn' | 'dropColumn' | 'alterStringLength' }> =>
  s.kind === 'addColumn' || s.kind === 'dropColumn' || s.kind === 'alterStringLength';

export const sqliteDdl: DdlDialect = {
  name: 'sqlite',
  quote,
  columnType,
  createTable: (t) => [createTableAs(t.name, t), ...t.indexes.flatMap((i) => createIndex(t.name, i))],
  step(step: MigrationStep, before: Schema): string[] {
    switch (step.kind) {
      case 'createTable':
        return this.createTable(step.table);
      case 'dropTable': {
        // Its full-text table goes with it (its triggers go with the table).
        const fts = findTable(before, step.table);
        const text = fts?.indexes.find((i) => i.fullText);
        return [`DROP TABLE ${quote(step.table)}`, ...(text ? dropFullText(text.name) : [])];
      }
      case 'addColumn': {
        const t = findTable(before, step.table) as Table;
        return [`ALTER TABLE ${quote(t.name)} ADD COLUMN ${columnDefinition(t, step.column)}`];
      }
      case 'dropColumn':
      case 'alterStringLength': {
        const t = findTable(before, step.table) as Table;
        const after = applyStep(before, step);
        if (after._tag === 'Left') throw new Error(after.left);
        return rebuildTable(t, findTable(after.right, t.name) as Table);
      }
      case 'createIndex':
        return createIndex(step.table, step.index);
      case 'dropIndex':
        return isFullTextName(step.index) ? dropFullText(step.index) : [`DROP INDEX ${quote(step.index)}`];
    }
  },
  steps(plan: MigrationPlan, along: readonly Schema[]): string[][] {
    // A table with a dropped or resized column is rebuilt once, at its first column step, straight to
    // the shape its last column step leaves; its other column steps then have nothing left to run.
    const rebuilt = new Set(plan.filter((s) => s.kind === 'dropColumn' || s.kind === 'alterStringLength').map((s) => nameKey(s.table)));
    const lastColumnStep = new Map<string, number>();
    plan.forEach((s, i) => {
      if (isColumnStep(s)) lastColumnStep.set(nameKey(s.table), i);
    });
    const done = new Set<string>();
    return plan.map((step, i) => {
      if (!isColumnStep(step) || !rebuilt.has(nameKey(step.table))) return this.step(step, along[i]);
      const key = nameKey(step.table);
      if (done.has(key)) return [];
      done.add(key);
      const from = findTable(along[i], step.table) as Table;
      const to = findTable(along[(lastColumnStep.get(key) as number) + 1], step.table) as Table;
      return rebuildTable(from, to);
    });
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
