import { useSignals } from '@preact/signals-react/runtime';
import { isLeft } from 'fp-ts/lib/Either.js';
import { useEffect, useId, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiContext, apiClient, useApi } from '../api/context.js';
import type { ApiClient } from '../api/client.js';
import { useT, type T } from '../i18n.js';
import { session } from '../state/session.js';
import { alertDialog, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import type { Entity, FetchRequest } from '../core.js';
import { checkQueryText, exportModel, exportQueryOf, type ExportModel, type ExportTarget, type QueryProblem } from './export-model.js';

/**
 * The Export dialog (spec 002 section 2: titled Export, with a download command): Export Records
 * All or Selected, Format, File Name, Calculate totals and Edit Query. The file is downloaded by
 * the browser itself from a one-time link, so it streams to disk (issue 17).
 */

/** Starts the browser's own download of a link: an <a download> click (the server sends the file as an attachment). */
export const browserDownload = (url: string, fileName: string): void => {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
};

const problemText = (t: T, p: QueryProblem): string =>
  p._tag === 'Json' ? t('MsgExportQueryJson', { error: p.error }) : p._tag === 'Entity' ? t('MsgExportQueryEntity', { entity: p.entity }) : p.error;

const extensionOf = (format: string): string => `.${format}`;

export type ExportDialogProps = ExportTarget & { onClose: () => void };

export const ExportDialog = ({ onClose, ...target }: ExportDialogProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const ids = useId();
  const s = session.value;
  const model: ExportModel | null = useMemo(
    () => (s ? exportModel({ ...target, api, caller: s.caller, entities: s.entities, download: browserDownload }) : null),
    // One model per opening of the dialog.
    [],
  );
  useEffect(() => {
    if (!model) return;
    void model.init().then(() => {
      if (model.optionsError.value) void alertDialog(t('MsgExportOptionsInvalid', { error: model.optionsError.value }), t('CmdOk'));
    });
    return () => model.stop();
  }, [model, t]);
  if (!model) return null;

  const status = model.status.value;
  const query = model.query.value;
  const close = () => {
    model.stop();
    onClose();
  };
  const editQuery = async () => {
    const { openSetupQueryDialog } = await import('../setup-query/setup-query-dialog.js');
    const entities = session.value?.entities ?? {};
    await openSetupQueryDialog({
      initial: model.queryText.value,
      entities,
      entity: model.entity.logicalName,
      extraCheck: (_request, text) => {
        const r = checkQueryText(text, model.entity, entities);
        return isLeft(r) ? problemText(t, r.left) : null;
      },
      onSave: (request) => {
        // The export runs the edited query from now on (the model reads queryText while editing).
        model.queryText.value = JSON.stringify(request, null, 2);
        model.editing.value = true;
        return null;
      },
    });
  };
  const download = async () => {
    if (await model.start()) {
      const st = model.status.value;
      toast(t('MsgExportStarted', { file: st._tag === 'Started' ? st.fileName : '' }), 'info');
      onClose();
    }
  };

  return (
    <Modal id="exportDialog" title={t('CmdExport')} onClose={close}>
      <form
        className="export-dialog"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void download();
        }}
      >
        <p className="export-entity">
          <strong>{model.entity.displayNamePlural}</strong>
        </p>
        <fieldset className="export-records" disabled={model.busy.value}>
          <legend>{t('LblExportRecords')}</legend>
          <label>
            <input type="radio" name={`${ids}-records`} checked={model.records.value === 'all'} onChange={() => (model.records.value = 'all')} />
            {t('LblExportAll')}
          </label>
          {model.canSelect && (
            <label>
              <input type="radio" name={`${ids}-records`} checked={model.records.value === 'selected'} onChange={() => (model.records.value = 'selected')} />
              {t('LblExportSelected')} <span className="badge export-count">{model.selectedCount}</span>
            </label>
          )}
        </fieldset>
        <div className="export-row">
          <div className="field">
            <label htmlFor={`${ids}-format`}>{t('LblExportFormat')}</label>
            <select id={`${ids}-format`} value={model.format.value} disabled={model.busy.value} onChange={(e) => (model.format.value = e.target.value as typeof model.format.value)}>
              {model.formats.value.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </div>
          <div className="field export-file">
            <label htmlFor={`${ids}-file`}>{t('LblExportFileName')}</label>
            <div className="export-file-input">
              <input
                id={`${ids}-file`}
                value={model.fileName.value}
                disabled={model.busy.value}
                aria-invalid={model.fileName.value.trim() === ''}
                onChange={(e) => model.setFileName(e.target.value)}
              />
              <span className="muted" aria-hidden="true">
                {extensionOf(model.format.value)}
              </span>
            </div>
          </div>
        </div>
        <label className="export-check">
          <input type="checkbox" checked={model.totals.value} disabled={model.busy.value} onChange={(e) => (model.totals.value = e.target.checked)} />
          {t('LblExportTotals')}
        </label>
        <div>
          {/* Issue 15: Edit Query opens the Setup Query dialog; the export's own rules (exportable columns) join the engine's. */}
          <button type="button" className="btn btn-link" onClick={() => void editQuery()} disabled={model.busy.value}>
            {t('CmdEditQuery')}
          </button>
        </div>
        {isLeft(query) && (
          <p className="error-text" role="alert">
            {problemText(t, query.left)}
          </p>
        )}
        {status._tag === 'Preparing' && (
          <div className="export-progress" role="status">
            <span>{status.total === null ? t('MsgExportPreparing') : t('MsgExportProgress', { rows: status.rows, total: status.total })}</span>
            <progress max={status.total ?? undefined} value={status.total === null ? undefined : status.rows} />
          </div>
        )}
        {status._tag === 'Failed' && (
          <p className="error-text" role="alert">
            {t('MsgExportFailed', { error: status.message })}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-plain" onClick={close}>
            {t('CmdCancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!model.canDownload.value} aria-busy={model.busy.value}>
            <Icon name={model.busy.value ? 'hourglass' : 'export'} /> {t('CmdDownload')}
          </button>
        </div>
      </form>
    </Modal>
  );
};

/**
 * Opens the Export dialog over whatever screen asks (a list's Export command, the export page):
 * the dialog lives in a root of its own and goes away when closed.
 */
export const openExportDialog = (target: ExportTarget, api: ApiClient = apiClient): void => {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const close = () => {
    // After the dialog's own events are done.
    setTimeout(() => {
      root.unmount();
      host.remove();
    });
  };
  root.render(
    <ApiContext.Provider value={api}>
      <ExportDialog {...target} onClose={close} />
    </ApiContext.Provider>,
  );
};

/** A list's Export command: the dialog on the list's current query (its view's columns) and its selected rows. */
export const openListExportDialog = (o: { entity: Entity; request: FetchRequest; columns: readonly string[]; selectedIds: readonly string[] }, api?: ApiClient): void =>
  openExportDialog({ entity: o.entity, query: exportQueryOf(o.entity, o.request, o.columns), selectedIds: o.selectedIds }, api);
