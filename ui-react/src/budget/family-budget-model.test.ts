import { describe, expect, it } from 'vitest';
import type { EntityRecord, FetchRequest, FetchResult } from '../core.js';
import type { ExecuteItem, ExecuteResult } from '../api/client.js';
import { budgetBatch, familyBudgetModel, type BudgetApi } from './family-budget-model.js';

const on = { year: 2024, month: 6, day: 15 };
const fam = 'fam-1';
const lk = (id: string, name: string) => ({ id, name, label: id });

/** A fake client over a few tables; executeMultiple applies the writes and records each batch. */
const fakeApi = (answer?: (items: ExecuteItem[]) => ExecuteResult[]) => {
  const tables: Record<string, EntityRecord[]> = {
    fi_budget_line_type: [{ id: 't1', name: 'Salary', category: 'Work', type: 1 }, { id: 't2', name: 'Rent', category: 'Housing', type: 2 }],
    fi_budget_line: [
      { id: 'l1', familyid: lk(fam, 'fi_family'), type: 1, name: 'Salary', category: 'Work', amount: 1500, personid: lk('mum', 'fi_osoba') },
      { id: 'l2', familyid: lk(fam, 'fi_family'), type: 2, name: 'Rent', category: 'Housing', amount: 600 },
    ],
    fi_family_member: [{ id: 'm1', familyid: lk(fam, 'fi_family'), personid: lk('mum', 'fi_osoba') }, { id: 'm2', familyid: lk(fam, 'fi_family'), personid: lk('kid', 'fi_osoba') }],
    fi_osoba: [{ id: 'mum', name: 'Jana', birthday: '1990-01-01' }, { id: 'kid', name: 'Peter', birthday: '2015-05-05' }],
    fi_employment: [{ id: 'e1', personid: lk('mum', 'fi_osoba'), type: 4 }],
  };
  const batches: ExecuteItem[][] = [];
  let n = 0;
  const api: BudgetApi = {
    fetch: async (q: FetchRequest): Promise<FetchResult> => {
      const c = q.entity.filter?.conditions?.[0];
      const value = (r: EntityRecord, a: string) => { const v = r[a]; return v && typeof v === 'object' ? v.id : v; };
      const records = (tables[q.entity.name] ?? []).filter((r) => !c || (c.operator === 'in' ? (c.value as string[]).includes(String(value(r, c.attribute))) : value(r, c.attribute) === c.value));
      return { records, count: records.length, page: 1, pageSize: 1000, moreRecords: false };
    },
    executeMultiple: async (items) => {
      batches.push(items);
      if (answer) return answer(items);
      return items.map((it) => {
        const t = tables.fi_budget_line;
        if (it.operation === 'create') { const id = `new-${++n}`; t.push({ ...it.object, id }); return { id }; }
        const i = t.findIndex((r) => r.id === it.object.id);
        if (it.operation === 'delete') t.splice(i, 1);
        else t[i] = { ...t[i], ...it.object };
        return { id: String(it.object.id) };
      });
    },
  };
  return { api, batches, tables };
};

