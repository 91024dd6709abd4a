import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'react-router';
import { useT } from '../i18n.js';
import { session } from '../state/session.js';
import { KEYS, session as sessionStore } from '../state/storage.js';
import { Icon } from '../ui/icons.js';
import { usePopover } from './use-popover.js';

/** The Apps menu of the header: the user's apps; the one picked is remembered for the browser session. */
export const AppsMenu = ({ app }: { app: string }) => {
  useSignals();
  const t = useT();
  const { open, setOpen, ref } = usePopover();
  const apps = session.value?.context.apps ?? [];
  return (
    <div className="popover-anchor" ref={ref}>
      <button type="button" className={`tab ${open ? 'on' : ''}`} aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name="apps" /> <span className="tab-text">{t('LblApps')}</span>
      </button>
      {open && (
        <div className="popover apps-menu" role="menu" aria-label={t('LblApps')}>
          {apps.map((a) => (
            <Link
              key={a}
              role="menuitem"
              className={`menu-row ${a === app ? 'on' : ''}`}
              to={`/${encodeURIComponent(a)}/`}
              onClick={() => {
                sessionStore.set(KEYS.appId, a);
                setOpen(false);
              }}
            >
              <span className="app-dot" aria-hidden="true">
                {a[0]}
              </span>
              {a}
            </Link>
          ))}
        </div>
      )}
    </div>
  );
};
