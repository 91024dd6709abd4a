import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { divRound, rescale, scaledToNumber, toScaled, type Decimalish } from './decimal.js';

/** Quantity precision is 2 and discount precision is 0 (spec 002 section 5); amounts have 2 decimals. */
export const QUANTITY_PRECISION = 2;
export const DISCOUNT_PRECISION = 0;
export const AMOUNT_PRECISION = 2;

export type LineItemInput = {
  readonly quantity: Decimalish;
  /** Empty means the product's listprice. */
  readonly priceperunit?: Decimalish | null;
  /** Discount percent, 0 to 100; empty means 0. */
  readonly discount?: Decimalish | null;
  /** The chosen product's listprice. */
  readonly listprice?: Decimalish | null;
};

export type LineItemTotals = {
  readonly quantity: number;
  readonly priceperunit: number;
  readonly discount: number;
  readonly baseamount: number;
  readonly totalamount: number;
};

const empty = (v: unknown): v is null | undefined | '' => v === undefined || v === null || v === '';

/**
 * lineItemTotals: baseamount = quantity x priceperunit and totalamount = baseamount x (100 - discount) / 100
 * (spec 002 sections 3 and 5), exact on scaled integers. Quantity is rounded to 2 decimals, discount to
 * 0, priceperunit and both amounts to 2, each half away from zero; totalamount is computed from the
 * rounded baseamount, so the stored fields always agree with the formula. priceperunit defaults to the
 * product's listprice (else 0). A quantity below 0 or a discount outside 0 to 100 is an input error.
 */
export const lineItemTotals = (item: LineItemInput): E.Either<InputError, LineItemTotals> => {
  const quantity = toScaled(item.quantity, QUANTITY_PRECISION);
  if (quantity === undefined) return E.left(inputError(`Invalid quantity: ${String(item.quantity)}`));
  if (quantity < 0n) return E.left(inputError('The quantity cannot be below 0'));
  const priceSource = empty(item.priceperunit) ? (empty(item.listprice) ? 0 : item.listprice) : item.priceperunit;
  const price = toScaled(priceSource, AMOUNT_PRECISION);
  if (price === undefined) return E.left(inputError(`Invalid price: ${String(priceSource)}`));
  const discount = empty(item.discount) ? 0n : toScaled(item.discount, DISCOUNT_PRECISION);
  if (discount === undefined) return E.left(inputError(`Invalid discount: ${String(item.discount)}`));
  if (discount < 0n || discount > 100n) return E.left(inputError('The discount must be between 0 and 100'));
  const base = rescale(quantity * price, QUANTITY_PRECISION + AMOUNT_PRECISION, AMOUNT_PRECISION);
  const total = divRound(base * (100n - discount), 100n);
  return E.right({
    quantity: scaledToNumber(quantity, QUANTITY_PRECISION),
    priceperunit: scaledToNumber(price, AMOUNT_PRECISION),
    discount: scaledToNumber(discount, DISCOUNT_PRECISION),
    baseamount: scaledToNumber(base, AMOUNT_PRECISION),
    totalamount: scaledToNumber(total, AMOUNT_PRECISION),
  });
};

/** A line item as edited in the line-item panel. */
export type LineItemDraft<K = string> = LineItemInput & {
  /** The stored item's key; absent for a new item. */
  readonly id?: K;
  /** The stored totalamount before the edit (0 or absent for a new item). */
  readonly previousTotal?: Decimalish | null;
};

export type LineItemOperation<K = string> =
  | { readonly operation: 'create'; readonly item: LineItemDraft<K>; readonly totals: LineItemTotals }
  | { readonly operation: 'update'; readonly item: LineItemDraft<K>; readonly totals: LineItemTotals }
  | { readonly operation: 'delete'; readonly item: LineItemDraft<K> };

export type LineItemSavePlan<K = string> = {
  readonly operations: ReadonlyArray<LineItemOperation<K>>;
  /** The parent's totalamount after the save: its old value adjusted by each item's change. */
  readonly parentTotalamount: number;
};

/**
 * What saving the line-item panel does (spec 002 section 4): quantity 0 on an existing item means
 * delete on save, a new item with quantity 0 is skipped, others are created or updated with their
 * totals; the parent's totalamount is adjusted by the difference of each item's totalamount, so
 * amounts the parent holds besides its items are kept.
 */
export const planLineItemSave = <K>(
  items: ReadonlyArray<LineItemDraft<K>>,
  parentTotalamount: Decimalish | null | undefined,
): E.Either<InputError, LineItemSavePlan<K>> => {
  let parent = toScaled(empty(parentTotalamount) ? 0 : parentTotalamount, AMOUNT_PRECISION) ?? 0n;
  const operations: Array<LineItemOperation<K>> = [];
  for (const item of items) {
    const previous = toScaled(empty(item.previousTotal) ? 0 : item.previousTotal, AMOUNT_PRECISION) ?? 0n;
    const totals = lineItemTotals(item);
    if (E.isLeft(totals)) return totals;
    const isNew = item.id === undefined || item.id === null;
    if (totals.right.quantity === 0) {
      if (!isNew) {
        operations.push({ operation: 'delete', item });
        parent -= previous;
      }
      continue;
    }
    operations.push({ operation: isNew ? 'create' : 'update', item, totals: totals.right });
    parent += (toScaled(totals.right.totalamount, AMOUNT_PRECISION) ?? 0n) - (isNew ? 0n : previous);
  }
  return E.right({ operations, parentTotalamount: scaledToNumber(parent, AMOUNT_PRECISION) });
};
