import { sql, type Compilable, type RawBuilder } from 'kysely';
import {
  AUDIT_DELETE,
  FIELD_TYPES,
  lookupTargetColumn,
  primaryKeyOf,
  type Entity,
  type Property,
  type Scalar,
  type StepValue,
  type StepWhere,
  type Steps,
  type StoredForm,
  type StoredRecord,
  type StoreStep,
} from '@tessera/core/internal';
import type { SqlDialect, SqlDialectKind } from '../dialects/sql-dialect.js';
import { columnsOf, param, storedRow, type Row } from './sql-values.js';

/**
 * The storage steps of the shared write use cases (core/src/store/record-writes.ts) as SQL.
 * A command is built per dialect, so the same step can be run on one and compiled for another.
 * The version check and the write are one statement: `UPDATE ... WHERE id = ? AND versionnumber = ?`.
 */
export type SqlCommand = {
  kind: 'all' | 'run';
  build: (d: SqlDialect) => Compilable;
  /**
   * Statements whose text depends only on `key` (a table and its column list) carry their
   * parameters: a runner may compile them once and reuse the text (bulk writes).
   */
  key?: string;
  params?: unknown[];
};
export type SqlResult = { rows: Row[]; changes: number };
export type SqlWork<T> = Generator<SqlCommand, T, SqlResult>;

/** The stored form of a property in the field-type registry (core/src/metadata/field-types.ts). */
const formOf = (p: Property): StoredForm => FIELD_TYPES[p.type].stored;
const versionOf = (e: Entity): string | undefined => e.properties.find((p) => formOf(p) === 'counter')?.logicalName;

/** Every column of an entity, the versionnumber as a number on both dialects. */
const selectColumns = (kind: SqlDialectKind, e: Entity): RawBuilder<unknown>[] =>
  e.properties.flatMap((p) => {
    const col = sql.ref(p.logicalName);
    if (formOf(p) === 'counter') return [(kind === 'mssql' ? sql`CAST(${col} AS bigint)` : col).as(p.logicalName) as unknown as RawBuilder<unknown>];
    if (formOf(p) === 'lookup') return [col, sql.ref(lookupTargetColumn(p.logicalName))];
    return [col];
  });

const versionCheck = (kind: SqlDialectKind, column: string, version: number): RawBuilder<unknown> =>
  kind === 'mssql' ? sql`CAST(${sql.ref(column)} AS bigint) = ${version}` : sql`${sql.ref(column)} = ${version}`;

const assignments = (kind: SqlDialectKind, e: Entity, values: StoredRecord, insert: boolean): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const p of e.properties) {
    if (!(p.logicalName in values)) continue;
    // SQL Server's rowversion is written by the server itself.
    if (formOf(p) === 'counter' && (kind === 'mssql' || !insert)) continue;
    for (const [c, v] of columnsOf(kind, p, values[p.logicalName])) out[c] = v;
  }
  return out;
};

/**
 * An entity's statements keyed by a number instead of its column names joined for every record:
 * the number stands for what the SQL text depends on (table, primary key, each property's name
 * and type), worked out once per entity object. Equal entities share the number, so a host whose
 * lookup makes new entity objects still reuses its statements; a changed entity gets another.
 */
type ColumnPlan = { readonly id: number; readonly properties: readonly Property[]; readonly size: number; readonly forms: readonly StoredForm[] };
const MAX_SIGNATURES = 10_000;
let signatureCount = 0;
const signatures = new Map<string, number>();
const columnPlans = new WeakMap<Entity, ColumnPlan>();
const columnPlanOf = (e: Entity): ColumnPlan => {
  const known = columnPlans.get(e);
  if (known !== undefined && known.properties === e.properties && known.size === e.properties.length) return known;
  const signature = [e.logicalName, primaryKeyOf(e), ...e.properties.map((p) => `${p.logicalName}:${p.type}`)].join('\u0000');
  let id = signatures.get(signature);
  if (id === undefined) {
    // Numbers are never reused, so forgetting old signatures only costs a compile.
    if (signatures.size >= MAX_SIGNATURES) signatures.clear();
    signatures.set(signature, (id = ++signatureCount));
  }
  const plan = { id, properties: e.properties, size: e.properties.length, forms: e.properties.map(formOf) };
  columnPlans.set(e, plan);
  return plan;
};

