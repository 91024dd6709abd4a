import { batch, computed, signal } from '@preact/signals-react';
import type { BudgetPerson, CivilDate, Employment, EntityRecord, FetchRequest, FieldValue, Language } from '../core.js';
import { BUDGET_IN, BUDGET_OUT, budgetCsv, familyAllowanceLines, monthlyBalance, type BudgetLine } from '../core.js';
import type { ApiClient, ExecuteItem } from '../api/client.js';

/**
 * The family budget panel as a model of signals (spec 002 sections 2 to 5 and 9): the family's
 * budget lines in a grid, each row marked create, update or delete until the record is saved;
 * the members' computed allowances; the balance per month; the CSV export's text. The rows are
 * flushed in ONE atomic executemultiple after the family is stored (the form's SaveParticipant
 * afterSave; a new family gets its lines once its id is known). Tested in vitest with a fake client.
 */

export type BudgetApi = Pick<ApiClient, 'fetch' | 'executeMultiple'>;

export const LINE_ENTITY = 'fi_budget_line';
export const FAMILY_ENTITY = 'fi_family';
/** Enough rows for any household; a family with more lines than this is not a budget anyone reads. */
export const MAX_BUDGET_LINES = 1000;

/** The fields of a line the grid edits (personid is the person's id, or empty for the whole family). */
export type LineValues = { type: number; name: string; category: string; amount: number | null; comment: string; personid: string };
export type RowMark = 'none' | 'create' | 'update' | 'delete';
/** A grid row: `base` is the stored line (none for a new row). */
export type BudgetRow = { key: string; id?: string; values: LineValues; base?: LineValues; mark: RowMark };
/** A budget line type (fi_budget_line_type): picking its name fills the category and type. */
export type LineType = { name: string; category: string; type: number };

/** fi_employment.type's option value of FamilyLeave in the demo pack (1 Employed ... 4 FamilyLeave): the default label reader. */
export const FAMILY_LEAVE_OPTION = 4;
const demoEmploymentLabel = (value: number): string => (value === FAMILY_LEAVE_OPTION ? 'FamilyLeave' : String(value));

export type LoadState = { _tag: 'Loading' } | { _tag: 'Ready' } | { _tag: 'Failed'; error: string };

const text = (v: FieldValue | undefined): string => (v === null || v === undefined ? '' : typeof v === 'object' ? (v.label ?? v.id) : String(v));
const idOf = (v: FieldValue | undefined): string => (v && typeof v === 'object' ? v.id : typeof v === 'string' ? v : '');
const num = (v: FieldValue | undefined): number | null => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
const same = (a: LineValues, b: LineValues): boolean => (Object.keys(a) as (keyof LineValues)[]).every((k) => a[k] === b[k]);

export const lineValuesOf = (r: EntityRecord): LineValues => ({
  type: num(r.type) === BUDGET_IN ? BUDGET_IN : BUDGET_OUT,
  name: text(r.name),
  category: text(r.category),
  amount: num(r.amount),
  comment: text(r.comment),
  personid: idOf(r.personid),
});

/** A line as the core's balance and CSV read it. */
const asLine = (v: LineValues): BudgetLine => ({ ...v, personid: v.personid || null });

const eq = (attribute: string, value: string) => ({ type: 'and' as const, conditions: [{ attribute, operator: 'eq' as const, value }] });
const within = (attribute: string, values: string[]) => ({ type: 'and' as const, conditions: [{ attribute, operator: 'in' as const, value: values }] });
const query = (name: string, filter: FetchRequest['entity']['filter'], orders?: { attribute: string }[]): FetchRequest => ({
  entity: { name, allattrs: true, filter, ...(orders ? { orders } : {}) },
  page: 1,
  pageSize: MAX_BUDGET_LINES,
});

/** The fields a write sends: everything but an empty person (a create) or the changed fields (an update). */
const writeObject = (v: LineValues, base?: LineValues): EntityRecord => {
  const all: EntityRecord = {
    type: v.type,
    name: v.name.trim(),
    category: v.category.trim() || null,
    amount: v.amount,
    comment: v.comment.trim() || null,
    personid: v.personid ? { id: v.personid, name: 'fi_osoba' } : null,
  };
  if (!base) return Object.fromEntries(Object.entries(all).filter(([, x]) => x !== null));
  return Object.fromEntries(Object.entries(all).filter(([k]) => v[k as keyof LineValues] !== base[k as keyof LineValues]));
};

