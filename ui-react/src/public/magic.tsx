import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { DELAYS, goToReturnUrl } from './organization.js';
import { PublicLayout } from './public-layout.js';
import { PasswordChange } from './password-change.js';

type View =
  | { kind: 'working' }
  | { kind: 'welcome' }
  | { kind: 'linkSent' }
  | { kind: 'change'; reason: string }
  | { kind: 'expired' }
  | { kind: 'broken' }
  | { kind: 'error'; message: string; reason: string };

/**
 * /magic?o&u&q&reason&ret (spec 000 sections 2 and 4): signs in with the link's token, or shows
 * the password-change form, and answers every message of the magic-link table with its delay.
 */
export const MagicPage = () => {
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const o = params.get('o') ?? '';
  const u = params.get('u') ?? '';
  const q = params.get('q') ?? '';
  const reason = params.get('reason') ?? '';
  const ret = params.get('ret');
  const [view, setView] = useState<View>(() => (o && u && q ? { kind: 'working' } : { kind: 'broken' }));
  const started = useRef(false);

  const answer = (message: string, why: string) => {
    switch (message) {
      case 'OK_CHECK_EMAIL':
      case 'OK_SEND_MAGIC':
        setView({ kind: 'linkSent' });
        setTimeout(() => navigate('/'), DELAYS.linkSentReturn);
        return;
      case 'ERR_MUST_CHANGE_PWD':
        setView({ kind: 'change', reason: why || reason });
        return;
      case 'ERR_MAGIC_TIMEOUT':
        setView({ kind: 'expired' });
        return;
      case 'ERR_MAGIC_BROKEN':
        setView({ kind: 'broken' });
        return;
      default:
        setView({ kind: 'error', message: why, reason: message });
        setTimeout(() => navigate('/login'), DELAYS.errorReturn);
    }
  };

  useEffect(() => {
    if (started.current || !(o && u && q)) return;
    started.current = true;
    void (async () => {
      const res = await api.login(o, u, q);
      if (res.ok) {
        setView({ kind: 'welcome' });
        setTimeout(() => goToReturnUrl(ret, navigate), DELAYS.afterLogin);
      } else answer(res.failure.reason, res.failure.message);
    })();
  }, []);

  const resend = async () => {
    setView({ kind: 'working' });
    const res = await api.getMagic({ username: u, organization: o, ret: ret ?? undefined, reason: reason === 'USER_FORGOT' ? reason : undefined });
    answer(res.message, res.reason ?? '');
  };

  switch (view.kind) {
    case 'working':
      return (
        <PublicLayout title={t('MsgSigningIn')}>
          <div className="spinner" aria-label={t('MsgLoading')} />
        </PublicLayout>
      );
    case 'welcome':
      return (
        <PublicLayout title={t('MsgWelcomeBack')}>
          <div className="spinner" aria-hidden="true" />
        </PublicLayout>
      );
    case 'linkSent':
      return (
        <PublicLayout title={t('MsgLinkSent')}>
          <p className="muted">{t('MsgCheckEmail')}</p>
        </PublicLayout>
      );
    case 'change':
      return (
        <PublicLayout title={t('CmdChangePassword')}>
          <PasswordChange reason={view.reason} organization={o} username={u} proof={q} ret={ret} />
        </PublicLayout>
      );
    case 'expired':
      return (
        <PublicLayout title={reason === 'INVITE' ? t('MsgInvitationExpired') : t('MsgSignInLinkExpired')}>
          <p className="muted">{t('MsgMagicFiveMinutes')}</p>
          <button type="button" className="btn btn-primary btn-block" onClick={resend}>
            {t('CmdResendLink')}
          </button>
        </PublicLayout>
      );
    case 'broken':
      return (
        <PublicLayout title={t('MsgSomethingWentWrong')}>
          <p className="error-text">{t('MsgMagicBroken')}</p>
        </PublicLayout>
      );
    case 'error':
      return (
        <PublicLayout title={t('MsgSomethingWentWrong')}>
          <p className="error-text" role="alert">
            {view.message}
          </p>
          <p className="muted">{view.reason}</p>
        </PublicLayout>
      );
  }
};

/** /popupLogin: tells the opener window to close the popup and refresh (spec 000 section 2). */
export const PopupLoginPage = () => {
  const t = useT();
  useEffect(() => {
    try {
      window.opener?.postMessage({ type: 'tessera:popupLogin' }, location.origin);
    } catch {
      /* the opener may be gone */
    }
  }, []);
  return (
    <PublicLayout title={t('MsgLoginComplete')}>
      <span />
    </PublicLayout>
  );
};
