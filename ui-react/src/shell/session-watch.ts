import { useEffect, useState } from 'react';
import { UNAUTHORIZED_EVENT } from '../api/client.js';
import { useApi } from '../api/context.js';
import { t } from '../i18n.js';
import { sasRenewalDue } from '../core.js';
import { loadSession, metadataExpired, newerBuildOut, PAGE_LOADED_AT, refreshSession, session } from '../state/session.js';
import { METADATA_CHANGED_EVENT, startRealtime } from '../state/realtime.js';
import { toast } from '../ui/dialogs.js';
import { startReminderWatch } from '../activity/reminder-watch.js';

/** Watches the session: 401 popup, metadata age, metadata changes, newer builds, realtime. */
export const useSessionWatch = () => {
  const api = useApi();
  const [inactive, setInactive] = useState(false);
  useEffect(() => {
    const onUnauthorized = () => {
      if (session.value) setInactive(true);
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    const reload = async () => {
      try {
        const s = await loadSession(api);
        if (newerBuildOut(s.context.buildDate, PAGE_LOADED_AT, Date.now())) {
          toast(t('MsgNewVersion'), 'info');
          setTimeout(() => location.reload(), 1000);
        }
      } catch {
        /* a 401 shows the popup; other failures keep the old metadata */
      }
    };
    const tick = setInterval(() => {
      if (session.value && metadataExpired(session.value, Date.now())) void reload();
      // File links are signed for an hour (issue 18): a fresh signature before this one runs out.
      else if (session.value && sasRenewalDue(session.value.context.sas, Date.now())) void refreshSession(api).catch(() => undefined);
    }, 60_000);
    const onMeta = () => void reload();
    window.addEventListener(METADATA_CHANGED_EVENT, onMeta);
    const stop = startRealtime(api);
    const stopReminders = startReminderWatch(api); // issue 18: due reminders as notifications
    return () => {
      stopReminders();
      window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
      window.removeEventListener(METADATA_CHANGED_EVENT, onMeta);
      clearInterval(tick);
      stop();
    };
  }, [api]);
  useEffect(() => {
    if (!inactive) return;
    // The popup goes when the tab is visible again and the token call succeeds.
    const check = async () => {
      if (document.hidden) return;
      try {
        await api.sseToken();
        setInactive(false);
      } catch {
        /* still signed out */
      }
    };
    const onMessage = (e: MessageEvent) => {
      if (e.origin === location.origin && (e.data as { type?: string })?.type === 'tessera:popupLogin') void check();
    };
    document.addEventListener('visibilitychange', check);
    window.addEventListener('message', onMessage);
    return () => {
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('message', onMessage);
    };
  }, [inactive, api]);
  const backToLogin = () => {
    const w = window.open(`/login?returnUrl=${encodeURIComponent('/popupLogin')}`, 'tesseraLogin', 'width=480,height=680');
    if (!w) location.href = `/login?returnUrl=${encodeURIComponent(location.pathname + location.search)}`;
  };
  return { inactive, backToLogin };
};
