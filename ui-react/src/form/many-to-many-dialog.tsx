import { useEffect, useState } from 'react';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';

type Candidate = { id: string; name: string; linked: boolean };

/**
 * The many-to-many pick dialog (spec 001: tabs for items and for the selected ones): search the
 * other side's records, tick them, Add. Records already linked show ticked and cannot be picked
 * again.
 */
export const ManyToManyDialog = ({
  title,
  candidates,
  onClose,
  onAdd,
  actionLabel,
}: {
  title: string;
  /** the button's text (default Add; the list's mass edit also removes) */
  actionLabel?: string;
  candidates: (text: string) => Promise<Candidate[]>;
  onClose: () => void;
  /** the picked ids, and their names (a pending link shows its name before it is stored) */
  onAdd: (ids: string[], names: ReadonlyMap<string, string>) => void;
}) => {
  const t = useT();
  const [text, setText] = useState('');
  const [items, setItems] = useState<Candidate[] | null>(null);
  const [picked, setPicked] = useState<Map<string, string>>(new Map());
  const [tab, setTab] = useState<'items' | 'selected'>('items');
  useEffect(() => {
    const h = setTimeout(() => void candidates(text).then(setItems).catch(() => setItems([])), 150);
    return () => clearTimeout(h);
  }, [text]);
  const toggle = (c: { id: string; name: string }) => {
    const next = new Map(picked);
    if (next.has(c.id)) next.delete(c.id);
    else next.set(c.id, c.name);
    setPicked(next);
  };
  const shown: Candidate[] | null = tab === 'items' ? items : [...picked].map(([id, name]) => ({ id, name, linked: false }));
  return (
    <Modal id="EditObjectsDialog" title={title} onClose={onClose}>
      <div className="tablist m2m-tabs" role="tablist" aria-label={title}>
        <button type="button" role="tab" className={`tab-btn ${tab === 'items' ? 'on' : ''}`} aria-selected={tab === 'items'} onClick={() => setTab('items')}>
          {t('LblItems')}
        </button>
        <button type="button" role="tab" className={`tab-btn ${tab === 'selected' ? 'on' : ''}`} aria-selected={tab === 'selected'} onClick={() => setTab('selected')}>
          {t('MsgSelected', { n: picked.size })}
        </button>
      </div>
      {tab === 'items' && (
        <label className="search-box dialog-search">
          <Icon name="search" />
          <span className="sr-only">{t('LblSearch')}</span>
          <input autoFocus type="search" placeholder={t('LblSearch')} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
      )}
      <div className="pick-list" role="group" aria-label={title}>
        {shown === null && <div className="spinner small" />}
        {shown?.length === 0 && <p className="muted pick-empty">{t('MsgNoResults')}</p>}
        {shown?.map((c) => {
          const label = c.name || t('MsgUnknownTitle');
          return (
            <label key={c.id} className={`pick-row pick-check ${c.linked ? 'muted' : ''}`}>
              <input type="checkbox" checked={c.linked || picked.has(c.id)} disabled={c.linked} onChange={() => toggle(c)} />
              <span>{label}</span>
              {c.linked && <span className="small muted pick-note">{t('MsgAlreadyAdded')}</span>}
            </label>
          );
        })}
      </div>
      <div className="modal-actions">
        <button type="button" className="btn btn-plain" onClick={onClose}>
          {t('CmdCancel')}
        </button>
        <button type="button" className="btn btn-primary" disabled={picked.size === 0} onClick={() => onAdd([...picked.keys()], picked)}>
          <Icon name="plus" /> {actionLabel ?? t('CmdAdd')}
        </button>
      </div>
    </Modal>
  );
};
