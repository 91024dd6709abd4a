import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo } from 'react';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { PROVIDER_TITLES, providerRows, providerSettingsModel } from './provider-settings-model.js';

/**
 * /{appid}/signinproviders (issue 18): which sign-in providers the server has and how each is set
 * up, read only; the server answers administrators only and secrets are never sent. The settings
 * themselves are the server's environment (docs/operations.md "Sign-in providers").
 */
export const ProviderSettingsPage = () => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useMemo(() => providerSettingsModel(api), [api]);
  useEffect(() => {
    void model.load();
  }, [model]);
  const a = model.answer.value;

  return (
    <div className="screen provider-settings">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{t('PvTitle')}</h1>
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('PvTitle')}>
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdRefresh')} title={t('CmdRefresh')} onClick={() => void model.load()}>
            <Icon name="refresh" />
          </button>
        </div>
      </div>
      <p className="muted">{t('PvIntro')}</p>
      {model.error.value ? (
        <p className="error-text" role="alert">
          {t('PvLoadFailed', { error: model.error.value })}
        </p>
      ) : !a ? (
        <div className="spinner" aria-busy="true" />
      ) : (
        <>
          <div className="provider-cards">
            {a.providers.map((p) => (
              <section key={p.provider} className={`provider-card${p.configured ? ' on' : ''}`} aria-labelledby={`provider-${p.provider}`}>
                <header>
                  <h2 id={`provider-${p.provider}`}>{PROVIDER_TITLES[p.provider] ?? p.provider}</h2>
                  <span className={`badge ${p.configured ? 'provider-on' : 'provider-off'}`}>
                    <Icon name={p.configured ? 'check' : 'close'} /> {t(p.configured ? 'PvConfigured' : 'PvNotConfigured')}
                  </span>
                </header>
                <dl>
                  {providerRows(p).map((r) => (
                    <div key={r.label}>
                      <dt>{t(r.label)}</dt>
                      <dd className={r.mono ? 'mono' : undefined}>{typeof r.value === 'string' ? r.value : t(r.value.key)}</dd>
                    </div>
                  ))}
                  <div>
                    <dt>{t('PvSettings')}</dt>
                    <dd className="mono small">{p.variables.join(', ')}</dd>
                  </div>
                </dl>
              </section>
            ))}
          </div>
          <dl className="provider-shared">
            <div>
              <dt>{t('PvPublicUrl')} (TESSERA_PUBLIC_URL)</dt>
              <dd className="mono">{a.publicUrl ?? t('PvNone')}</dd>
            </div>
            <div>
              <dt>{t('PvAllowedOrigins')} (TESSERA_AUTH_ALLOWED_ORIGINS)</dt>
              <dd className="mono">{a.allowedOrigins.length > 0 ? a.allowedOrigins.join(', ') : t('PvNone')}</dd>
            </div>
          </dl>
        </>
      )}
    </div>
  );
};
