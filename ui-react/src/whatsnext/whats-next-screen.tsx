import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { WhatsNextScheduled } from '../core.js';
import { isSystemCaller, mayAccessSome, REMINDER_RULE } from '../core.js';
import { useApi } from '../api/context.js';
import { formatDate } from '../format.js';
import { useT, type T } from '../i18n.js';
import { useShell } from '../shell/shell-context.js';
import { useMedia } from '../shell/use-media.js';
import { caller, entityOf, session } from '../state/session.js';
import { local } from '../state/storage.js';
import { Icon } from '../ui/icons.js';
import { OwnerPicker } from './owner-picker.js';
import { newRecordLink, rowLink, ruleLink, SCHEDULED_OPTIONS, whatsNextModel, type WhatsNextModel, type WhatsNextRow } from './whats-next-model.js';

/** Spec 002 section 9: at a width of 420 or less a compact list replaces the table. */
export const COMPACT_WIDTH = 420;

const SCHEDULED_LABELS: Record<WhatsNextScheduled, 'DateToday' | 'DateTomorrow' | 'DateNextWeek'> = {
  today: 'DateToday',
  tomorrow: 'DateTomorrow',
  'next-week': 'DateNextWeek',
};

/** An entity type as the category shows it: its (translated) display name. */
const categoryLabel = (name: string, plural = false): string => {
  const e = entityOf(name);
  return e ? (plural ? e.displayNamePlural : e.displayName) : name;
};

/**
 * /{appid}/whatsnext (spec 002 sections 2 and 4): the follow-ups of the rules of inu_nextrule,
 * with the quick filters scheduled, owner and category, the table (a compact list at 420 px or
 * less), pages of 10 and New when a rule allows creation. State and loading live in the model.
 */
export const WhatsNextPage = () => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const { appParam } = useShell();
  const user = session.value!.context.user;
  const model = useMemo(() => whatsNextModel({ api, me: { id: user.id, label: user.name }, memory: local }), [api, user.id, user.name]);
  useEffect(() => model.start(), [model]);
  const compact = useMedia(`(max-width: ${COMPACT_WIDTH}px)`);
  const me = caller.value;
  // The Action opens the rule (spec 001: /edit/inu_nextrule/{id} in a new tab) for those who may read rules.
  const mayOpenRules = !!me && (isSystemCaller(me) || mayAccessSome(me, 'read', 'inu_nextrule'));
  const createEntity = model.createEntity.value;
  const rows = model.rows.value;

  return (
    <div className="screen list-screen whats-next">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{t('WhatsNextTitle')}</h1>
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('WhatsNextTitle')}>
          {createEntity && (
            <button type="button" className="btn btn-primary" onClick={() => navigate(newRecordLink(createEntity))}>
              <Icon name="plus" /> {t('CmdNew')}
            </button>
          )}
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdRefresh')} title={t('CmdRefresh')} onClick={() => void model.load()}>
            <Icon name="refresh" />
          </button>
        </div>
      </div>
      <Filters model={model} t={t} />
      <div className={`wn-body${model.loading.value && rows !== null ? ' is-loading' : ''}`} aria-busy={model.loading.value}>
        {rows === null ? (
          <Skeleton compact={compact} />
        ) : rows.length === 0 ? (
          <p className="empty wn-empty">{t('WhatsNextEmpty')}</p>
        ) : compact ? (
          <CompactList rows={rows} appParam={appParam} mayOpenRules={mayOpenRules} t={t} />
        ) : (
          <Table rows={rows} appParam={appParam} mayOpenRules={mayOpenRules} t={t} />
        )}
      </div>
      <Pager model={model} t={t} />
    </div>
  );
};

