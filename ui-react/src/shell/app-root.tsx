import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useApi } from '../api/context.js';
import { t } from '../i18n.js';
import { cachedSession, loadSession, refreshSession, session, sessionError } from '../state/session.js';
import { Brand } from '../public/public-layout.js';
import { Shell } from './shell.js';

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
