import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useApi } from '../api/context.js';
import type { Puzzle } from '../api/client.js';
import { useT } from '../i18n.js';
import { KEYS, local } from '../state/storage.js';
import { DELAYS, splitOrganization } from './organization.js';
import { Field, PublicLayout } from './public-layout.js';

type Solution = Puzzle & { solved: string };

/** The specification's failure text, with the server's reason when it gives one (`ERR_INPUT: ...`). */
const failureText = (text: string, server: string): string => {
  const reason = /^ERR_[A-Z_0-9]+:\s*(.+)$/s.exec(server.trim())?.[1];
  return reason && reason !== text ? `${text}\n${reason}` : text;
};

/** Fetches the puzzle and solves it in a Web Worker, so the form stays responsive; a new `round` asks for a new one (a puzzle is used once). */
const usePuzzle = (round = 0): Solution | null => {
  const api = useApi();
  const [solution, setSolution] = useState<Solution | null>(null);
  useEffect(() => {
    let worker: Worker | undefined;
    let cancelled = false;
    setSolution(null);
    void api
      .formPuzzle()
      .then((p) => {
        if (cancelled) return;
        worker = new Worker(new URL('./puzzle.worker.ts', import.meta.url), { type: 'module' });
        worker.onmessage = (e: MessageEvent<{ solved?: string }>) => {
          if (e.data.solved !== undefined) setSolution({ ...p, solved: e.data.solved });
          worker?.terminate();
        };
        worker.postMessage({ salt: p.salt, hash: p.hash, difficulty: p.difficulty });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      worker?.terminate();
    };
  }, [api, round]);
  return solution;
};

/** /signup (spec 000 sections 2, 4, 5): organization, name, email, password twice, and the solved puzzle. */
export const SignupPage = () => {
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const puzzle = usePuzzle();
  const [f, setF] = useState({ organization: '', person: '', username: '', password: '', confirm: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });
  const mismatch = f.confirm !== '' && f.password !== f.confirm;
  const complete = f.organization && f.person && f.username && f.password && f.confirm;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (f.password !== f.confirm) return setError(t('MsgPasswordsDoNotMatch'));
    if (!puzzle || !complete) return;
    setBusy(true);
    const org = splitOrganization(f.organization);
    api.setHost(org.host);
    const res = await api.signup({
      organization: org.organization,
      person: f.person,
      username: f.username,
      password: f.password,
      cookie: puzzle.cookie,
      iv: puzzle.iv,
      solved: puzzle.solved,
    });
    setBusy(false);
    if (res.ok) {
      local.set(KEYS.loginOrganization, f.organization);
      local.set(KEYS.loginEmail, f.username);
      setTimeout(() => navigate('/'), DELAYS.afterLogin);
    } else setError(failureText(t('MsgInvalidUsernameOrPassword'), res.text));
  };

  return (
    <PublicLayout title={t('MsgCreateAccount')}>
      <form onSubmit={submit} className="stack" noValidate>
        <Field id="organization" label={t('LblOrganization')} value={f.organization} onChange={set('organization')} autoComplete="organization" />
        <Field id="person" label={t('LblName')} value={f.person} onChange={set('person')} autoComplete="name" />
        <Field id="username" label={t('LblEmail')} type="email" value={f.username} onChange={set('username')} autoComplete="email" />
        <Field id="password" label={t('LblPassword')} type="password" value={f.password} onChange={set('password')} autoComplete="new-password" />
        <Field id="confirm" label={t('LblConfirmPassword')} type="password" value={f.confirm} onChange={set('confirm')} autoComplete="new-password" aria-invalid={mismatch} />
        {mismatch && <p className="error-text">{t('MsgPasswordsDoNotMatch')}</p>}
        {error && !mismatch && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        {!puzzle && <p className="muted small">{t('MsgSolvingPuzzle')}</p>}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !puzzle || !complete || mismatch}>
          {t('CmdSignUp')}
        </button>
      </form>
      <div className="divider">
        <span>{t('MsgOrContinueWith')}</span>
      </div>
      <div className="providers">
        {(['google', 'facebook', 'apple'] as const).map((p) => (
          <button
            key={p}
            type="button"
            className="btn btn-outline"
            disabled={!f.organization || !puzzle}
            aria-label={t('CmdSignUpWith', { provider: p[0].toUpperCase() + p.slice(1) })}
            onClick={() => {
              if (!puzzle) return;
              location.href = api.providerUrl(p, splitOrganization(f.organization).organization, '/', JSON.stringify({ cookie: puzzle.cookie, iv: puzzle.iv, solved: puzzle.solved }));
            }}
          >
            {p[0].toUpperCase() + p.slice(1)}
          </button>
        ))}
      </div>
      <p className="muted small center">
        {t('MsgHaveAccount')} <a href="/login">{t('CmdSignIn')}</a>
      </p>
    </PublicLayout>
  );
};