/**
 * The SQLite parameters of `assignments('sqlite', ...)`, in the same order, and a key naming the
 * entity and the properties written (30 per base-36 word), without building the column object:
 * the hot path of bulk writes.
 */
const sqliteWrite = (e: Entity, values: StoredRecord, insert: boolean, prefix: string): { key: string; params: unknown[] } => {
  const plan = columnPlanOf(e);
  const params: unknown[] = [];
  let key = `${prefix}:${plan.id}:`;
  let bits = 0;
  const props = plan.properties;
  const forms = plan.forms;
  for (let i = 0; i < props.length; i++) {
    if (i > 0 && i % 30 === 0) {
      key += `${bits.toString(36)}.`;
      bits = 0;
    }
    const p = props[i];
    const v = values[p.logicalName];
    if (v === undefined && !(p.logicalName in values)) continue;
    if (forms[i] === 'counter' && !insert) continue;
    bits |= 1 << i % 30;
    if (forms[i] === 'lookup') {
      const ref = v !== null && typeof v === 'object' ? v : null;
      params.push(ref ? ref.id : null, ref ? ref.name : null);
    } else if (v === undefined || v === null) params.push(null);
    else if (typeof v === 'boolean') params.push(v ? 1 : 0);
    else if (forms[i] === 'base64' && typeof v === 'string') params.push(Buffer.from(v, 'base64'));
    else params.push(v);
  }
  return { key: key + bits.toString(36), params };
};

/** One storage step as one SQL command, and how its result answers the step (record-writes.ts StoreStep). */
export type StepCommand = { command: SqlCommand; answer: (result: SqlResult) => unknown };

const rowAnswer =
  (e: Entity) =>
  (r: SqlResult): StoredRecord | null =>
    r.rows[0] ? storedRow(e, r.rows[0]) : null;
const insertedAnswer = (r: SqlResult): boolean => r.changes === 1;
const changesAnswer = (r: SqlResult): number => r.changes;

