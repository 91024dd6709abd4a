import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import { primaryKeyOf, type Entity, type Property } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import { keysetAfter, keysetOrders } from '../query/keyset.js';
import type { FetchRequest } from '../query/query.js';
import { csvColumns, exportProperties } from './export-columns.js';
import type { ResolvedExportOptions } from './export-options.js';
import { csvHeaderLine, csvRecordLine, csvStart, csvTotalsLine } from './csv-writer.js';
import { JSON_EXPORT_END, JSON_EXPORT_START, jsonExportItem } from './json-writer.js';
import { Totals } from './totals.js';

/** Spec 002 section 7: export fetches pages of 5000 records (with count). */
export const EXPORT_PAGE_SIZE = 5000;

export type RecordPage = ReadonlyArray<Record<string, unknown>>;

/**
 * The fields an export writes: the `columns` option, else the query's plain attributes, else
 * every exportable field. The query is then asked for exactly those fields.
 */
export const exportPlan = (
  entity: Entity,
  request: FetchRequest,
  options: Pick<ResolvedExportOptions, 'columns'>,
  /** PDF is read by people: without chosen columns, the key (a UUID) is left out. */
  forReading = false,
): Either<DomainError, { properties: Property[]; request: FetchRequest; keyset: readonly string[] | null }> => {
  const fromQuery = request.entity.allattrs ? [] : (request.entity.attributes ?? []).filter((a) => a.aggregate === undefined).map((a) => a.attribute);
  const names = options.columns ?? (fromQuery.length > 0 ? fromQuery : undefined);
  const found = exportProperties(entity, names);
  if (isLeft(found)) return found;
  const key = primaryKeyOf(entity);
  const properties = names === undefined && forReading ? found.right.filter((p) => p.logicalName !== key) : found.right;
  const orders = request.entity.orders ?? request.orders ?? [];
  // A stable order keeps pages from overlapping: the query's order, then the key.
  const stable = orders.some((o) => o.attribute === key) ? orders : [...orders, { attribute: key }];
  const planned: FetchRequest = {
    ...request,
    entity: { ...request.entity, name: entity.logicalName, allattrs: false, attributes: properties.map((p) => ({ attribute: p.logicalName })), orders: stable },
  };
  return right({ properties, request: planned, keyset: keysetOrders(entity, planned, properties) });
};

/** The records of a query, page after page of EXPORT_PAGE_SIZE; a Left stops the export. */
export async function* exportPages(
  store: Pick<RecordStore, 'retrieveMultiple'>,
  caller: Caller,
  request: FetchRequest,
  onError: (e: DomainError) => void,
  /** the order attributes when the export pages by keyset (exportPlan's `keyset`), else by page number */
  keyset: readonly string[] | null = null,
  key = 'id',
): AsyncIterable<RecordPage> {
  let after: unknown[] | undefined;
  for (let page = 1; ; page++) {
    const r = await store.retrieveMultiple(caller, { ...request, ...(after ? { page: 1, after } : { page }), pageSize: EXPORT_PAGE_SIZE, count: page === 1 });
    if (isLeft(r)) {
      onError(r.left);
      return;
    }
    const records = r.right.records;
    if (records.length > 0) yield records;
    if (!r.right.moreRecords) return;
    // The next page starts after the last row: its order values, then its key.
    const last = records[records.length - 1];
    if (keyset && last) after = keysetAfter(keyset, last, key);
  }
}

/** The CSV text of an export, chunk by chunk (one chunk per page). */
export async function* csvExportChunks(
  properties: readonly Property[],
  pages: AsyncIterable<RecordPage>,
  options: ResolvedExportOptions,
): AsyncIterable<string> {
  const columns = csvColumns(properties);
  const totals = options.totals === false ? undefined : new Totals(properties, options.totals);
  yield csvStart(options) + csvHeaderLine(columns);
  for await (const page of pages) {
    let text = '';
    for (const r of page) {
      text += csvRecordLine(columns, r, options);
      totals?.add(r);
    }
    yield text;
  }
  if (totals !== undefined) yield csvTotalsLine(columns, totals, options);
}

/** The JSON text of an export: an array of records as /api/fetch returns them. */
export async function* jsonExportChunks(pages: AsyncIterable<RecordPage>): AsyncIterable<string> {
  yield JSON_EXPORT_START;
  let first = true;
  for await (const page of pages) {
    let text = '';
    for (const r of page) {
      text += jsonExportItem(r, first);
      first = false;
    }
    yield text;
  }
  yield JSON_EXPORT_END;
}

/** Checks that an entity can be exported: link entities are not offered (spec 002 section 2). */
export const exportableEntity = (entity: Entity): Either<DomainError, Entity> =>
  entity.type === 'many'
    ? left({ _tag: 'InputError', code: 'ERR_INPUT', message: `${entity.logicalName} is a link entity and cannot be exported` })
    : right(entity);
