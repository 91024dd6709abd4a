import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../i18n.js';
import { entityOf } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import type { ManyToMany } from './many-to-many.js';
import { ManyToManyDialog } from './many-to-many-dialog.js';
import type { PanelContext } from './panel-context.js';
import { useManyToMany } from './use-many-to-many.js';

/**
 * An associated list over a link entity (issue 23 item 1): the linked records of the other side
 * by name, Add through the many-to-many dialog, Remove of the ticked ones. Adds and removes are
 * pending until the record is saved (marked in the list, each with undo); the model
 * (many-to-many.ts) holds the queries and writes, use-many-to-many.ts its life with the form.
 */
export const ManyToManyList = ({ m, ctx, panelName, onCount }: { m: ManyToMany; ctx: PanelContext; panelName: string; onCount?: (n: number) => void }) => {
  useSignals();
  const t = useT();
  const model = useManyToMany(ctx, panelName, m);
  const [picking, setPicking] = useState(false);
  const other = entityOf(m.other);
  const otherName = other?.displayNamePlural ?? m.other;

  const rows = model.view.value;
  const count = model.count.value;
  useEffect(() => {
    if (rows !== null) onCount?.(count);
  }, [count, rows !== null]);

  const error = model.error.value;
  const canEdit = model.canEdit.value;
  const selected = model.selected.value;
  return (
    <div className="assoc">
      {canEdit && (
        <div className="assoc-head">
          {selected.size > 0 && (
            <button type="button" className="btn btn-danger-outline" onClick={() => model.removeSelected()}>
              <Icon name="trash" /> {t('CmdRemove')} ({selected.size})
            </button>
          )}
          <button type="button" className="btn btn-plain" onClick={() => setPicking(true)}>
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
            const pending = r.state !== 'linked';
            return (
              <li key={r.linkId ?? `new-${r.id}`} className={`assoc-linked m2m-${r.state}`}>
                {canEdit && r.state === 'linked' && r.linkId && (
                  <input type="checkbox" aria-label={t('LblSelectRecord', { name: label })} checked={selected.has(r.linkId)} onChange={() => model.toggle(r.linkId!)} />
                )}
                {r.state === 'added' ? <span className="m2m-name">{label}</span> : <Link className="m2m-name" to={`/${ctx.appParam}/edit/${m.other}/${r.id}`}>{label}</Link>}
                {pending && (
                  <>
                    <span className="m2m-mark small">{t(r.state === 'added' ? 'LinksAddedOnSave' : 'LinksRemovedOnSave')}</span>
                    <button type="button" className="btn btn-plain btn-small" aria-label={t('LinksUndo', { name: label })} onClick={() => model.undo(r)}>
                      <Icon name="undo" /> {t('LinksUndoShort')}
                    </button>
                  </>
                )}
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
          onAdd={(ids, names) => {
            setPicking(false);
            model.add(ids.map((id) => ({ id, name: names.get(id) ?? '' })));
          }}
        />
      )}
    </div>
  );
};
