import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import type { SessionEntry } from '../api/client.js';
import { formatDate } from '../format.js';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { alertFailure, confirmDialog, toast } from '../ui/dialogs.js';

/**
 * /{appid}/cache: the organization's sessions with delete (spec 000 section 2, "A session-cache
 * debug list shows sessions and allows deleting one"), over GET /api/cache_debug and
 * /api/cache_debug_delete?name=. The server lets only administrators see it; others get its
 * refusal in place of the list.
 */
export const SessionListPage = () => {
  const t = useT();
  const api = useApi();
  const [rows, setRows] = useState<SessionEntry[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setBusy(true);
    try {
      const list = await api.cacheDebug();
      // The most recently used first: the sessions in use now are the ones looked for.
      setRows([...list].sort((a, b) => (a.read < b.read ? 1 : a.read > b.read ? -1 : 0)));
      setError('');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
    setBusy(false);
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  const end = async (s: SessionEntry) => {
    if (!(await confirmDialog(t('MsgAskEndSession', { user: s.username }), t('CmdDelete'), t('CmdCancel'), true))) return;
    try {
      await api.cacheDebugDelete(s.name);
      toast(t('MsgSessionEnded'));
      await load();
    } catch (e) {
      await alertFailure(e, t('CmdOk'));
    }
  };

  const columns: Array<[string, (s: SessionEntry) => string]> = [
    [t('LblUser'), (s) => s.username],
    [t('LblLastUsed'), (s) => formatDate(s.read, false)],
    [t('LblCreated'), (s) => formatDate(s.created, false)],
    [t('LblAddress'), (s) => s.ip],
    [t('LblBrowser'), (s) => s.agent],
  ];

  return (
    <div className="screen list-screen">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{t('MenuSessions')}</h1>
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('MenuSessions')}>
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdRefresh')} title={t('CmdRefresh')} onClick={() => void load()}>
            <Icon name="refresh" />
          </button>
        </div>
      </div>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : (
        <div className="table-wrap" aria-busy={busy}>
          <table className="grid sessions">
            <thead>
              <tr>
                {columns.map(([label]) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">{t('CmdDelete')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows === null && (
                <tr className="skeleton-row">
                  <td colSpan={columns.length + 1}>
                    <span className="skeleton" />
                  </td>
                </tr>
              )}
              {rows?.length === 0 && (
                <tr>
                  <td colSpan={columns.length + 1} className="empty">
                    {t('MsgNoSessions')}
                  </td>
                </tr>
              )}
              {rows?.map((s) => (
                <tr key={s.name}>
                  {columns.map(([label, value]) => (
                    <td key={label} data-label={label}>
                      {value(s)}
                    </td>
                  ))}
                  <td className="row-actions">
                    <button type="button" className="btn btn-danger-outline" aria-label={`${t('CmdDelete')} ${s.username}`} onClick={() => void end(s)}>
                      <Icon name="trash" /> {t('CmdDelete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
};
