import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { useT, language } from '../i18n.js';
import { apiClient } from '../api/context.js';
import type { ApiClient } from '../api/client.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { downloadBlob, printModel } from './print-model.js';

/** The Print dialog (issue 20): pick a template of the entity and a format, download the document. */
export const PrintDialog = ({ api, entity, recordId, onClose }: { api: ApiClient; entity: string; recordId: string; onClose: () => void }) => {
  useSignals();
  const t = useT();
  const ids = useId();
  const model = useMemo(() => printModel({ api, entity, recordId, language: language.value }), [api, entity, recordId]);
  useEffect(() => {
    void model.load();
  }, [model]);
  const list = model.templates.value;
  const busy = model.generating.value;
  return (
    <Modal id="printDialog" title={t('DocPrintTitle')} onClose={onClose}>
      <form
        className="print-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void model.generate().then((file) => {
            if (!file) return;
            downloadBlob(file.blob, file.fileName);
            onClose();
          });
        }}
      >
        {model.loadError.value ? (
          <p className="error-text" role="alert">
            {model.loadError.value}
          </p>
        ) : list === null ? (
          <p className="muted" aria-busy="true">
            <Icon name="hourglass" /> {t('MsgLoading')}
          </p>
        ) : list.length === 0 ? (
          <p className="muted">{t('DocNoTemplates')}</p>
        ) : (
          <fieldset disabled={busy} className="print-fields">
            <div className="field">
              <label htmlFor={`${ids}-template`}>{t('DocChooseTemplate')}</label>
              <select id={`${ids}-template`} value={model.chosen.value ?? ''} onChange={(e) => model.choose(e.target.value)} autoFocus>
                {list.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name || x.id}
                  </option>
                ))}
              </select>
            </div>
            <div className="field" role="radiogroup" aria-label={t('DocFormat')}>
              <span className="field-label">{t('DocFormat')}</span>
              <div className="print-formats">
                {(['pdf', 'docx'] as const).map((f) => (
                  <label key={f} className="print-format">
                    <input type="radio" name={`${ids}-format`} value={f} checked={model.format.value === f} onChange={() => (model.format.value = f)} />
                    {t(f === 'pdf' ? 'DocFormatPdf' : 'DocFormatWord')}
                  </label>
                ))}
              </div>
            </div>
          </fieldset>
        )}
        {model.error.value && (
          <p className="error-text" role="alert">
            {t('DocFailed', { error: model.error.value })}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-plain" onClick={onClose}>
            {t('CmdCancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!model.chosen.value || busy} aria-busy={busy}>
            <Icon name={busy ? 'hourglass' : 'download'} /> {busy ? t('DocGenerating') : t('DocGenerate')}
          </button>
        </div>
      </form>
    </Modal>
  );
};

/** Opens the Print dialog outside the form's tree (like the password dialog), closed by itself. */
export const openPrintDialog = (entity: string, recordId: string, api: ApiClient = apiClient): void => {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  const close = () =>
    setTimeout(() => {
      root.unmount();
      host.remove();
    });
  root.render(<PrintDialog api={api} entity={entity} recordId={recordId} onClose={close} />);
};