export const sqlStepCommand = (step: StoreStep): StepCommand => {
  switch (step.kind) {
    case 'get': {
      const e = step.entity;
      const build = (d: SqlDialect) =>
        d.db
          .selectFrom(e.logicalName)
          .select(selectColumns(d.kind, e) as any)
          .where(sql.ref(primaryKeyOf(e)) as any, '=', step.id);
      return { command: { kind: 'all', build, key: `get:${columnPlanOf(e).id}`, params: [step.id] }, answer: rowAnswer(e) };
    }
    case 'insert': {
      // One statement: inserts unless the id (or, on SQLite, another unique key such as a link pair) is taken.
      const e = step.entity;
      const pk = primaryKeyOf(e);
      const id = step.record[pk] as string;
      const build = (d: SqlDialect) => {
        const values = assignments(d.kind, e, step.record, true);
        if (d.kind !== 'mssql') return d.db.insertInto(e.logicalName).values(values).onConflict((oc) => oc.doNothing());
        const columns = Object.keys(values);
        return d.db
          .insertInto(e.logicalName)
          .columns(columns as any)
          .expression(
            d.db
              .selectNoFrom(columns.map((c) => sql`${values[c]}`.as(c)) as any)
              .where(sql`NOT EXISTS (SELECT 1 FROM ${sql.table(e.logicalName)} WHERE ${sql.ref(pk)} = ${id})` as any),
          );
      };
      const { key, params } = sqliteWrite(e, step.record, true, 'insert');
      return { command: { kind: 'run', build, key, params }, answer: insertedAnswer };
    }
    case 'update': {
      const e = step.entity;
      const vf = versionOf(e);
      const written = sqliteWrite(e, step.changes, false, 'update');
      const where = whereOf(e, step.where ?? {});
      const key = `${written.key}:${step.version !== undefined}${where.key}`;
      const params = [...written.params, step.id, ...(vf && step.version !== undefined ? [step.version] : []), ...where.params];
      const build = (d: SqlDialect) => {
        let q = d.db.updateTable(e.logicalName).set(assignments(d.kind, e, step.changes, false));
        if (vf && d.kind !== 'mssql') q = q.set({ [vf]: sql`${sql.ref(vf)} + 1` });
        q = q.where(sql.ref(primaryKeyOf(e)) as any, '=', step.id);
        if (vf && step.version !== undefined) q = q.where(versionCheck(d.kind, vf, step.version) as any);
        for (const c of where.conditions(d.kind)) q = q.where(c as any);
        return q;
      };
      return { command: { kind: 'run', build, key, params }, answer: changesAnswer };
    }
    case 'delete': {
      const e = step.entity;
      const vf = versionOf(e);
      const build = (d: SqlDialect) => {
        let q = d.db.deleteFrom(e.logicalName).where(sql.ref(primaryKeyOf(e)) as any, '=', step.id);
        if (vf && step.version !== undefined) q = q.where(versionCheck(d.kind, vf, step.version) as any);
        return q;
      };
      return { command: { kind: 'run', build }, answer: changesAnswer };
    }
    case 'lastDeleted': {
      const e = step.audit;
      const build = (d: SqlDialect) => {
        let q = d.db
          .selectFrom(e.logicalName)
          .select(selectColumns(d.kind, e) as any)
          .where(sql.ref('logicalname') as any, '=', step.logicalname)
          .where(sql.ref('objectid') as any, '=', step.objectid)
          .where(sql.ref('operation') as any, '=', AUDIT_DELETE)
          .orderBy(sql.ref('createdon') as any, 'desc');
        q = d.kind === 'mssql' ? q.top(1) : q.limit(1);
        return q;
      };
      return { command: { kind: 'all', build }, answer: rowAnswer(e) };
    }
    case 'select': {
      const e = step.entity;
      const where = whereOf(e, step.where);
      const order = step.orderBy ?? primaryKeyOf(e);
      fieldOf(e, order);
      const limit = step.limit;
      const build = (d: SqlDialect) => {
        let q = d.db.selectFrom(e.logicalName).select(selectColumns(d.kind, e) as any);
        for (const c of where.conditions(d.kind)) q = q.where(c as any);
        // NULL first, as on SQLite and SQL Server (PostgreSQL puts it last unless told)
        q = d.kind === 'postgres' ? q.orderBy(sql`${sql.ref(order)} ASC NULLS FIRST` as any) : q.orderBy(sql.ref(order) as any, 'asc');
        if (limit !== undefined) q = d.kind === 'mssql' ? q.top(limit) : q.limit(limit);
        return q;
      };
      // Keyed like get: a rule's select runs in every write, so its text is compiled once.
      const key = `select:${columnPlanOf(e).id}:${order}:${limit !== undefined}${where.key}`;
      const params = [...where.params, ...(limit !== undefined ? [limit] : [])];
      return { command: { kind: 'all', build, key, params }, answer: (r) => r.rows.map((row) => storedRow(e, row)) };
    }
    case 'increment': {
      // One statement that also answers the new value: SQLite RETURNING, SQL Server OUTPUT. SQL
      // Server keeps the row's lock to the end of the transaction, so concurrent creates queue.
      const e = step.entity;
      const vf = versionOf(e);
      const field = fieldOf(e, step.field).logicalName;
      const round = step.round;
      if (round !== undefined && !(Number.isInteger(round) && round >= 0 && round <= 10)) throw new Error(`increment: round ${round} is not 0 to 10`);
      const build = (d: SqlDialect) => {
        const sum = sql`COALESCE(${sql.ref(field)}, 0) + ${step.by}`;
        // PostgreSQL rounds numeric only (not double precision): the sum is cast for ROUND.
        const rounded = d.kind === 'postgres' ? sql`ROUND(CAST(${sum} AS numeric), ${sql.lit(round)})` : sql`ROUND(${sum}, ${sql.lit(round)})`;
        let q = d.db.updateTable(e.logicalName).set({ [field]: round === undefined ? sum : rounded });
        if (vf && d.kind !== 'mssql') q = q.set({ [vf]: sql`${sql.ref(vf)} + 1` });
        q = q.where(sql.ref(primaryKeyOf(e)) as any, '=', step.id);
        return d.kind === 'mssql' ? q.output(sql.ref(`inserted.${field}`).as('value') as any) : q.returning(sql.ref(field).as('value') as any);
      };
      const key = `increment:${columnPlanOf(e).id}:${field}:${round ?? ''}`;
      return { command: { kind: 'all', build, key, params: [step.by, step.id] }, answer: (r) => (r.rows[0] ? Number(r.rows[0].value) : null) };
    }
    case 'incrementWhere': {
      const e = step.entity;
      const vf = versionOf(e);
      const field = fieldOf(e, step.field).logicalName;
      const where = whereOf(e, step.where);
      const build = (d: SqlDialect) => {
        let q = d.db.updateTable(e.logicalName).set({ [field]: sql`COALESCE(${sql.ref(field)}, 0) + ${step.by}` });
        if (vf && d.kind !== 'mssql') q = q.set({ [vf]: sql`${sql.ref(vf)} + 1` });
        for (const c of where.conditions(d.kind)) q = q.where(c as any);
        return q;
      };
      // No RETURNING: on SQLite it costs more than the select a rule runs when a row matched.
      const key = `incrementWhere:${columnPlanOf(e).id}:${field}${where.key}`;
      return { command: { kind: 'run', build, key, params: [step.by, ...where.params] }, answer: changesAnswer };
    }
  }
};

