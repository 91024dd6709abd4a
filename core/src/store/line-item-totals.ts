import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { Entity, Property } from '../metadata/entity.js';
import { AMOUNT_PRECISION, lineItemTotals, type LineItemTotals } from '../money/line-items.js';
import { roundDecimal } from '../money/decimal.js';
import type { EntityLookup } from '../query/validate-query.js';
import type { StoredRecord, StoredValue } from './record-rules.js';
import { incremented, type Steps, type WriteContext, type WriteRule, type WrittenRecord } from './record-writes.js';

/**
 * Line-item totals on the server (issue 19 "Line items", spec 002 "Line items"): every write of a
 * line item, from the panel, the API, executeMultiple or an import, stores the amounts of the
 * core's maths (money/line-items.ts: price per unit defaulting to the product's listprice, base =
 * quantity x price, total = base x (100 - discount) / 100) and moves the parent's total by the
 * change of the line's total, in the line's own transaction. The parent's total is moved, not
 * recomputed, so amounts the parent holds besides its lines stay (planLineItemSave does the same),
 * and the move is one increment statement, so concurrent line writes lose no update.
 *
 * Which entities are line items: the spec's shape of one (spec 002 "Line items": a product
 * lookup, quantity, priceperunit, baseamount, discount, totalamount, plus the parent link), read
 * from the entity's metadata, so a pack declares a line item by its fields and nothing else. The
 * product is the lookup whose target has a `listprice`; the parent is the one other lookup whose
 * target has the `totalamount` the lines add up to. The line-item panel's parameters (entity,
 * parentField, totalField) name the same (a test checks the demo pack's).
 */
export type LineItemShape = {
  /** the lookup to the product (its target has listprice) */
  readonly productField: string;
  readonly productEntity: string;
  /** the lookup to the parent (its target has the total field) */
  readonly parentField: string;
  readonly parentEntity: string;
  /** the parent's field the lines' totals add up to */
  readonly totalField: string;
};

export const LINE_ITEM_FIELDS = ['quantity', 'priceperunit', 'baseamount', 'discount', 'totalamount'] as const;
const TOTAL_FIELD = 'totalamount';
const NUMERIC = new Set(['Integer', 'Decimal', 'Float', 'Money']);

const has = (e: Entity | undefined, name: string): boolean => !!e?.properties.some((p) => p.logicalName === name && NUMERIC.has(p.type));
const lookupsOf = (e: Entity): Property[] => e.properties.filter((p) => p.type === 'Lookup' && (p.targets ?? []).length === 1);

/** The line-item shape of an entity, or undefined when it is not one (or its parent is ambiguous). */
export const lineItemShapeOf = (lookup: EntityLookup, e: Entity): LineItemShape | undefined => {
  if (!LINE_ITEM_FIELDS.every((f) => has(e, f))) return undefined;
  const lookups = lookupsOf(e);
  const products = lookups.filter((p) => has(lookup(p.targets![0]), 'listprice'));
  if (products.length !== 1) return undefined;
  const product = products[0];
  const parents = lookups.filter((p) => p !== product && p.targets![0] !== e.logicalName && has(lookup(p.targets![0]), TOTAL_FIELD));
  if (parents.length !== 1) return undefined;
  return {
    productField: product.logicalName,
    productEntity: product.targets![0],
    parentField: parents[0].logicalName,
    parentEntity: parents[0].targets![0],
    totalField: TOTAL_FIELD,
  };
};

// Worked out once per entity object (the metadata of an organization is loaded once).
const shapes = new WeakMap<Entity, { shape: LineItemShape | undefined }>();
const shapeOf = (lookup: EntityLookup, e: Entity): LineItemShape | undefined => {
  let known = shapes.get(e);
  if (!known) shapes.set(e, (known = { shape: lineItemShapeOf(lookup, e) }));
  return known.shape;
};

