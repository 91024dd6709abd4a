import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { caller, entityOf } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { alertDialog, alertFailure } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { manyToManyModel, type LinkResult, type ManyToMany } from './many-to-many.js';
import { ManyToManyDialog } from './many-to-many-dialog.js';

/**
 * An associated list over a link entity (issue 23 item 1): the linked records of the other side
 * by name, Add through the many-to-many dialog, Remove of the ticked ones. The model
 * (many-to-many.ts) holds the queries and writes.
 */
export const ManyToManyList = ({ m, parentId, appParam, onCount }: { m: ManyToMany; parentId: string; appParam: string; onCount?: (n: number) => void }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useMemo(() => manyToManyModel({ api, m, parentId, caller: () => caller.value }), [api, m.link, m.parentField, parentId]);
  const [picking, setPicking] = useState(false);
  const other = entityOf(m.other);
  const otherName = other?.displayNamePlural ?? m.other;

  useEffect(() => {
    void model.load();
    // A link row written elsewhere (another tab, another user) reloads the list.
    const ev = objectChangedEvent(m.link);
    const reload = () => void model.load();
    window.addEventListener(ev, reload);
    return () => window.removeEventListener(ev, reload);
  }, [model]);

  const count = model.count.value;
  useEffect(() => {
    if (model.rows.value !== null) onCount?.(count);
  }, [count, model.rows.value !== null]);

  /** Says the answer of a write: a failure, or the items the server refused (one per line). */
  const say = async (r: LinkResult) => {
    if (r._tag === 'Failed') await alertFailure(r.error, t('CmdOk'));
    else if (r.errors.length > 0) await alertDialog(r.errors.join('\n'), t('CmdOk'));
  };

  const rows = model.rows.value;
  const error = model.error.value;
  const canEdit = model.canEdit.value;
  const selected = model.selected.value;
  return (
    <div className="assoc">
      {canEdit && (
        <div className="assoc-head">
          {selected.size > 0 && (
            <button type="button" className="btn btn-danger-outline" disabled={model.busy.value} onClick={() => void model.removeSelected().then(say)}>
              <Icon name="trash" /> {t('CmdRemove')} ({selected.size})
            </button>
          )}
          <button type="button" className="btn btn-plain" disabled={model.busy.value} onClick={() => setPicking(true)}>
            <Icon name="plus" /> {t('CmdAdd')}
          </button>
        </div>
      )}
      {error && <p className="error-text">{error}</p>}
      {rows === null && !error && <div className="spinner small" />}
      {rows?.length === 0 && <p className="empty">{t('MsgNoRecords')}</p>}
      {rows && rows.length > 0 && (
        <ul className="assoc-list" aria-label={otherName}>
          {rows.map((r) => {
            const label = r.name || t('MsgUnknownTitle');
            return (
              <li key={r.linkId} className="assoc-linked">
                {canEdit && <input type="checkbox" aria-label={t('LblSelectRecord', { name: label })} checked={selected.has(r.linkId)} onChange={() => model.toggle(r.linkId)} />}
                <Link to={`/${appParam}/edit/${m.other}/${r.id}`}>{label}</Link>
              </li>
            );
          })}
        </ul>
      )}
      {picking && (
        <ManyToManyDialog
          title={t('LblAddLinked', { entity: otherName })}
          candidates={model.candidates}
          onClose={() => setPicking(false)}
          onAdd={async (ids) => {
            setPicking(false);
            await say(await model.add(ids));
          }}
        />
      )}
    </div>
  );
};
