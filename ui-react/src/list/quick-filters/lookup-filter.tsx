import { useEffect, useId, useRef, useState } from 'react';
import type { QuickFilterSelection } from '../../core.js';
import { useApi } from '../../api/context.js';
import { useLookupSearch, type Hit } from '../../form/lookup-search.js';
import { useT } from '../../i18n.js';
import { entityOf } from '../../state/session.js';
import { Icon } from '../../ui/icons.js';
import { listboxKey, LookupOptions } from '../../ui/lookup-options.js';

/** Names of records chosen in lookup filters (the selection holds ids only): shared by every bar of the tab. */
const names = new Map<string, string>();

const idsOf = (value: QuickFilterSelection): string[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).map(String).filter((v) => v !== '' && !v.startsWith('{{'));

/** Fills in names of chosen ids not seen in this tab (a selection kept across a reload) with one fetch. */
const useNames = (target: string, ids: readonly string[]): ((id: string) => string) => {
  const api = useApi();
  const [, setLoaded] = useState(0);
  const missing = ids.filter((id) => !names.has(id));
  const key = missing.join(',');
  useEffect(() => {
    if (!target || missing.length === 0) return;
    let live = true;
    api
      .fetch({ entity: { name: target, attributes: [{ attribute: 'id' }, { attribute: 'name' }], filter: { conditions: [{ attribute: 'id', operator: 'in', value: missing }] } }, page: 1, pageSize: missing.length })
      .then((res) => {
        for (const r of res.records) names.set(String(r.id), String(r.name ?? ''));
        if (live) setLoaded((n) => n + 1);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [target, key]);
  return (id) => names.get(id) || '…';
};

/**
 * A lookup quick filter (spec 001 section 2): a search picker of the target entity (starts-with on
 * name, as the form's lookup), the chosen records as removable chips; several with multiSelect.
 * Keyboard: type, arrows, Enter picks, Escape closes; Backspace in an empty box removes the last chip.
 */
export const LookupFilter = ({ id, targets, value, onChange, label, multiSelect, extra }: {
  id: string;
  targets: readonly string[];
  value: QuickFilterSelection;
  onChange: (v: QuickFilterSelection) => void;
  label: string;
  multiSelect?: boolean;
  /** values shown as chosen that are not record ids (the owner filter's Mine) are left to the caller */
  extra?: React.ReactNode;
}) => {
  const t = useT();
  const [target, setTarget] = useState(targets[0] ?? '');
  const search = useLookupSearch(target, undefined, t('MsgUnknownTitle'));
  const ids = idsOf(value);
  const nameOf = useNames(target, ids);
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const seq = useRef(0);

  useEffect(() => {
    if (!open) return;
    const n = ++seq.current;
    const h = setTimeout(() => {
      search(text)
        .then((r) => {
          if (n !== seq.current) return;
          setHits(r.filter((x) => !ids.includes(x.id)));
          setActive(0);
        })
        .catch(() => n === seq.current && setHits([]));
    }, 180);
    return () => clearTimeout(h);
  }, [text, open, target, ids.join(',')]);

  const pick = (h: Hit) => {
    names.set(h.id, h.label);
    onChange(multiSelect ? [...ids, h.id] : h.id);
    setText('');
    setOpen(false);
  };
  const remove = (rid: string) => {
    const rest = ids.filter((x) => x !== rid);
    onChange(multiSelect ? rest : null);
  };
  const shown = hits ?? [];
  return (
    <div className="qf-search">
      {targets.length > 1 && (
        <select aria-label={`${label}: ${t('LblEntity')}`} value={target} onChange={(e) => setTarget(e.target.value)}>
          {targets.map((x) => (
            <option key={x} value={x}>
              {entityOf(x)?.displayName ?? x}
            </option>
          ))}
        </select>
      )}
      <div className="qf-picker">
        {extra}
        {ids.map((rid) => (
          <span key={rid} className="qf-token">
            <span className="qf-token-text">{nameOf(rid)}</span>
            <button type="button" className="icon-btn" aria-label={t('LblRemoveFilterValue', { name: nameOf(rid) })} onClick={() => remove(rid)}>
              <Icon name="close" size={14} />
            </button>
          </span>
        ))}
        {(multiSelect || ids.length === 0) && (
          <input
            id={id}
            role="combobox"
            aria-label={label}
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open && shown[active] ? `${listId}-${active}` : undefined}
            autoComplete="off"
            placeholder={t('LblLookupSearch', { entity: entityOf(target)?.displayName ?? target })}
            value={text}
            onFocus={() => setOpen(true)}
            onBlur={() => setTimeout(() => setOpen(false), 150)}
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
            }}
            onKeyDown={(e) => {
              if (listboxKey(e, { open, count: shown.length, active, setOpen, setActive, pickActive: () => pick(shown[active]) })) return;
              if (e.key === 'Backspace' && text === '' && ids.length > 0) remove(ids[ids.length - 1]);
            }}
          />
        )}
      </div>
      {open && hits !== null && (
        <LookupOptions listId={listId} label={label} hits={shown} active={active} onPick={pick} />
      )}
    </div>
  );
};
