import { isLeft, type Either, left, right } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { Entity, FieldValue, LookupValue } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import { MAX_PAGE_SIZE, type Condition, type FetchRequest } from '../query/query.js';
import type { ImportRow, RowIssue } from './import-rows.js';

/** Spec 002 section 9: lookups and matching go to the store in batches of 100 values. */
export const IMPORT_MATCH_BATCH = 100;

/** The two calls import makes to read: the smallest part of the RecordStore port it needs. */
export type ImportReader = Pick<RecordStore, 'retrieveMultiple'>;

/** Matching Records (spec 002 section 2): Update Existing, Skip Existing, Create New. */
export type ImportMode = 'update' | 'skip' | 'create';
export const IMPORT_MODES: readonly ImportMode[] = ['update', 'skip', 'create'];

export type RowAction = 'create' | 'update' | 'skip' | 'error';
export type MarkedRow = ImportRow & { action: RowAction; id?: string; versionnumber?: string };

/** A like pattern that matches `s` literally (the store's like language escapes with a backslash). */
export const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, '\\$&');

const chunks = <T>(xs: readonly T[], n: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
};

/** All pages of one query (a batch of 100 values can match more records than a page holds only in theory). */
const fetchAll = async (
  store: ImportReader,
  caller: Caller,
  request: FetchRequest,
): Promise<Either<DomainError, Array<Record<string, unknown>>>> => {
  const records: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page++) {
    const r = await store.retrieveMultiple(caller, { ...request, page, pageSize: MAX_PAGE_SIZE });
    if (isLeft(r)) return r;
    records.push(...r.right.records);
    if (!r.right.moreRecords) return right(records);
  }
};

/** Texts compare the way the store's like does: ASCII letters without regard to case (Č and č differ). */
// On printable ASCII, toLowerCase folds exactly A-Z; anything else takes the letter-by-letter way.
const NON_ASCII = /[^ -~\t\n\r]/;
const foldAscii = (s: string): string => (NON_ASCII.test(s) ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s.toLowerCase());
const textKey = (v: unknown): string => foldAscii(String(v).trim());

/**
 * Resolves lookups given by name against the target entity's `name`, 100 names per query
 * (case-insensitive, exact). A name found once becomes `{ id, name: target }`; a name not
 * found, or found more than once, becomes null and is listed in the row's notes.
 */
export const resolveLookups = async (store: ImportReader, caller: Caller, rows: readonly ImportRow[]): Promise<void> => {
  const byTarget = new Map<string, Map<string, string>>();
  for (const r of rows) {
    for (const p of r.pending) {
      const names = byTarget.get(p.target) ?? new Map<string, string>();
      names.set(textKey(p.name), p.name);
      byTarget.set(p.target, names);
    }
  }
  const found = new Map<string, string[]>(); // target \u0000 key -> ids
  const failures = new Map<string, string>(); // target -> store error
  for (const [target, names] of byTarget) {
    for (const batch of chunks([...names.values()], IMPORT_MATCH_BATCH)) {
      const r = await fetchAll(store, caller, {
        entity: {
          name: target,
          attributes: [{ attribute: 'id' }, { attribute: 'name' }],
          filter: { type: 'or', conditions: batch.map((n): Condition => ({ attribute: 'name', operator: 'like', value: likeLiteral(n) })) },
        },
      });
      if (isLeft(r)) {
        failures.set(target, r.left.message);
        break;
      }
      for (const rec of r.right) {
        const k = `${target}\u0000${textKey(rec.name)}`;
        found.set(k, [...(found.get(k) ?? []), String(rec.id)]);
      }
    }
  }
  for (const r of rows) {
    for (const p of r.pending) {
      const ids = found.get(`${p.target}\u0000${textKey(p.name)}`) ?? [];
      if (ids.length === 1) {
        r.values[p.field] = { id: ids[0], name: p.target };
        continue;
      }
      r.values[p.field] = null;
      const why = failures.has(p.target)
        ? `could not be looked up (${failures.get(p.target)})`
        : ids.length === 0
          ? `no ${p.target} is named so`
          : `${ids.length} records of ${p.target} are named so`;
      r.notes.push({ line: r.line, column: p.field, message: `'${p.name}' ${why}; left empty` });
    }
    r.pending = [];
  }
};

/**
 * What matching remembers across the batches of one pass over a file: the match values seen so
 * far (a value repeating an earlier row is an error) and, once the file has proven large, the
 * match keys of the whole entity. The specification's or-conditions in batches of 100 cost one
 * scan of the table per batch when the match field has no index (a text compared with like),
 * which makes a large import quadratic; after FULL_READ_AFTER_VALUES values the keys are read
 * once, page by page, and the rest of the file is matched in memory with the same rule
 * (ids exactly, texts without regard to ASCII case, as like).
 */
