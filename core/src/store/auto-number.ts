import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type DomainError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import { AUDIT_ENTITY } from './audit.js';
import type { StoredRecord } from './record-rules.js';
import { incrementedWhere, selectRows, type Steps, type WriteContext, type WriteRule } from './record-writes.js';

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


/** The fields of a create that an auto number may fill: text or number fields it leaves empty. */
const emptyNumberable = (e: Entity, record: StoredRecord): string[] =>
  e.properties.filter((p) => (p.type === 'String' || NUMERIC.has(p.type)) && isEmpty(record[p.logicalName])).map((p) => p.logicalName);

function* numbered(ctx: WriteContext, entity: Entity, record: StoredRecord): Steps<Either<DomainError, StoredRecord>> {
  const name = entity.logicalName;
  if (name === AUTO_NUMBER_ENTITY || name === AUDIT_ENTITY) return right(record);
  const autonumbers = ctx.lookup(AUTO_NUMBER_ENTITY);
  if (!autonumbers) return right(record);
  const empty = emptyNumberable(entity, record);
  if (empty.length === 0) return right(record);
  // One statement takes a number of each row of this entity's empty fields (a create of an
  // entity without auto numbers costs just this UPDATE, matching nothing); then they are read.
  const where = { objectname: name, fieldname: empty };
  if ((yield* incrementedWhere(autonumbers, where, 'nextnumber')) === 0) return right(record);
  const rows = yield* selectRows(autonumbers, where);
  let out = record;
  for (const row of rows) {
    const p = entity.properties.find((x) => x.logicalName === row.fieldname);
    // A second row for the same field (rows in id order) counts along but numbers nothing.
    if (!p || !isEmpty(out[p.logicalName])) continue;
    const n = Number(row.nextnumber) - 1;
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
    if (entity.logicalName === AUTO_NUMBER_ENTITY) return right(normalized({ nextnumber: null, ...record }));
    return yield* numbered(ctx, entity, record);
  },
  // eslint-disable-next-line require-yield
  *beforeUpdate(_ctx, _caller, entity, _current, changes) {
    if (entity.logicalName !== AUTO_NUMBER_ENTITY) return right(changes);
    return right(normalized(changes));
  },
};