/**
 * The writes of the marked rows, in grid order: creates carry the family, updates their changed
 * fields, deletes the id. The lines' versions are not sent (the project's decision: a budget
 * line is edited by this panel only, so the last save wins rather than failing on ERR_8001).
 */
export const budgetBatch = (rows: readonly BudgetRow[], familyId: string): ExecuteItem[] =>
  rows.flatMap((r): ExecuteItem[] => {
    if (r.mark === 'create') return [{ operation: 'create', name: LINE_ENTITY, object: { ...writeObject(r.values), familyid: { id: familyId, name: FAMILY_ENTITY } } }];
    if (r.mark === 'update' && r.id) return [{ operation: 'update', name: LINE_ENTITY, object: { id: r.id, ...writeObject(r.values, r.base) } }];
    if (r.mark === 'delete' && r.id) return [{ operation: 'delete', name: LINE_ENTITY, object: { id: r.id } }];
    return [];
  });

/** The 1-based number of the first row kept that cannot be saved (no name, or no amount of 0 or more), else 0. */
export const firstInvalidRow = (rows: readonly BudgetRow[]): number => {
  const i = rows.filter((r) => r.mark !== 'delete').findIndex((r) => r.values.name.trim() === '' || r.values.amount === null || !Number.isFinite(r.values.amount) || r.values.amount < 0);
  return i + 1;
};

export type FamilyBudgetOptions = {
  api: BudgetApi;
  /** today's date in the user's calendar (the allowances are of today) */
  today: () => CivilDate;
  /** a key for a new grid row */
  newKey?: () => string;
  /** the label of an fi_employment.type option value (the pack's option set; the core's rule names FamilyLeave) */
  employmentTypeLabel?: (value: number) => string;
};

export type FamilyBudgetModel = ReturnType<typeof familyBudgetModel>;

