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

/**
 * The keys of a search box that drives a LookupOptions list: ArrowDown opens and moves down,
 * ArrowUp moves up, Enter picks the active option, Escape closes. Answers whether it handled the
 * key (a box may add its own: Backspace removing the last chip, Escape leaving the box).
 */
export const listboxKey = (
  e: { key: string; preventDefault(): void },
  s: { open: boolean; count: number; active: number; setOpen: (open: boolean) => void; setActive: (f: (a: number) => number) => void; pickActive: () => void },
): boolean => {
  if (e.key === 'ArrowDown') {
    e.preventDefault();
    s.setOpen(true);
    s.setActive((a) => Math.min(a + 1, s.count - 1));
  } else if (e.key === 'ArrowUp') {
    e.preventDefault();
    s.setActive((a) => Math.max(a - 1, 0));
  } else if (e.key === 'Enter' && s.open && s.active < s.count) {
    e.preventDefault();
    s.pickActive();
  } else if (e.key === 'Escape') s.setOpen(false);
  else return false;
  return true;
};
