import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { EntityRecord, FieldValue, LineItemDraft, LineItemTotals, LookupValue } from '../core.js';
import {
  AMOUNT_PRECISION,
  DISCOUNT_PRECISION,
  lineItemTotals,
  planLineItemSave,
  QUANTITY_PRECISION,
  roundDecimal,
} from '../core.js';
import type { ApiClient, ExecuteItem } from '../api/client.js';

/**
 * The line-item panel as a model of signals (spec 002 "Line-item panel", sections 3 to 5): the
 * lines of one parent record (an invoice's invoicedetail rows), edited in place and written after
 * the parent is saved, as one atomic executemultiple. The maths is the core's (lineItemTotals,
 * planLineItemSave), the same the server's write rule runs on every line write, so what the
 * panel shows is what gets stored.
 */

export type LineItemsApi = Pick<ApiClient, 'fetch' | 'executeMultiple'>;

/** customComponentParameters of a `lineitems` panel (demo: invoicedetail / invoiceid / totalamount). */
export type LineItemsParams = {
  /** the line entity */
  entity: string;
  /** its lookup to the parent record */
  parentField: string;
  /** the parent's field holding the sum of its lines */
  totalField: string;
  /** the lines' lookup to the product (default productid) */
  productField: string;
};

/** Reads the panel's parameters; a panel without an entity or a parent field is misconfigured (undefined). */
export const lineItemsParams = (raw: Record<string, unknown> | undefined): LineItemsParams | undefined => {
  const text = (k: string, fallback?: string) =>
    typeof raw?.[k] === 'string' && raw[k] !== '' ? (raw[k] as string) : fallback;
  const entity = text('entity');
  const parentField = text('parentField');
  if (!entity || !parentField) return undefined;
  return {
    entity,
    parentField,
    totalField: text('totalField', 'totalamount')!,
    productField: text('productField', 'productid')!,
  };
};

/** One line as edited. Numbers are null while the input is empty. */
export type LineRow = {
  /** stable key for the screen (the stored id, or a local one for a new line) */
  key: string;
  /** the stored line's id; none for a new line */
  id?: string;
  versionnumber?: FieldValue;
  product: LookupValue | null;
  /** the product's listprice, the price a line takes when its price is empty */
  listprice: number | null;
  quantity: number | null;
  priceperunit: number | null;
  discount: number | null;
  /** the stored totalamount (what the parent holds for this line) */
  previousTotal: number;
};

/** A line as shown: its row, its amounts (or why they cannot be computed), and whether it is deleted on save. */
export type LineView = {
  row: LineRow;
  totals: LineItemTotals | undefined;
  /** quantity 0 on a stored line: deleted on save (spec 002 section 4) */
  deleting: boolean;
  /** a new line with quantity 0: skipped on save */
  skipped: boolean;
  changed: boolean;
};

export type LineItemsStatus = 'loading' | 'ready' | 'error';

const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/** An input's number at its precision; below the editor's minimum it is the minimum (spec 002 section 5). */
export const clampInput = (v: number | null, places: number, min: number, max?: number): number | null => {
  if (v === null || !Number.isFinite(v)) return null;
  const r = roundDecimal(Math.max(min, max === undefined ? v : Math.min(max, v)), places);
  return Object.is(r, -0) ? 0 : r;
};

const isLookup = (v: unknown): v is LookupValue =>
  !!v && typeof v === 'object' && typeof (v as LookupValue).id === 'string';

const draftOf = (r: LineRow): LineItemDraft => ({
  id: r.id,
  quantity: r.quantity ?? 0,
  priceperunit: r.priceperunit,
  discount: r.discount,
  listprice: r.listprice,
  previousTotal: r.previousTotal,
});

const sameRow = (a: LineRow, b: LineRow | undefined): boolean =>
  !!b &&
  a.product?.id === b.product?.id &&
  a.quantity === b.quantity &&
  a.priceperunit === b.priceperunit &&
  a.discount === b.discount;

export type LineItemsModel = ReturnType<typeof lineItemsModel>;

