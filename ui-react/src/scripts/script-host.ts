import type { ApiClient } from '../api/client.js';
import type { ScriptHost } from './sandbox-runner.js';

/**
 * The page's side of the script API (issue 16): reads and writes go through the user's own API
 * client, so the server's permission checks apply exactly as to the user's clicks; dialogs and
 * toasts are the application's own; navigation stays inside the application (the protocol's
 * AppPath refuses other origins). The sandbox never sees the client or its token.
 */
export type ScriptHostDeps = {
  api: Pick<ApiClient, 'fetch' | 'update' | 'executeMultiple'>;
  alert: (text: string) => Promise<void>;
  confirm: (text: string) => Promise<boolean>;
  toast: (text: string, kind?: 'success' | 'info' | 'error') => void;
  navigate: (path: string) => void;
};

export const scriptHost = ({ api, alert, confirm, toast, navigate }: ScriptHostDeps): ScriptHost => ({
  fetch: (query) => api.fetch(query),
  update: async (item) => ({ id: await api.update(item.operation, item.name, item.object) }),
  // All or nothing, as the server's trigger scripts write.
  executeMultiple: (items) => api.executeMultiple(items, { atomic: true }),
  alert: (text) => alert(text),
  confirm: (text) => confirm(text),
  toast: async (...[text, kind]) => toast(text, kind),
  navigate: async (path) => navigate(path),
});
