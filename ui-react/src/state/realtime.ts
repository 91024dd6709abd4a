import type { ApiClient, ChangeEvent } from '../api/client.js';

/** The browser event name raised for each change (spec 000 section 4, API.md "Realtime"). */
export const objectChangedEvent = (entity: string): string => `objectChanged:${entity}`;
/** Entities whose change means the metadata changed. */
const METADATA_ENTITIES = new Set(['inu_view', 'inu_role', 'inu_app', 'inu_metadata', 'inu_localize']);
export const METADATA_CHANGED_EVENT = 'tessera:metadataChanged';

/** Events older than the stream's start are skipped (spec 000 section 4). */
export const isFresh = (e: ChangeEvent, since: string): boolean => {
  const stamp = Date.parse(e.stamp);
  return Number.isNaN(stamp) || stamp >= Date.parse(since);
};

/**
 * The realtime stream of the caller's organization: open while the tab is visible, closed when
 * hidden and reopened from the hidden time. Returns a function that stops it.
 */
export const startRealtime = (api: ApiClient): (() => void) => {
  let source: EventSource | null = null;
  let stopped = false;
  let since = new Date().toISOString();
  let retry: ReturnType<typeof setTimeout> | undefined;

  const open = async () => {
    if (stopped || source || document.hidden) return;
    try {
      const token = await api.sseToken();
      if (stopped || document.hidden) return;
      const from = since;
      source = new EventSource(api.streamUrl(token, from));
      source.onmessage = (m) => {
        let e: ChangeEvent;
        try {
          e = JSON.parse(m.data as string) as ChangeEvent;
        } catch {
          return;
        }
        if (!e.entity || !isFresh(e, from)) return;
        window.dispatchEvent(new CustomEvent(objectChangedEvent(e.entity), { detail: e }));
        if (METADATA_ENTITIES.has(e.entity)) window.dispatchEvent(new Event(METADATA_CHANGED_EVENT));
      };
      source.onerror = () => {
        // A dropped stream is reopened from now on; the server's token is short-lived, so ask again.
        close();
        retry = setTimeout(() => void open(), 5000);
      };
    } catch {
      retry = setTimeout(() => void open(), 15_000);
    }
  };
  const close = () => {
    source?.close();
    source = null;
  };
  const onVisibility = () => {
    if (document.hidden) {
      since = new Date().toISOString();
      close();
    } else void open();
  };
  document.addEventListener('visibilitychange', onVisibility);
  void open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    close();
    document.removeEventListener('visibilitychange', onVisibility);
  };
};