export const lineItemsModel = ({
  api,
  params,
  parentEntity,
}: {
  api: LineItemsApi;
  params: LineItemsParams;
  parentEntity: string;
}) => {
  const rows = signal<readonly LineRow[]>([]);
  /** the rows as stored, by id (what "changed" compares with) */
  const stored = signal<ReadonlyMap<string, LineRow>>(new Map());
  const status = signal<LineItemsStatus>('ready');
  const error = signal('');
  let seq = 0;
  let loadSeq = 0;

  const views = computed((): LineView[] =>
    rows.value.map((row) => {
      const t = lineItemTotals(draftOf(row));
      const zero = (row.quantity ?? 0) === 0;
      return {
        row,
        totals: isLeft(t) ? undefined : t.right,
        deleting: zero && row.id !== undefined,
        skipped: zero && row.id === undefined,
        changed: row.id === undefined ? !zero : !sameRow(row, stored.value.get(row.id)),
      };
    }),
  );

  /** The lines the save writes: new lines with a quantity, changed stored lines (quantity 0 deletes). */
  const changedRows = computed(() => views.value.filter((v) => v.changed).map((v) => v.row));
  const dirty = computed(() => changedRows.value.length > 0);

  /**
   * How much the parent's total moves with the unsaved lines: planLineItemSave over the changed
   * lines from 0 (an unchanged line moves nothing; a stored total that disagrees with the formula
   * is left to the server's rule, which computes it on the line's next write).
   */
  const delta = computed((): number => {
    const plan = planLineItemSave(changedRows.value.map(draftOf), 0);
    return isLeft(plan) ? 0 : plan.right.parentTotalamount;
  });

  /** The sum of the lines as shown (deleted lines left out). */
  const linesTotal = computed(() =>
    roundDecimal(
      views.value.reduce((s, v) => s + (v.deleting || v.skipped ? 0 : (v.totals?.totalamount ?? 0)), 0),
      AMOUNT_PRECISION,
    ),
  );

  const rowOf = (r: EntityRecord): LineRow => ({
    key: String(r.id),
    id: String(r.id),
    versionnumber: r.versionnumber,
    product: isLookup(r[params.productField]) ? (r[params.productField] as LookupValue) : null,
    listprice: null,
    quantity: num(r.quantity),
    priceperunit: num(r.priceperunit),
    discount: num(r.discount) ?? 0,
    previousTotal: num(r.totalamount) ?? 0,
  });

  /** The listprice of each product, by id. */
  const listPrices = async (ids: readonly string[]): Promise<Map<string, number | null>> => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const res = await api.fetch({
      entity: {
        name: 'product',
        attributes: [{ attribute: 'id' }, { attribute: 'listprice' }],
        filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'in', value: unique }] },
      },
      page: 1,
      pageSize: unique.length,
    });
    return new Map(res.records.map((p) => [String(p.id), num(p.listprice)]));
  };

  /** Loads the lines of the parent (none for a new parent). */
  const load = async (parentId: string | undefined): Promise<void> => {
    const n = ++loadSeq;
    if (!parentId) {
      batch(() => {
        rows.value = [];
        stored.value = new Map();
        status.value = 'ready';
      });
      return;
    }
    status.value = 'loading';
    try {
      const res = await api.fetch({
        entity: {
          name: params.entity,
          attributes: [
            'id',
            'versionnumber',
            params.productField,
            'quantity',
            'priceperunit',
            'discount',
            'baseamount',
            'totalamount',
          ].map((attribute) => ({ attribute })),
          filter: { type: 'and', conditions: [{ attribute: params.parentField, operator: 'eq', value: parentId }] },
          orders: [{ attribute: 'createdon' }, { attribute: 'id' }],
        },
        page: 1,
        pageSize: 500,
      });
      const loaded = res.records.map((r) => rowOf(r as EntityRecord));
      const prices = await listPrices(loaded.flatMap((r) => (r.product ? [r.product.id] : [])));
      const withPrices = loaded.map((r) => ({
        ...r,
        listprice: r.product ? (prices.get(r.product.id) ?? null) : null,
      }));
      if (n !== loadSeq) return;
      batch(() => {
        rows.value = withPrices;
        stored.value = new Map(withPrices.map((r) => [r.id!, r]));
        status.value = 'ready';
        error.value = '';
      });
    } catch (e) {
      if (n !== loadSeq) return;
      batch(() => {
        error.value = e instanceof Error ? e.message : String(e);
        status.value = 'error';
      });
    }
  };

  const edit = (key: string, change: (r: LineRow) => LineRow) => {
    rows.value = rows.value.map((r) => (r.key === key ? change(r) : r));
  };

  /** A new line: quantity 1, no discount; its key is local. */
  const add = (): string => {
    const key = `new-${++seq}`;
    rows.value = [
      ...rows.value,
      { key, product: null, listprice: null, quantity: 1, priceperunit: null, discount: 0, previousTotal: 0 },
    ];
    return key;
  };

  /** Picks the product; the price per unit becomes its listprice (spec 002 section 3: default from the product's listprice). */
  const setProduct = async (key: string, product: LookupValue | null): Promise<void> => {
    edit(key, (r) => ({ ...r, product }));
    if (!product) return;
    const price =
      (await listPrices([product.id]).catch(() => new Map<string, number | null>())).get(product.id) ?? null;
    edit(key, (r) => (r.product?.id === product.id ? { ...r, listprice: price, priceperunit: price } : r));
  };

  const setQuantity = (key: string, v: number | null) =>
    edit(key, (r) => ({ ...r, quantity: clampInput(v, QUANTITY_PRECISION, 0) }));
  const setPrice = (key: string, v: number | null) =>
    edit(key, (r) => ({ ...r, priceperunit: clampInput(v, AMOUNT_PRECISION, 0) }));
  const setDiscount = (key: string, v: number | null) =>
    edit(key, (r) => ({ ...r, discount: clampInput(v, DISCOUNT_PRECISION, 0, 100) }));

  /** Remove: a new line goes at once; a stored one gets quantity 0 (deleted on save, spec 002 section 4). */
  const remove = (key: string) => {
    const r = rows.value.find((x) => x.key === key);
    if (!r) return;
    if (r.id === undefined) rows.value = rows.value.filter((x) => x.key !== key);
    else edit(key, (x) => ({ ...x, quantity: 0 }));
  };

  /** Undo a removal: the stored line's quantity back. */
  const restore = (key: string) => {
    edit(key, (x) => (x.id !== undefined ? { ...x, quantity: stored.value.get(x.id)?.quantity ?? 1 } : x));
  };

  /** Why the save cannot go on (a line with a quantity and no product), else undefined. */
  const problem = (): 'noProduct' | undefined =>
    views.value.some((v) => !v.deleting && !v.skipped && v.changed && !v.row.product) ? 'noProduct' : undefined;

  /** The writes of the save: one per changed line, amounts as the core computes them. */
  const writes = (parentId: string): ExecuteItem[] => {
    const plan = planLineItemSave(changedRows.value.map(draftOf), 0);
    if (isLeft(plan)) return [];
    // changedRows holds no new line with quantity 0, so each line has its operation, in order.
    const changed = changedRows.value;
    return plan.right.operations.map((op, i) => {
      const r = changed[i]!;
      if (op.operation === 'delete')
        return {
          operation: 'delete',
          name: params.entity,
          object: { id: r.id!, versionnumber: r.versionnumber ?? null },
        };
      const amounts = {
        [params.productField]: r.product ? { id: r.product.id, name: r.product.name } : null,
        quantity: op.totals.quantity,
        priceperunit: op.totals.priceperunit,
        discount: op.totals.discount,
        baseamount: op.totals.baseamount,
        totalamount: op.totals.totalamount,
      };
      return op.operation === 'create'
        ? {
            operation: 'create',
            name: params.entity,
            object: { ...amounts, [params.parentField]: { id: parentId, name: parentEntity } },
          }
        : {
            operation: 'update',
            name: params.entity,
            object: { id: r.id!, versionnumber: r.versionnumber ?? null, ...amounts },
          };
    });
  };

  /** Writes the changed lines in one atomic executemultiple, then reads them back. */
  const save = async (parentId: string): Promise<void> => {
    const items = writes(parentId);
    if (items.length > 0) {
      const answers = await api.executeMultiple(items, { atomic: true });
      const failed = answers.find((a) => a.error);
      if (failed?.error) throw new Error(failed.error);
    }
    await load(parentId);
  };

  return {
    rows: rows as ReadonlySignal<readonly LineRow[]>,
    views,
    status: status as ReadonlySignal<LineItemsStatus>,
    error: error as ReadonlySignal<string>,
    dirty,
    delta,
    linesTotal,
    load,
    add,
    setProduct,
    setQuantity,
    setPrice,
    setDiscount,
    remove,
    restore,
    problem,
    writes,
    save,
  };
};
