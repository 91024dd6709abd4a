import type { ApiClient } from '../api/client.js';
import { appendErrorLog } from '../core.js';
import { session } from './session.js';

/** Spec 000 section 8: script and render errors go to /api/apperror, except on localhost. */
export const isLocalhost = (host: string): boolean => host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');

/** The ResizeObserver loop warning is not an error worth reporting. */
export const isIgnoredError = (message: string): boolean => /ResizeObserver loop/.test(message);

const LOG_KEY = 'tessera.errorLog';

/** Spec 000 section 8: errors are kept in a session log under 1,000,000 characters (the older half trimmed). */
const logError = (entry: string): void => {
  try {
    sessionStorage.setItem(LOG_KEY, appendErrorLog(sessionStorage.getItem(LOG_KEY) ?? '', `${new Date().toISOString()} ${entry}`));
  } catch {
    /* storage full or disabled */
  }
};

export const reportError = (api: ApiClient, error: unknown, context: string): void => {
  const message = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  if (isIgnoredError(message)) return;
  logError(`${context}: ${message}`);
  if (isLocalhost(location.hostname)) return;
  const s = session.value;
  void api.appError({
    message,
    user: s?.context.user.emailaddress ?? '',
    appId: s?.context.appId ?? '',
    orgName: s?.context.orgName ?? '',
    context,
    navigator: navigator.userAgent,
    url: location.href,
  });
};

export const installErrorReporting = (api: ApiClient): void => {
  window.addEventListener('error', (e) => {
    const message = e.message ?? '';
    // Spec 000 section 4: a script that loaded as HTML ("Unexpected token '<'") means a stale build: refresh.
    if (/Unexpected token '?<'?/.test(message)) {
      location.reload();
      return;
    }
    reportError(api, e.error ?? message, 'window.onerror');
  });
  window.addEventListener('unhandledrejection', (e) => reportError(api, e.reason, 'unhandledrejection'));
};
