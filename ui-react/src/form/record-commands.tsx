import { useSignals } from '@preact/signals-react/runtime';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { SystemUserCommands } from '../admin/system-user-commands.js';
import { DocumentCommands } from '../documents/document-commands.js';
import type { RecordFormModel } from './record-form-model.js';
import { ScriptCommands } from '../scripts/script-ui.js';

/** The form's command bar: Save, Save and Close, Create a copy, Undo delete, Delete, as the model permits; Print (issue 20) where templates exist. */
export const CommandBar = ({
  model,
  title,
  onSave,
  onCopy,
  onRestore,
  onDelete,
}: {
  model: RecordFormModel;
  title: string;
  onSave: (close: boolean) => void;
  onCopy: () => void;
  onRestore: () => void;
  onDelete: () => void;
}) => {
  useSignals();
  const t = useT();
  const ready = model.status.value === 'ready';
  const saving = model.status.value === 'saving';
  const dirty = model.dirty.value;
  return (
    <div className="command-bar" role="toolbar" aria-label={title}>
      {model.canSave.value && (
        <>
          <button type="button" className="btn btn-primary" disabled={!dirty || saving} onClick={() => onSave(false)} aria-busy={saving}>
            <Icon name={saving ? 'hourglass' : 'save'} /> {t('CmdSave')}
          </button>
          <button type="button" className="btn btn-plain" disabled={!dirty || saving} onClick={() => onSave(true)}>
            {t('CmdSaveAndClose')}
          </button>
        </>
      )}
      {model.canClone.value && ready && (
        <button type="button" className="btn btn-plain" onClick={onCopy}>
          <Icon name="copy" /> {t('CmdCreateCopy')}
        </button>
      )}
      {model.canRestore.value && ready && (
        <button type="button" className="btn btn-plain" onClick={onRestore}>
          <Icon name="undo" /> {t('CmdUndoDelete')}
        </button>
      )}
      {model.canDelete.value && ready && (
        <button type="button" className="btn btn-danger-outline" onClick={onDelete}>
          <Icon name="trash" /> {t('CmdDelete')}
        </button>
      )}
      <SystemUserCommands model={model} />
      <DocumentCommands model={model} />
      <ScriptCommands
        entity={model.entity.logicalName}
        commands={model.form.commands}
        record={model.edited.value}
        selected={() => [model.edited.value]}
        disabled={!ready}
        onDone={(r) => r._tag === 'Completed' && model.applyPatch(r.patch)}
      />
    </div>
  );
};
