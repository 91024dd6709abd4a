import type { Entity, Filter, FetchRequest, ListView, Order, Property, ViewColumn, InuViewRecord } from '../core.js';
import { ListView as ListViewCodec, hasFlag, likeLiteral } from '../core.js';
import { isRight } from 'fp-ts/lib/Either.js';

/** A view name as a label: 'active' reads 'Active'. */
const humanize = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1).replace(/[_-]+/g, ' ');

/** A list view ready to use: its name, label and body. */
export type NamedView = { name: string; label: string; body: ListView };

/** Fields a generated view never shows as columns. */
const HIDDEN = new Set(['id', 'versionnumber', 'createdby', 'modifiedby', 'statecode', 'createdon']);

/**
 * The views of an entity from its inu_view objects of kind view, else one generated view:
 * name first, then up to five more readable fields, then modifiedon.
 */
export const viewsOf = (entity: Entity, gui: readonly InuViewRecord[], parse: (g: InuViewRecord) => unknown): NamedView[] => {
  const views = gui
    .filter((g) => g.kind === 'view' && g.objectname === entity.logicalName)
    .map((g) => ({ g, d: ListViewCodec.decode(parse(g)) }))
    .flatMap(({ g, d }) => (isRight(d) ? [{ name: g.name, label: d.right.label ?? g.label ?? humanize(g.name), body: d.right }] : []));
  if (views.length > 0) return views;
  const props = entity.properties.filter((p) => !HIDDEN.has(p.logicalName) && p.secret !== true && p.type !== 'Binary' && !hasFlag(p, 'Json') && !hasFlag(p, 'MultiLine'));
  const name = props.find((p) => p.logicalName === 'name');
  const rest = props.filter((p) => p.logicalName !== 'name' && p.logicalName !== 'modifiedon' && p.logicalName !== 'statuscode').slice(0, 5);
  const modified = props.find((p) => p.logicalName === 'modifiedon');
  const columns: ViewColumn[] = [name, ...rest, modified].filter((p): p is Property => !!p).map((p) => ({ name: p.logicalName }));
  return [
    {
      name: 'default',
      label: entity.displayNamePlural,
      body: { query: { name: entity.logicalName, orders: [{ attribute: name ? 'name' : 'modifiedon', descending: !name }] }, columns },
    },
  ];
};

const and = (...filters: Array<Filter | undefined | null>): Filter | undefined => {
  const fs = filters.filter((f): f is Filter => !!f && ((f.conditions?.length ?? 0) > 0 || (f.filters?.length ?? 0) > 0));
  if (fs.length === 0) return undefined;
  return fs.length === 1 ? fs[0] : { type: 'and', filters: fs };
};

/** The search box: records whose primary name contains the text. */
export const searchFilter = (entity: Entity, text: string): Filter | undefined => {
  const q = text.trim();
  if (!q || !entity.properties.some((p) => p.logicalName === 'name')) return undefined;
  return { type: 'and', conditions: [{ attribute: 'name', operator: 'like', value: `%${likeLiteral(q)}%` }] };
};

/** The fetch of a list: the view's query with the quick filters, the search and the picked order. */
export const listRequest = (
  entity: Entity,
  view: NamedView,
  extra: { quick?: Filter; search?: Filter; order?: Order; pageSize: number },
): FetchRequest => {
  const q = view.body.query;
  const known = new Set(entity.properties.map((p) => p.logicalName));
  const columnAttrs = view.body.columns.map((c) => c.name).filter((n) => !n.includes('.'));
  // The columns, plus what rows need (id, name, version, owner, currency), of the fields the entity has.
  const wanted = [...new Set(['id', 'name', 'versionnumber', 'ownerid', 'currencyid', ...columnAttrs])].filter((a) => known.has(a));
  const attributes = q.allattrs ? undefined : [...(q.attributes ?? []), ...wanted.filter((a) => !(q.attributes ?? []).some((x) => x.attribute === a)).map((attribute) => ({ attribute }))];
  return {
    entity: {
      ...q,
      ...(attributes ? { attributes } : {}),
      filter: and(q.filter, extra.quick, extra.search),
      orders: extra.order ? [extra.order] : q.orders,
    },
    page: 1,
    pageSize: extra.pageSize,
    count: true,
  };
};
