import { useSignals } from '@preact/signals-react/runtime';
import { useId, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useT, type T } from '../i18n.js';
import { alertDialog, confirmDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import type { FetchRequest } from '../core.js';
import { setupQueryModel, type SetupQueryOptions, type SetupQueryStatus } from './setup-query-model.js';

/**
 * The Setup Query dialog (spec 002 section 2: text/JSON edit, import, export as fetch.json, save,
 * close; importing invalid JSON shows an alert). The query is checked as typed by the core and a
 * problem names its path. Save hands the query to the screen that opened the dialog, which may
 * write it (a view's record) and answer an error text to show.
 */
export type SetupQueryDialogProps = SetupQueryOptions & {
  title?: string;
  /** Takes the checked query; answers null when done (the dialog closes), else the error to show. */
  onSave: (request: FetchRequest) => Promise<string | null> | string | null;
  onClose: () => void;
};

/** The status line under the editor. */
export const statusText = (t: T, s: SetupQueryStatus): string => {
  switch (s._tag) {
    case 'Valid':
      return t('SqValid');
    case 'Json':
      return s.line !== undefined ? t('SqJsonAt', { line: s.line, column: s.column ?? 1, error: s.message }) : t('SqJsonProblem', { error: s.message });
    case 'Invalid':
      return s.path ? t('SqInvalidAt', { path: s.path, error: s.message }) : s.message;
    case 'Refused':
      return s.message;
  }
};

/** Downloads a text as a file of the browser (Export: fetch.json). */
const downloadText = (name: string, text: string): void => {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

export const SetupQueryDialog = ({ title, onSave, onClose, ...options }: SetupQueryDialogProps) => {
  useSignals();
  const t = useT();
  const ids = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  // One model per opening of the dialog.
  const model = useMemo(() => setupQueryModel(options), []);
  const status = model.status.value;
  const ok = status._tag === 'Valid';

  const close = async () => {
    if (model.dirty.value && !(await confirmDialog(t('MsgDiscardChanges'), t('MsgDiscardChanges'), t('MsgContinueEditing'), true))) return;
    onClose();
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    const r = model.importText(await file.text());
    if (r._tag === 'NotJson') await alertDialog(t('SqBadJson', { file: file.name, error: r.message }), t('CmdOk'));
  };
  const exportFile = async () => {
    const f = model.exportFile();
    if (!f) return alertDialog(t('SqJsonProblem', { error: statusText(t, status) }), t('CmdOk'));
    downloadText(f.name, f.text);
  };
  const save = async () => {
    const r = model.saveResult();
    if (r._tag === 'Json') return alertDialog(t('SqBadJsonSave', { error: statusText(t, r) }), t('CmdOk'));
    if (r._tag !== 'Valid') return alertDialog(statusText(t, r), t('CmdOk'));
    setSaving(true);
    setSaveError(null);
    try {
      const error = await onSave(r.request);
      if (error === null) onClose();
      else setSaveError(error);
    } catch (e) {
      setSaveError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal id="setupQueryDialog" title={title ?? t('SqTitle')} onClose={() => void close()} wide>
      <div className="setup-query">
        <div className="command-bar" role="toolbar" aria-label={t('SqTitle')}>
          <button type="button" className="btn btn-plain" onClick={() => fileRef.current?.click()}>
            <Icon name="upload" /> {t('SqCmdImport')}
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".json,application/json,text/plain"
            className="sr-only"
            tabIndex={-1}
            aria-label={t('SqCmdImport')}
            data-testid="setup-query-file"
            onChange={(e) => {
              void importFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <button type="button" className="btn btn-plain" onClick={() => void exportFile()}>
            <Icon name="download" /> {t('SqCmdExport')}
          </button>
          <button type="button" className="btn btn-plain" onClick={model.format}>
            <Icon name="list" /> {t('SqCmdFormat')}
          </button>
        </div>
        <label htmlFor={`${ids}-text`} className="field-label">
          {t('SqQuery')}
        </label>
        <textarea
          id={`${ids}-text`}
          className="setup-query-text"
          spellCheck={false}
          autoFocus
          rows={18}
          value={model.text.value}
          aria-invalid={!ok}
          aria-describedby={`${ids}-status ${ids}-help`}
          onChange={(e) => (model.text.value = e.target.value)}
          onKeyDown={(e) => {
            // Ctrl+S saves; Escape closes (the dialog's own).
            if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
              e.preventDefault();
              void save();
            }
          }}
        />
        <p id={`${ids}-status`} className={ok ? 'doc-valid setup-query-status' : 'error-text setup-query-status'} role={ok ? 'status' : 'alert'} data-status={status._tag}>
          {ok && <Icon name="check" />} {statusText(t, status)}
        </p>
        <p id={`${ids}-help`} className="muted small">
          {t('SqHelp')}
        </p>
        {saveError && (
          <p className="error-text" role="alert">
            {t('SqSaveFailed', { error: saveError })}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-plain" onClick={() => void close()}>
            {t('CmdClose')}
          </button>
          <button type="button" className="btn btn-primary" disabled={saving} aria-busy={saving} onClick={() => void save()}>
            <Icon name={saving ? 'hourglass' : 'save'} /> {t('CmdSave')}
          </button>
        </div>
      </div>
    </Modal>
  );
};

/**
 * Opens the Setup Query dialog over any screen (a list's view, the export dialog, the inu_view
 * editor): it lives in a root of its own and goes away when closed. Answers the saved query, or
 * null when closed without saving.
 */
export const openSetupQueryDialog = (props: Omit<SetupQueryDialogProps, 'onClose'>): Promise<FetchRequest | null> =>
  new Promise((resolve) => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    let saved: FetchRequest | null = null;
    const close = () =>
      setTimeout(() => {
        root.unmount();
        host.remove();
        resolve(saved);
      });
    root.render(
      <SetupQueryDialog
        {...props}
        onSave={async (request) => {
          const error = await props.onSave(request);
          if (error === null) saved = request;
          return error;
        }}
        onClose={close}
      />,
    );
  });