export const FULL_READ_AFTER_VALUES = 1000;

export type MatchMemory = {
  seen: Map<string, number>;
  queried: number;
  keys?: Map<string, Array<Record<string, unknown>>>;
};
export const newMatchMemory = (): MatchMemory => ({ seen: new Map(), queried: 0 });

/** The key under which a match value is compared: ids exactly, texts without regard to case. */
const matchKey = (v: FieldValue): string | undefined => {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'object') return (v as LookupValue).id.toLowerCase();
  return typeof v === 'string' ? foldAscii(v.trim()) : String(v);
};

/**
 * Row marking (spec 002 section 4): with a match field, a row whose value matches an existing
 * record updates it (or is skipped under Skip Existing); otherwise it is created. Create New
 * never matches. Existing records are found with or-conditions, 100 values per query: `eq` for
 * ids and other non-text fields, `like` (literal, case-insensitive) for texts.
 * A value matching several records, or repeating an earlier row of the file, is an error of the
 * row: updating an arbitrary one of them would be a silent guess. `seen` carries the values of
 * earlier rows of the same file across batches.
 */
export const markRows = async (
  store: ImportReader,
  caller: Caller,
  entity: Entity,
  mode: ImportMode,
  matchField: string | undefined,
  rows: readonly ImportRow[],
  memory: MatchMemory,
): Promise<Either<DomainError, MarkedRow[]>> => {
  const seen = memory.seen;
  // The rows are the caller's own and are marked in place (no copy per row of a large file).
  const marked = rows as MarkedRow[];
  for (const r of marked) r.action = r.errors.length > 0 ? 'error' : 'create';
  if (mode === 'create' || matchField === undefined) return right(marked);
  const property = entity.properties.find((p) => p.logicalName === matchField);
  if (property === undefined) return left({ _tag: 'InputError', code: 'ERR_INPUT', message: `Field not found:${entity.logicalName}.${matchField}` });
  const byText = property.type === 'String';
  const keys = new Map<string, FieldValue>();
  for (const r of marked) {
    if (r.action === 'error') continue;
    const key = matchKey(r.values[matchField]);
    if (key === undefined) continue;
    const first = seen.get(key);
    if (first !== undefined) {
      r.action = 'error';
      r.errors.push({ line: r.line, column: matchField, message: `the value repeats line ${first}` } satisfies RowIssue);
      continue;
    }
    seen.set(key, r.line);
    keys.set(key, r.values[matchField]);
  }
  const attributes = [...new Set(['id', 'versionnumber', matchField])].map((attribute) => ({ attribute }));
  if (memory.keys === undefined && memory.queried + keys.size > FULL_READ_AFTER_VALUES) {
    const all = await fetchAll(store, caller, { entity: { name: entity.logicalName, attributes, orders: [{ attribute: 'id' }] } });
    if (isLeft(all)) return all;
    memory.keys = new Map();
    for (const rec of all.right) {
      const k = matchKey(rec[matchField] as FieldValue);
      if (k !== undefined) memory.keys.set(k, [...(memory.keys.get(k) ?? []), rec]);
    }
  }
  let existing: Map<string, Array<Record<string, unknown>>>;
  if (memory.keys !== undefined) existing = memory.keys;
  else {
    existing = new Map();
    memory.queried += keys.size;
    for (const batch of chunks([...keys.values()], IMPORT_MATCH_BATCH)) {
      const conditions = batch.map((v): Condition => {
        const raw = typeof v === 'object' && v !== null ? (v as LookupValue).id : (v as string | number | boolean);
        return byText ? { attribute: matchField, operator: 'like', value: likeLiteral(String(raw)) } : { attribute: matchField, operator: 'eq', value: raw };
      });
      const r = await fetchAll(store, caller, { entity: { name: entity.logicalName, attributes, filter: { type: 'or', conditions } } });
      if (isLeft(r)) return r;
      for (const rec of r.right) {
        const k = matchKey(rec[matchField] as FieldValue);
        if (k === undefined || !keys.has(k)) continue; // a like that matched more than the literal value
        existing.set(k, [...(existing.get(k) ?? []), rec]);
      }
    }
  }
  for (const r of marked) {
    if (r.action === 'error') continue;
    const key = matchKey(r.values[matchField]);
    const found = key === undefined ? [] : (existing.get(key) ?? []);
    if (found.length > 1) {
      r.action = 'error';
      r.errors.push({ line: r.line, column: matchField, message: `the value matches ${found.length} records` });
    } else if (found.length === 1) {
      r.action = mode === 'skip' ? 'skip' : 'update';
      r.id = String(found[0].id);
      if (typeof found[0].versionnumber === 'string') r.versionnumber = found[0].versionnumber;
    }
  }
  return right(marked);
};
