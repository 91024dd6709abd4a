import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import type { LookupValue } from '../core.js';
import { checkPermissionString, SYSTEM_USER_ID } from '../core.js';
import { lookupLabel } from '../format.js';
import { useT } from '../i18n.js';
import { caller, entityOf, guiObjects } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { listboxKey, LookupOptions } from '../ui/lookup-options.js';
import { useQuickCreate } from './quick-create.js';
import { LookupDialog } from './lookup-dialog.js';
import { selfExclusion, useLookupSearch, type Hit } from './lookup-search.js';

/** A quick form exists when the target has a form named quick (or quickcreate). */
export const quickFormOf = (target: string): string | undefined =>
  guiObjects('form', target).find((g) => /^quick(create)?$/i.test(g.name))?.name;

/**
 * The lookup editor: type to search (starts-with), pick with the keyboard or the mouse, browse
 * in the lookup dialog, or create a record through the quick form when permitted.
 */
export const LookupInput = ({
  id,
  targets,
  value,
  onChange,
  disabled,
  label,
  describedBy,
  invalid,
  self,
}: {
  id: string;
  targets: string[];
  value: LookupValue | null;
  onChange: (v: LookupValue | null) => void;
  disabled?: boolean;
  label: string;
  describedBy?: string;
  invalid?: boolean;
  /** the record being edited: a lookup to its own entity does not offer it (issue 23 item 8) */
  self?: { entity: string; id?: string };
}) => {
  useSignals();
  const t = useT();
  const [target, setTarget] = useState(targets[0] ?? '');
  const exclude = selfExclusion(target, self);
  const search = useLookupSearch(target, exclude, t('MsgUnknownTitle'));
  const [text, setText] = useState('');
  const [editing, setEditing] = useState(false);
  const [hits, setHits] = useState<Hit[]>([]);
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<'browse' | 'create' | null>(null);
  const listId = useId();
  const seq = useRef(0);
  const targetMeta = entityOf(target);
  const quickForm = quickFormOf(target);
  const QuickCreate = useQuickCreate();
  const me = caller.value;
  const canCreate = !!me && !!quickForm && !!QuickCreate && checkPermissionString(me, `${target};0`);

  useEffect(() => {
    if (!editing) return;
    const n = ++seq.current;
    const h = setTimeout(() => {
      search(text)
        .then((r) => {
          if (n !== seq.current) return;
          setHits(r);
          setActive(0);
          setOpen(true);
        })
        .catch(() => setHits([]));
    }, 180);
    return () => clearTimeout(h);
  }, [text, editing, target]);

  const pick = (h: Hit | null) => {
    onChange(h ? { id: h.id, name: target, label: h.label } : null);
    setEditing(false);
    setOpen(false);
    setText('');
  };

  const display = editing ? text : value ? lookupLabel(value) : '';
  return (
    <div className="lookup">
      {targets.length > 1 && !disabled && (
        <select className="lookup-target" aria-label={label} value={target} onChange={(e) => setTarget(e.target.value)}>
          {targets.map((x) => (
            <option key={x} value={x}>
              {entityOf(x)?.displayName ?? x}
            </option>
          ))}
        </select>
      )}
      <div className="lookup-box">
        <input
          id={id}
          role="combobox"
          aria-label={label}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-activedescendant={open && hits[active] ? `${listId}-${active}` : undefined}
          autoComplete="off"
          disabled={disabled}
          placeholder={disabled ? '' : t('LblLookupSearch', { entity: targetMeta?.displayName ?? target })}
          value={display}
          onFocus={() => {
            if (!disabled) {
              setEditing(true);
              setText('');
            }
          }}
          onBlur={() => setTimeout(() => {
            setOpen(false);
            setEditing(false);
          }, 150)}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => void listboxKey(e, { open, count: hits.length, active, setOpen, setActive, pickActive: () => pick(hits[active]) })}
        />
        {value && !disabled && (
          <button type="button" className="icon-btn" aria-label={t('LblClearValue')} onClick={() => pick(null)}>
            <Icon name="close" size={16} />
          </button>
        )}
        {value && disabled && value.id !== SYSTEM_USER_ID && (
          <a className="icon-btn" href={`/!/edit/${value.name}/${value.id}`} aria-label={t('LblOpenRecord', { name: lookupLabel(value) })}>
            <Icon name="external" size={16} />
          </a>
        )}
        {!disabled && (
          <button type="button" className="icon-btn" aria-label={t('LblOpenLookupDialog', { entity: targetMeta?.displayNamePlural ?? target })} onClick={() => setDialog('browse')}>
            <Icon name="search" size={16} />
          </button>
        )}
      </div>
      {open && editing && (
        <LookupOptions listId={listId} label={label} hits={hits} active={active} onPick={pick}>
          {canCreate && (
            <li className="lookup-create" onMouseDown={(e) => {
              e.preventDefault();
              setOpen(false);
              setDialog('create');
            }}>
              <Icon name="plus" size={16} /> {t('CmdCreate')}
            </li>
          )}
        </LookupOptions>
      )}
      {dialog === 'browse' && <LookupDialog target={target} exclude={exclude} onClose={() => setDialog(null)} onPick={(h) => { pick(h); setDialog(null); }} canCreate={canCreate} onCreate={() => setDialog('create')} />}
      {dialog === 'create' && quickForm && QuickCreate && (
        <Modal id="createRecordDialog" title={t('MsgNewRecord', { entity: targetMeta?.displayName ?? target })} onClose={() => setDialog(null)} wide>
          <Suspense fallback={<div className="spinner" />}>
          <QuickCreate
            entityName={target}
            formName={quickForm}
            init={text ? { name: text } : undefined}
            onClose={(created) => {
              setDialog(null);
              if (created) pick({ id: created.id, label: created.name });
            }}
          />
          </Suspense>
        </Modal>
      )}
    </div>
  );
};
