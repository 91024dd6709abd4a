import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entity, LookupValue } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { clampInput, lineItemsModel, lineItemsParams } from './line-items-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const entity = (logicalName: string, properties: Entity['properties']): Entity => ({
  logicalName,
  displayName: logicalName,
  displayNamePlural: logicalName,
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
    { logicalName: 'createdon', displayName: 'Created On', type: 'DateTime' },
    ...properties,
  ],
});
const invoice = entity('invoice', [
  { logicalName: 'name', displayName: 'Name', type: 'String' },
  { logicalName: 'totalamount', displayName: 'Total', type: 'Money', precision: 2 },
]);
const product = entity('product', [
  { logicalName: 'name', displayName: 'Name', type: 'String' },
  { logicalName: 'listprice', displayName: 'List Price', type: 'Money', precision: 2 },
]);
const invoicedetail = entity('invoicedetail', [
  { logicalName: 'invoiceid', displayName: 'Invoice', type: 'Lookup', targets: ['invoice'] },
  { logicalName: 'productid', displayName: 'Product', type: 'Lookup', targets: ['product'] },
  { logicalName: 'quantity', displayName: 'Quantity', type: 'Decimal', precision: 2 },
  { logicalName: 'priceperunit', displayName: 'Price', type: 'Money', precision: 2 },
  { logicalName: 'baseamount', displayName: 'Amount', type: 'Money', precision: 2 },
  { logicalName: 'discount', displayName: 'Discount', type: 'Decimal', precision: 0 },
  { logicalName: 'totalamount', displayName: 'Total', type: 'Money', precision: 2 },
]);
const params = lineItemsParams({ entity: 'invoicedetail', parentField: 'invoiceid', totalField: 'totalamount' })!;

const setup = async () => {
  const api = new StoreClient(
    [invoice, product, invoicedetail],
    fullCaller(ME, ['invoice', 'product', 'invoicedetail']),
  );
  const invoiceId = await api.update('create', 'invoice', { name: 'F-1', totalamount: 100 });
  const lamp: LookupValue = {
    id: await api.update('create', 'product', { name: 'Lamp', listprice: 12.5 }),
    name: 'product',
    label: 'Lamp',
  };
  const desk: LookupValue = {
    id: await api.update('create', 'product', { name: 'Desk', listprice: 240 }),
    name: 'product',
    label: 'Desk',
  };
  const lineId = await api.update('create', 'invoicedetail', {
    invoiceid: { id: invoiceId, name: 'invoice' },
    productid: { id: desk.id, name: 'product' },
    quantity: 1,
    priceperunit: 100,
    discount: 0,
    baseamount: 100,
    totalamount: 100,
  });
  const model = lineItemsModel({ api, params, parentEntity: 'invoice' });
  await model.load(invoiceId);
  return { api, model, invoiceId, lamp, desk, lineId };
};

const storedLines = async (api: StoreClient, invoiceId: string) =>
  (
    await api.fetch({
      entity: {
        name: 'invoicedetail',
        allattrs: true,
        filter: { type: 'and', conditions: [{ attribute: 'invoiceid', operator: 'eq', value: invoiceId }] },
      },
      page: 1,
      pageSize: 50,
    })
  ).records;

