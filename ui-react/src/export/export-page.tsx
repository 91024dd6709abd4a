import { useSignals } from '@preact/signals-react/runtime';
import { useMemo, useState } from 'react';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { session } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { openExportDialog } from './export-dialog.js';
import { exportPageEntities } from './export-model.js';

/**
 * /{appid}/export (spec 002 section 2): the record types the user may read, link entities left
 * out; choosing one opens the Export dialog on all its records and fields (Edit Query narrows
 * them). A list's own Export command opens the same dialog on what the list shows.
 */
export const ExportPage = () => {
  useSignals();
  const t = useT();
  const api = useApi();
  const s = session.value;
  const [search, setSearch] = useState('');
  const all = useMemo(() => (s ? exportPageEntities(Object.values(s.entities), s.caller) : null), [s]);
  if (!all) return <div className="spinner" aria-busy="true" />;
  const needle = search.trim().toLowerCase();
  const shown = needle ? all.filter((e) => `${e.displayNamePlural} ${e.displayName} ${e.logicalName}`.toLowerCase().includes(needle)) : all;
  return (
    <div className="screen export-screen">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{t('MenuExport')}</h1>
        </div>
      </div>
      <p className="muted export-intro">{t('MsgExportIntro')}</p>
      {all.length > 0 && (
        <input type="search" className="export-search" aria-label={t('LblSearch')} placeholder={t('LblSearch')} value={search} onChange={(e) => setSearch(e.target.value)} />
      )}
      {shown.length === 0 ? (
        <p className="empty-note muted" role="status">
          {all.length === 0 ? t('MsgExportNoEntities') : t('MsgNoResults')}
        </p>
      ) : (
        <ul className="export-entities" aria-label={t('MenuExport')}>
          {shown.map((e) => (
            <li key={e.logicalName}>
              <button type="button" className="export-entity-btn" onClick={() => openExportDialog({ entity: e, query: { entity: { name: e.logicalName, allattrs: true } } }, api)}>
                <span className="export-entity-name">{e.displayNamePlural}</span>
                <span className="muted small">{e.logicalName}</span>
                <Icon name="export" className="export-entity-icon" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