describe('family budget panel model (spec 002 sections 4 and 9: rows marked create, update or delete and flushed on save)', () => {
  it('loads the lines, the members and their allowances (child 60, parental 351.80 with FamilyLeave) and the balance per month', async () => {
    const { api } = fakeApi();
    const m = familyBudgetModel({ api, today: () => on });
    await m.load(fam);
    expect(m.state.value._tag).toBe('Ready');
    expect(m.rows.value.map((r) => [r.values.name, r.mark])).toEqual([['Salary', 'none'], ['Rent', 'none']]);
    expect(m.allowances.value.map((a) => [a.kind, a.personid, a.amount])).toEqual([['parentalAllowance', 'mum', 351.8], ['childAllowance', 'kid', 60]]);
    expect(m.balance.value).toEqual({ income: 1500, allowances: 411.8, expense: 600, balance: 1311.8 });
    expect(m.dirty.value).toBe(false);
  });

  it('marks rows: a new row create, an edit update (none when edited back), a stored row delete; a new row deleted is gone', async () => {
    const { api } = fakeApi();
    const m = familyBudgetModel({ api, today: () => on });
    await m.load(fam);
    const k = m.add(2);
    m.editName(k, 'rent');
    expect(m.rows.value[2].values).toMatchObject({ name: 'rent', category: 'Housing', type: 2 });
    m.edit('l1', 'amount', 1600);
    expect(m.rows.value[0].mark).toBe('update');
    m.edit('l1', 'amount', 1500);
    expect(m.rows.value[0].mark).toBe('none');
    m.toggleDelete('l2');
    expect(m.rows.value[1].mark).toBe('delete');
    expect(m.balance.value.expense).toBe(0);
    expect(m.dirty.value).toBe(true);
    m.toggleDelete('l2');
    expect(m.rows.value[1].mark).toBe('none');
    m.toggleDelete(k);
    expect(m.rows.value).toHaveLength(2);
    expect(m.dirty.value).toBe(false);
  });

  it('flushes every marked row in ONE atomic executemultiple with the family, then reads the lines again', async () => {
    const { api, batches, tables } = fakeApi();
    const m = familyBudgetModel({ api, today: () => on });
    await m.load(fam);
    const k = m.add(2);
    m.edit(k, 'name', 'Food');
    m.edit(k, 'amount', 320.5);
    m.edit('l1', 'amount', 1700);
    m.toggleDelete('l2');
    await m.flush(fam);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual([
      { operation: 'update', name: 'fi_budget_line', object: { id: 'l1', amount: 1700 } },
      { operation: 'delete', name: 'fi_budget_line', object: { id: 'l2' } },
      { operation: 'create', name: 'fi_budget_line', object: { type: 2, name: 'Food', amount: 320.5, familyid: { id: fam, name: 'fi_family' } } },
    ]);
    expect(tables.fi_budget_line.map((r) => r.name)).toEqual(['Salary', 'Food']);
    expect(m.rows.value.every((r) => r.mark === 'none')).toBe(true);
    expect(m.dirty.value).toBe(false);
  });

  it('a new family: the rows wait for its id, then go with it', async () => {
    const { api, batches } = fakeApi();
    const m = familyBudgetModel({ api, today: () => on });
    await m.load(undefined);
    expect(m.rows.value).toEqual([]);
    const k = m.add(1);
    m.edit(k, 'name', 'Pension');
    m.edit(k, 'amount', 400);
    await m.flush(fam);
    expect(batches[0][0].object.familyid).toEqual({ id: fam, name: 'fi_family' });
  });

  it('a refused batch throws its error and keeps the marks for the next Save', async () => {
    const { api } = fakeApi((items) => items.map(() => ({ error: 'ERR_ACCESS: no create on fi_budget_line' })));
    const m = familyBudgetModel({ api, today: () => on });
    await m.load(fam);
    const k = m.add(1);
    m.edit(k, 'name', 'Bonus');
    m.edit(k, 'amount', 10);
    await expect(m.flush(fam)).rejects.toThrow('ERR_ACCESS: no create on fi_budget_line');
    expect(m.rows.value[2].mark).toBe('create');
  });

  it('names the first row that cannot be saved (no name, no amount or a negative one); deleted rows do not count', async () => {
    const { api } = fakeApi();
    const m = familyBudgetModel({ api, today: () => on });
    await m.load(fam);
    expect(m.firstInvalidRow()).toBe(0);
    const k = m.add(2);
    expect(m.firstInvalidRow()).toBe(3);
    m.edit(k, 'name', 'Food');
    m.edit(k, 'amount', -1);
    expect(m.firstInvalidRow()).toBe(3);
    m.toggleDelete(k);
    expect(m.firstInvalidRow()).toBe(0);
  });

  it('the CSV text has the BOM, the lines, the allowances and the balance (Slovak, decimal comma)', async () => {
    const { api } = fakeApi();
    const m = familyBudgetModel({ api, today: () => on });
    await m.load(fam);
    const csv = m.csv('sk');
    expect(csv.startsWith('\uFEFFTyp;Názov;')).toBe(true);
    expect(csv).toContain('Príjem;Salary;Work;1500,00;;Jana\r\n');
    expect(csv).toContain(';Bilancia za mesiac;;1311,80;;\r\n');
  });

  it('budgetBatch leaves unmarked rows out', () => {
    expect(budgetBatch([{ key: 'a', id: 'a', values: { type: 1, name: 'x', category: '', amount: 1, comment: '', personid: '' }, mark: 'none' }], fam)).toEqual([]);
  });
});
