import { useSignals } from '@preact/signals-react/runtime';
import { createRoot } from 'react-dom/client';
import { ApiContext, apiClient } from '../api/context.js';
import type { ApiClient } from '../api/client.js';
import { useT } from '../i18n.js';
import { entityOf } from '../state/session.js';
import { Modal } from '../ui/modal.js';
import { ImportPanel, useImportModel } from './import-panel.js';

/**
 * The 'Import Records' modal with a Close command (spec 002 section 2), opened from a list's
 * Import command on the list's object (the object selector is turned off). Close waits while
 * rows are being written (Cancel stops them after the current batch).
 */
const ImportDialog = ({ entity, onClose }: { entity: string; onClose: (imported: boolean) => void }) => {
  useSignals();
  const t = useT();
  const model = useImportModel(entity);
  const writing = model?.phase.value === 'writing';
  const close = () => {
    if (writing) return;
    onClose((model?.outcome.peek()?.imported ?? 0) > 0);
  };
  return (
    <Modal id="importRecordsDialog" title={`${t('TitleImportRecords')}: ${entityOf(entity)?.displayNamePlural ?? entity}`} onClose={close} wide>
      {model ? <ImportPanel model={model} /> : <div className="spinner" aria-busy="true" />}
      <div className="modal-actions">
        <button type="button" className="btn btn-plain" onClick={close} disabled={writing}>
          {t('CmdClose')}
        </button>
      </div>
    </Modal>
  );
};

/**
 * Opens Import Records over the current screen, in a root of its own that goes away when closed;
 * `onClosed(imported)` tells the list whether to reload.
 */
export const openImportDialog = (entity: string, onClosed?: (imported: boolean) => void, api: ApiClient = apiClient): void => {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const close = (imported: boolean) => {
    setTimeout(() => {
      root.unmount();
      host.remove();
      onClosed?.(imported);
    });
  };
  root.render(
    <ApiContext.Provider value={api}>
      <ImportDialog entity={entity} onClose={close} />
    </ApiContext.Provider>,
  );
};
