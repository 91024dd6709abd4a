import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type DomainError } from '../errors.js';
import { primaryKeyOf, type Entity, type Property } from '../metadata/entity.js';
import { AUDIT_ENTITY } from './audit.js';
import type { StoredRecord } from './record-rules.js';
import { incremented, selectRows, updatedWhere, type Steps, type WriteContext, type WriteRule } from './record-writes.js';

/**
 * Auto numbers (issue 16, Customize > Data > Auto Number): an inu_autonumber row names an entity
 * (`objectname`) and one of its fields (`fieldname`); a create that leaves that field empty gets
 * the row's `nextnumber`, formatted, and the row moves on by one, inside the create's own
 * transaction. So a create that fails or rolls back takes no number (no gaps), two creates never
 * take the same one (the increment is one statement that locks the row: no duplicates), every
 * way of creating (form, API, executeMultiple, import) is numbered, and a delete gives nothing
 * back. The configuration is read in the transaction on every create (no cache), so a change to
 * it counts from the next create on (tests/bench/auto-number-bench.ts measures what that costs).
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

/** The field a row numbers: a text or number field of the entity; others (a lookup, a date) are passed over. */
const numberedField = (e: Entity, name: string): Property | undefined => {
  const p = e.properties.find((x) => x.logicalName === name.trim().toLowerCase());
  return p && (p.type === 'String' || NUMERIC.has(p.type)) ? p : undefined;
};

/** Takes the next number of one inu_autonumber row: the value it held, or null when the row is gone. */
function* takeNumber(autonumbers: Entity, row: StoredRecord): Steps<number | null> {
  const id = String(row[primaryKeyOf(autonumbers)]);
  // An empty next number means the metadata's default, 1; set it once (conditionally, so two
  // creates doing it at once both count from 1 and then from the increment).
  if (isEmpty(row.nextnumber)) yield* updatedWhere(autonumbers, id, { nextnumber: 1 }, { nextnumber: null });
  const next = yield* incremented(autonumbers, id, 'nextnumber');
  return next === null ? null : next - 1;
}

function* numbered(ctx: WriteContext, entity: Entity, record: StoredRecord): Steps<Either<DomainError, StoredRecord>> {
  const name = entity.logicalName;
  if (name === AUTO_NUMBER_ENTITY || name === AUDIT_ENTITY) return right(record);
  const autonumbers = ctx.lookup(AUTO_NUMBER_ENTITY);
  if (!autonumbers) return right(record);
  // The few rows of the table, matched here so that 'Account ' names account as the admin meant.
  const rows = (yield* selectRows(autonumbers, {})).filter((r) => text(r.objectname).trim().toLowerCase() === name);
  if (rows.length === 0) return right(record);
  let out = record;
  const done = new Set<string>();
  for (const row of rows) {
    const p = numberedField(entity, text(row.fieldname));
    // The first row of a field numbers it (rows in id order); a value the caller gave is kept.
    if (!p || done.has(p.logicalName) || !isEmpty(out[p.logicalName])) continue;
    done.add(p.logicalName);
    const n = yield* takeNumber(autonumbers, row);
    if (n === null) continue;
    if (NUMERIC.has(p.type)) {
      out = { ...out, [p.logicalName]: n };
      continue;
    }
    const value = formatAutoNumber(autoNumberConfigOf(row), n, ctx.now());
    if (p.max !== undefined && value.length > p.max)
      return left(inputError(`The auto number ${value} is longer than ${name}.${p.logicalName} allows (${p.max}): change its format or digits`));
    out = { ...out, [p.logicalName]: value };
  }
  return right(out);
}

export const autoNumberRule: WriteRule = {
  name: 'auto numbers',
  beforeInsert: (ctx, _caller, entity, record) => numbered(ctx, entity, record),
};
