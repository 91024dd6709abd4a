import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useState } from 'react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { useApi } from '../api/context.js';
import { language, useT } from '../i18n.js';
import { useMetadataTexts } from '../state/metadata-texts.js';
import { parsedBody, session } from '../state/session.js';
import { KEYS, session as sessionStore } from '../state/storage.js';
import { Icon } from '../ui/icons.js';
import { Brand } from '../public/public-layout.js';
import { isWorkingRoute } from './coming-pages.js';
import { entityOfPath, menuOf, menuShowsEntity, resolveApp } from './menu.js';
import { NotFoundPage, RenderErrorBoundary } from './error-pages.js';
import { AppsMenu } from './apps-menu.js';
import { InactivityPopup } from './inactivity-popup.js';
import { ItemLabel, MenuLink } from './menu-link.js';
import { ProfileMenu } from './profile-menu.js';
import { useSessionWatch } from './session-watch.js';
import type { ShellContext } from './shell-context.js';
import { useMedia } from './use-media.js';

const MOBILE_WIDTH = 500;
const MOBILE_ITEMS = 4;

/** The shell around the screens: header (Apps, Menu, profile), side menu, bottom bar on mobile, the inactivity popup. */
export const Shell = () => {
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
  // '!' on a list or form goes to an app whose menu has that entity (issue 23 item 12).
  const entity = appId === '!' ? entityOfPath(loc.pathname) : undefined;
  const app = useMemo(
    () =>
      resolveApp(appId, s.context.apps, sessionStore.get(KEYS.appId), entity === undefined ? undefined : (a) => menuShowsEntity(menuOf(a, s.context.gui, s.caller, parsedBody), entity)),
    [appId, entity, s],
  );
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
      {/* The phone's bottom bar: the first working screens (a not-yet-built page stays in the menu, marked). */}
      {mobile && flat.length > 0 && (
        <nav className="bottom-bar" aria-label={t('LblMenu')}>
          {flat
            .filter((i) => !i.external && isWorkingRoute(i.to))
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
