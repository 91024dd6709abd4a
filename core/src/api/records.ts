import * as t from 'io-ts';
import { FetchRequest } from '../query/query.js';
import type { FetchResult } from '../query/query.js';
import type { ItemResult, WriteItem as WriteItemType } from '../ports/record-store.js';
import { WireRecord } from './text-fields.js';

/** API.md "POST /api/update": create, update or delete. */
export const WriteOperationCodec = t.keyof({ create: null, update: null, delete: null }, 'operation');

/** One write `{ operation, name, object }`: the body of /api/update and an item of /api/executemultiple. */
export const WriteItemCodec: t.Type<WriteItemType, WriteItemType, unknown> = t.exact(
  t.type({ operation: WriteOperationCodec, name: t.string, object: WireRecord }),
  'WriteItem',
);

/** API.md "POST /api/executemultiple": a plain list, or `{ records, atomic }`. */
export const ExecuteMultipleRequest = t.union(
  [t.array(WriteItemCodec), t.exact(t.intersection([t.type({ records: t.array(WriteItemCodec) }), t.partial({ atomic: t.boolean })]))],
  'executemultiple body',
);
export type ExecuteMultipleRequest = t.TypeOf<typeof ExecuteMultipleRequest>;

/** The items and the atomic flag of either form of the batch body. */
export const batchOf = (body: ExecuteMultipleRequest): { items: WriteItemType[]; atomic: boolean } =>
  Array.isArray(body) ? { items: body, atomic: false } : { items: body.records, atomic: body.atomic === true };

/** One answer per item, in order: `{ id }` or `{ error: 'ERR_...: text' }`. */
export const ItemResultCodec: t.Type<ItemResult, ItemResult, unknown> = t.union([t.type({ id: t.string }), t.type({ error: t.string })], 'ItemResult');
export const ExecuteMultipleAnswer = t.array(ItemResultCodec, 'executemultiple answer');

/** API.md "POST /api/fetch": the query object, extra top-level keys dropped. */
export const FetchRequestBody = t.exact(FetchRequest, 'fetch request');

/** The answer of /api/fetch: a page of records (their fields are the metadata's, checked by the server). */
export const FetchAnswer: t.Type<FetchResult, FetchResult, unknown> = t.intersection(
  [
    t.type({ records: t.array(t.UnknownRecord), count: t.union([t.number, t.null]), page: t.number, pageSize: t.number, moreRecords: t.boolean }),
    // only when the count stopped at the cap (issue 22)
    t.partial({ countIsCapped: t.boolean }),
  ],
  'fetch answer',
);