const idOf = (v: StoredValue | undefined): string | undefined => (v !== null && typeof v === 'object' ? v.id : undefined);
const amount = (v: StoredValue | undefined): number => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : 0);
const emptyNumber = (v: StoredValue | undefined): boolean => v === undefined || v === null || v === '';

/** The product's listprice, read in the transaction (none when the line names no product or it is gone). */
function* listPriceOf(ctx: WriteContext, shape: LineItemShape, line: StoredRecord): Steps<StoredValue | undefined> {
  const product = ctx.lookup(shape.productEntity);
  const id = idOf(line[shape.productField]);
  if (!product || id === undefined) return undefined;
  const row = (yield { kind: 'get', entity: product, id }) as StoredRecord | null;
  return row?.listprice ?? undefined;
}

/** A line's amounts by the core's maths; an empty quantity counts as 0. */
function* totalsOf(ctx: WriteContext, shape: LineItemShape, line: StoredRecord): Steps<Either<DomainError, LineItemTotals>> {
  const listprice = emptyNumber(line.priceperunit) ? yield* listPriceOf(ctx, shape, line) : undefined;
  return lineItemTotals({
    quantity: emptyNumber(line.quantity) ? 0 : (line.quantity as number),
    priceperunit: emptyNumber(line.priceperunit) ? null : (line.priceperunit as number),
    discount: emptyNumber(line.discount) ? null : (line.discount as number),
    listprice: typeof listprice === 'number' || typeof listprice === 'string' ? listprice : null,
  });
}

function* beforeInsert(ctx: WriteContext, entity: Entity, record: StoredRecord): Steps<Either<DomainError, StoredRecord>> {
  const shape = shapeOf(ctx.lookup, entity);
  if (!shape) return right(record);
  const totals = yield* totalsOf(ctx, shape, record);
  if (isLeft(totals)) return totals;
  return right({ ...record, ...totals.right });
}

/** The changes of an update with the line's amounts, each only where it differs from the stored line. */
function* beforeUpdate(ctx: WriteContext, entity: Entity, current: StoredRecord, changes: StoredRecord): Steps<Either<DomainError, StoredRecord>> {
  const shape = shapeOf(ctx.lookup, entity);
  if (!shape) return right(changes);
  const totals = yield* totalsOf(ctx, shape, { ...current, ...changes });
  if (isLeft(totals)) return totals;
  const out = { ...changes };
  for (const [k, v] of Object.entries(totals.right)) {
    if (k in changes || current[k] !== v) out[k] = v;
  }
  return right(out);
}

/** Moves the parent's total by the change of the line's total (both parents when the line moved). */
function* afterWrite(ctx: WriteContext, written: WrittenRecord): Steps<Either<DomainError, null>> {
  const shape = shapeOf(ctx.lookup, written.entity);
  if (!shape) return right(null);
  const parent = ctx.lookup(shape.parentEntity);
  if (!parent) return right(null);
  const moves = new Map<string, number>();
  const move = (id: string | undefined, by: number) => {
    if (id !== undefined) moves.set(id, (moves.get(id) ?? 0) + by);
  };
  if (written.before) move(idOf(written.before[shape.parentField]), -amount(written.before.totalamount));
  if (written.after) move(idOf(written.after[shape.parentField]), amount(written.after.totalamount));
  for (const [id, by] of moves) {
    const delta = roundDecimal(by, AMOUNT_PRECISION);
    // A parent that is gone has no total to keep.
    if (delta !== 0) yield* incremented(parent, id, shape.totalField, delta, AMOUNT_PRECISION);
  }
  return right(null);
}

export const lineItemTotalsRule: WriteRule = {
  name: 'line-item totals',
  beforeInsert: (ctx, _caller, entity, record) => beforeInsert(ctx, entity, record),
  beforeUpdate: (ctx, _caller, entity, current, changes) => beforeUpdate(ctx, entity, current, changes),
  afterWrite: (ctx, _caller, written) => afterWrite(ctx, written),
};