/** A property a step names; an unknown name is a bug in the rule, never a user's input. */
const fieldOf = (e: Entity, name: string): Property => {
  const p = e.properties.find((x) => x.logicalName === name);
  if (!p) throw new Error(`${e.logicalName} has no field ${name}`);
  return p;
};

/**
 * The equality conditions of a step's `where` (record-writes.ts StepWhere): a lookup compares its
 * id column, null is IS NULL. The key names the fields and which are null, for statement reuse.
 */
const whereOf = (e: Entity, where: StepWhere): { key: string; params: unknown[]; conditions: (kind: SqlDialectKind) => RawBuilder<unknown>[] } => {
  // Ids are stored lower-case (SQLite compares text exactly); a rule may hold one in capitals.
  const entries = Object.entries(where).map(([f, v]): [string, StepValue | StepValue[]] => {
    const form = formOf(fieldOf(e, f));
    const one = (x: StepValue): StepValue => (typeof x === 'string' && (form === 'id' || form === 'lookup') ? x.toLowerCase() : x);
    return [f, Array.isArray(v) ? v.filter((x: StepValue) => x !== null).map(one) : one(v as StepValue)];
  });
  return {
    key: entries.map(([f, v]) => `:${f}${v === null ? '?n' : Array.isArray(v) ? `?${v.length}` : ''}`).join(''),
    params: entries.flatMap(([, v]) => (v === null ? [] : Array.isArray(v) ? v : [v])).map((v) => param('sqlite', v as Scalar)),
    conditions: (kind) =>
      entries.map(([f, v]) =>
        v === null
          ? sql`${sql.ref(f)} IS NULL`
          : Array.isArray(v)
            ? v.length === 0
              ? sql`1 = 0`
              : sql`${sql.ref(f)} IN (${sql.join(v.map((x) => param(kind, x as Scalar)))})`
            : sql`${sql.ref(f)} = ${param(kind, v)}`,
      ),
  };
};


/** One storage step as SQL work; answers what the step promises (record-writes.ts StoreStep). */
export function* sqlStep(step: StoreStep): SqlWork<unknown> {
  const c = sqlStepCommand(step);
  return c.answer(yield c.command);
}

/** A write's storage steps as one piece of SQL work: one command per step, no nested generators. */
export function* sqlWork<T>(steps: Steps<T>): SqlWork<T> {
  let next = steps.next();
  while (!next.done) {
    const c = sqlStepCommand(next.value);
    next = steps.next(c.answer(yield c.command));
  }
  return next.value;
}
