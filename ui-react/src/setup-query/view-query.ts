import type { EntityRecord, FetchRequest, InuViewRecord, ListView } from '../core.js';

/**
 * A list view's query in the Setup Query dialog (issue 15): the view body's `query` is the
 * `entity` part of a fetch request, and its `pageSize` the request's. Saving puts them back into
 * the body, keeping everything else of it (columns, modes, commands).
 */
export const viewQueryRequest = (body: ListView): FetchRequest => ({ entity: body.query, ...(body.pageSize === undefined ? {} : { pageSize: body.pageSize }) });

/** The body with the query of a saved request; the request's own orders join the entity's (a view has one list of orders). */
export const viewBodyWithQuery = (body: ListView, request: FetchRequest): ListView => {
  const orders = [...(request.entity.orders ?? []), ...(request.orders ?? [])];
  const { orders: _orders, ...entity } = request.entity;
  const { pageSize: _pageSize, ...rest } = body;
  return {
    ...rest,
    query: { ...entity, ...(orders.length > 0 ? { orders } : {}) },
    ...(request.pageSize === undefined ? {} : { pageSize: request.pageSize }),
  };
};

/** The stored record of a list's view, if the view is stored (a generated view is not). */
export const storedViewRecord = (gui: readonly InuViewRecord[], entity: string, viewName: string): InuViewRecord | undefined =>
  gui.find((g) => g.kind === 'view' && g.objectname === entity && g.name === viewName && typeof g.id === 'string');

/**
 * The write that saves a view's new body: an update of its record, else (a generated view) a
 * new record for everyone (spec 000 section 3: "Saving creates when there is no id, else updates").
 */
export const viewWrite = (
  record: InuViewRecord | undefined,
  entity: string,
  viewName: string,
  body: ListView,
): { operation: 'create' | 'update'; fields: EntityRecord } =>
  record?.id
    ? { operation: 'update', fields: { id: record.id, body: JSON.stringify(body) } }
    : { operation: 'create', fields: { name: viewName, kind: 'view', objectname: entity, body: JSON.stringify(body), isprivate: false } };
