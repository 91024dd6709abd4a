import { Router, type RequestHandler, type Response } from 'express';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  decode,
  FetchRequest,
  STATE_INACTIVE,
  type EntityRecord,
  type SessionStore,
  type WriteItem,
  type Clock,
} from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
import { signed, type Signed } from '../session-guard.js';

const WriteOperationCodec = t.keyof({ create: null, update: null, delete: null }, 'operation');
const RecordObject = t.record(t.string, t.unknown, 'object');
export const WriteItemCodec = t.type({ operation: WriteOperationCodec, name: t.string, object: RecordObject }, 'WriteItem');
/** API.md: a plain list, or `{ records, atomic }`. */
export const BatchCodec = t.union(
  [t.array(WriteItemCodec), t.intersection([t.type({ records: t.array(WriteItemCodec) }), t.partial({ atomic: t.boolean })])],
  'executemultiple body',
);

const asItem = (i: t.TypeOf<typeof WriteItemCodec>): WriteItem => ({ operation: i.operation, name: i.name, object: i.object as EntityRecord });

/**
 * Deactivating a user (statecode Inactive) or deleting them ends their sessions (issue 6), and
 * any write marks the session's `modified` time.
 */
const afterWrite = async (s: Signed, sessions: SessionStore, clock: Clock, items: readonly WriteItem[]): Promise<void> => {
  await sessions.touchModified(s.session.name, clock.now());
  for (const i of items) {
    if (i.name !== 'systemuser') continue;
    const id = typeof i.object.id === 'string' ? i.object.id : null;
    if (id && (i.operation === 'delete' || i.object.statecode === STATE_INACTIVE)) await sessions.endForUser(s.session.orgName, id);
  }
};

/** POST /api/fetch, /api/update, /api/executemultiple (API.md). */
export const dataRoutes = (sessions: SessionStore, clock: Clock, guard: RequestHandler): Router => {
  const r = Router();

  r.post('/fetch', guard, async (req, res: Response) => {
    const s = signed(res);
    const request = decode(FetchRequest, req.body, 'fetch request');
    if (isLeft(request)) return sendDomainError(res, request.left);
    const result = await s.tenant.store.retrieveMultiple(s.caller, request.right);
    if (isLeft(result)) return sendDomainError(res, result.left);
    res.json(result.right);
  });

  r.post('/update', guard, async (req, res: Response) => {
    const s = signed(res);
    const decoded = decode(WriteItemCodec, req.body, 'update');
    if (isLeft(decoded)) return sendDomainError(res, decoded.left);
    const item = asItem(decoded.right);
    const store = s.tenant.store;
    const result =
      item.operation === 'create'
        ? await store.create(s.caller, item.name, item.object)
        : item.operation === 'update'
          ? await store.update(s.caller, item.name, item.object)
          : await store.delete(s.caller, item.name, item.object);
    if (isLeft(result)) return sendDomainError(res, result.left);
    await afterWrite(s, sessions, clock, [item]);
    sendText(res, 200, result.right);
  });

  r.post('/executemultiple', guard, async (req, res: Response) => {
    const s = signed(res);
    const decoded = decode(BatchCodec, req.body, 'executemultiple body');
    if (isLeft(decoded)) return sendDomainError(res, decoded.left);
    const body = decoded.right;
    const items = (Array.isArray(body) ? body : body.records).map(asItem);
    const atomic = !Array.isArray(body) && body.atomic === true;
    const result = await s.tenant.store.executeMultiple(s.caller, items, { atomic });
    if (isLeft(result)) return sendDomainError(res, result.left);
    await afterWrite(
      s,
      sessions,
      clock,
      items.filter((_, i) => 'id' in result.right[i]),
    );
    res.json(result.right);
  });

  return r;
};
