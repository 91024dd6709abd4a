import { useEffect, useState } from 'react';
import type { Caller, Entity, EntityRecord, FieldValue } from '../core.js';
import { mayAccessSome } from '../core.js';
import { useApi } from '../api/context.js';
import { formatDate, formatValue, lookupLabel, optionColor } from '../format.js';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import {
  AUDIT,
  HISTORY_PAGE_SIZE,
  historyEntries,
  historyRequest,
  lookupsToName,
  OPERATION_CREATE,
  OPERATION_DELETE,
  withLabel,
  type HistoryChange,
  type HistoryEntry,
} from './history-model.js';

/**
 * Whether a form shows History: a stored record of an audited entity (not audit rows themselves),
 * to a user whose roles let them read the audit (administrators; the demo's sales and service
 * roles do not).
 */
export const showsHistory = (entity: Entity, isNew: boolean, caller: Caller | undefined): boolean =>
  !isNew && entity.audit !== false && entity.logicalName !== AUDIT && caller !== undefined && mayAccessSome(caller, 'read', AUDIT);

/**
 * The History panel of every record form (issue 23 item 6): the record's audit rows, newest first,
 * paged: who, when, and what changed (field labels, old → new in the UI's formatter table). It
 * loads when opened, and again when the record is saved (its version changes).
 */
export const HistoryPanel = ({ entity, id, version }: { entity: Entity; id: string; version: unknown }) => {
  const t = useT();
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [pages, setPages] = useState(1);
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  const [more, setMore] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!open) return;
    let live = true;
    void (async () => {
      try {
        const rows: EntityRecord[] = [];
        let moreRecords = false;
        for (let page = 1; page <= pages; page++) {
          const res = await api.fetch(historyRequest(entity.logicalName, id, page));
          rows.push(...(res.records as EntityRecord[]));
          moreRecords = res.moreRecords;
        }
        const read = historyEntries(entity, rows);
        // The names of the lookups the changes show, one query per target entity.
        const names = new Map<string, string>();
        for (const [target, ids] of lookupsToName(read)) {
          const res = await api
            .fetch({ entity: { name: target, attributes: [{ attribute: 'id' }, { attribute: 'name' }], filter: { conditions: [{ attribute: 'id', operator: 'in', value: [...ids] }] } }, pageSize: ids.size })
            .catch(() => null);
          for (const r of res?.records ?? []) names.set(`${target}:${String(r.id).toLowerCase()}`, String(r.name ?? ''));
        }
        if (!live) return;
        setEntries(read);
        setLabels(names);
        setMore(moreRecords);
        setError('');
      } catch (e) {
        if (live) setError(e instanceof Error ? e.message : String(e));
      }
    })();
    return () => {
      live = false;
    };
  }, [open, pages, entity, id, version, api]);

  const operationText = (op: number) => (op === OPERATION_CREATE ? t('MsgHistoryCreated') : op === OPERATION_DELETE ? t('MsgHistoryDeleted') : t('MsgHistoryUpdated'));
  const valueText = (c: HistoryChange & { secret: false }, v: FieldValue) => {
    const text = formatValue(c.property, withLabel(v, labels));
    return text === '' ? <span className="muted">{t('LblEmptyValue')}</span> : <span style={{ color: optionColor(c.property, v) }}>{text}</span>;
  };

  return (
    <section className="panel panel-history" aria-label={t('LblHistory')}>
      <button type="button" className="history-toggle" aria-expanded={open} aria-controls={`history-${id}`} onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} />
        <span className="panel-title">{t('LblHistory')}</span>
      </button>
      {open && (
        <div id={`history-${id}`} className="history">
          {error && <p className="error-text">{error}</p>}
          {entries === null && !error && <div className="spinner small" />}
          {entries?.length === 0 && <p className="empty">{t('MsgHistoryEmpty')}</p>}
          {entries && entries.length > 0 && (
            <ol className="history-list">
              {entries.map((e) => (
                <li key={e.id} className="history-entry">
                  <div className="history-head">
                    <strong>{operationText(e.operation)}</strong>
                    <span>{lookupLabel(e.who)}</span>
                    <time className="muted small" dateTime={e.when}>
                      {formatDate(e.when, false)}
                    </time>
                  </div>
                  {e.changes.length > 0 && (
                    <dl className="history-changes">
                      {e.changes.map((c) => (
                        <div key={c.field} className="history-change">
                          <dt>{c.label}</dt>
                          <dd>
                            {c.secret ? (
                              <span className="muted">{t('MsgHistorySecret')}</span>
                            ) : (
                              <>
                                {e.operation !== OPERATION_CREATE && (
                                  <>
                                    <span className="history-old">{valueText(c, c.old)}</span>
                                    <span className="history-arrow" aria-hidden="true">
                                      {' → '}
                                    </span>
                                  </>
                                )}
                                <span className="history-new">{valueText(c, c.new)}</span>
                              </>
                            )}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </li>
              ))}
            </ol>
          )}
          {more && entries !== null && entries.length >= pages * HISTORY_PAGE_SIZE && (
            <button type="button" className="btn btn-plain" onClick={() => setPages(pages + 1)}>
              {t('CmdShowMore')}
            </button>
          )}
        </div>
      )}
    </section>
  );
};
