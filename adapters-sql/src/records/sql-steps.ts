import { sql, type Compilable, type RawBuilder } from 'kysely';
import {
  AUDIT_DELETE,
  lookupTargetColumn,
  primaryKeyOf,
  type Entity,
  type Steps,
  type StoredRecord,
  type StoreStep,
} from '@tessera/core';
import type { SqlDialect, SqlDialectKind } from '../dialects/sql-dialect.js';
import { columnsOf, storedRow, type Row } from './sql-values.js';

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

const versionOf = (e: Entity): string | undefined => e.properties.find((p) => p.type === 'VersionNumber')?.logicalName;

/** Every column of an entity, the versionnumber as a number on both dialects. */
const selectColumns = (kind: SqlDialectKind, e: Entity): RawBuilder<unknown>[] =>
  e.properties.flatMap((p) => {
    const col = sql.ref(p.logicalName);
    if (p.type === 'VersionNumber') return [(kind === 'mssql' ? sql`CAST(${col} AS bigint)` : col).as(p.logicalName) as unknown as RawBuilder<unknown>];
    if (p.type === 'Lookup') return [col, sql.ref(lookupTargetColumn(p.logicalName))];
    return [col];
  });

const versionCheck = (kind: SqlDialectKind, column: string, version: number): RawBuilder<unknown> =>
  kind === 'mssql' ? sql`CAST(${sql.ref(column)} AS bigint) = ${version}` : sql`${sql.ref(column)} = ${version}`;

function* all(build: SqlCommand['build'], key?: string, params?: unknown[]): SqlWork<Row[]> {
  return (yield { kind: 'all', build, key, params }).rows;
}
function* run(build: SqlCommand['build'], key?: string, params?: unknown[]): SqlWork<number> {
  return (yield { kind: 'run', build, key, params }).changes;
}

const assignments = (kind: SqlDialectKind, e: Entity, values: StoredRecord, insert: boolean): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const p of e.properties) {
    if (!(p.logicalName in values)) continue;
    // SQL Server's rowversion is written by the server itself.
    if (p.type === 'VersionNumber' && (kind === 'mssql' || !insert)) continue;
    for (const [c, v] of columnsOf(kind, p, values[p.logicalName])) out[c] = v;
  }
  return out;
};

/** One storage step as SQL commands; answers what the step promises (record-writes.ts StoreStep). */
export function* sqlStep(step: StoreStep): SqlWork<unknown> {
  switch (step.kind) {
    case 'get': {
      const e = step.entity;
      const rows = yield* all(
        (d) =>
          d.db
            .selectFrom(e.logicalName)
            .select(selectColumns(d.kind, e) as any)
            .where(sql.ref(primaryKeyOf(e)) as any, '=', step.id),
        `get:${e.logicalName}`,
        [step.id],
      );
      return rows[0] ? storedRow(e, rows[0]) : null;
    }
    case 'insert': {
      // One statement: inserts unless the id (or, on SQLite, another unique key such as a link pair) is taken.
      const e = step.entity;
      const pk = primaryKeyOf(e);
      const id = step.record[pk] as string;
      const insert = (d: SqlDialect) => {
        const values = assignments(d.kind, e, step.record, true);
        if (d.kind === 'sqlite') return d.db.insertInto(e.logicalName).values(values).onConflict((oc) => oc.doNothing());
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
      const values = assignments('sqlite', e, step.record, true);
      const key = `insert:${e.logicalName}:${Object.keys(values).join(',')}`;
      return (yield* run(insert, key, Object.values(values))) === 1;
    }
    case 'update': {
      const e = step.entity;
      const vf = versionOf(e);
      const values = assignments('sqlite', e, step.changes, false);
      const key = `update:${e.logicalName}:${Object.keys(values).join(',')}:${step.version !== undefined}`;
      const params = [...Object.values(values), step.id, ...(vf && step.version !== undefined ? [step.version] : [])];
      return yield* run((d) => {
        let q = d.db.updateTable(e.logicalName).set(assignments(d.kind, e, step.changes, false));
        if (vf && d.kind === 'sqlite') q = q.set({ [vf]: sql`${sql.ref(vf)} + 1` });
        q = q.where(sql.ref(primaryKeyOf(e)) as any, '=', step.id);
        if (vf && step.version !== undefined) q = q.where(versionCheck(d.kind, vf, step.version) as any);
        return q;
      }, key, params);
    }
    case 'delete': {
      const e = step.entity;
      const vf = versionOf(e);
      return yield* run((d) => {
        let q = d.db.deleteFrom(e.logicalName).where(sql.ref(primaryKeyOf(e)) as any, '=', step.id);
        if (vf && step.version !== undefined) q = q.where(versionCheck(d.kind, vf, step.version) as any);
        return q;
      });
    }
    case 'lastDeleted': {
      const e = step.audit;
      const rows = yield* all((d) => {
        let q = d.db
          .selectFrom(e.logicalName)
          .select(selectColumns(d.kind, e) as any)
          .where(sql.ref('logicalname') as any, '=', step.logicalname)
          .where(sql.ref('objectid') as any, '=', step.objectid)
          .where(sql.ref('operation') as any, '=', AUDIT_DELETE)
          .orderBy(sql.ref('createdon') as any, 'desc');
        q = d.kind === 'mssql' ? q.top(1) : q.limit(1);
        return q;
      });
      return rows[0] ? storedRow(e, rows[0]) : null;
    }
  }
}

/** A write's storage steps as one piece of SQL work. */
export function* sqlWork<T>(steps: Steps<T>): SqlWork<T> {
  let next = steps.next();
  while (!next.done) {
    const answer = yield* sqlStep(next.value);
    next = steps.next(answer);
  }
  return next.value;
}
