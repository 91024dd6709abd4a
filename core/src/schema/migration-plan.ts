import { left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  findColumn,
  findTable,
  isIndexable,
  nameKey,
  sameColumnType,
  sameIndex,
  type Column,
  type Index,
  type Schema,
  type Table,
} from './schema-model.js';

/**
 * A migration plan: the ordered, dialect-free steps that turn one schema into another
 * (spec 000 section 3: "drops removed columns, alters changed string lengths, adds new columns,
 * and drops removed tables"). Each step says whether it can lose data.
 */
export type MigrationStep =
  | { readonly kind: 'dropIndex'; readonly table: string; readonly index: string; readonly dataLoss: false }
  | { readonly kind: 'dropColumn'; readonly table: string; readonly column: string; readonly dataLoss: true }
  | { readonly kind: 'dropTable'; readonly table: string; readonly dataLoss: true }
  | { readonly kind: 'createTable'; readonly table: Table; readonly dataLoss: false }
  | { readonly kind: 'addColumn'; readonly table: string; readonly column: Column; readonly dataLoss: false }
  | {
      readonly kind: 'alterStringLength';
      readonly table: string;
      readonly column: string;
      readonly from: number | null;
      readonly to: number | null;
      /** A shorter string (or bounded after unbounded) can cut values. */
      readonly dataLoss: boolean;
    }
  | { readonly kind: 'createIndex'; readonly table: string; readonly index: Index; readonly dataLoss: false };

export type MigrationPlan = readonly MigrationStep[];

/** Unbounded counts as the longest: shrinking below the old length is lossy. */
const shrinks = (from: number | null, to: number | null): boolean => to !== null && (from === null || to < from);

/** One line describing a step, for plans, progress and refusals. */
export const describeStep = (s: MigrationStep): string => {
  switch (s.kind) {
    case 'dropIndex':
      return `drop index ${s.index} on ${s.table}`;
    case 'dropColumn':
      return `drop column ${s.table}.${s.column}`;
    case 'dropTable':
      return `drop table ${s.table}`;
    case 'createTable':
      return `create table ${s.table.name} (${s.table.columns.length} columns)`;
    case 'addColumn':
      return `add column ${s.table}.${s.column.name}`;
    case 'alterStringLength':
      return `alter length of ${s.table}.${s.column} from ${s.from ?? 'max'} to ${s.to ?? 'max'}`;
    case 'createIndex':
      return `create ${s.index.unique ? 'unique ' : ''}index ${s.index.name} on ${s.table} (${s.index.columns.join(', ')})`;
  }
};

/**
 * The plan from `from` to `to`, in an order every database can run: first the indexes that go
 * (SQL Server will not drop or alter an indexed column), then dropped columns, dropped tables,
 * created tables, added columns, changed lengths, and last the new indexes. A table whose key
 * changes is dropped and created again; a column whose type changes is dropped and added again.
 */
export const diffSchema = (from: Schema, to: Schema): MigrationPlan => {
  const dropIndexes: MigrationStep[] = [];
  const dropColumns: MigrationStep[] = [];
  const dropTables: MigrationStep[] = [];
  const createTables: MigrationStep[] = [];
  const addColumns: MigrationStep[] = [];
  const alterLengths: MigrationStep[] = [];
  const createIndexes: MigrationStep[] = [];

  for (const old of from.tables) {
    const next = findTable(to, old.name);
    if (!next || nameKey(next.primaryKey) !== nameKey(old.primaryKey))
      dropTables.push({ kind: 'dropTable', table: old.name, dataLoss: true });
  }
  for (const next of to.tables) {
    const old = findTable(from, next.name);
    if (!old || nameKey(next.primaryKey) !== nameKey(old.primaryKey)) {
      createTables.push({ kind: 'createTable', table: { ...next, indexes: [] }, dataLoss: false });
      for (const index of next.indexes) createIndexes.push({ kind: 'createIndex', table: next.name, index, dataLoss: false });
      continue;
    }
    // Columns that are dropped, retyped or changed in length cannot keep their indexes meanwhile.
    const touched = new Set<string>();
    for (const c of old.columns) {
      const n = findColumn(next, c.name);
      if (n && sameColumnType(c, n)) continue;
      touched.add(nameKey(c.name));
      if (n && c.kind === 'string' && n.kind === 'string')
        alterLengths.push({
          kind: 'alterStringLength',
          table: old.name,
          column: c.name,
          from: c.max,
          to: n.max,
          dataLoss: shrinks(c.max, n.max),
        });
      else {
        dropColumns.push({ kind: 'dropColumn', table: old.name, column: c.name, dataLoss: true });
        if (n) addColumns.push({ kind: 'addColumn', table: old.name, column: n, dataLoss: false });
      }
    }
    for (const c of next.columns)
      if (!findColumn(old, c.name)) addColumns.push({ kind: 'addColumn', table: old.name, column: c, dataLoss: false });
    const kept = (i: Index) => next.indexes.some((n) => sameIndex(n, i)) && !i.columns.some((c) => touched.has(nameKey(c)));
    for (const i of old.indexes)
      if (!kept(i)) dropIndexes.push({ kind: 'dropIndex', table: old.name, index: i.name, dataLoss: false });
    for (const i of next.indexes)
      if (!old.indexes.some((o) => sameIndex(o, i) && kept(o)))
        createIndexes.push({ kind: 'createIndex', table: old.name, index: i, dataLoss: false });
  }
  return [...dropIndexes, ...dropColumns, ...dropTables, ...createTables, ...addColumns, ...alterLengths, ...createIndexes];
};

