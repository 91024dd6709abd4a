import { useEffect, useState } from 'react';
import { useT } from '../i18n.js';
import { entityOf } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { lookupColumnsOf, useLookupSearch, type Hit } from './lookup-search.js';

/**
 * The lookup dialog (id LookupDialog): search the target's records and pick one. Each row shows
 * the name and the secondary columns of the target's lookup view, so that namesakes can be told
 * apart (issue 23 item 8); the record being edited is not offered.
 */
export const LookupDialog = ({
  target,
  exclude,
  onClose,
  onPick,
  canCreate,
  onCreate,
}: {
  target: string;
  exclude?: string;
  onClose: () => void;
  onPick: (h: Hit) => void;
  canCreate: boolean;
  onCreate: () => void;
}) => {
  const t = useT();
  const search = useLookupSearch(target, exclude, t('MsgUnknownTitle'));
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hit[] | null>(null);
  useEffect(() => {
    const h = setTimeout(() => void search(text, 50).then(setHits).catch(() => setHits([])), 150);
    return () => clearTimeout(h);
  }, [text]);
  const meta = entityOf(target);
  const columns = lookupColumnsOf(target).map((c) => meta?.properties.find((p) => p.logicalName === c)?.displayName ?? c);
  return (
    <Modal id="LookupDialog" title={meta?.displayNamePlural ?? target} onClose={onClose}>
      <label className="search-box dialog-search">
        <Icon name="search" />
        <span className="sr-only">{t('LblSearch')}</span>
        <input autoFocus type="search" placeholder={t('LblSearch')} value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <div className="pick-list" role="listbox" aria-label={meta?.displayNamePlural ?? target}>
        {hits === null && <div className="spinner small" />}
        {hits?.length === 0 && <p className="muted pick-empty">{t('MsgNoResults')}</p>}
        {hits?.map((h) => (
          <button key={h.id} type="button" role="option" aria-selected="false" className="pick-row" onClick={() => onPick(h)}>
            <span className="pick-name">{h.label}</span>
            {h.details && h.details.length > 0 && (
              <span className="pick-details" title={columns.join(' · ')}>
                {h.details.join(' · ')}
              </span>
            )}
          </button>
        ))}
      </div>
      <div className="modal-actions">
        {canCreate && (
          <button type="button" className="btn btn-plain" onClick={onCreate}>
            <Icon name="plus" /> {t('CmdCreate')}
          </button>
        )}
        <button type="button" className="btn btn-plain" onClick={onClose}>
          {t('CmdCancel')}
        </button>
      </div>
    </Modal>
  );
};
