import { useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { BUDGET_CSV_FILE, BUDGET_IN, BUDGET_OUT, BUDGET_PDF_FILE, intlLocale, mayAccessSome, type FetchRequest } from '../core.js';
import { caller } from '../state/session.js';
import { useApi } from '../api/context.js';
import { language, useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { LINE_ENTITY, MAX_BUDGET_LINES, type BudgetRow, type FamilyBudgetModel, type LineValues } from './family-budget-model.js';
import { useFamilyBudget } from './use-family-budget.js';

/**
 * The family budget panel (customComponent `familybudget`, spec 002 sections 2 to 5 and 9): the
 * lines in a grid (a card per line below 640 px), the members' allowances as computed lines,
 * the balance per month, and the exports RodinnyRozpocet.csv (built here with the core's CSV
 * rules) and RodinnyRozpocet.pdf (the server's PDF table of the saved lines, through /api/export).
 * The rows save with the family: the form's Save flushes them (SaveParticipant, use-family-budget.ts).
 */

/** Starts the browser's download of a file (a Blob's object URL or a one-time link) under a name. */
const download = (href: string, fileName: string): void => {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
};

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const FamilyBudgetPanel = ({ panel, ctx }: CustomPanelProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useFamilyBudget(ctx, panel.name);
  const [pdfBusy, setPdfBusy] = useState(false);
  const [pdfError, setPdfError] = useState('');

  const locale = intlLocale(language.value);
  const money = useMemo(() => new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }), [locale]);
  const state = model.state.value;
  const rows = model.rows.value;
  const balance = model.balance.value;
  const allowances = model.allowances.value;
  const members = model.members.value;
  // What the user may do to the lines themselves (the server checks each write as well).
  const me = caller.value;
  const may = {
    create: !ctx.readOnly && !!me && mayAccessSome(me, 'create', LINE_ENTITY),
    update: !ctx.readOnly && !!me && mayAccessSome(me, 'update', LINE_ENTITY),
    delete: !ctx.readOnly && !!me && mayAccessSome(me, 'delete', LINE_ENTITY),
  };

  const exportCsv = () => {
    const url = URL.createObjectURL(new Blob([model.csv(language.value)], { type: 'text/csv;charset=utf-8' }));
    download(url, BUDGET_CSV_FILE);
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const exportPdf = async () => {
    if (!ctx.recordId) return;
    setPdfBusy(true);
    setPdfError('');
    try {
      const query: FetchRequest = {
        entity: { name: LINE_ENTITY, allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'familyid', operator: 'eq', value: ctx.recordId }] }, orders: [{ attribute: 'type' }, { attribute: 'name' }] },
        page: 1,
        pageSize: MAX_BUDGET_LINES,
      };
      const name = String(ctx.record.name ?? '');
      const link = await api.exportLink({
        query,
        format: 'pdf',
        options: { fileName: BUDGET_PDF_FILE, columns: ['type', 'name', 'category', 'amount', 'comment', 'personid'] },
        ...(name ? { titleSuffix: ` – ${name}` } : {}),
      });
      download(link.url, BUDGET_PDF_FILE);
    } catch (e) {
      setPdfError(errorText(e));
    } finally {
      setPdfBusy(false);
    }
  };

  const pdfBlocked = !ctx.recordId || model.dirty.value;
  return (
    <section className="panel budget-panel" aria-label={panel.label ?? t('BudgetTitle')}>
      <div className="budget-head">
        <h2 className="panel-title">{t('BudgetTitle')}</h2>
        <div className="budget-actions">
          <button type="button" className="btn btn-plain" onClick={exportCsv} disabled={state._tag !== 'Ready'}>
            <Icon name="download" /> {t('BudgetExportCsv')}
          </button>
          <button type="button" className="btn btn-plain" onClick={() => void exportPdf()} disabled={pdfBlocked || pdfBusy || state._tag !== 'Ready'} title={pdfBlocked ? t('BudgetPdfUnsaved') : undefined}>
            <Icon name="download" /> {t('BudgetExportPdf')}
          </button>
        </div>
      </div>
      {pdfError && (
        <p className="notice error-text" role="alert">
          {pdfError}
        </p>
      )}

      <dl className="budget-summary" aria-live="polite">
        <div>
          <dt>{t('BudgetIncomeTotal')}</dt>
          <dd data-testid="budget-income">{money.format(balance.income + balance.allowances)}</dd>
        </div>
        <div>
          <dt>{t('BudgetExpenseTotal')}</dt>
          <dd data-testid="budget-expense">{money.format(balance.expense)}</dd>
        </div>
        <div className={balance.balance < 0 ? 'negative' : 'positive'}>
          <dt>{t('BudgetBalance')}</dt>
          <dd data-testid="budget-balance">{money.format(balance.balance)}</dd>
        </div>
      </dl>

      {state._tag === 'Loading' && <p className="muted">{t('MsgLoading')}</p>}
      {state._tag === 'Failed' && (
        <div className="notice error-text" role="alert">
          {t('BudgetLoadFailed', { error: state.error })}{' '}
          <button type="button" className="btn btn-plain" onClick={() => void model.load(ctx.recordId)}>
            <Icon name="reload" /> {t('CmdReload')}
          </button>
        </div>
      )}
      {state._tag === 'Ready' && (
        <>
          <h3 className="budget-subtitle">{t('BudgetLines')}</h3>
          {rows.length === 0 ? (
            <p className="empty budget-empty">{t('BudgetNoLines')}</p>
          ) : (
            <div className="budget-grid" role="table" aria-label={t('BudgetLines')}>
              <div className="budget-row budget-row-head" role="row">
                {(['BudgetType', 'BudgetName', 'BudgetCategory', 'BudgetAmount', 'BudgetComment', 'BudgetPerson'] as const).map((k) => (
                  <span key={k} role="columnheader">
                    {t(k)}
                  </span>
                ))}
                <span role="columnheader" className="sr-only">
                  {t('CmdDelete')}
                </span>
              </div>
              {rows.map((r, i) => (
                <BudgetRowView key={r.key} row={r} index={i} model={model} may={may} members={members} />
              ))}
            </div>
          )}
          <datalist id="budget-line-types">
            {model.lineTypes.value.map((lt) => (
              <option key={lt.name} value={lt.name}>
                {lt.category}
              </option>
            ))}
          </datalist>
          {may.create && (
            <div className="budget-add">
              <button type="button" className="btn btn-plain" onClick={() => focusRow(model.add(BUDGET_IN))}>
                <Icon name="plus" /> {t('BudgetAddIncome')}
              </button>
              <button type="button" className="btn btn-plain" onClick={() => focusRow(model.add(BUDGET_OUT))}>
                <Icon name="plus" /> {t('BudgetAddExpense')}
              </button>
            </div>
          )}

          <h3 className="budget-subtitle">{t('BudgetAllowances')}</h3>
          {allowances.length === 0 ? (
            <p className="muted small">{t('BudgetNoAllowances')}</p>
          ) : (
            <table className="dash-table budget-allowances">
              <thead>
                <tr>
                  <th scope="col">{t('BudgetName')}</th>
                  <th scope="col">{t('BudgetPerson')}</th>
                  <th scope="col" className="num">
                    {t('BudgetAmount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {allowances.map((a) => (
                  <tr key={`${a.kind}-${a.personid}`}>
                    <td>{t(a.kind === 'childAllowance' ? 'BudgetChildAllowance' : 'BudgetParentalAllowance')}</td>
                    <td>{model.personName(a.personid)}</td>
                    <td className="num">{money.format(a.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
};

/** Moves the focus to a new row's name, so Add then typing works from the keyboard. */
const focusRow = (key: string) => requestAnimationFrame(() => document.getElementById(`budget-name-${key}`)?.focus());

const markKey = { create: 'BudgetMarkNew', update: 'BudgetMarkChanged', delete: 'BudgetMarkDeleted' } as const;

type Allowed = { create: boolean; update: boolean; delete: boolean };

const BudgetRowView = ({ row, index, model, may, members }: { row: BudgetRow; index: number; model: FamilyBudgetModel; may: Allowed; members: FamilyBudgetModel['members']['value'] }) => {
  const t = useT();
  const v = row.values;
  const deleted = row.mark === 'delete';
  // A new row is the user's own until saved; a stored one needs update (and delete to remove it).
  const disabled = deleted || (row.mark === 'create' ? !may.create : !may.update);
  const removable = row.mark === 'create' ? may.create : may.delete;
  const set = <K extends keyof LineValues>(field: K, value: LineValues[K]) => model.edit(row.key, field, value);
  const n = index + 1;
  const rowName = v.name || String(n);
  const amountInvalid = v.amount !== null && v.amount < 0;
  return (
    <div className={`budget-row mark-${row.mark}`} role="row" data-mark={row.mark}>
      <label role="cell" data-label={t('BudgetType')}>
        <select value={v.type} aria-label={`${t('BudgetType')} ${n}`} disabled={disabled} onChange={(e) => set('type', Number(e.target.value))} className={v.type === BUDGET_IN ? 'budget-in' : 'budget-out'}>
          <option value={BUDGET_IN}>{t('BudgetIn')}</option>
          <option value={BUDGET_OUT}>{t('BudgetOut')}</option>
        </select>
      </label>
      <label role="cell" data-label={t('BudgetName')}>
        <input id={`budget-name-${row.key}`} aria-label={`${t('BudgetName')} ${n}`} list="budget-line-types" value={v.name} maxLength={200} disabled={disabled} aria-invalid={!deleted && v.name.trim() === '' ? true : undefined} onChange={(e) => model.editName(row.key, e.target.value)} />
      </label>
      <label role="cell" data-label={t('BudgetCategory')}>
        <input value={v.category} aria-label={`${t('BudgetCategory')} ${n}`} maxLength={100} disabled={disabled} onChange={(e) => set('category', e.target.value)} />
      </label>
      <label role="cell" data-label={t('BudgetAmount')}>
        <input
          type="number"
          aria-label={`${t('BudgetAmount')} ${n}`}
          inputMode="decimal"
          min={0}
          step={0.01}
          className="num"
          value={v.amount ?? ''}
          disabled={disabled}
          aria-invalid={!deleted && (v.amount === null || amountInvalid) ? true : undefined}
          onChange={(e) => set('amount', e.target.value === '' || !Number.isFinite(e.target.valueAsNumber) ? null : Math.round(e.target.valueAsNumber * 100) / 100)}
        />
      </label>
      <label role="cell" data-label={t('BudgetComment')}>
        <input value={v.comment} aria-label={`${t('BudgetComment')} ${n}`} maxLength={2000} disabled={disabled} onChange={(e) => set('comment', e.target.value)} />
      </label>
      <label role="cell" data-label={t('BudgetPerson')}>
        <select value={v.personid} aria-label={`${t('BudgetPerson')} ${n}`} disabled={disabled} onChange={(e) => set('personid', e.target.value)}>
          <option value="">{t('BudgetFamily')}</option>
          {members.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
          {/* a line of someone no longer in the family keeps its person */}
          {v.personid && !members.some((p) => p.id === v.personid) && <option value={v.personid}>{v.personid}</option>}
        </select>
      </label>
      <span role="cell" className="budget-row-end">
        {row.mark !== 'none' && <span className={`budget-mark mark-${row.mark}`}>{t(markKey[row.mark])}</span>}
        {removable && (
          <button
            type="button"
            className="btn btn-plain btn-icon"
            aria-pressed={deleted}
            aria-label={t(deleted ? 'BudgetKeepLine' : 'BudgetDeleteLine', { name: rowName })}
            title={t(deleted ? 'BudgetKeepLine' : 'BudgetDeleteLine', { name: rowName })}
            onClick={() => model.toggleDelete(row.key)}
          >
            <Icon name={deleted ? 'undo' : 'trash'} />
          </button>
        )}
      </span>
    </div>
  );
};

export default FamilyBudgetPanel;