export const familyBudgetModel = ({ api, today, newKey, employmentTypeLabel = demoEmploymentLabel }: FamilyBudgetOptions) => {
  let counter = 0;
  const key = newKey ?? (() => `new-${++counter}`);
  const state = signal<LoadState>({ _tag: 'Loading' });
  const rows = signal<readonly BudgetRow[]>([]);
  const members = signal<readonly BudgetPerson[]>([]);
  const employments = signal<readonly Employment[]>([]);
  const lineTypes = signal<readonly LineType[]>([]);
  /** The family whose lines are shown; a later load wins over an older one still answering. */
  let loading = 0;

  const allowances = computed(() => familyAllowanceLines(members.value, employments.value, today()));
  const kept = computed(() => rows.value.filter((r) => r.mark !== 'delete'));
  const balance = computed(() => monthlyBalance(kept.value.map((r) => asLine(r.values)), allowances.value));
  const dirty = computed(() => rows.value.some((r) => r.mark !== 'none'));
  const personName = (id: string): string => members.value.find((p) => p.id === id)?.name ?? '';

  const fetchAll = async (q: FetchRequest): Promise<EntityRecord[]> => (await api.fetch(q)).records as EntityRecord[];

  /** Reads the family's lines, members and their employments (none for a new family), and the line types. */
  const load = async (familyId: string | undefined): Promise<void> => {
    const mine = ++loading;
    state.value = { _tag: 'Loading' };
    try {
      const [types, lines, links] = await Promise.all([
        fetchAll(query('fi_budget_line_type', undefined, [{ attribute: 'name' }])),
        familyId ? fetchAll(query(LINE_ENTITY, eq('familyid', familyId), [{ attribute: 'type' }, { attribute: 'name' }])) : Promise.resolve([]),
        familyId ? fetchAll(query('fi_family_member', eq('familyid', familyId))) : Promise.resolve([]),
      ]);
      const personIds = [...new Set(links.map((l) => idOf(l.personid)).filter((x) => x !== ''))];
      const [people, jobs] = personIds.length
        ? await Promise.all([fetchAll(query('fi_osoba', within('id', personIds), [{ attribute: 'name' }])), fetchAll(query('fi_employment', within('personid', personIds)))])
        : [[], []];
      if (mine !== loading) return;
      batch(() => {
        lineTypes.value = types.map((x) => ({ name: text(x.name), category: text(x.category), type: num(x.type) ?? BUDGET_OUT }));
        rows.value = lines.map((r) => {
          const values = lineValuesOf(r);
          return { key: String(r.id), id: String(r.id), values, base: values, mark: 'none' };
        });
        members.value = people.map((p) => ({ id: String(p.id), name: text(p.name), birthday: text(p.birthday) || null, child_bonus_end: text(p.child_bonus_end) || null }));
        // fi_employment.type is an option set: the core's rule reads its label (FamilyLeave).
        employments.value = jobs.map((e) => {
          const v = num(e.type);
          return { personid: idOf(e.personid), type: v === null ? text(e.type) : employmentTypeLabel(v), enddate: text(e.enddate) || null };
        });
        state.value = { _tag: 'Ready' };
      });
    } catch (e) {
      if (mine === loading) state.value = { _tag: 'Failed', error: e instanceof Error ? e.message : String(e) };
    }
  };

  /** A new row at the end of the grid, marked create. */
  const add = (type: typeof BUDGET_IN | typeof BUDGET_OUT): string => {
    const k = key();
    rows.value = [...rows.value, { key: k, values: { type, name: '', category: '', amount: null, comment: '', personid: '' }, mark: 'create' }];
    return k;
  };

  /** A stored row is marked update while it differs from the stored line, and none again when edited back. */
  const remark = (r: BudgetRow, values: LineValues): BudgetRow =>
    r.mark === 'create' ? { ...r, values } : { ...r, values, mark: r.base && same(r.base, values) ? 'none' : 'update' };

  const edit = <K extends keyof LineValues>(k: string, field: K, value: LineValues[K]): void => {
    rows.value = rows.value.map((r) => (r.key === k && r.mark !== 'delete' ? remark(r, { ...r.values, [field]: value }) : r));
  };

  /** Typing a name of a budget line type fills its category and type (the user may change them after). */
  const editName = (k: string, name: string): void => {
    const lt = lineTypes.value.find((x) => x.name.toLowerCase() === name.trim().toLowerCase());
    rows.value = rows.value.map((r) =>
      r.key === k && r.mark !== 'delete' ? remark(r, { ...r.values, name, ...(lt ? { category: lt.category || r.values.category, type: lt.type === BUDGET_IN ? BUDGET_IN : BUDGET_OUT } : {}) }) : r,
    );
  };

  /** Delete: a new row goes at once; a stored row is marked delete (deleted on save), and a second press keeps it. */
  const toggleDelete = (k: string): void => {
    rows.value = rows.value.flatMap((r) => {
      if (r.key !== k) return [r];
      if (r.mark === 'create') return [];
      if (r.mark === 'delete') return [remark({ ...r, mark: 'none' }, r.values)];
      return [{ ...r, mark: 'delete' as const }];
    });
  };

  /**
   * Writes the marked rows of the family in one atomic executemultiple, then reads the lines
   * again (new ids, no marks). A refused item throws its error: the form's save reports it and
   * the rows keep their marks, so the next Save sends them again.
   */
  const flush = async (familyId: string): Promise<void> => {
    const items = budgetBatch(rows.value, familyId);
    if (items.length > 0) {
      const results = await api.executeMultiple(items, { atomic: true });
      const failed = results.find((x) => x.error);
      if (failed || results.length !== items.length) throw new Error(failed?.error ?? 'Unknown Update Error');
    }
    await load(familyId);
  };

  /** The text of RodinnyRozpocet.csv: the kept rows, the allowances and the balance, in the reader's language. */
  const csv = (lang: Language): string =>
    budgetCsv({
      lines: kept.value.map((r) => asLine(r.values)),
      allowances: allowances.value,
      personName,
      lang,
      decimalSeparator: lang === 'en' ? '.' : ',',
    });

  return { state, rows, members, employments, lineTypes, allowances, balance, dirty, personName, load, add, edit, editName, toggleDelete, flush, csv, firstInvalidRow: () => firstInvalidRow(rows.value) };
};
