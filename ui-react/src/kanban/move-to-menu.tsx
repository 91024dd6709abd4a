import { forwardRef, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';

export type MoveTarget = { key: string; label: string; color?: string };

/**
 * The keyboard way to move a card (and a plain click for anyone): a 'Move to' button opening a
 * menu of the other lanes. Arrow keys, Home and End move in the menu, Enter or Space picks,
 * Escape or Tab closes it and gives the focus back to the button.
 */
export const MoveToMenu = forwardRef<HTMLButtonElement, { card: string; targets: readonly MoveTarget[]; disabled?: boolean; onPick: (key: string) => void }>(({ card, targets, disabled = false, onPick }, ref) => {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // Opens upward when the board (a scroll box) has no room below the button for the menu.
  const [up, setUp] = useState(false);
  const own = useRef<HTMLButtonElement | null>(null);
  const menu = useRef<HTMLUListElement | null>(null);
  const wrap = useRef<HTMLDivElement | null>(null);
  const id = useId();

  const setButton = (el: HTMLButtonElement | null) => {
    own.current = el;
    if (typeof ref === 'function') ref(el);
    else if (ref) ref.current = el;
  };

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) own.current?.focus();
  };

  useLayoutEffect(() => {
    if (!open) return;
    const box = own.current?.closest('.kb-lanes')?.getBoundingClientRect();
    const button = own.current?.getBoundingClientRect();
    const height = menu.current?.offsetHeight ?? 0;
    if (box && button) setUp(button.bottom + height + 8 > box.bottom && button.top - height - 8 > box.top);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')[active]?.focus();
  }, [open, active]);

  // A press outside the menu closes it.
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const onMenuKey = (e: React.KeyboardEvent) => {
    const last = targets.length - 1;
    const go = (i: number) => {
      e.preventDefault();
      setActive(i);
    };
    if (e.key === 'ArrowDown') go(active >= last ? 0 : active + 1);
    else if (e.key === 'ArrowUp') go(active <= 0 ? last : active - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(last);
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') close(false);
  };

  if (targets.length === 0) return null;
  return (
    <div className="kb-move" ref={wrap}>
      <button
        ref={setButton}
        type="button"
        className="btn btn-plain kb-move-btn"
        aria-haspopup="menu"
        aria-disabled={disabled || undefined}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={t('LblKanbanMoveCard', { name: card })}
        onClick={() => {
          if (disabled) return;
          setActive(0);
          setOpen(!open);
        }}
        onKeyDown={(e) => {
          if (!disabled && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            setActive(e.key === 'ArrowDown' ? 0 : targets.length - 1);
            setOpen(true);
          }
        }}
      >
        {t('CmdKanbanMoveTo')}
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <ul className={up ? 'kb-menu kb-menu-up' : 'kb-menu'} role="menu" id={id} ref={menu} aria-label={t('CmdKanbanMoveTo')} onKeyDown={onMenuKey}>
          {targets.map((l, i) => (
            <li key={l.key} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={i === active ? 0 : -1}
                onClick={() => {
                  close(true);
                  onPick(l.key);
                }}
              >
                <span className="kb-dot" style={l.color ? { ['--lane' as string]: l.color } : undefined} aria-hidden="true" />
                {l.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
MoveToMenu.displayName = 'MoveToMenu';
