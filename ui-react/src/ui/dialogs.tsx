import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef } from 'react';
import { useT } from '../i18n.js';
import { ServerError } from '../api/client.js';
import { toasts } from './toast.js';

/**
 * Modal questions and alerts as promises, drawn by one host with the native <dialog> element
 * (focus stays inside, Escape cancels, the page behind is inert).
 */
export type DialogButton = { id: string; label: string; kind?: 'primary' | 'danger' | 'plain' };
type Pending = { title?: string; message: string; buttons: DialogButton[]; cancelId: string; resolve: (id: string) => void; tone?: 'error' | 'info' };

const pending = signal<Pending | null>(null);

export const ask = (p: Omit<Pending, 'resolve'>): Promise<string> =>
  new Promise((resolve) => {
    pending.value = { ...p, resolve };
  });

export const confirmDialog = async (message: string, yes: string, no: string, danger = false): Promise<boolean> =>
  (await ask({ message, cancelId: 'no', buttons: [{ id: 'no', label: no, kind: 'plain' }, { id: 'yes', label: yes, kind: danger ? 'danger' : 'primary' }] })) === 'yes';

export const alertDialog = async (message: string, ok: string, title?: string): Promise<void> => {
  await ask({ title, message, cancelId: 'ok', tone: 'error', buttons: [{ id: 'ok', label: ok, kind: 'primary' }] });
};

/**
 * Alerts a failed operation. A lost session (401) is not alerted: the inactivity popup says it,
 * and an alert on top would hide its Back to Login button.
 */
export const alertFailure = async (e: unknown, ok: string, wrap: (message: string) => string = (m) => m): Promise<void> => {
  if (e instanceof ServerError && e.status === 401) return;
  await alertDialog(wrap(e instanceof Error ? e.message : String(e)), ok);
};

export const DialogHost = () => {
  useSignals();
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const p = pending.value;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (p && !d.open) d.showModal();
    if (!p && d.open) d.close();
  }, [p]);
  const done = (id: string) => {
    const cur = pending.value;
    pending.value = null;
    cur?.resolve(id);
  };
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby="app-dialog-title"
      aria-describedby="app-dialog-message"
      onCancel={(e) => {
        e.preventDefault();
        if (p) done(p.cancelId);
      }}
    >
      {p && (
        <div className="modal-body">
          <h2 id="app-dialog-title" className="modal-title">
            {p.title ?? (p.tone === 'error' ? t('MsgSomethingWentWrong') : '')}
          </h2>
          <p id="app-dialog-message" className="modal-message">
            {p.message}
          </p>
          <div className="modal-actions">
            {p.buttons.map((b, i) => (
              <button key={b.id} type="button" className={`btn btn-${b.kind ?? 'plain'}`} autoFocus={i === p.buttons.length - 1} onClick={() => done(b.id)}>
                {b.label}
              </button>
            ))}
          </div>
        </div>
      )}
    </dialog>
  );
};

/** Toasts live in toast.ts (no DOM there, so their timing is unit-tested); imported from here as before. */
export { toast, TOAST_MS } from './toast.js';

export const ToastHost = () => {
  useSignals();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.value.map((x) => (
        <div key={x.id} className={`toast toast-${x.kind}`}>
          {x.text}
        </div>
      ))}
    </div>
  );
};
