import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { DELAYS, goToReturnUrl } from './organization.js';
import { Field } from './public-layout.js';

export type ChangeReason = 'INVITE' | 'USER_FORGOT' | 'ADMIN_CHANGE' | string;

/**
 * The password-change form of the magic-link flow and of a forced change (spec 000 section 4):
 * both entries equal and non-empty; a change redirects after 1 s.
 */
export const PasswordChange = ({
  reason,
  organization,
  username,
  proof,
  ret,
}: {
  reason: ChangeReason;
  organization: string;
  username: string;
  /** the old password or the link's token */
  proof: string;
  ret?: string | null;
}) => {
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const [pw, setPw] = useState('');
  const [pw2, setPw2] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const intro = reason === 'INVITE' ? t('MsgInviteWelcome') : reason === 'USER_FORGOT' ? t('MsgForgotChoose') : reason === 'ADMIN_CHANGE' ? t('MsgAdminChange') : t('MsgMustChange');
  const mismatch = pw2 !== '' && pw !== pw2;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (pw === '' || pw2 === '') return setError(t('MsgPasswordsEmpty'));
    if (pw !== pw2) return setError(t('MsgPasswordsDoNotMatch'));
    setBusy(true);
    setError('');
    const answer = await api.mustChangePassword({ username, password: proof, organization, newPassword: pw });
    setBusy(false);
    if (answer.ok) {
      setDone(true);
      setTimeout(() => goToReturnUrl(ret, navigate), DELAYS.afterPasswordChange);
    } else setError(answer.failure.message || answer.failure.reason);
  };
  if (done) return <p className="notice success" role="status">{t('MsgPasswordChanged')}</p>;
  return (
    <form onSubmit={submit} className="stack" noValidate>
      <p className="muted">{intro}</p>
      <Field id="newPassword" label={t('LblNewPassword')} type="password" autoComplete="new-password" value={pw} onChange={(e) => setPw(e.target.value)} />
      <Field id="confirmPassword" label={t('LblConfirmPassword')} type="password" autoComplete="new-password" value={pw2} onChange={(e) => setPw2(e.target.value)} aria-invalid={mismatch} />
      {mismatch && <p className="error-text">{t('MsgPasswordsDoNotMatch')}</p>}
      {error && !mismatch && <p className="error-text" role="alert">{error}</p>}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy || pw === '' || pw2 === '' || pw !== pw2}>
        {reason === 'INVITE' ? t('CmdContinue') : t('CmdChangePassword')}
      </button>
    </form>
  );
};
