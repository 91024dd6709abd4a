import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import {
  DEFAULT_COUNT_CAP,
  fullTextColumns,
  fullTextIndexName,
  likePrefix,
  nameKey,
  lookupTargetColumn,
  parseLikePattern,
  primaryKeyOf,
  FIELD_TYPES,
  ROOT_TABLE,
  type ColumnRef,
  type DateGrouping,
  type Entity,
  type EntityLookup,
  type EntityRecord,
  type LikeToken,
  type PlanCondition,
  type PlanFilter,
  type Property,
  type QueryPlan,
  type ReadScope,
} from '@tessera/core/internal';
import type { SqlDialect, SqlDialectKind } from '../dialects/sql-dialect.js';
import { lookupOf, param, scalarOf, wireReaderOf, wireValue, type Row } from './sql-values.js';

/**
 * A validated query plan as SQL: one SELECT for the page and one COUNT under the same WHERE.
 * Identifiers come from the metadata (tables, columns) or are internal (t0, t1, l0, c0); every
 * value of the request is a parameter. The read scope of each entity is part of the SQL: the
 * root's in the WHERE, a link's in its ON clause, so counts and aggregates see only permitted rows.
 */
type Expr = RawBuilder<unknown>;
type Select = SelectQueryBuilder<any, any, any>;

export type CompiledFetch = {
  /** the page */
  data: Select;
  /** the total under the same filter up to the count cap plus one, or null when not asked */
  count: Select | null;
  /** rows of `data` to records on the wire */
  decode(rows: Row[]): EntityRecord[];
  /** rows the data query asks for: pageSize, plus one to learn moreRecords */
  fetched: number;
};

const ref = (table: string, column: string): Expr => sql.ref(`${table}.${column}`);
const TRUE: Expr = sql`1 = 1`;
const FALSE: Expr = sql`1 = 0`;

const and = (parts: Expr[]): Expr => (parts.length === 0 ? TRUE : parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` AND `)})`);
const or = (parts: Expr[]): Expr => (parts.length === 0 ? FALSE : parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` OR `)})`);

const hasColumn = (e: Entity, name: string): boolean => e.properties.some((p) => p.logicalName === name);

/** A read scope of one table as SQL (core/src/permissions readScope; inReadScope is its twin). */
export const scopeSql = (scope: ReadScope, table: string, e: Entity): Expr => {
  if (scope.kind === 'all') return TRUE;
  if (scope.kind === 'none') return FALSE;
  const user = scope.userId.toLowerCase();
  const pointsAtUser = (f: string): Expr | null => (hasColumn(e, f) ? sql`${ref(table, f)} = ${user}` : null);
  const parts: Array<Expr | null> = scope.customOwnerFields.map(pointsAtUser);
  if (scope.kind !== 'customOwners') parts.push(pointsAtUser(scope.ownerField));
  if (scope.kind === 'team' && scope.teams.length > 0 && hasColumn(e, 'teamid')) {
    parts.push(sql`${ref(table, 'teamid')} IN (${sql.join(scope.teams.map((t) => t.toLowerCase()))})`);
  }
  return or(parts.filter((p): p is Expr => p !== null));
};

/** SQLite's escape character for patterns (docs/api.md "like"). */
const ESCAPE = sql.raw(`'\\'`);

/**
 * A Tessera like pattern in the dialect's syntax. SQLite escapes literal `%`, `_` and `\` with `\`
 * (ESCAPE '\'); SQL Server quotes them in brackets (`[%]`, `[_]`, `[[]`), which needs no ESCAPE clause
 * and also keeps its `[...]` character classes from applying.
 */