describe('line-item panel model (spec 002 "Line-item panel", sections 3 to 5)', () => {
  it('reads its parameters; a panel without entity or parent field is misconfigured', () => {
    expect(params).toEqual({
      entity: 'invoicedetail',
      parentField: 'invoiceid',
      totalField: 'totalamount',
      productField: 'productid',
    });
    expect(lineItemsParams({ entity: 'invoicedetail' })).toBeUndefined();
    expect(lineItemsParams(undefined)).toBeUndefined();
  });

  it('loads the stored lines of the parent, clean', async () => {
    const { model, desk } = await setup();
    expect(model.status.value).toBe('ready');
    expect(model.rows.value.map((r) => [r.product?.id, r.quantity, r.priceperunit, r.listprice])).toEqual([
      [desk.id, 1, 100, 240],
    ]);
    expect(model.dirty.value).toBe(false);
    expect(model.delta.value).toBe(0);
  });

  it("section 3: the price per unit defaults from the product's listprice", async () => {
    const { model, lamp } = await setup();
    const key = model.add();
    await model.setProduct(key, lamp);
    const row = model.rows.value.find((r) => r.key === key)!;
    expect([row.priceperunit, row.listprice, row.quantity, row.discount]).toEqual([12.5, 12.5, 1, 0]);
  });

  it('section 5: totalamount = baseamount x (100 - discount) / 100, and the parent total moves by the difference', async () => {
    const { model, lamp } = await setup();
    const key = model.add();
    await model.setProduct(key, lamp);
    model.setQuantity(key, 3);
    model.setDiscount(key, 10);
    const v = model.views.value.find((x) => x.row.key === key)!;
    expect([v.totals?.baseamount, v.totals?.totalamount]).toEqual([37.5, 33.75]);
    expect(model.delta.value).toBe(33.75);
    expect(model.linesTotal.value).toBe(133.75);
    expect(model.dirty.value).toBe(true);
  });

  it('section 5: quantity precision 2 and not below 0; discount precision 0 between 0 and 100', async () => {
    const { model } = await setup();
    const key = model.add();
    model.setQuantity(key, 1.005);
    model.setDiscount(key, 12.6);
    expect([model.rows.value.at(-1)?.quantity, model.rows.value.at(-1)?.discount]).toEqual([1.01, 13]);
    model.setQuantity(key, -4);
    model.setDiscount(key, 140);
    expect([model.rows.value.at(-1)?.quantity, model.rows.value.at(-1)?.discount]).toEqual([0, 100]);
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), (x) => {
        const q = clampInput(x, 2, 0)!;
        const d = clampInput(x, 0, 0, 100)!;
        return q >= 0 && Number(q.toFixed(2)) === q && d >= 0 && d <= 100 && Number.isInteger(d);
      }),
    );
  });

  it('section 4: quantity 0 on a stored line deletes it on save; a new line with quantity 0 is skipped', async () => {
    const { model, lamp, lineId } = await setup();
    const key = model.add();
    await model.setProduct(key, lamp);
    model.setQuantity(key, 0);
    const stored = model.rows.value[0]!.key;
    model.remove(stored);
    const views = model.views.value;
    expect(views.map((v) => [v.deleting, v.skipped])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(model.writes('parent')).toEqual([
      { operation: 'delete', name: 'invoicedetail', object: { id: lineId, versionnumber: expect.anything() } },
    ]);
    expect(model.delta.value).toBe(-100);
    // Keep line takes the stored quantity back: nothing to save.
    model.restore(stored);
    expect(model.writes('parent')).toEqual([]);
    expect(model.dirty.value).toBe(false);
  });

  it('removing a new line drops it at once', async () => {
    const { model } = await setup();
    const key = model.add();
    model.remove(key);
    expect(model.rows.value).toHaveLength(1);
    expect(model.dirty.value).toBe(false);
  });

  it('a line with a quantity and no product stops the save', async () => {
    const { model } = await setup();
    model.add();
    expect(model.problem()).toBe('noProduct');
  });

  it('save: the changed lines in ONE atomic executemultiple with their amounts, then read back clean', async () => {
    const { api, model, invoiceId, lamp, desk, lineId } = await setup();
    const key = model.add();
    await model.setProduct(key, lamp);
    model.setQuantity(key, 2);
    model.setDiscount(key, 20);
    model.setPrice(model.rows.value[0]!.key, 90);
    await model.save(invoiceId);
    expect(api.batches).toHaveLength(1);
    expect(api.batches[0]!.atomic).toBe(true);
    expect(api.batches[0]!.items.map((i) => i.operation)).toEqual(['update', 'create']);
    const lines = await storedLines(api, invoiceId);
    const byProduct = new Map(lines.map((l) => [(l.productid as LookupValue).id, l]));
    expect(byProduct.get(lamp.id)).toMatchObject({
      quantity: 2,
      priceperunit: 12.5,
      discount: 20,
      baseamount: 25,
      totalamount: 20,
    });
    expect(byProduct.get(desk.id)).toMatchObject({ id: lineId, priceperunit: 90, baseamount: 90, totalamount: 90 });
    expect(model.dirty.value).toBe(false);
    expect(model.rows.value).toHaveLength(2);
  });

  it('save: deleting a stored line removes it', async () => {
    const { api, model, invoiceId } = await setup();
    model.remove(model.rows.value[0]!.key);
    await model.save(invoiceId);
    expect(await storedLines(api, invoiceId)).toHaveLength(0);
    expect(model.rows.value).toHaveLength(0);
  });

  it('a new parent has no lines to load; its lines are created with the id it gets', async () => {
    const { api, lamp } = await setup();
    const model = lineItemsModel({ api, params, parentEntity: 'invoice' });
    await model.load(undefined);
    expect(model.rows.value).toEqual([]);
    const key = model.add();
    await model.setProduct(key, lamp);
    const id = await api.update('create', 'invoice', { name: 'F-2' });
    await model.save(id);
    expect((await storedLines(api, id)).map((l) => l.totalamount)).toEqual([12.5]);
  });
});
