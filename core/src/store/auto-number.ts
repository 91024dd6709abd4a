import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type DomainError } from '../errors.js';
import { primaryKeyOf, type Entity } from '../metadata/entity.js';
import { AUDIT_ENTITY } from './audit.js';
import type { StoredRecord } from './record-rules.js';
import { incremented, selectRows, type Steps, type WriteContext, type WriteRule } from './record-writes.js';

/**
 * Auto numbers (issue 16, Customize > Data > Auto Number): an inu_autonumber row names an entity
 * (`objectname`) and one of its fields (`fieldname`); a create that leaves that field empty gets
 * the row's `nextnumber`, formatted, and the row moves on by one, inside the create's own
 * transaction. So a create that fails or rolls back takes no number (no gaps), two creates never
 * take the same one (the increment is one statement that locks the row: no duplicates), every
 * way of creating (form, API, executeMultiple, import) is numbered, and a delete gives nothing
 * back. The configuration is read in every transaction (no cache across them), so a change to it
 * counts from the next create on; a batch reads it once and advances each row once
 * (tests/bench/auto-number-bench.ts measures what that costs).
 */
export const AUTO_NUMBER_ENTITY = 'inu_autonumber';

/** What an inu_autonumber row says. */
export type AutoNumberConfig = {
  readonly prefix: string;
  readonly digits: number;
  /** Placeholders {prefix} {number} {yyyy} {yy} {mm} {dd}; empty: `{prefix}{number}` */
  readonly format: string;
};

export const DEFAULT_AUTO_NUMBER_FORMAT = '{prefix}{number}';
/** The metadata's default of `digits` (system.json), also for a row that leaves it empty. */
export const DEFAULT_AUTO_NUMBER_DIGITS = 5;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const two = (n: number): string => String(n).padStart(2, '0');

/**
 * The text of number `n`: the format with its placeholders filled, the number padded with zeros
 * to `digits` (a longer number is kept whole), dates from `now` in UTC (the day the record is
 * created). `ACC-` and 5 digits give ACC-00001.
 */
export const formatAutoNumber = (config: AutoNumberConfig, n: number, now: Date): string => {
  const number = String(n).padStart(Math.max(0, Math.min(config.digits, 20)), '0');
  const values: Record<string, string> = {
    prefix: config.prefix,
    number,
    yyyy: String(now.getUTCFullYear()),
    yy: String(now.getUTCFullYear() % 100).padStart(2, '0'),
    mm: two(now.getUTCMonth() + 1),
    dd: two(now.getUTCDate()),
  };
  return (config.format || DEFAULT_AUTO_NUMBER_FORMAT).replace(/\{(\w+)\}/g, (all, key: string) => values[key.toLowerCase()] ?? all);
};

/** An inu_autonumber row as its configuration. */
export const autoNumberConfigOf = (row: StoredRecord): AutoNumberConfig => ({
  prefix: text(row.prefix),
  digits: typeof row.digits === 'number' ? row.digits : DEFAULT_AUTO_NUMBER_DIGITS,
  format: text(row.format),
});

const NUMERIC = new Set(['Integer', 'Decimal', 'Float', 'Money']);
const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === '';


/** The fields of a create that an auto number may fill: text or number fields it leaves empty. */
const emptyNumberable = (e: Entity, record: StoredRecord): string[] =>
  e.properties.filter((p) => (p.type === 'String' || NUMERIC.has(p.type)) && isEmpty(record[p.logicalName])).map((p) => p.logicalName);

/**
 * One inu_autonumber row as a transaction knows it: the number it gives next and, once this
 * transaction has advanced the row (so holds its lock), how many more it took without writing.
 */
type Counter = { readonly id: string; readonly row: StoredRecord; next: number; owned: boolean; pending: number };

const memoKey = (entity: string): string => `auto-number:${entity}`;

/**
 * The rows of an entity's auto numbers, read once per transaction (a batch of 1000 creates reads
 * them once; a single create reads them in its own transaction: "no cache" still holds).
 */
function* countersOf(ctx: WriteContext, autonumbers: Entity, entity: string): Steps<Counter[]> {
  const known = ctx.memo?.get(memoKey(entity)) as Counter[] | undefined;
  if (known) return known;
  const rows = yield* selectRows(autonumbers, { objectname: entity });
  const pk = primaryKeyOf(autonumbers);
  const counters = rows.map((row): Counter => ({ id: String(row[pk]), row, next: Number(row.nextnumber ?? 1), owned: false, pending: 0 }));
  ctx.memo?.set(memoKey(entity), counters);
  return counters;
}

