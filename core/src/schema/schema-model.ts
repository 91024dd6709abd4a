import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { isLinkEntity, primaryKeyOf, type Entity, type Property } from '../metadata/entity.js';
import { FIELD_TYPES, type ColumnKind } from '../metadata/field-types.js';

/**
 * The schema model (spec 000 section 3, "Schema generator"): what the tables of an organization
 * look like, derived from its metadata, with no SQL dialect in it. The adapters turn it into DDL.
 */

/** The column kinds of the specification's type table (one per property type in the field-type registry). */
export type { ColumnKind };

/** `max` is the length of a bounded string; `null` for an unbounded string and every other kind. */
export type Column = { readonly name: string; readonly kind: ColumnKind; readonly max: number | null; readonly nullable: boolean };
/**
 * An index of a table. `fullText`: a full-text index of text columns for 'contains' search (issue
 * 24): SQLite keeps it as an FTS5 trigram table named `tessera_fts_<table>` kept in step by
 * triggers; a dialect without one writes nothing for it (the search stays a LIKE).
 */
export type Index = { readonly name: string; readonly columns: readonly string[]; readonly unique: boolean; readonly fullText?: boolean };
export type Table = {
  readonly name: string;
  readonly primaryKey: string;
  readonly columns: readonly Column[];
  readonly indexes: readonly Index[];
};
export type Schema = { readonly tables: readonly Table[] };

export const emptySchema: Schema = { tables: [] };

/** Spec 000 section 9: "lookup target column 200". */
export const LOOKUP_TARGET_MAX = 200;
/** The companion column of a lookup: the field name plus `Target` (spec 000 section 3). */
export const lookupTargetColumn = (field: string): string => `${field}Target`;
/** SQL Server's nvarchar(n) stops at 4000; a longer `max` is stored as an unbounded string. */
export const STRING_MAX_BOUNDED = 4000;
/** SQL Server index keys stop at 1700 bytes: a string column is indexable up to 850 characters. */
export const STRING_MAX_INDEXABLE = 850;
/** Logical names become identifiers: a letter, then letters, digits and underscores. */
export const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Keeps every derived name (`IX_{table}_{column}`) under SQL Server's 128-character limit. */
export const IDENTIFIER_MAX = 60;
/** Table names the product keeps for itself (`sqlite_` is SQLite's own). */
export const RESERVED_TABLE_PREFIXES = ['sqlite_', 'tessera_'] as const;
/** The columns a real deployment filters and sorts on besides the lookups (docs/schema.md). */
export const INDEXED_SYSTEM_COLUMNS = ['ownerid', 'teamid', 'createdon', 'name'] as const;
/**
 * What an append-only table (the audit: rows inserted, never updated) leaves unindexed: each index
 * is one more page written by every insert's commit, and these serve nothing such a table is read
 * by (its modifier is its creator; its rows are found by record, user and date).
 */
export const APPEND_ONLY_UNINDEXED = ['name', 'modifiedby'] as const;

/** Identifiers compare without case: SQL Server and SQLite both treat `Account` and `account` as one name. */
export const nameKey = (name: string): string => name.toLowerCase();

export const isIndexable = (c: Column): boolean =>
  c.kind !== 'binary' && (c.kind !== 'string' || (c.max !== null && c.max <= STRING_MAX_INDEXABLE));

export const indexName = (table: string, column: string): string => `IX_${table}_${column}`;
export const linkPairIndexName = (table: string): string => `UX_${table}_pair`;

const stringMax = (p: Property): Either<string, number | null> => {
  if (p.max === undefined) return right(null);
  if (!Number.isInteger(p.max) || p.max < 1) return left(`max must be a whole number from 1, got ${p.max}`);
  return right(p.max > STRING_MAX_BOUNDED ? null : p.max);
};

const identifierProblem = (name: string): string | null =>
  !IDENTIFIER.test(name)
    ? `"${name}" is not a valid name (a letter, then letters, digits or _)`
    : name.length > IDENTIFIER_MAX
      ? `"${name}" is longer than ${IDENTIFIER_MAX} characters`
      : null;

