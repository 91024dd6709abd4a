import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '@tessera/cli';
import { lineItemTotals, sumDecimal } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * The write rules against a real server (SQLite on the worker pool, the host's own config):
 * issue 16 "Auto numbers" (no duplicates and no gaps under 50 concurrent creates; executemultiple
 * and import numbered; never back on delete; a change counts at once; one organization's numbers
 * are its own) and issue 19 "Line items" (an executemultiple of line items keeps the parent total
 * right under concurrent writes; amounts computed on the server; a bad line is a 4xx, never a 500).
 */
const PW = 'rules-password-1';
const strip = (text: string) => text.trim().replace(/^"|"$/g, '');
type Answer = Array<{ id?: string; error?: string }>;

describe('write rules over HTTP', () => {
  let h: Harness;
  const admin: Record<string, Api> = {};

  const numbers = async (api: Api, filter?: unknown): Promise<string[]> => {
    const page = await api.fetchRecords({
      entity: { name: 'account', attributes: [{ attribute: 'accountnumber' }], ...(filter ? { filter } : {}), orders: [{ attribute: 'accountnumber' }] },
      pageSize: 5000,
    });
    return page.records.map((r) => r.accountnumber as string);
  };
  const numberOf = async (api: Api, id: string): Promise<unknown> =>
    (await api.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'accountnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } })).records[0]
      ?.accountnumber;
  const config = async (api: Api): Promise<Record<string, unknown>> =>
    (await api.fetchRecords({ entity: { name: 'inu_autonumber', allattrs: true, filter: { conditions: [{ attribute: 'objectname', operator: 'eq', value: 'account' }] } } })).records[0];

  beforeAll(async () => {
    h = await startHarness();
    for (const org of ['rules-a', 'rules-b']) {
      await h.createOrg(org, { email: `admin@${org}.test`, password: PW }, ['demo']);
      admin[org] = new Api(h.url);
      await admin[org].login(org, `admin@${org}.test`, PW);
    }
    await admin['rules-a'].create('inu_autonumber', { name: 'Accounts', objectname: 'account', fieldname: 'accountnumber', prefix: 'ACC-', nextnumber: 1, digits: 5 });
    await admin['rules-b'].create('inu_autonumber', { name: 'Accounts', objectname: 'account', fieldname: 'accountnumber', prefix: 'B-', nextnumber: 900, digits: 3 });
  }, 120_000);
  afterAll(async () => h?.close());

  describe('auto numbers (issue 16)', () => {
    it('50 concurrent creates get 50 distinct consecutive numbers (no duplicates, no gaps), and the next number moves to 51', async () => {
      const api = admin['rules-a'];
      const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => api.create('account', { name: `Concurrent ${i}` })));
      expect(new Set(ids).size).toBe(50);
      const got = await numbers(api, { conditions: [{ attribute: 'name', operator: 'like', value: 'Concurrent %' }] });
      expect(got).toEqual(Array.from({ length: 50 }, (_, i) => `ACC-${String(i + 1).padStart(5, '0')}`));
      expect(Number((await config(api)).nextnumber)).toBe(51);
    });

    it('executemultiple items are numbered; an atomic batch that fails takes no number; a given number is kept', async () => {
      const api = admin['rules-a'];
      const failed = (await (await api.post('executemultiple', {
        atomic: true,
        records: [
          { operation: 'create', name: 'account', object: { name: 'Rolled back' } },
          { operation: 'create', name: 'account', object: { name: 'Bad', revenue: 'not a number' } },
        ],
      })).json()) as Answer;
      expect(failed.every((x) => x.error)).toBe(true);
      const r = (await (await api.post('executemultiple', [
        { operation: 'create', name: 'account', object: { name: 'Batch 1' } },
        { operation: 'create', name: 'account', object: { name: 'Batch 2', accountnumber: 'OWN-1' } },
        { operation: 'create', name: 'account', object: { name: 'Batch 3' } },
      ])).json()) as Answer;
      expect(await Promise.all(r.map((x) => numberOf(api, x.id!)))).toEqual(['ACC-00051', 'OWN-1', 'ACC-00052']);
    });

    it('an import of rows without the number numbers each row', async () => {
      const api = admin['rules-a'];
      const up = await fetch(`${h.url}/api/import/upload?entity=account&fileName=accounts.csv`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-accessptoken': api.token },
        body: 'name\nImported 1\nImported 2\n',
      });
      expect(up.status).toBe(200);
      const preview = (await up.json()) as { uploadId: string };
      const done = (await (await api.post('import/commit', { uploadId: preview.uploadId })).json()) as { created: number; text: string };
      expect(done.created, done.text).toBe(2);
      expect(await numbers(api, { conditions: [{ attribute: 'name', operator: 'like', value: 'Imported %' }] })).toEqual(['ACC-00053', 'ACC-00054']);
    });

    it('numbering never goes back on delete; a change of the row counts from the next create on', async () => {
      const api = admin['rules-a'];
      const last = strip(await api.create('account', { name: 'To delete' }));
      expect(await numberOf(api, last)).toBe('ACC-00055');
      expect((await api.post('update', { operation: 'delete', name: 'account', object: { id: last } })).status).toBe(200);
      const row = await config(api);
      const changed = await api.post('update', { operation: 'update', name: 'inu_autonumber', object: { id: row.id, versionnumber: row.versionnumber, prefix: 'K-', digits: 3, format: '{prefix}{yyyy}/{number}' } });
      expect(changed.status, await changed.text()).toBe(200);
      const next = strip(await api.create('account', { name: 'After the change' }));
      expect(await numberOf(api, next)).toBe(`K-${new Date().getUTCFullYear()}/056`);
    });

    it("another organization's numbering is its own", async () => {
      const api = admin['rules-b'];
      const id = strip(await api.create('account', { name: 'B one' }));
      expect(await numberOf(api, id)).toBe('B-900');
    });

    it('a stale form of the row cannot write an old next number back over numbers taken since (ERR_8001)', async () => {
      const api = admin['rules-b'];
      const row = await config(api);
      await api.create('account', { name: 'B two' });
      const stale = await api.post('update', { operation: 'update', name: 'inu_autonumber', object: { id: row.id, versionnumber: row.versionnumber, nextnumber: row.nextnumber } });
      expect(stale.status).toBe(409);
      expect(await stale.text()).toMatch(/^ERR_8001/);
    });
  });

  it('tessera demo: the next account and invoice take the numbers after the demo\'s; every invoice total is the sum of its lines', async () => {
    process.env.TESSERA_LOG_LEVEL = 'silent';
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await runCli(['demo', '--data', h.dataDir])).toBe(0);
    } finally {
      out.mockRestore();
    }
    const api = new Api(h.url);
    expect((await api.login('demo', 'admin@demo.test', 'tessera-demo')).status).toBe(200);
    const count = async (entity: string) => (await api.fetchRecords({ entity: { name: entity, attributes: [{ attribute: 'id' }] }, count: true, pageSize: 1 })).count!;
    const accounts = await count('account');
    const id = strip(await api.create('account', { name: 'After the demo' }));
    expect(await numberOf(api, id)).toBe(`ACC-${String(accounts + 1).padStart(5, '0')}`);
    const invoices = (await api.fetchRecords({ entity: { name: 'invoice', attributes: [{ attribute: 'totalamount' }] }, pageSize: 5000 })).records;
    const lines = (await api.fetchRecords({ entity: { name: 'invoicedetail', attributes: [{ attribute: 'invoiceid' }, { attribute: 'totalamount' }] }, pageSize: 5000 })).records;
    expect(invoices.length).toBeGreaterThan(0);
    for (const inv of invoices) {
      const mine = lines.filter((l) => (l.invoiceid as { id: string }).id === inv.id).map((l) => l.totalamount as number);
      expect(inv.totalamount, String(inv.id)).toBe(sumDecimal(mine));
    }
    const customer = strip(await api.create('account', { name: 'Customer' }));
    const invoice = strip(await api.create('invoice', { name: 'New', customerid: { id: customer, name: 'account' }, invoicedate: '2026-11-25' }));
    const number = (await api.fetchRecords({ entity: { name: 'invoice', attributes: [{ attribute: 'invoicenumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: invoice }] } } })).records[0].invoicenumber;
    expect(number).toBe(`INV-${String(invoices.length + 1).padStart(5, '0')}`);
  }, 120_000);

  describe('line-item totals (issue 19)', () => {
    const lineTotal = (quantity: number, price: number, discount: number): number => {
      const t = lineItemTotals({ quantity, priceperunit: price, discount });
      if (t._tag === 'Left') throw new Error(t.left.message);
      return t.right.totalamount;
    };
    let invoice = '';
    let product = '';
    const invoiceTotal = async (api: Api, id = invoice): Promise<number> =>
      (await api.fetchRecords({ entity: { name: 'invoice', attributes: [{ attribute: 'totalamount' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } })).records[0]
        .totalamount as number;
    const lines = async (api: Api) =>
      (
        await api.fetchRecords({
          entity: {
            name: 'invoicedetail',
            attributes: ['quantity', 'priceperunit', 'discount', 'baseamount', 'totalamount'].map((attribute) => ({ attribute })),
            filter: { conditions: [{ attribute: 'invoiceid', operator: 'eq', value: invoice }] },
          },
          pageSize: 5000,
        })
      ).records;

    beforeAll(async () => {
      const api = admin['rules-a'];
      const account = strip(await api.create('account', { name: 'Customer' }));
      product = strip(await api.create('product', { name: 'Router', listprice: 120.5 }));
      invoice = strip(await api.create('invoice', { name: 'Invoice 1', customerid: { id: account, name: 'account' }, invoicedate: '2026-11-20' }));
    });
    const line = (object: Record<string, unknown>) => ({
      operation: 'create',
      name: 'invoicedetail',
      object: { name: 'Line', invoiceid: { id: invoice, name: 'invoice' }, productid: { id: product, name: 'product' }, ...object },
    });

    it("an API write of a line computes its amounts (price from the product's listprice) and the invoice total", async () => {
      const api = admin['rules-a'];
      const id = strip(await api.create('invoicedetail', line({ quantity: 2, discount: 10, totalamount: 1 }).object));
      const [stored] = (await lines(api)).filter((l) => l.id === id);
      expect(stored).toMatchObject({ quantity: 2, priceperunit: 120.5, baseamount: 241, discount: 10, totalamount: 216.9 });
      expect(await invoiceTotal(api)).toBe(216.9);
    });

    it('concurrent executemultiple requests of line items (creates, updates, deletes) keep the invoice total the sum of its lines', async () => {
      const api = admin['rules-a'];
      const batches = Array.from({ length: 12 }, (_, b) =>
        api.post('executemultiple', {
          atomic: b % 2 === 0,
          records: Array.from({ length: 5 }, (_, i) => line({ quantity: ((b + i) % 7) + 0.25, priceperunit: 10 + b + i / 100, discount: (b * 7 + i) % 40 })),
        }),
      );
      const answers = (await Promise.all(batches.map(async (r) => (await r).json()))) as Answer[];
      const created = answers.flat().map((x) => x.id!);
      expect(created.every(Boolean)).toBe(true);
      // Then updates and deletes at once, each line by another request.
      await Promise.all([
        ...created.slice(0, 20).map((id, i) => api.post('executemultiple', [{ operation: 'update', name: 'invoicedetail', object: { id, quantity: i + 1, discount: 5 } }])),
        ...created.slice(20, 30).map((id) => api.post('executemultiple', [{ operation: 'delete', name: 'invoicedetail', object: { id } }])),
      ]);
      const stored = await lines(api);
      expect(stored).toHaveLength(1 + 60 - 10);
      for (const l of stored) expect(l.totalamount).toBe(lineTotal(l.quantity as number, l.priceperunit as number, l.discount as number));
      expect(await invoiceTotal(api)).toBe(sumDecimal(stored.map((l) => l.totalamount as number)));
    });

    it('a bad line is a 400 with ERR_INPUT and moves nothing; in an atomic batch it rolls the good lines back', async () => {
      const api = admin['rules-a'];
      const before = await invoiceTotal(api);
      const bad = await api.post('update', line({ quantity: 1, discount: 150 }));
      expect(bad.status).toBe(400);
      expect(await bad.text()).toMatch(/^ERR_INPUT: The discount must be between 0 and 100/);
      const batch = (await (await api.post('executemultiple', { atomic: true, records: [line({ quantity: 1 }), line({ quantity: -2 })] })).json()) as Answer;
      expect(batch.every((x) => x.error)).toBe(true);
      expect(await invoiceTotal(api)).toBe(before);
    });
  });
});
