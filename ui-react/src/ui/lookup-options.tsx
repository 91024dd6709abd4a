import type { ReactNode } from 'react';
import { useT } from '../i18n.js';

/** A search hit as the options list shows it: its name and, when known, what tells it apart (city, owner, e-mail). */
export type LookupOption = { id: string; label: string; details?: readonly string[] };

/**
 * The options list under a lookup's search box (the form's lookups, the lists' lookup and owner
 * filters, What's Next's owner): a listbox whose active option the box names with
 * aria-activedescendant (`{listId}-{index}`); a press picks without taking the focus from the box.
 * `children` go after the options (the form's Create).
 */
export const LookupOptions = <T extends LookupOption>({
  listId,
  label,
  hits,
  active,
  onPick,
  children,
}: {
  listId: string;
  label: string;
  hits: readonly T[];
  active: number;
  onPick: (hit: T) => void;
  children?: ReactNode;
}) => {
  const t = useT();
  return (
    <ul className="lookup-list" id={listId} role="listbox" aria-label={label}>
      {hits.length === 0 && <li className="muted lookup-empty">{t('MsgNoResults')}</li>}
      {hits.map((h, i) => (
        <li
          key={h.id}
          id={`${listId}-${i}`}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'active' : ''}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(h);
          }}
        >
          <span className="lookup-name">{h.label}</span>
          {h.details && h.details.length > 0 && <span className="lookup-details">{h.details.join(' · ')}</span>}
        </li>
      ))}
      {children}
    </ul>
  );
};