/**
 * /trial (spec 000 sections 2 and 4): 'Start me up!', WAIT retried every 5 s, then 'Organiztion
 * Created!'. Like sign-up it sends a solved puzzle (issue 22 item 4), solved while the form is filled in.
 */
export const TrialPage = () => {
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const [round, setRound] = useState(0);
  const puzzle = usePuzzle(round);
  const [f, setF] = useState({ organization: '', person: '', username: '', password: '', confirm: '' });
  const [state, setState] = useState<'idle' | 'waiting' | 'created'>('idle');
  const [error, setError] = useState('');
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });
  const mismatch = f.confirm !== '' && f.password !== f.confirm;
  const complete = f.organization && f.person && f.username && f.password && f.confirm && !mismatch;

  const attempt = async (): Promise<void> => {
    if (!puzzle) return;
    const res = await api.trial({
      person: f.person,
      username: f.username,
      password: f.password,
      organization: f.organization,
      cookie: puzzle.cookie,
      iv: puzzle.iv,
      solved: puzzle.solved,
    });
    if (res.ok && res.text === 'WAIT') {
      setTimeout(() => void attempt(), DELAYS.trialRetry);
      return;
    }
    if (res.ok) {
      setState('created');
      setTimeout(() => navigate('/'), DELAYS.afterLogin);
    } else {
      setState('idle');
      setError(failureText(t('MsgInvalidUsernameOrPassword'), res.text));
      // The puzzle may be used up by now: the next try gets a new one.
      setRound((r) => r + 1);
    }
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (f.password !== f.confirm) return setError(t('MsgPasswordsDoNotMatch'));
    if (!complete) return;
    setError('');
    setState('waiting');
    void attempt();
  };

  if (state === 'created')
    return (
      <PublicLayout title={t('MsgOrganizationCreated')}>
        <div className="spinner" aria-hidden="true" />
      </PublicLayout>
    );
  return (
    <PublicLayout title={t('MsgTrialTitle')}>
      <form onSubmit={submit} className="stack" noValidate aria-busy={state === 'waiting'}>
        <Field id="organization" label={t('LblOrganization')} value={f.organization} onChange={set('organization')} />
        <Field id="person" label={t('LblName')} value={f.person} onChange={set('person')} autoComplete="name" />
        <Field id="username" label={t('LblEmail')} type="email" value={f.username} onChange={set('username')} autoComplete="email" />
        <Field id="password" label={t('LblPassword')} type="password" value={f.password} onChange={set('password')} autoComplete="new-password" />
        <Field id="confirm" label={t('LblConfirmPassword')} type="password" value={f.confirm} onChange={set('confirm')} autoComplete="new-password" />
        {mismatch && <p className="error-text">{t('MsgPasswordsDoNotMatch')}</p>}
        {error && !mismatch && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        {state === 'waiting' && <p className="muted">{t('MsgCreatingOrganization')}</p>}
        {!puzzle && <p className="muted small">{t('MsgSolvingPuzzle')}</p>}
        <button type="submit" className="btn btn-primary btn-block" disabled={!complete || !puzzle || state === 'waiting'}>
          {t('CmdStartMeUp')}
        </button>
      </form>
    </PublicLayout>
  );
};
