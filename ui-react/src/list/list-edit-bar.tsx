import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useT, type T } from '../i18n.js';
import { alertDialog, alertFailure, confirmDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { cellId, MassEditDialog } from './list-edit-cells.js';
import { EDIT_ON, SUPER_EDIT, type ListEditModel } from './list-edit-model.js';
import type { ListModel } from './list-model.js';

/** Runs an action of the list unless edits wait to be saved (then says so). */
export type Guard = (action: () => void) => void;

/** Spec 001 section 8: 'Operation not available while editing list.' */
export const notAvailableWhileEditing = (t: T): void => void alertDialog(t('MsgOperationNotAvailable'), t('CmdOk'));

/** Spec 001 section 1: Meta or Alt plus E enters super edit (list edit mode 2) for users with system user level 3. */
export const editShortcut = (e: KeyboardEvent, edit: ListEditModel): void => {
  if (!(e.altKey || e.metaKey) || e.ctrlKey || e.code !== 'KeyE' || !edit.canMassEdit.value) return;
  e.preventDefault();
  edit.setMode(SUPER_EDIT);
};

/**
 * The command bar of edit mode (issue 13 section 1): how many changes wait, Save (one batch),
 * Discard, New row, the super edit switch and its mass actions on the selected rows (Set field,
 * Delete). A refused batch keeps every edit and the rows say why.
 */
export const EditBar = ({ model, edit }: { model: ListModel; edit: ListEditModel }) => {
  useSignals();
  const t = useT();
  const [massEditing, setMassEditing] = useState(false);
  const pending = edit.pending.value;
  const saving = edit.saving.value;
  const superEdit = edit.mode.value === SUPER_EDIT;
  const selected = model.selected.value.size;

  const save = async () => {
    const r = await edit.save();
    if (r._tag === 'Saved') toast(t('MsgChangesSaved', { n: r.written }));
    else if (r._tag === 'RowsFailed') {
      toast(t('MsgBatchNotSaved'), 'error');
      const first = Object.keys(r.errors)[0];
      requestAnimationFrame(() => document.getElementById(cellId(first, 'error'))?.scrollIntoView({ block: 'center' }));
    } else if (r._tag === 'Failed') await alertFailure(r.error, t('CmdOk'));
  };

  const newRow = () => {
    const key = edit.add();
    // Focus the new row's first editable cell once it is drawn.
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>(
          `td[data-key="${key}"] input, td[data-key="${key}"] select, td[data-key="${key}"] textarea`,
        )
        ?.focus(),
    );
  };

  const discard = async () => {
    if (!(await confirmDialog(t('MsgLeaveEditing'), t('CmdDiscardChanges'), t('CmdCancel'), true))) return;
    edit.discard();
    // Changes of others were not shown while edits waited.
    void model.load();
  };

  const needRows = (action: () => void) =>
    selected === 0 ? void alertDialog(t('MsgSelectRowsFirst'), t('CmdOk')) : action();
  const deleteSelected = async () => {
    if (await confirmDialog(t('MsgAskDeleteMany', { n: selected }), t('CmdDelete'), t('CmdCancel'), true))
      edit.massDelete();
  };

  return (
    <div className="edit-bar" role="toolbar" aria-label={t('LblEditMode')}>
      <div className="edit-bar-status">
        <span className={`edit-bar-count ${pending > 0 ? 'on' : ''}`} aria-live="polite">
          {t('MsgPendingChanges', { n: pending })}
        </span>
        <span className="edit-bar-help muted small">{t('MsgEditHelp')}</span>
      </div>
      <div className="edit-bar-actions">
        {edit.canCreate.value && (
          <button type="button" className="btn btn-plain" onClick={newRow}>
            <Icon name="plus" /> {t('CmdNewRow')}
          </button>
        )}
        {edit.canMassEdit.value && (
          <button
            type="button"
            className={`btn btn-plain ${superEdit ? 'active' : ''}`}
            aria-pressed={superEdit}
            title="Alt+E"
            onClick={() => edit.setMode(superEdit ? EDIT_ON : SUPER_EDIT)}
          >
            <Icon name="checklist" /> {t('CmdSuperEdit')}
          </button>
        )}
        {superEdit && (
          <>
            <button type="button" className="btn btn-plain" onClick={() => needRows(() => setMassEditing(true))}>
              <Icon name="settings" /> {t('CmdSetField')} {selected > 0 && <span className="badge">{selected}</span>}
            </button>
            {edit.canDeleteRows.value && (
              <button
                type="button"
                className="btn btn-danger-outline"
                onClick={() => needRows(() => void deleteSelected())}
              >
                <Icon name="trash" /> {t('CmdDelete')} {selected > 0 && <span className="badge">{selected}</span>}
              </button>
            )}
          </>
        )}
        <button
          type="button"
          className="btn btn-plain"
          disabled={!edit.dirty.value || saving}
          onClick={() => void discard()}
        >
          <Icon name="undo" /> {t('CmdDiscardChanges')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!edit.dirty.value || saving}
          aria-busy={saving}
          onClick={() => void save()}
        >
          <Icon name={saving ? 'hourglass' : 'save'} /> {t('CmdSave')}
        </button>
      </div>
      {massEditing && <MassEditDialog list={model} edit={edit} onClose={() => setMassEditing(false)} />}
    </div>
  );
};
