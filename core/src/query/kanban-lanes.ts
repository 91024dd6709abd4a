import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { hasFlag, primaryKeyOf, type Entity, type EntityRecord, type Property } from '../metadata/entity.js';
import { optionsOf } from '../metadata/field-values.js';
import { canAccess, customOwnerFields, ownerFieldOf } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import { MAX_PAGE_SIZE, type Condition, type FetchRequest, type Filter, type Link } from './query.js';

/**
 * Kanban (spec 001 section 2, view mode 4): cards sit in lanes, one lane per option of the status
 * field (default field name `status`, else the view's `kanbanField`); dragging a card to another
 * lane sets the field to the lane value. These are the board's pure rules: which field, which
 * lanes, the count query a board derives from the list's fetch, the per-lane card query, how a
 * count answer maps to lanes, and how a card moves between lanes (and back when its save fails).
 */

/** Spec 001 section 2: the lane field when the view names none. */
export const DEFAULT_KANBAN_FIELD = 'status';
/** Cards a lane loads at first and per Show more (docs/ui.md "Kanban"). */
export const KANBAN_PAGE_SIZE = 25;
/** The output column of the count in the lane count query (a name no field of an entity takes: field names are lower case). */
export const LANE_COUNT_KEY = 'laneCount';

/**
 * A lane: an option of the field (`option`), a value the answer holds that is not an option any
 * more (`other`: a write-in value or a removed option), or the records without a value (`empty`).
 * `accepts`: whether a card may be dropped there (options always; the empty lane when the field is
 * not Required; an unknown value never, as the user cannot pick it anywhere else either).
 */
export type Lane = {
  key: string;
  value: number | null;
  label: string;
  color?: string;
  kind: 'option' | 'other' | 'empty';
  accepts: boolean;
};
export type CountedLane = Lane & { count: number };

/** The lane key of a field value: the number as text, '' for no value. */
export const laneKey = (value: number | null): string => (value === null ? '' : String(value));

/** Why a view cannot show as a board: its field is missing, or is not a single option set. */
export type KanbanFieldProblem = { _tag: 'NoField' | 'NotOptionSet'; field: string };

/**
 * The lane field of a view: its `kanbanField`, else `status`; it must be a single-choice option
 * set with options (a multi-select value sits in several lanes at once: no board).
 */
/** The name of a view's lane field: its `kanbanField`, else `status`. */
export const kanbanFieldName = (kanbanField: string | undefined): string => kanbanField?.trim() || DEFAULT_KANBAN_FIELD;

export const kanbanFieldOf = (entity: Entity, kanbanField: string | undefined): Either<KanbanFieldProblem, Property> => {
  const field = kanbanFieldName(kanbanField);
  const p = entity.properties.find((x) => x.logicalName === field);
  if (!p || p.secret === true) return left({ _tag: 'NoField', field });
  if (hasFlag(p, 'MultiSelect') || optionsOf(p).length === 0) return left({ _tag: 'NotOptionSet', field });
  return right(p);
};

/** The lanes of a field: its options in their order, each a drop target. */
export const optionLanes = (field: Property): Lane[] =>
  optionsOf(field).map((o) => ({
    key: laneKey(o.value),
    value: o.value,
    label: o.label,
    ...('color' in o && typeof o.color === 'string' ? { color: o.color } : {}),
    kind: 'option' as const,
    accepts: true,
  }));

/** The number of a lane value as the answer carries it (the wire gives numbers; text is tolerated). */
export const laneNumber = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

/** Drops the attributes of links (an aggregate query selects only its group and its count); keeps joins and their filters. */
const joinsOnly = (links: readonly Link[] | undefined): Link[] | undefined =>
  links?.map((l) => {
    const { attributes: _a, allattrs: _all, links: nested, ...rest } = l;
    const inner = joinsOnly(nested);
    return inner ? { ...rest, links: inner } : rest;
  });