const tableOf = (e: Entity): Either<string, Table> => {
  const where = `entity ${e.logicalName}`;
  const bad = identifierProblem(e.logicalName);
  if (bad) return left(`${where}: ${bad}`);
  if (RESERVED_TABLE_PREFIXES.some((p) => nameKey(e.logicalName).startsWith(p)))
    return left(`${where}: names starting with ${RESERVED_TABLE_PREFIXES.join(' or ')} are reserved`);
  const pk = primaryKeyOf(e);
  const pkBad = identifierProblem(pk);
  if (pkBad) return left(`${where}: primary key ${pkBad}`);

  const columns: Column[] = [{ name: pk, kind: 'guid', max: null, nullable: false }];
  const seen = new Map<string, string>([[nameKey(pk), 'the primary key']]);
  const add = (c: Column, owner: string): string | null => {
    const clash = seen.get(nameKey(c.name));
    if (clash) return `${where}: column ${c.name} of ${owner} clashes with ${clash}`;
    seen.set(nameKey(c.name), owner);
    columns.push(c);
    return null;
  };
  const lookups: string[] = [];
  for (const p of e.properties) {
    const at = `${where}: property ${p.logicalName}`;
    const pBad = identifierProblem(p.logicalName);
    if (pBad) return left(`${at}: ${pBad}`);
    if (nameKey(p.logicalName) === nameKey(pk)) {
      if (FIELD_TYPES[p.type].stored !== 'id') return left(`${at}: the primary key must be of type Guid, not ${p.type}`);
      continue;
    }
    const kind = FIELD_TYPES[p.type].column;
    let max: number | null = null;
    if (kind === 'string') {
      const m = stringMax(p);
      if (m._tag === 'Left') return left(`${at}: ${m.left}`);
      max = m.right;
    }
    if (kind === 'versionnumber' && columns.some((c) => c.kind === 'versionnumber'))
      return left(`${at}: a table holds at most one VersionNumber column`);
    const clash = add({ name: p.logicalName, kind, max, nullable: kind !== 'versionnumber' }, `property ${p.logicalName}`);
    if (clash) return left(clash);
    if (FIELD_TYPES[p.type].stored === 'lookup') {
      lookups.push(p.logicalName);
      const target = lookupTargetColumn(p.logicalName);
      if (target.length > IDENTIFIER_MAX) return left(`${at}: "${target}" is longer than ${IDENTIFIER_MAX} characters`);
      const tClash = add({ name: target, kind: 'string', max: LOOKUP_TARGET_MAX, nullable: true }, `the lookup ${p.logicalName}`);
      if (tClash) return left(tClash);
    }
  }

  const indexes: Index[] = [];
  const indexed = new Set<string>();
  const addIndex = (column: string) => {
    if (indexed.has(nameKey(column))) return;
    indexed.add(nameKey(column));
    indexes.push({ name: indexName(e.logicalName, column), columns: [column], unique: false });
  };
  if (isLinkEntity(e)) {
    if (lookups.length < 2) return left(`${where}: a link entity (type many) needs two lookups, it has ${lookups.length}`);
    // The unique pair leads with the first lookup, so it also serves searches by that lookup.
    indexes.push({ name: linkPairIndexName(e.logicalName), columns: [lookups[0], lookups[1]], unique: true });
    indexed.add(nameKey(lookups[0]));
  }
  const systemKeys = new Set<string>(INDEXED_SYSTEM_COLUMNS);
  const unindexed = new Set<string>(e.appendOnly === true ? APPEND_ONLY_UNINDEXED : []);
  for (const c of columns) {
    if (c.name === pk || unindexed.has(nameKey(c.name))) continue;
    // A Guid column other than the key holds another record's id (the audit's and notes' objectid):
    // its rows are read by that record (History, Undo Delete), so it is indexed like a lookup.
    if ((lookups.includes(c.name) || c.kind === 'guid' || systemKeys.has(nameKey(c.name))) && isIndexable(c)) addIndex(c.name);
  }
  const table = withDeclaredIndexes({ name: e.logicalName, primaryKey: pk, columns, indexes }, e.indexes ?? []);
  return right(withFullText(table, fullTextColumns(e)));
};

/** The name of a table's full-text index (the FTS5 table on SQLite; `tessera_` keeps it out of the schema reader's tables). */
export const fullTextIndexName = (table: string): string => `tessera_fts_${table}`;

/**
 * The columns of an entity's full-text index: its `fullText` names that are text properties. The
 * schema makes the index of these and the query compiler searches through it, so both agree.
 */
export const fullTextColumns = (e: Entity): string[] =>
  (e.fullText ?? []).flatMap((f) => {
    const p = e.properties.find((x) => nameKey(x.logicalName) === nameKey(f));
    return p && FIELD_TYPES[p.type].column === 'string' ? [p.logicalName] : [];
  });

/** The full-text index of a table, if it has one. */
export const fullTextIndexOf = (t: Table): Index | undefined => t.indexes.find((i) => i.fullText === true);

/** A table with a full-text index over those of `columns` that exist and hold text (one per table). */
const withFullText = (table: Table, columns: readonly string[]): Table => {
  const names = [...new Set(columns.map((c) => findColumn(table, c)).filter((c): c is Column => c !== undefined && c.kind === 'string').map((c) => c.name))];
  if (names.length === 0) return table;
  return { ...table, indexes: [...table.indexes, { name: fullTextIndexName(table.name), columns: names, unique: false, fullText: true }] };
};

