import { useEffect, useId, useRef, useState } from 'react';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { parsedBody, session } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { listboxKey, LookupOptions } from '../ui/lookup-options.js';
import { ownerSearchRequest, type Owner } from './whats-next-model.js';

/** The pause after typing before the users are searched. */
const SEARCH_PAUSE_MS = 180;

/**
 * The owner filter of What's Next (spec 002 section 2): a user lookup whose choices come from the
 * saved view NextListUsers, with a starts-with search on the name. Cleared, the list shows every
 * owner's records the user may read. Keyboard: arrows move, Enter picks, Escape closes.
 */
export const OwnerPicker = ({ id, value, onChange, label }: { id: string; value: Owner | null; onChange: (o: Owner | null) => void; label: string }) => {
  const t = useT();
  const api = useApi();
  const [text, setText] = useState('');
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const [hits, setHits] = useState<Array<Owner & { email: string }>>([]);
  const [active, setActive] = useState(0);
  const listId = useId();
  const seq = useRef(0);

  useEffect(() => {
    if (!editing) return;
    const n = ++seq.current;
    const h = setTimeout(() => {
      api
        .fetch(ownerSearchRequest(session.value?.context.gui ?? [], parsedBody, text))
        .then((res) => {
          if (n !== seq.current) return;
          setHits(res.records.map((r) => ({ id: String(r.id), label: String(r.name ?? '') || t('MsgUnknownTitle'), email: typeof r.emailaddress === 'string' ? r.emailaddress : '' })));
          setActive(0);
          setOpen(true);
        })
        .catch((e: unknown) => {
          // Like the list itself, a failed search is only logged (spec 002 section 8).
          console.warn("What's Next: the users could not be searched", e);
          setHits([]);
        });
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(h);
  }, [text, editing, api, t]);

  const pick = (o: Owner | null) => {
    onChange(o);
    setEditing(false);
    setOpen(false);
    setText('');
  };

  return (
    <div className="lookup wn-owner">
      <div className="lookup-box">
        <input
          id={id}
          role="combobox"
          aria-label={label}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && hits[active] ? `${listId}-${active}` : undefined}
          autoComplete="off"
          placeholder={value ? t('WhatsNextSearchOwner') : t('WhatsNextEveryOwner')}
          value={editing ? text : (value?.label ?? '')}
          onFocus={() => {
            setEditing(true);
            setText('');
          }}
          onBlur={() =>
            setTimeout(() => {
              setOpen(false);
              setEditing(false);
            }, 150)
          }
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (listboxKey(e, { open, count: hits.length, active, setOpen, setActive, pickActive: () => pick(hits[active]) }) && e.key === 'Escape') (e.target as HTMLInputElement).blur();
          }}
        />
        {value && (
          <button type="button" className="icon-btn" aria-label={t('LblClearValue')} title={t('WhatsNextEveryOwner')} onClick={() => pick(null)}>
            <Icon name="close" size={16} />
          </button>
        )}
      </div>
      {open && editing && (
        <LookupOptions listId={listId} label={label} hits={hits.map((h) => ({ ...h, details: h.email ? [h.email] : [] }))} active={active} onPick={(h) => pick({ id: h.id, label: h.label })} />
      )}
    </div>
  );
};
