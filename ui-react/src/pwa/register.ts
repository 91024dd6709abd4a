import { t } from '../i18n.js';
import { confirmDialog } from '../ui/dialogs.js';
import { SKIP_WAITING } from './sw-plan.js';

/**
 * Registers the service worker (dist/sw.js, built from service-worker.ts) in production builds
 * (issue 21: the app starts with no network). Not in `vite dev`: there is no sw.js there, and a
 * worker would serve stale modules.
 *
 * A new version found while the app runs waits; the user is asked once whether to reload into it
 * now. 'Later' leaves it waiting: the browser switches at the next start of the app.
 */
export const registerServiceWorker = (): void => {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const sw = navigator.serviceWorker;
  // The page reloads once when a worker it asked to take over has done so (not on the first install).
  let switching = false;
  sw.addEventListener('controllerchange', () => {
    if (!switching) return;
    switching = false;
    location.reload();
  });
  const offer = async (waiting: ServiceWorker): Promise<void> => {
    if (!(await confirmDialog(t('PwaUpdateReady'), t('CmdReload'), t('PwaLater')))) return;
    switching = true;
    waiting.postMessage(SKIP_WAITING);
  };
  const watch = (reg: ServiceWorkerRegistration): void => {
    // A version installed during an earlier visit and still waiting.
    if (reg.waiting && sw.controller) void offer(reg.waiting);
    reg.addEventListener('updatefound', () => {
      const next = reg.installing;
      next?.addEventListener('statechange', () => {
        // Installed while another version controls the page: an update (else the first install).
        if (next.state === 'installed' && sw.controller) void offer(next);
      });
    });
  };
  const start = (): void => {
    sw.register('/sw.js', { scope: '/' }).then(watch, (e: unknown) => console.warn('service worker not registered', e));
  };
  // After the page's own loading, so precaching does not compete with the first screen.
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
};
