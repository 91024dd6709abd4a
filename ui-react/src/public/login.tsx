import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { KEYS, local } from '../state/storage.js';
import { DELAYS, goToReturnUrl, initialOrganization, splitOrganization } from './organization.js';
import { Field, PublicLayout } from './public-layout.js';
import { PasswordChange } from './password-change.js';

const PROVIDERS = [
  { id: 'google', label: 'Google' },
  { id: 'facebook', label: 'Facebook' },
  { id: 'apple', label: 'Apple' },
  { id: 'azure', label: 'Microsoft' },
] as const;

/** /login (spec 000 sections 2, 4, 5). */
export const LoginPage = () => {
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnUrl = params.get('returnUrl');
  const [org, setOrg] = useState(() => initialOrganization(location.hostname, params.get('org'), local.get(KEYS.loginOrganization)));
  const [email, setEmail] = useState(() => local.get(KEYS.loginEmail) ?? '');
  const [password, setPassword] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'welcome'>('idle');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [mustChange, setMustChange] = useState<string | null>(null);

  const target = splitOrganization(org);
  const remember = () => {
    api.setHost(target.host);
    local.set(KEYS.loginOrganization, org);
    local.set(KEYS.loginEmail, email);
  };

  const signIn = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target.organization || !email || !password) return;
    remember();
    setState('sending');
    setError('');
    setNotice('');
    const answer = await api.login(target.organization, email, password);
    if (answer.ok) {
      setState('welcome');
      setTimeout(() => goToReturnUrl(returnUrl, navigate), DELAYS.afterLogin);
      return;
    }
    setState('idle');
    if (answer.failure.reason === 'ERR_MUST_CHANGE_PWD') setMustChange(answer.failure.message || 'ADMIN_CHANGE');
    else setError(answer.failure.reason && answer.failure.message ? answer.failure.message : answer.failure.reason || answer.failure.message);
  };

  const sendLink = async (reason?: 'USER_FORGOT') => {
    remember();
    setState('sending');
    setError('');
    try {
      const answer = await api.getMagic({ username: email, organization: target.organization, ret: returnUrl ?? undefined, reason });
      if (answer.message === 'OK_CHECK_EMAIL' || answer.message === 'OK_SEND_MAGIC') setNotice(`${t('MsgLinkSent')}. ${t('MsgCheckEmail')}`);
      else setError(answer.message || answer.reason || answer.raw);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
    setState('idle');
  };

  if (mustChange) {
    return (
      <PublicLayout title={t('CmdChangePassword')}>
        <PasswordChange reason={mustChange} organization={target.organization} username={email} proof={password} ret={returnUrl} />
      </PublicLayout>
    );
  }

  const busy = state !== 'idle';
  return (
    <PublicLayout title={t('MsgSignInTitle')}>
      <form onSubmit={signIn} className="stack" noValidate aria-busy={state === 'sending'}>
        <Field id="organization" label={t('LblOrganization')} autoComplete="organization" value={org} onChange={(e) => setOrg(e.target.value)} required />
        <Field id="email" label={t('LblEmail')} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
        <Field id="password" label={t('LblPassword')} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        {state === 'welcome' && (
          <p className="notice success" role="status">
            {t('MsgWelcomeBack')}
          </p>
        )}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !target.organization || !email || !password}>
          {state === 'sending' ? t('MsgSigningIn') : t('CmdSignIn')}
        </button>
        <div className="row-between">
          <button type="button" className="btn btn-link" disabled={busy || !target.organization || !email} onClick={() => sendLink()}>
            {t('CmdSendMagicLink')}
          </button>
          <button type="button" className="btn btn-link" disabled={busy || !target.organization || !email} onClick={() => sendLink('USER_FORGOT')}>
            {t('CmdForgotPassword')}
          </button>
        </div>
      </form>
      <div className="divider">
        <span>{t('MsgOrContinueWith')}</span>
      </div>
      <div className="providers">
        {PROVIDERS.map((p) => (
          <button
            key={p.id}
            type="button"
            className="btn btn-outline"
            disabled={!target.organization}
            aria-label={t('CmdSignInWith', { provider: p.label })}
            title={t('CmdSignInWith', { provider: p.label })}
            onClick={() => {
              remember();
              location.href = api.providerUrl(p.id, target.organization, returnUrl ?? '/');
            }}
          >
            {p.label}
          </button>
        ))}
      </div>
      {/* Spec 000 section 2: the Free Trial link exists but is hidden. */}
      <a href="/trial" hidden>
        {t('CmdFreeTrial')}
      </a>
    </PublicLayout>
  );
};