/**
 * The lane counts of a board: the list's fetch (view query, quick filters, search) grouped by the
 * field with a count of records. The list's order and paging do not apply (an aggregate query
 * orders by its output only); a query with links counts distinct records, as a join may repeat one.
 */
export const laneCountRequest = (list: FetchRequest, entity: Entity, field: string): FetchRequest => {
  const q = list.entity;
  const links = joinsOnly(q.links);
  return {
    entity: {
      name: q.name,
      attributes: [
        { attribute: field, groupBy: true },
        { attribute: primaryKeyOf(entity), aggregate: links?.length ? 'countdistinct' : 'count', alias: LANE_COUNT_KEY },
      ],
      ...(q.filter ? { filter: q.filter } : {}),
      ...(links?.length ? { links } : {}),
    },
    page: 1,
    pageSize: MAX_PAGE_SIZE,
  };
};

/**
 * The lanes of a board with their counts: every option lane (0 when the answer lacks it), then a
 * lane per value the answer holds that is no option (by value), then the records without a value
 * when there are any. The counts add up to the answer's total.
 */
export const countedLanes = (field: Property, answer: readonly EntityRecord[]): CountedLane[] => {
  const counts = new Map<string, { value: number | null; count: number }>();
  for (const r of answer) {
    const value = laneNumber(r[field.logicalName]);
    const key = laneKey(value);
    const n = Number(r[LANE_COUNT_KEY] ?? 0) || 0;
    const prev = counts.get(key);
    counts.set(key, { value, count: (prev?.count ?? 0) + n });
  }
  const options = optionLanes(field).map((l) => ({ ...l, count: counts.get(l.key)?.count ?? 0 }));
  const known = new Set(options.map((l) => l.key));
  const others: CountedLane[] = [...counts.entries()]
    .filter(([key, c]) => key !== '' && !known.has(key) && c.count > 0)
    .sort(([, a], [, b]) => (a.value as number) - (b.value as number))
    .map(([key, c]) => ({ key, value: c.value, label: key, kind: 'other', accepts: false, count: c.count }));
  const empty = counts.get('');
  const emptyLane: CountedLane[] =
    empty && empty.count > 0 ? [{ key: '', value: null, label: '', kind: 'empty', accepts: !hasFlag(field, 'Required'), count: empty.count }] : [];
  return [...options, ...others, ...emptyLane];
};

/** The condition of one lane: the field equals the lane value, or has none. */
export const laneCondition = (field: string, value: number | null): Condition =>
  value === null ? { attribute: field, operator: 'null' } : { attribute: field, operator: 'eq', value };

/** The list's attributes plus the key, the version, the lane field and `extra` (all of them when the list reads all). */
const cardAttributes = (list: FetchRequest, entity: Entity, field: string, extra: readonly string[]) => {
  const q = list.entity;
  if (q.allattrs === true || q.attributes === undefined) return q.attributes;
  const pk = primaryKeyOf(entity);
  const known = new Set(entity.properties.map((p) => p.logicalName));
  const wanted = [...new Set([pk, 'versionnumber', field, ...extra])].filter(
    (a) => (known.has(a) || a === pk) && !q.attributes?.some((x) => x.attribute === a && x.alias === undefined),
  );
  return [...q.attributes, ...wanted.map((attribute) => ({ attribute }))];
};

/** The list's fetch narrowed by a filter, reading the card attributes. */
const narrowed = (list: FetchRequest, entity: Entity, field: string, extra: readonly string[], by: Filter): FetchRequest => {
  const q = list.entity;
  const attributes = cardAttributes(list, entity, field, extra);
  return { ...list, entity: { ...q, ...(attributes ? { attributes } : {}), filter: q.filter ? { type: 'and', filters: [q.filter, by] } : by } };
};

/**
 * A page of one lane's cards: the list's fetch (its filter, order and columns) narrowed to the lane,
 * also reading the field and `extra` (what the permission check of a move needs: owner, team).
 */