export const dialectPattern = (kind: SqlDialectKind, tokens: LikeToken[]): string =>
  tokens
    .map((t) =>
      t.kind === 'any'
        ? '%'
        : t.kind === 'one'
          ? '_'
          : kind === 'mssql'
            ? t.text.replace(/[%_[]/g, (c) => `[${c}]`)
            : t.text.replace(/[\\%_]/g, (c) => `\\${c}`),
    )
    .join('');

const foldAscii = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The LIKE of a pattern: SQLite names its escape character, SQL Server needs none. PostgreSQL's LIKE
 * keeps case: the lowered column is matched against the ASCII-folded pattern, which under the C
 * collation (postgres-ddl.ts) folds exactly what SQLite's LIKE folds, and an index on lower(column)
 * serves it (a B-tree for a prefix, pg_trgm for 'contains').
 */
const likeSql = (kind: SqlDialectKind, col: Expr, pattern: string, negate: boolean): Expr => {
  const op = sql.raw(negate ? 'NOT LIKE' : 'LIKE');
  if (kind === 'postgres') return sql`lower(${col}) ${op} ${foldAscii(pattern)} ESCAPE ${ESCAPE}`;
  return kind === 'sqlite' ? sql`${col} ${op} ${pattern} ESCAPE ${ESCAPE}` : sql`${col} ${op} ${pattern}`;
};

/**
 * Adds one ORDER BY term. NULL sorts first ascending (and last descending) on SQLite, SQL Server
 * and the reference evaluator; PostgreSQL sorts it the other way unless told.
 */
export const orderTerm = (kind: SqlDialectKind, q: Select, e: Expr, desc: boolean): Select =>
  kind === 'postgres'
    ? q.orderBy(sql`${e} ${sql.raw(desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST')}` as RawBuilder<any>)
    : q.orderBy(e as RawBuilder<any>, desc ? 'desc' : 'asc');

/** The range [low, high) of case-folded text that starts with `prefix`; null when it has no upper end. */
export const prefixRange = (prefix: string): { low: string; high: string } | null => {
  const low = foldAscii(prefix);
  const cps = [...low].map((c) => c.codePointAt(0) as number);
  const last = cps.pop() as number;
  if (last >= 0x10ffff || (last >= 0xd7ff && last < 0xe000)) return null;
  return { low, high: String.fromCodePoint(...cps, last + 1) };
};

const versionExpr = (kind: SqlDialectKind, e: Expr): Expr => (kind === 'mssql' ? sql`CAST(${e} AS bigint)` : e);

/** Trigrams need three characters: shorter pieces of a pattern cannot narrow a full-text search. */
const TRIGRAM = 3;

/**
 * The full-text query that narrows a 'contains' LIKE (issue 24): each literal piece of the pattern
 * of three characters or more as a phrase of that column, all required. The trigram index folds
 * case like LIKE does (and more), so its rows are a superset of the LIKE's, and the LIKE stays to
 * decide: the answers are exactly LIKE's. Null when no piece is long enough.
 */
export const fullTextMatch = (column: string, tokens: LikeToken[]): string | null => {
  const phrases = tokens.flatMap((t) => (t.kind === 'text' && [...t.text].length >= TRIGRAM ? [`${column} : "${t.text.replace(/"/g, '""')}"`] : []));
  return phrases.length === 0 ? null : phrases.join(' AND ');
};

class Builder {
  private labels = new Map<string, Expr>();
  private labelJoins: Array<{ entity: Entity; alias: string; on: Expr }> = [];

  constructor(
    private readonly d: SqlDialect,
    private readonly plan: QueryPlan,
    private readonly lookup: EntityLookup,
    private readonly scope: (entity: string) => ReadScope,
  ) {}

  column(c: ColumnRef): Expr {
    const e = ref(c.table, c.property.logicalName);
    return FIELD_TYPES[c.property.type].stored === 'counter' ? versionExpr(this.d.kind, e) : e;
  }

  /**
   * The label of a lookup column: the target's name, from one LEFT JOIN per target. The target's
   * read scope is part of the join, so the label of a record the caller may not read is NULL
   * (issue 22 item 6), as the reference evaluator answers.
   */
  label(c: ColumnRef): Expr {
    const key = `${c.table}.${c.property.logicalName}`;
    const known = this.labels.get(key);
    if (known) return known;
    const targets = (c.property.targets ?? []).map((t) => this.lookup(t)).filter((t): t is Entity => !!t && hasColumn(t, 'name'));
    const parts: Expr[] = [];
    for (const target of targets) {
      const alias = `l${this.labelJoins.length}`;
      const on = [sql`${ref(alias, primaryKeyOf(target))} = ${ref(c.table, c.property.logicalName)}`];
      if (targets.length > 1) on.push(sql`${ref(c.table, lookupTargetColumn(c.property.logicalName))} = ${target.logicalName}`);
      on.push(...this.scopeParts(alias, target));
      this.labelJoins.push({ entity: target, alias, on: and(on) });
      parts.push(ref(alias, 'name'));
    }
    const label = parts.length === 0 ? sql`NULL` : parts.length === 1 ? parts[0] : sql`COALESCE(${sql.join(parts)})`;
    this.labels.set(key, label);
    return label;
  }

  condition(c: PlanCondition): Expr {
    const col = this.column(c.column);
    const k = this.d.kind;
    switch (c.kind) {
      case 'null':
        return c.negate ? sql`${col} IS NOT NULL` : sql`${col} IS NULL`;
      case 'in': {
        const list = sql.join(c.values.map((v) => param(k, v)));
        return c.negate ? sql`${col} NOT IN (${list})` : sql`${col} IN (${list})`;
      }
      case 'like': {
        const tokens = parseLikePattern(c.pattern);
        const pattern = dialectPattern(k, tokens);
        if (c.negate) return likeSql(k, col, pattern, true);
        const like = likeSql(k, col, pattern, false);
        const text = k === 'sqlite' && tokens[0]?.kind === 'any' ? this.fullText(c.column, tokens) : null;
        if (text) return sql`(${text} AND ${like})`;
        const prefix = likePrefix(tokens);
        const range = k === 'sqlite' && prefix ? prefixRange(prefix) : null;
        // SQLite's LIKE folds case, so a plain index cannot serve it; the same prefix as a range
        // under NOCASE can use an index on (name COLLATE NOCASE). The LIKE stays: it defines the match.
        if (!range) return like;
        return sql`(${col} COLLATE NOCASE >= ${range.low} AND ${col} COLLATE NOCASE < ${range.high} AND ${like})`;
      }
      case 'compare': {
        const v = param(k, c.value);
        switch (c.operator) {
          case 'eq':
            return sql`${col} = ${v}`;
          case 'ne':
            return sql`${col} <> ${v}`;
          case 'gt':
            return sql`${col} > ${v}`;
          case 'ge':
            return sql`${col} >= ${v}`;
          case 'lt':
            return sql`${col} < ${v}`;
          default:
            return sql`${col} <= ${v}`;
        }
      }
    }
  }

  /** The rowids a full-text index finds for a 'contains' pattern on an indexed column, or null. */
  private fullText(c: ColumnRef, tokens: LikeToken[]): Expr | null {
    const e = c.table === ROOT_TABLE ? this.plan.root : this.plan.links.find((l) => l.table === c.table)?.entity;
    const column = c.property.logicalName;
    if (!e || !fullTextColumns(e).some((f) => nameKey(f) === nameKey(column))) return null;
    const match = fullTextMatch(column, tokens);
    if (!match) return null;
    const fts = fullTextIndexName(e.logicalName);
    return sql`${ref(c.table, 'rowid')} IN (SELECT rowid FROM ${sql.table(fts)} WHERE ${sql.table(fts)} MATCH ${match})`;
  }

  filter(f: PlanFilter | null): Expr {
    if (!f) return TRUE;
    const parts = [...f.conditions.map((c) => this.condition(c)), ...f.filters.map((s) => this.filter(s))];
    return f.type === 'or' ? (parts.length === 0 ? TRUE : or(parts)) : and(parts);
  }

  /** FROM, the links with their ON clauses (link filter and the linked entity's read scope), the WHERE. */
  base(withLabels: boolean, keyset = true): Select {
    const { plan } = this;
    let q: Select = this.d.db.selectFrom(`${plan.root.logicalName} as ${ROOT_TABLE}`);
    for (const l of plan.links) {
      const on = and([
        sql`${ref(l.table, l.to.logicalName)} = ${ref(l.parent, l.from.logicalName)}`,
        ...(l.filter ? [this.filter(l.filter)] : []),
        ...this.scopeParts(l.table, l.entity),
      ]);
      const table = `${l.entity.logicalName} as ${l.table}`;
      q = l.type === 'outer' ? q.leftJoin(table, (j) => j.on(on as RawBuilder<any>)) : q.innerJoin(table, (j) => j.on(on as RawBuilder<any>));
    }
    if (withLabels) {
      for (const lj of this.labelJoins) {
        q = q.leftJoin(`${lj.entity.logicalName} as ${lj.alias}`, (j) => j.on(lj.on as RawBuilder<any>));
      }
    }
    const where = [...this.scopeParts(ROOT_TABLE, plan.root), ...(plan.filter ? [this.filter(plan.filter)] : []), ...(keyset && plan.after ? [this.filter(plan.after)] : [])];
    if (where.length > 0) q = q.where(and(where) as RawBuilder<any>);
    return q;
  }

  /**
   * A deferred join (issue 24): the page's keys, chosen, sorted and paged on the root table alone
   * (`page` selects the key as `k`), then joined back to the root row and the lookup labels, so
   * only the rows shown pay for the label joins.
   */
  overPage(page: Select): Select {
    const { root } = this.plan;
    const on = sql`${ref(ROOT_TABLE, primaryKeyOf(root))} = ${ref('p', 'k')}` as RawBuilder<any>;
    // SQLite: CROSS JOIN fixes the join order (the page first, then its rows by key). With an inner
    // join its planner may scan the whole table in the ORDER BY's index and probe the page instead.
    let q: Select =
      this.d.kind === 'sqlite'
        ? this.d.db.selectFrom(page.as('p')).crossJoin(`${root.logicalName} as ${ROOT_TABLE}`).where(on)
        : this.d.db.selectFrom(page.as('p')).innerJoin(`${root.logicalName} as ${ROOT_TABLE}`, (j) => j.on(on));
    for (const lj of this.labelJoins) q = q.leftJoin(`${lj.entity.logicalName} as ${lj.alias}`, (j) => j.on(lj.on as RawBuilder<any>));
    return q;
  }

  private scopeParts(table: string, e: Entity): Expr[] {
    const s = this.scope(e.logicalName);
    return s.kind === 'all' ? [] : [scopeSql(s, table, e)];
  }

  dateGroup(col: Expr, g: DateGrouping): Expr {
    if (this.d.kind === 'sqlite') {
      // Stored instants are ISO text in UTC ('YYYY-MM-DDTHH:MM:SS.sssZ', years 0001 to 9999) and days
      // 'YYYY-MM-DD', so year, month and day are prefixes: substr costs a third of strftime on 100k
      // rows (tests/bench/chart-bench.ts) and gives the same keys.
      switch (g) {
        case 'year':
          return sql`substr(${col}, 1, 4)`;
        case 'quarter':
          return sql`(substr(${col}, 1, 4) || '-Q' || ((CAST(substr(${col}, 6, 2) AS INTEGER) + 2) / 3))`;
        case 'month':
          return sql`substr(${col}, 1, 7)`;
        case 'day':
          return sql`substr(${col}, 1, 10)`;
        case 'week': {
          // The ISO week holds its Thursday, and takes its year from it.
          const thursday = sql`date(${col}, '-3 days', 'weekday 4')`;
          return sql`(strftime('%Y', ${thursday}) || '-W' || printf('%02d', (CAST(strftime('%j', ${thursday}) AS INTEGER) - 1) / 7 + 1))`;
        }
      }
    }
    if (this.d.kind === 'postgres') {
      // Grouped in UTC, as SQLite's ISO text is; IYYY and IW are the ISO year and week.
      const u = sql`(${col} AT TIME ZONE 'UTC')`;
      const format = { year: 'YYYY', quarter: 'YYYY-"Q"Q', month: 'YYYY-MM', day: 'YYYY-MM-DD', week: 'IYYY-"W"IW' }[g];
      return sql`to_char(${u}, ${sql.lit(format)})`;
    }
    // SQL Server: grouped in UTC, as SQLite's ISO text is.
    const u = sql`CAST(SWITCHOFFSET(${col}, '+00:00') AS datetime2)`;
    switch (g) {
      case 'year':
        return sql`CONVERT(char(4), YEAR(${u}))`;
      case 'quarter':
        return sql`CONCAT(YEAR(${u}), '-Q', DATEPART(quarter, ${u}))`;
      case 'month':
        return sql`CONVERT(char(7), ${u}, 126)`;
      case 'day':
        return sql`CONVERT(char(10), ${u}, 126)`;
      case 'week': {
        // 1900-01-01 was a Monday: days since then modulo 7 is the weekday from Monday, whatever DATEFIRST says.
        const thursday = sql`DATEADD(day, 3 - DATEDIFF(day, CAST('19000101' AS date), ${u}) % 7, ${u})`;
        return sql`CONCAT(YEAR(${thursday}), '-W', RIGHT(CONCAT('0', DATEPART(iso_week, ${u})), 2))`;
      }
    }
  }

  aggregate(kind: string, col: Expr): Expr {
    switch (kind) {
      case 'count':
        return sql`COUNT(${col})`;
      case 'countdistinct':
        return sql`COUNT(DISTINCT ${col})`;
      case 'sum':
        return sql`SUM(${col})`;
      case 'avg':
        return this.d.kind === 'mssql' ? sql`AVG(CAST(${col} AS float))` : sql`AVG(${col})`;
      case 'min':
        return sql`MIN(${col})`;
      default:
        return sql`MAX(${col})`;
    }
  }

  page(q: Select, size: number): Select {
    const offset = (this.plan.page - 1) * this.plan.pageSize;
    return this.d.kind === 'mssql' ? q.offset(offset).fetch(size) : q.limit(size).offset(offset);
  }

  labelJoinCount(): number {
    return this.labelJoins.length;
  }
}

const isLookup = (p: Property): boolean => FIELD_TYPES[p.type].stored === 'lookup';

/**
 * The count of rows of `rows`, counting no further than `cap + 1` (issue 22 item 1): the inner
 * query stops at the cap, so a count costs at most cap rows however large the table.
 */
const cappedCount = (d: SqlDialect, rows: Select, cap: number): Select => {
  const limited = d.kind === 'mssql' ? rows.top(cap + 1) : rows.limit(cap + 1);
  return d.db.selectFrom(limited.as('d')).select(sql`COUNT(*)`.as('n'));
};

/**
 * Compiles a validated plan for a dialect. `scope` gives each entity's read scope for the caller;
 * `countCap` is where the count stops (the store answers the cap and countIsCapped beyond it).
 */
export const compileFetch = (
  d: SqlDialect,
  plan: QueryPlan,
  lookup: EntityLookup,
  scope: (entity: string) => ReadScope,
  countCap: number = DEFAULT_COUNT_CAP,
): CompiledFetch => {
  const b = new Builder(d, plan, lookup, scope);
  // One row more than the page tells moreRecords, also past a capped count.
  const fetched = plan.pageSize + 1;

  if (plan.shape.kind === 'plain') {
    const { columns, distinct } = plan.shape;
    const selects: Expr[] = [];
    const names: string[] = [];
    columns.forEach((c, i) => {
      selects.push(b.column(c.column));
      names.push(`c${i}`);
      if (isLookup(c.column.property)) {
        selects.push(ref(c.column.table, lookupTargetColumn(c.column.property.logicalName)), b.label(c.column));
        names.push(`c${i}_t`, `c${i}_l`);
      }
    });
    const orderBy: Array<{ e: Expr; desc: boolean }> = [];
    let ordersByLabel = false;
    const byColumn = (c: ColumnRef, desc: boolean): void => {
      if (isLookup(c.property)) {
        orderBy.push({ e: b.label(c), desc });
        ordersByLabel = true;
      }
      orderBy.push({ e: b.column(c), desc });
    };
    for (const o of plan.orders) if (o.kind === 'column') byColumn(o.column, o.descending);
    if (distinct) for (const c of columns) byColumn(c.column, false);
    else
      for (const t of [{ table: ROOT_TABLE, entity: plan.root }, ...plan.links.map((l) => ({ table: l.table, entity: l.entity }))]) {
        orderBy.push({ e: ref(t.table, primaryKeyOf(t.entity)), desc: false });
      }
    // Labels are joined once the columns and orders that need them are known.
    let q = b.base(true).select(selects.map((s, i) => s.as(names[i])));
    if (distinct) q = q.distinct();
    const ordered = (x: Select): Select => orderBy.reduce((acc, o) => orderTerm(d.kind, acc, o.e, o.desc), x);
    // Without links, and sorted by the root's own columns, the page is found on the root table
    // alone and only its rows are joined to labels (a deferred join). With a label sort or links
    // every row needs the joins to be placed, as before.
    const deferred = !distinct && plan.links.length === 0 && !ordersByLabel && b.labelJoinCount() > 0;
    const data = deferred
      ? ordered(b.overPage(b.page(ordered(b.base(false).select(ref(ROOT_TABLE, primaryKeyOf(plan.root)).as('k'))), fetched)).select(selects.map((s, i) => s.as(names[i]))))
      : b.page(ordered(q), fetched);
    let count: Select | null = null;
    if (plan.count) {
      count = cappedCount(d, distinct ? d.db.selectFrom(q.as('q')).select(sql`1`.as('x')) : b.base(false, false).select(sql`1`.as('x')), countCap);
    }
    // Column readers and aliases once per query, not per cell.
    const readers = columns.map((c, i) => ({ key: c.key, read: wireReaderOf(c.column.property), v: `c${i}`, t: `c${i}_t`, l: `c${i}_l`, lookup: isLookup(c.column.property) }));
    const decode = (rows: Row[]): EntityRecord[] =>
      rows.slice(0, plan.pageSize).map((row) => {
        const rec: EntityRecord = {};
        for (const r of readers) rec[r.key] = r.lookup ? r.read(row[r.v], row[r.t], row[r.l]) : r.read(row[r.v]);
        return rec;
      });
    return { data, count, decode, fetched };
  }

  const { columns } = plan.shape;
  const selects: Expr[] = [];
  const names: string[] = [];
  const groups: Expr[] = [];
  const outputOrder = new Map<string, Array<{ name: string }>>();
  columns.forEach((c, i) => {
    const col = b.column(c.column);
    if (c.kind === 'aggregate') {
      selects.push(b.aggregate(c.aggregate, col));
      names.push(`c${i}`);
      outputOrder.set(c.key, [{ name: `c${i}` }]);
      return;
    }
    const e = c.grouping ? b.dateGroup(col, c.grouping) : col;
    selects.push(e);
    names.push(`c${i}`);
    groups.push(e);
    if (isLookup(c.column.property)) {
      const target = ref(c.column.table, lookupTargetColumn(c.column.property.logicalName));
      const label = b.label(c.column);
      selects.push(target, label);
      names.push(`c${i}_t`, `c${i}_l`);
      groups.push(target, label);
      outputOrder.set(c.key, [{ name: `c${i}_l` }, { name: `c${i}` }]);
    } else outputOrder.set(c.key, [{ name: `c${i}` }]);
  });
  let q = b.base(true).select(selects.map((s, i) => s.as(names[i])));
  for (const g of groups) q = q.groupBy(g as RawBuilder<any>);
  let data = q;
  const orderNames: Array<{ name: string; desc: boolean }> = [];
  for (const o of plan.orders) if (o.kind === 'output') for (const n of outputOrder.get(o.key) ?? []) orderNames.push({ name: n.name, desc: o.descending });
  for (const c of columns) if (c.kind === 'group') for (const n of outputOrder.get(c.key) ?? []) orderNames.push({ name: n.name, desc: false });
  for (const o of orderNames) data = orderTerm(d.kind, data, sql.ref(o.name), o.desc);
  if (orderNames.length === 0 && d.kind === 'mssql') data = data.orderBy(sql`(SELECT NULL)` as RawBuilder<any>);
  data = b.page(data, fetched);
  const count = plan.count ? cappedCount(d, d.db.selectFrom(q.as('q')).select(sql`1`.as('x')), countCap) : null;
  const decode = (rows: Row[]): EntityRecord[] =>
    rows.slice(0, plan.pageSize).map((row) => {
      const rec: EntityRecord = {};
      columns.forEach((c, i) => {
        const p = c.column.property;
        const v = row[`c${i}`];
        if (c.kind === 'group') {
          rec[c.key] = c.grouping
            ? v === null || v === undefined
              ? null
              : String(v)
            : isLookup(p)
              ? wireValue(p, lookupOf(p, v, row[`c${i}_t`]), row[`c${i}_l`])
              : wireValue(p, scalarOf(p, v));
          return;
        }
        if (c.aggregate === 'min' || c.aggregate === 'max') rec[c.key] = wireValue(p, scalarOf(p, v));
        else rec[c.key] = v === null || v === undefined ? null : Number(v);
      });
      return rec;
    });
  return { data, count, decode, fetched };
};
