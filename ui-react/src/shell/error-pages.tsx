import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { apiClient } from '../api/context.js';
import { t, useT } from '../i18n.js';
import { reportError } from '../state/app-errors.js';

/** 'Page not found' with the path (spec 000 section 2). */
export const NotFoundPage = () => {
  const tr = useT();
  const loc = useLocation();
  return (
    <section className="error-page" aria-labelledby="nf-title">
      <h1 id="nf-title">{tr('MsgPageNotFound')}</h1>
      <p className="muted mono">{loc.pathname}</p>
      <a className="btn btn-primary" href="/!/">
        {tr('CmdBack')}
      </a>
    </section>
  );
};

/** The router's error page: 'Unexpected Application Error!' with the status and status text, or the message. */
export const RouteErrorPage = () => {
  const tr = useT();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <section className="error-page" role="alert">
      <h1>{tr('MsgUnexpectedError')}</h1>
      <p className="mono">{detail}</p>
    </section>
  );
};

/** The render-error page: 'Something went wrong', the message and 'Please contact support.'; the error is reported. */
export class RenderErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    reportError(apiClient, error, `render ${info.componentStack ?? ''}`);
  }
  override componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section className="error-page" role="alert">
        <h1>{t('MsgSomethingWentWrong')}</h1>
        <p className="mono">{this.state.error.message}</p>
        <p>{t('MsgContactSupport')}</p>
      </section>
    );
  }
}