const replaceTable = (s: Schema, old: Table, next: Table): Schema => ({
  tables: s.tables.map((x) => (x === old ? next : x)),
});

const indexNameTaken = (s: Schema, name: string): boolean => {
  const key = nameKey(name);
  return s.tables.some((t) => nameKey(t.name) === key || t.indexes.some((i) => nameKey(i.name) === key));
};

/**
 * Runs one step on the model, refusing what a database would refuse: a table or index name
 * already in use, a missing table or column, dropping or altering a column that an index
 * still holds, indexing a column that cannot be indexed.
 */
export const applyStep = (s: Schema, step: MigrationStep): Either<string, Schema> => {
  const what = describeStep(step);
  if (step.kind === 'createTable') {
    if (indexNameTaken(s, step.table.name)) return left(`${what}: the name is in use`);
    return right({ tables: [...s.tables, step.table] });
  }
  const table = findTable(s, step.table);
  if (!table) return left(`${what}: no table ${step.table}`);
  const indexedBy = (column: string) => table.indexes.find((i) => i.columns.some((c) => nameKey(c) === nameKey(column)));
  switch (step.kind) {
    case 'dropTable':
      return right({ tables: s.tables.filter((t) => t !== table) });
    case 'addColumn':
      if (findColumn(table, step.column.name)) return left(`${what}: the column exists`);
      if (!step.column.nullable && step.column.kind !== 'versionnumber') return left(`${what}: an added column must allow nulls`);
      return right(replaceTable(s, table, { ...table, columns: [...table.columns, step.column] }));
    case 'dropColumn': {
      const c = findColumn(table, step.column);
      if (!c) return left(`${what}: no such column`);
      if (nameKey(c.name) === nameKey(table.primaryKey)) return left(`${what}: it is the primary key`);
      const i = indexedBy(c.name);
      if (i) return left(`${what}: index ${i.name} still holds it`);
      return right(replaceTable(s, table, { ...table, columns: table.columns.filter((x) => x !== c) }));
    }
    case 'alterStringLength': {
      const c = findColumn(table, step.column);
      if (!c || c.kind !== 'string' || c.max !== step.from) return left(`${what}: the column is not a string of that length`);
      const i = indexedBy(c.name);
      if (i) return left(`${what}: index ${i.name} still holds it`);
      return right(replaceTable(s, table, { ...table, columns: table.columns.map((x) => (x === c ? { ...c, max: step.to } : x)) }));
    }
    case 'createIndex': {
      if (indexNameTaken(s, step.index.name)) return left(`${what}: the name is in use`);
      for (const name of step.index.columns) {
        const c = findColumn(table, name);
        if (!c) return left(`${what}: no column ${name}`);
        // A full-text index holds text of any length; a b-tree key has a size limit.
        if (step.index.fullText ? c.kind !== 'string' : !isIndexable(c)) return left(`${what}: column ${name} cannot be indexed`);
      }
      return right(replaceTable(s, table, { ...table, indexes: [...table.indexes, step.index] }));
    }
    case 'dropIndex': {
      const i = table.indexes.find((x) => nameKey(x.name) === nameKey(step.index));
      if (!i) return left(`${what}: no such index`);
      return right(replaceTable(s, table, { ...table, indexes: table.indexes.filter((x) => x !== i) }));
    }
  }
};

/** Runs a whole plan on the model; the failure names the step (1-based) that could not run. */
export const applyPlan = (s: Schema, plan: MigrationPlan): Either<string, Schema> => {
  let current = s;
  for (const [n, step] of plan.entries()) {
    const r = applyStep(current, step);
    if (r._tag === 'Left') return left(`step ${n + 1}: ${r.left}`);
    current = r.right;
  }
  return right(current);
};

/** Every intermediate schema of a plan, starting with `s`: the dialects compile a step against the schema it meets. */
export const schemasAlong = (s: Schema, plan: MigrationPlan): Either<string, Schema[]> => {
  const out: Schema[] = [s];
  for (const [n, step] of plan.entries()) {
    const r = applyStep(out[out.length - 1], step);
    if (r._tag === 'Left') return left(`step ${n + 1}: ${r.left}`);
    out.push(r.right);
  }
  return right(out);
};

export const lossySteps = (plan: MigrationPlan): MigrationStep[] => plan.filter((s) => s.dataLoss);
