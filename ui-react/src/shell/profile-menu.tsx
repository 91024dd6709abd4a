import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate } from 'react-router';
import { isAdministrator, type Language } from '@tessera/core/internal';
import { useApi } from '../api/context.js';
import { LANGUAGE_NAMES, language, offeredLanguages, setLanguage, useT } from '../i18n.js';
import { clearSessionCache, session } from '../state/session.js';
import { setTheme, theme, type Theme } from '../state/theme.js';
import { Icon } from '../ui/icons.js';
import { openChangePasswordDialog } from '../admin/change-password-dialog.js';
import { usePopover } from './use-popover.js';

/** The profile menu: who is signed in, theme, language, Edit profile, Reload, Logout. */
export const ProfileMenu = () => {
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
            <button
              type="button"
              className="menu-row"
              onClick={() => {
                setOpen(false);
                openChangePasswordDialog({ userId: u.id, askOld: true }, api);
              }}
            >
              <Icon name="settings" /> {t('CmdChangePasswordDialog')}
            </button>
            {/* Issue 18: administrators see how sign-in providers are set up. */}
            {isAdministrator(s.caller) && (
              <button
                type="button"
                className="menu-row"
                onClick={() => {
                  setOpen(false);
                  navigate('/!/signinproviders');
                }}
              >
                <Icon name="user" /> {t('PvTitle')}
              </button>
            )}
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