/** The quick-filter panel: scheduled (today, tomorrow, next week), owner, category. */
const Filters = ({ model, t }: { model: WhatsNextModel; t: T }) => {
  useSignals();
  const scheduled = model.scheduled.value;
  // Arrow keys move along the scheduled choices, as in a radio group.
  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const i = (SCHEDULED_OPTIONS.indexOf(scheduled) + step + SCHEDULED_OPTIONS.length) % SCHEDULED_OPTIONS.length;
    model.setScheduled(SCHEDULED_OPTIONS[i]);
    (e.currentTarget.parentElement?.children[i] as HTMLElement | undefined)?.focus();
  };
  return (
    <section className="quick-filters open wn-filters" aria-label={t('WhatsNextFilters')}>
      <div className="qf">
        <span className="qf-label" id="wn-scheduled-label">
          {t('WhatsNextScheduled')}
        </span>
        <div className="chips" role="radiogroup" aria-labelledby="wn-scheduled-label">
          {SCHEDULED_OPTIONS.map((s) => (
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={s === scheduled}
              tabIndex={s === scheduled ? 0 : -1}
              className={`chip${s === scheduled ? ' on' : ''}`}
              onClick={() => model.setScheduled(s)}
              onKeyDown={onKey}
            >
              {t(SCHEDULED_LABELS[s])}
            </button>
          ))}
        </div>
      </div>
      <div className="qf wn-owner-filter">
        <label className="qf-label" htmlFor="wn-owner">
          {t('WhatsNextOwner')}
        </label>
        <OwnerPicker id="wn-owner" value={model.owner.value} onChange={model.setOwner} label={t('WhatsNextOwner')} />
      </div>
      <div className="qf">
        <label className="qf-label" htmlFor="wn-category">
          {t('WhatsNextCategory')}
        </label>
        <select id="wn-category" value={model.category.value ?? ''} onChange={(e) => model.setCategory(e.target.value || null)}>
          <option value="">{t('WhatsNextAllCategories')}</option>
          {model.categoryChoices.value.map((c) => (
            <option key={c} value={c}>
              {categoryLabel(c, true)}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
};

type BodyProps = { rows: readonly WhatsNextRow[]; appParam: string; mayOpenRules: boolean; t: T };

/** The Action of a row: the rule's info text, else 'Help'; a link to the rule for those who may read it. */
const Action = ({ row, appParam, mayOpenRules, t }: { row: WhatsNextRow; appParam: string; mayOpenRules: boolean; t: T }) => {
  const text = row.info ?? t('WhatsNextHelp');
  // A reminder's row (issue 18) has no rule to open: its text is the comment's first line.
  if (!mayOpenRules || row.rule === REMINDER_RULE) return <span className={row.info ? 'wn-info' : 'wn-info muted'}>{text}</span>;
  return (
    <a className="wn-info" href={ruleLink(appParam, row)} target="_blank" rel="noopener" title={row.info ?? undefined} aria-label={`${text} (${t('WhatsNextOpenRule', { name: row.name ?? t('MsgUnknownTitle') })})`}>
      {!row.info && <Icon name="help" size={16} />} {text}
    </a>
  );
};

const Table = ({ rows, appParam, mayOpenRules, t }: BodyProps) => (
  <div className="table-wrap">
    <table className="grid wn-table">
      <thead>
        <tr>
          <th scope="col">{t('WhatsNextCategory')}</th>
          <th scope="col">{t('LblName')}</th>
          <th scope="col">{t('WhatsNextCreatedOn')}</th>
          <th scope="col">{t('WhatsNextAction')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.objectName}/${r.id}/${r.rule}`}>
            <td data-label={t('WhatsNextCategory')}>{categoryLabel(r.objectName)}</td>
            <td data-label={t('LblName')}>
              <Link className="row-link" to={rowLink(appParam, r)}>
                {r.name || t('MsgUnknownTitle')}
              </Link>
            </td>
            <td data-label={t('WhatsNextCreatedOn')}>{r.createdon ? formatDate(r.createdon, false) : ''}</td>
            <td data-label={t('WhatsNextAction')} className="wn-action">
              <Action row={r} appParam={appParam} mayOpenRules={mayOpenRules} t={t} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

/** At 420 px or less: one card per follow-up, name first, then category and date, then the action. */
const CompactList = ({ rows, appParam, mayOpenRules, t }: BodyProps) => (
  <ul className="wn-compact" aria-label={t('WhatsNextTitle')}>
    {rows.map((r) => (
      <li key={`${r.objectName}/${r.id}/${r.rule}`} className="wn-card">
        <Link className="row-link wn-card-name" to={rowLink(appParam, r)}>
          {r.name || t('MsgUnknownTitle')}
        </Link>
        <span className="wn-card-meta muted small">
          {categoryLabel(r.objectName)}
          {r.createdon ? ` · ${formatDate(r.createdon, false)}` : ''}
        </span>
        <span className="wn-card-action small">
          <Action row={r} appParam={appParam} mayOpenRules={mayOpenRules} t={t} />
        </span>
      </li>
    ))}
  </ul>
);

const Skeleton = ({ compact }: { compact: boolean }) => (
  <div className={compact ? 'wn-compact' : 'table-wrap'} aria-hidden="true">
    {[0, 1, 2].map((i) => (
      <div key={i} className="wn-skeleton">
        <span className="skeleton" />
        <span className="skeleton short" />
      </div>
    ))}
  </div>
);

/** The count and the pages: 10 follow-ups a page (spec 002 section 4). */
const Pager = ({ model, t }: { model: WhatsNextModel; t: T }) => {
  useSignals();
  const rows = model.rows.value;
  if (!rows || model.count.value === 0) return null;
  const page = model.page.value;
  return (
    <div className="list-foot wn-pager">
      <span className="muted small" aria-live="polite">
        {t('MsgShowingOf', { shown: rows.length, count: model.count.value })}
      </span>
      {model.pages.value > 1 && (
        <nav className="wn-pages" aria-label={t('WhatsNextPageOf', { page, pages: model.pages.value })}>
          <button type="button" className="btn btn-plain" onClick={model.previousPage} disabled={page <= 1 || model.loading.value}>
            {t('WhatsNextPreviousPage')}
          </button>
          <span className="small">{t('WhatsNextPageOf', { page, pages: model.pages.value })}</span>
          <button type="button" className="btn btn-plain" onClick={model.nextPage} disabled={!model.more.value || model.loading.value}>
            {t('WhatsNextNextPage')}
          </button>
        </nav>
      )}
    </div>
  );
};
