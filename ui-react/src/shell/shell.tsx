import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, NavLink, Navigate, Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import type { Language } from '@tessera/core/internal';
import { UNAUTHORIZED_EVENT } from '../api/client.js';
import { useApi } from '../api/context.js';
import { LANGUAGE_NAMES, language, offeredLanguages, setLanguage, t, useT } from '../i18n.js';
import { useMetadataTexts } from '../state/metadata-texts.js';
import { cachedSession, clearSessionCache, loadSession, metadataExpired, newerBuildOut, PAGE_LOADED_AT, parsedBody, refreshSession, session, sessionError } from '../state/session.js';
import { KEYS, session as sessionStore } from '../state/storage.js';
import { setTheme, theme, type Theme } from '../state/theme.js';
import { METADATA_CHANGED_EVENT, startRealtime } from '../state/realtime.js';
import { Icon } from '../ui/icons.js';
import { toast } from '../ui/dialogs.js';
import { Brand } from '../public/public-layout.js';
import { firstItem, menuOf, resolveApp, type MenuEntry, type MenuSection } from './menu.js';
import { NotFoundPage, RenderErrorBoundary } from './error-pages.js';

export type ShellContext = { app: string; appParam: string; sections: MenuSection[] };
export const useShell = (): ShellContext => useOutletContext<ShellContext>();

const MOBILE_WIDTH = 500;
const MOBILE_ITEMS = 4;

const useMedia = (query: string): boolean => {
  const [m, setM] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const f = () => setM(mq.matches);
    mq.addEventListener('change', f);
    return () => mq.removeEventListener('change', f);
  }, [query]);
  return m;
};

/** Closes a popover when focus or a click leaves it, or on Escape. */
const usePopover = () => {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return { open, setOpen, ref };
};

const ItemLabel = ({ item }: { item: { label: string; labelKey?: Parameters<ReturnType<typeof useT>>[0] } }) => {
  const t = useT();
  return <>{item.labelKey ? t(item.labelKey) : item.label}</>;
};

const MenuLink = ({ item, appParam, onClick }: { item: MenuEntry; appParam: string; onClick?: () => void }) =>
  item.external ? (
    <a className="nav-item" href={item.to} target="_blank" rel="noreferrer">
      <Icon name="external" />
      <span>
        <ItemLabel item={item} />
      </span>
    </a>
  ) : (
    <NavLink className={({ isActive }) => `nav-item ${isActive ? 'active' : ''}`} to={`/${appParam}/${item.to}`} onClick={onClick}>
      <Icon name={item.icon} />
      <span>
        <ItemLabel item={item} />
      </span>
    </NavLink>
  );