/** The name of an index on several columns of a table (a view's or an entity's declared one). */
export const declaredIndexName = (table: string, columns: readonly string[]): string => `IX_${table}_${columns.join('_')}`;

/**
 * A table with more indexes, each a list of columns: only where every column exists and can be
 * indexed, and no index of the table already leads with those columns. Idempotent.
 */
export const withDeclaredIndexes = (table: Table, lists: ReadonlyArray<readonly string[]>): Table => {
  const indexes = [...table.indexes];
  for (const list of lists) {
    const columns = list.map((c) => findColumn(table, c));
    if (columns.length === 0 || columns.some((c) => c === undefined || !isIndexable(c))) continue;
    const names = columns.map((c) => c!.name);
    // The key ends every declared index: pages order by their columns then by the key (a total
    // order), so an index of (columns, key) serves the whole ORDER BY and a page costs its rows
    // (issue 24), not a sort of every row with the same leading values.
    const ordered = nameKey(names[names.length - 1]) === nameKey(table.primaryKey) ? names : [...names, table.primaryKey];
    const name = declaredIndexName(table.name, ordered);
    const same = (i: Index) => !i.fullText && i.columns.length >= ordered.length && ordered.every((n, k) => nameKey(i.columns[k]) === nameKey(n));
    if (indexes.some(same) || indexes.some((i) => nameKey(i.name) === nameKey(name))) continue;
    indexes.push({ name, columns: ordered, unique: false });
  }
  return indexes.length === table.indexes.length ? table : { ...table, indexes };
};

/**
 * The schema of a complete metadata set (system fields already applied). Fails with one line
 * naming the entity and property when a name cannot become a table or column.
 */
export const schemaOf = (entities: readonly Entity[]): Either<InputError, Schema> => {
  const tables: Table[] = [];
  const names = new Map<string, string>();
  for (const e of entities) {
    const t = tableOf(e);
    if (t._tag === 'Left') return left(inputError(`Invalid metadata: ${t.left}`));
    const key = nameKey(e.logicalName);
    if (names.has(key)) return left(inputError(`Invalid metadata: entity ${e.logicalName} is defined twice`));
    names.set(key, `table ${e.logicalName}`);
    tables.push(t.right);
  }
  // SQLite keeps tables and indexes in one namespace per database: every name must be unique in it.
  for (const t of tables)
    for (const i of t.indexes) {
      const clash = names.get(nameKey(i.name));
      if (clash)
        return left(inputError(`Invalid metadata: entity ${t.name}: index ${i.name} clashes with ${clash}; rename the entity or field`));
      names.set(nameKey(i.name), `index ${i.name} of ${t.name}`);
    }
  return right({ tables });
};

export const findTable = (s: Schema, name: string): Table | undefined => {
  const key = nameKey(name);
  return s.tables.find((t) => nameKey(t.name) === key);
};
export const findColumn = (t: Table, name: string): Column | undefined => {
  const key = nameKey(name);
  return t.columns.find((c) => nameKey(c.name) === key);
};

const byName = <T extends { name: string }>(a: T, b: T) => (nameKey(a.name) < nameKey(b.name) ? -1 : nameKey(a.name) > nameKey(b.name) ? 1 : 0);

/**
 * The canonical form used to compare two schemas: tables, columns and indexes in name order, names in
 * lower case. Column order is not part of a schema: SQL appends added columns at the end.
 */
export const canonicalSchema = (s: Schema): Schema => ({
  tables: [...s.tables].sort(byName).map((t) => ({
    name: nameKey(t.name),
    primaryKey: nameKey(t.primaryKey),
    columns: [...t.columns].sort(byName).map((c) => ({ ...c, name: nameKey(c.name) })),
    indexes: [...t.indexes]
      .sort(byName)
      .map((i) => ({ name: nameKey(i.name), columns: i.columns.map(nameKey), unique: i.unique, ...(i.fullText ? { fullText: true } : {}) })),
  })),
});

export const sameColumnType = (a: Column, b: Column): boolean =>
  a.kind === b.kind && a.max === b.max && a.nullable === b.nullable;

export const sameIndex = (a: Index, b: Index): boolean =>
  nameKey(a.name) === nameKey(b.name) &&
  a.unique === b.unique &&
  (a.fullText === true) === (b.fullText === true) &&
  a.columns.length === b.columns.length &&
  a.columns.every((c, i) => nameKey(c) === nameKey(b.columns[i]));