/**
 * The number a counter gives now. The first take in a transaction is one statement that adds 1
 * and answers the new value (the row stays locked to other writers until the transaction ends:
 * no duplicates even if the read above was stale); later takes in the same transaction count in
 * memory and `flush` writes their sum once before commit. Null: the row is gone.
 */
function* take(ctx: WriteContext, autonumbers: Entity, c: Counter): Steps<number | null> {
  if (c.owned && ctx.memo) {
    c.pending++;
    return c.next++;
  }
  const next = yield* incremented(autonumbers, c.id, 'nextnumber');
  if (next === null) return null;
  c.owned = true;
  c.next = next;
  return next - 1;
}

/** Writes what the transaction's counters took without writing, and forgets them. */
function* flush(ctx: WriteContext): Steps<void> {
  const autonumbers = ctx.lookup(AUTO_NUMBER_ENTITY);
  if (!ctx.memo || !autonumbers) return;
  for (const [key, value] of [...ctx.memo]) {
    if (!key.startsWith('auto-number:')) continue;
    for (const c of value as Counter[]) if (c.pending > 0) yield* incremented(autonumbers, c.id, 'nextnumber', c.pending);
    ctx.memo.delete(key);
  }
}

function* numbered(ctx: WriteContext, entity: Entity, record: StoredRecord): Steps<Either<DomainError, StoredRecord>> {
  const name = entity.logicalName;
  if (name === AUTO_NUMBER_ENTITY || name === AUDIT_ENTITY) return right(record);
  const autonumbers = ctx.lookup(AUTO_NUMBER_ENTITY);
  if (!autonumbers) return right(record);
  const empty = new Set(emptyNumberable(entity, record));
  if (empty.size === 0) return right(record);
  // One copy, filled in place: a spread with a computed key per number cost more than the rule's statements.
  let out: Record<string, unknown> | undefined;
  const filled = (field: string, v: unknown) => {
    out ??= { ...record };
    out[field] = v;
  };
  // Rows in id order: a second row for the same field counts along but numbers nothing.
  for (const c of yield* countersOf(ctx, autonumbers, name)) {
    const field = String(c.row.fieldname ?? '');
    if (!empty.has(field)) continue;
    const n = yield* take(ctx, autonumbers, c);
    const p = entity.properties.find((x) => x.logicalName === field);
    if (n === null || !p || !isEmpty((out ?? record)[field])) continue;
    if (NUMERIC.has(p.type)) {
      filled(field, n);
      continue;
    }
    const value = formatAutoNumber(autoNumberConfigOf(c.row), n, ctx.now());
    if (p.max !== undefined && value.length > p.max)
      return left(inputError(`The auto number ${value} is longer than ${name}.${p.logicalName} allows (${p.max}): change its format or digits`));
    filled(field, value);
  }
  return right((out ?? record) as StoredRecord);
}

/**
 * An inu_autonumber row as the rule reads it: entity and field names trimmed and lower-case (as
 * logical names are, so 'Account ' numbers account), an empty next number 1 (the metadata's default).
 */
const normalized = (values: StoredRecord): StoredRecord => {
  const out = { ...values };
  for (const f of ['objectname', 'fieldname'])
    if (typeof out[f] === 'string') out[f] = (out[f] as string).trim().toLowerCase();
  if ('nextnumber' in out && isEmpty(out.nextnumber)) out.nextnumber = 1;
  return out;
};

export const autoNumberRule: WriteRule = {
  name: 'auto numbers',
  *beforeInsert(ctx, _caller, entity, record) {
    if (entity.logicalName !== AUTO_NUMBER_ENTITY) return yield* numbered(ctx, entity, record);
    // A new row may number creates later in this transaction: read the rows afresh from here on.
    yield* flush(ctx);
    return right(normalized({ nextnumber: null, ...record }));
  },
  *beforeUpdate(ctx, _caller, entity, _current, changes) {
    if (entity.logicalName !== AUTO_NUMBER_ENTITY) return right(changes);
    // What this transaction took is written first, so a next number set by hand wins.
    yield* flush(ctx);
    return right(normalized(changes));
  },
  *afterWrite(ctx, _caller, written) {
    if (written.entity.logicalName === AUTO_NUMBER_ENTITY && written.operation === 'delete') yield* flush(ctx);
    return right(null);
  },
  beforeCommit: flush,
};