export const laneCardsRequest = (
  list: FetchRequest,
  entity: Entity,
  field: string,
  value: number | null,
  page: { page: number; pageSize: number },
  extra: readonly string[] = [],
): FetchRequest => ({
  ...narrowed(list, entity, field, extra, { type: 'and', conditions: [laneCondition(field, value)] }),
  page: page.page,
  pageSize: page.pageSize,
  count: false,
});

/** One card as the board shows it, read again after a move (its new version) or a failed one (the server's record), if the list still holds it. */
export const cardRequest = (list: FetchRequest, entity: Entity, field: string, id: string, extra: readonly string[] = []): FetchRequest => ({
  ...narrowed(list, entity, field, extra, { type: 'and', conditions: [{ attribute: primaryKeyOf(entity), operator: 'eq', value: id }] }),
  page: 1,
  pageSize: 1,
  count: false,
});

/**
 * Spec 001 section 2 with spec 000 section 6: a user may drag a card when they may update that
 * record (its owner, team or level) and the lane field can be written (not an auto number).
 */
export const mayMoveCard = (caller: Caller, entity: Entity, field: Property, card: EntityRecord): boolean =>
  !hasFlag(field, 'AutoNumber') && canAccess(caller, 'update', entity.logicalName, card);

/** The fields a board reads besides the columns so that `mayMoveCard` can decide: owner, team, the caller's custom-owner fields. */
export const moveCheckFields = (caller: Caller, entity: Entity): string[] =>
  [...new Set([ownerFieldOf(entity.logicalName), 'teamid', ...customOwnerFields(caller.permissions, entity.logicalName, 'update')])].filter((f) =>
    entity.properties.some((p) => p.logicalName === f),
  );

/** A lane of a board as the model holds it: its key, count and the cards loaded so far. */
export type BoardLane = { key: string; count: number; cards: readonly EntityRecord[] };

/** Where a moved card was: to put it back exactly when its save fails. */
export type CardOrigin = { key: string; index: number; card: EntityRecord };

const idOf = (r: EntityRecord): string => String(r.id);

/**
 * Moves a card to a lane (optimistically, before the save): out of the lane holding it, `update`
 * applied (the field set to the lane value), in at `index` of the target (the top by default);
 * the counts follow. Answers the new lanes and where the card came from, or undefined when no lane
 * holds the card or the target is unknown. Moving to its own lane changes nothing.
 */
export const moveCard = <L extends BoardLane>(
  lanes: readonly L[],
  id: string,
  toKey: string,
  update: (card: EntityRecord) => EntityRecord,
  index = 0,
): { lanes: L[]; from: CardOrigin } | undefined => {
  const fromLane = lanes.find((l) => l.cards.some((c) => idOf(c) === id));
  if (!fromLane || !lanes.some((l) => l.key === toKey)) return undefined;
  const at = fromLane.cards.findIndex((c) => idOf(c) === id);
  const card = fromLane.cards[at];
  const from: CardOrigin = { key: fromLane.key, index: at, card };
  if (fromLane.key === toKey) return { lanes: [...lanes], from };
  const moved = update(card);
  return {
    lanes: lanes.map((l) => {
      if (l.key === fromLane.key) return { ...l, count: Math.max(0, l.count - 1), cards: l.cards.filter((_, i) => i !== at) };
      if (l.key !== toKey) return l;
      const cards = [...l.cards];
      cards.splice(Math.max(0, Math.min(index, cards.length)), 0, moved);
      return { ...l, count: l.count + 1, cards };
    }),
    from,
  };
};

/** Puts a card back where it came from (its save failed): the inverse of `moveCard`. */
export const restoreCard = <L extends BoardLane>(lanes: readonly L[], id: string, origin: CardOrigin): L[] =>
  moveCard(lanes, id, origin.key, () => origin.card, origin.index)?.lanes ?? [...lanes];

/** The key of the lane a card belongs in: its field's value. */
export const laneKeyOf = (card: EntityRecord, field: string): string => laneKey(laneNumber(card[field]));