const ProfileMenu = () => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const { open, setOpen, ref } = usePopover();
  const s = session.value;
  if (!s) return null;
  const u = s.context.user;
  const initials = u.name
    .split(/\s+/)
    .map((p) => p[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <div className="popover-anchor" ref={ref}>
      <button type="button" className="avatar-btn" aria-haspopup="true" aria-expanded={open} aria-label={t('LblProfile')} onClick={() => setOpen(!open)}>
        <span className="avatar" aria-hidden="true">
          {initials || <Icon name="user" />}
        </span>
      </button>
      {open && (
        <div className="popover profile-menu" role="dialog" aria-label={t('LblProfile')}>
          <div className="profile-head">
            <span className="avatar lg" aria-hidden="true">
              {initials}
            </span>
            <div>
              <div className="strong">{u.name}</div>
              <div className="muted small">{u.emailaddress}</div>
              <div className="muted small">{s.context.orgName}</div>
            </div>
          </div>
          <fieldset className="segmented" aria-label={t('LblTheme')}>
            <legend className="small muted">{t('LblTheme')}</legend>
            {([0, 1, 2] as Theme[]).map((v) => (
              <label key={v} className={theme.value === v ? 'on' : ''}>
                <input type="radio" name="theme" value={v} checked={theme.value === v} onChange={() => setTheme(v)} />
                {t(v === 0 ? 'ThemeSystem' : v === 1 ? 'ThemeDark' : 'ThemeLight')}
              </label>
            ))}
          </fieldset>
          <label className="field compact">
            <span className="small muted">{t('LblLanguage')}</span>
            <select value={language.value} onChange={(e) => setLanguage(e.target.value as Language)}>
              {offeredLanguages.value.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </label>
          <div className="menu-list">
            <button
              type="button"
              className="menu-row"
              onClick={() => {
                setOpen(false);
                navigate(`/!/edit/systemuser/${u.id}`);
              }}
            >
              <Icon name="user" /> {t('CmdEditProfile')}
            </button>
            <button type="button" className="menu-row" onClick={() => location.reload()}>
              <Icon name="reload" /> {t('CmdReload')}
            </button>
            <button
              type="button"
              className="menu-row"
              onClick={async () => {
                await api.logout();
                clearSessionCache();
                session.value = null;
                location.href = '/login';
              }}
            >
              <Icon name="logout" /> {t('CmdLogout')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
};

const AppsMenu = ({ app }: { app: string }) => {
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

/** The inactivity popup (spec 000 sections 4 and 8). */
const InactivityPopup = ({ onBack }: { onBack: () => void }) => {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} className="modal" aria-labelledby="inactive-title" onCancel={(e) => e.preventDefault()}>
      <div className="modal-body center">
        <h2 id="inactive-title" className="modal-title">
          {t('MsgLoggedOutInactivity')}
        </h2>
        <div className="modal-actions center">
          <button type="button" className="btn btn-primary" autoFocus onClick={onBack}>
            {t('CmdBackToLogin')}
          </button>
        </div>
      </div>
    </dialog>
  );
};

/** Watches the session: 401 popup, metadata age, metadata changes, newer builds, realtime. */
const useSessionWatch = () => {
  const api = useApi();
  const [inactive, setInactive] = useState(false);
  useEffect(() => {
    const onUnauthorized = () => {
      if (session.value) setInactive(true);
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    const reload = async () => {
      try {
        const s = await loadSession(api);
        if (newerBuildOut(s.context.buildDate, PAGE_LOADED_AT, Date.now())) {
          toast(t('MsgNewVersion'), 'info');
          setTimeout(() => location.reload(), 1000);
        }
      } catch {
        /* a 401 shows the popup; other failures keep the old metadata */
      }
    };
    const tick = setInterval(() => {
      if (session.value && metadataExpired(session.value, Date.now())) void reload();
    }, 60_000);
    const onMeta = () => void reload();
    window.addEventListener(METADATA_CHANGED_EVENT, onMeta);
    const stop = startRealtime(api);
    return () => {
      window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
      window.removeEventListener(METADATA_CHANGED_EVENT, onMeta);
      clearInterval(tick);
      stop();
    };
  }, [api]);
  useEffect(() => {
    if (!inactive) return;
    // The popup goes when the tab is visible again and the token call succeeds.
    const check = async () => {
      if (document.hidden) return;
      try {
        await api.sseToken();
        setInactive(false);
      } catch {
        /* still signed out */
      }
    };
    const onMessage = (e: MessageEvent) => {
      if (e.origin === location.origin && (e.data as { type?: string })?.type === 'tessera:popupLogin') void check();
    };
    document.addEventListener('visibilitychange', check);
    window.addEventListener('message', onMessage);
    return () => {
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('message', onMessage);
    };
  }, [inactive, api]);
  const backToLogin = () => {
    const w = window.open(`/login?returnUrl=${encodeURIComponent('/popupLogin')}`, 'tesseraLogin', 'width=480,height=680');
    if (!w) location.href = `/login?returnUrl=${encodeURIComponent(location.pathname + location.search)}`;
  };
  return { inactive, backToLogin };
};
/** The signed-in area /{appid}/...: loads the user context, then draws the shell around the screens. */
export const AppRoot = () => {
  useSignals();
  const api = useApi();
  const loc = useLocation();
  const [state, setState] = useState<'loading' | 'ready' | 'login'>(() => (session.value || cachedSession(api.token, Date.now()) ? 'ready' : 'loading'));
  useEffect(() => {
    if (session.value) {
      // Drawn from the tab's cache: ask the server for the current context behind it.
      const h = setTimeout(() => void refreshSession(api).catch(() => undefined), 1500);
      return () => clearTimeout(h);
    }
    if (!api.token) {
      setState('login');
      return;
    }
    loadSession(api)
      .then(() => setState('ready'))
      .catch((e: unknown) => {
        const status = (e as { status?: number }).status;
        if (status === 401) setState('login');
        else {
          sessionError.value = e instanceof Error ? e.message : String(e);
          setState('ready');
        }
      });
  }, [api]);
  if (state === 'login') return <Navigate to={`/login?returnUrl=${encodeURIComponent(loc.pathname + loc.search)}`} replace />;
  if (state === 'loading' || (!session.value && !sessionError.value))
    return (
      <div className="boot" aria-busy="true">
        <Brand />
        <div className="spinner" />
      </div>
    );
  if (!session.value)
    return (
      <section className="error-page" role="alert">
        <h1>{t('MsgSomethingWentWrong')}</h1>
        <p className="mono">{sessionError.value}</p>
        <p>{t('MsgContactSupport')}</p>
      </section>
    );
  return <Shell />;
};

const Shell = () => {
  useSignals();
  const t = useT();
  const { appId = '!' } = useParams();
  const loc = useLocation();
  const s = session.value!;
  const { inactive, backToLogin } = useSessionWatch();
  const api = useApi();
  // The metadata's texts in the chosen language (spec 002 section 7), again when it changes.
  useMetadataTexts(api, language.value, s.context.user.id);
  const mobile = useMedia(`(max-width: ${MOBILE_WIDTH - 0.02}px)`);
  const [drawer, setDrawer] = useState(false);
  const app = resolveApp(appId, s.context.apps, sessionStore.get(KEYS.appId));
  useEffect(() => {
    if (app) sessionStore.set(KEYS.appId, app);
  }, [app]);
  useEffect(() => setDrawer(false), [loc.pathname]);
  const sections = useMemo(() => (app ? menuOf(app, s.context.gui, s.caller, parsedBody) : []), [app, s]);
  const ctx: ShellContext = { app: app ?? '', appParam: appId, sections };
  const flat = sections.flatMap((x) => x.items);

  return (
    <div className={`shell ${mobile ? 'is-mobile' : ''}`}>
      <a className="skip-link" href="#main">
        {t('LblSkipToContent')}
      </a>
      <header className="topbar">
        <Link to={`/${appId}/`} className="brand-link" aria-label="Tessera">
          <Brand />
        </Link>
        <nav className="tabs" aria-label={t('LblMenu')}>
          <AppsMenu app={app ?? ''} />
          <button type="button" className={`tab ${drawer ? 'on' : ''}`} aria-expanded={drawer} aria-controls="side-nav" onClick={() => setDrawer(!drawer)}>
            <Icon name="menu" /> <span className="tab-text">{t('LblMenu')}</span>
          </button>
        </nav>
        <div className="app-name" aria-live="polite">
          {app}
        </div>
        <div className="topbar-end">
          <ProfileMenu />
        </div>
      </header>
      <div className="body">
        <nav id="side-nav" className={`side-nav ${drawer ? 'open' : ''}`} aria-label={app ?? t('LblMenu')}>
          {sections.map((sec) => (
            <div key={sec.key} className="nav-section">
              {(sec.labelKey || sec.label) && (
                <div className="nav-section-title">
                  <ItemLabel item={sec} />
                </div>
              )}
              {sec.items.map((item) => (
                <MenuLink key={item.key} item={item} appParam={appId} onClick={() => setDrawer(false)} />
              ))}
            </div>
          ))}
        </nav>
        {drawer && <div className="scrim" onClick={() => setDrawer(false)} aria-hidden="true" />}
        <main id="main" className="content" tabIndex={-1}>
          <RenderErrorBoundary resetKey={loc.pathname}>
            {!app ? s.context.apps.length === 0 ? <p className="empty">{t('MsgNoApps')}</p> : <NotFoundPage /> : <Outlet context={ctx} />}
          </RenderErrorBoundary>
        </main>
      </div>
      {mobile && flat.length > 0 && (
        <nav className="bottom-bar" aria-label={t('LblMenu')}>
          {flat
            .filter((i) => !i.external)
            .slice(0, MOBILE_ITEMS)
            .map((item) => (
              <MenuLink key={item.key} item={item} appParam={appId} />
            ))}
        </nav>
      )}
      {inactive && <InactivityPopup onBack={backToLogin} />}
    </div>
  );
};

/** /{appid}/: the first menu item. */
export const AppHome = () => {
  const { sections, appParam } = useShell();
  const first = firstItem(sections);
  return first ? <Navigate to={`/${appParam}/${first.to}`} replace /> : <NotFoundPage />;
};

/** /{appid}/n/{uniqueName}: the menu item of that unique name (entity items only). */
export const MenuByName = () => {
  const { sections, appParam } = useShell();
  const { uniqueName } = useParams();
  const item = sections.flatMap((s) => s.items).find((i) => i.uniqueName === uniqueName && i.kind === 'entity');
  return item ? <Navigate to={`/${appParam}/${item.to}`} replace /> : <NotFoundPage />;
};
