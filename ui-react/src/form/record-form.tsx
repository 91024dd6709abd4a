import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useRef } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { Entity, EntityRecord, Form, Panel } from '../core.js';
import { requiredFieldsMessage } from '../core.js';
import { useApi } from '../api/context.js';
import { language, useT } from '../i18n.js';
import { caller, entityOf, session } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { alertDialog, alertFailure, ask, confirmDialog, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { formOf } from './form-of.js';
import { HistoryPanel, showsHistory } from './history-panel.js';
import { modifierName } from './modifier-name.js';
import { NavigationGuard } from './navigation-guard.js';
import { PanelView, type PanelContext } from './panels.js';
import type { QuickCreateProps } from './quick-create.js';
import { NEW_ID, recordFormModel, STAGE_FIELD, type ModifiedBy, type SaveResult } from './record-form-model.js';
import { CommandBar } from './record-commands.js';
import { useFormScripts, useWizardNextCommand } from '../scripts/script-ui.js';
import { CustomizeBar, useCustomizeShortcut } from '../customize/customize-bar.js';
import { CustomizeFormProvider, FormCustomizeTools } from '../customize/form-customize.js';
import { formKeyOf, shownForm } from '../customize/customize-state.js';

export { STAGE_FIELD } from './record-form-model.js';

type RecordFormProps = {
  entityName: string;
  id: string;
  formName?: string;
  init?: EntityRecord;
  inDialog?: boolean;
  onClose?: (created?: { id: string; name: string }) => void;
  appParam?: string;
};

const parseInit = (text: string | null): EntityRecord | undefined => {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as EntityRecord) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The record form (spec 001 sections 2, 4, 5). The use cases live in the record-form model
 * (record-form-model.ts); this component draws it and says its answers: toasts, alerts, the
 * navigation after a save or a delete, the guard against leaving unsaved changes.
 */
export const RecordForm = (props: RecordFormProps) => {
  useSignals();
  const t = useT();
  const entity = entityOf(props.entityName);
  const form = useMemo(() => (entity ? formOf(entity, props.formName) : undefined), [entity, props.formName]);
  if (!entity || !form) return <p className="empty" role="alert">{t('MsgObjectNotFound', { name: props.entityName })}</p>;
  return <RecordFormScreen {...props} entity={entity} form={form} />;
};

const RecordFormScreen = ({ entity, form, entityName, id: routeId, formName, init, inDialog, onClose, appParam = '!' }: RecordFormProps & { entity: Entity; form: Form }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const user = session.value?.context.user;
  const scripts = useFormScripts(entity, form);
  // A new model per record (and per metadata of its entity), as the route remounts per record.
  const model = useMemo(
    () => recordFormModel({ api, entity, id: routeId, form, init, caller: () => caller.value!, user: user && { id: user.id, name: user.name }, scripts }),
    [api, entity, form, routeId, init, scripts],
  );
  const proceeding = useRef(false);
  const runWizardNextCommand = useWizardNextCommand(entityName, model);
  // Issue 15: customize mode draws the draft of the form (live preview) and frames its panels with their tools.
  useCustomizeShortcut();
  const shown = shownForm(entity, formName, form);
  const customizing = inDialog ? null : { key: formKeyOf(entity.logicalName, formName), stored: form, shown, entity };

  /**
   * A version conflict (issue 23 item 11) is titled 'This record was modified by {modifier}' and
   * offers what the user can do: Reload (theirs), or Keep mine (mine on top of theirs, the
   * clashing fields marked for review). Escape keeps the user's work on screen.
   */
  const askConflict = async (r: ModifiedBy): Promise<void> => {
    const modifier = modifierName(r.modifiedBy, t);
    const choice = await ask({
      title: t('MsgModifiedBy', { modifier }),
      message: t('MsgConflictHelp'),
      cancelId: 'keepMine',
      buttons: [
        { id: 'reload', label: t('CmdReload'), kind: 'plain' },
        { id: 'keepMine', label: t('CmdKeepMine'), kind: 'primary' },
      ],
    });
    model.resolveConflict(choice === 'reload' ? 'reload' : 'keepMine');
  };

  useEffect(() => {
    void model.load();
  }, [model]);

  // A change on the server: a clean record reloads, a dirty one merges (spec 001 section 4).
  useEffect(() => {
    if (model.isNew) return;
    const ev = objectChangedEvent(entityName);
    const onChange = async (e: Event) => {
      const r = await model.serverChanged((e as CustomEvent<{ id?: string }>).detail?.id);
      if (r._tag === 'Reloaded' || r._tag === 'Merged') toast(t('MsgRecordUpdated'), 'info');
      else if (r._tag === 'ModifiedBy') void askConflict(r);
    };
    window.addEventListener(ev, onChange);
    return () => window.removeEventListener(ev, onChange);
  }, [model, entityName, t]);

  const dirty = model.dirty.value;
  // The browser's own warning when leaving with unsaved changes.
  useEffect(() => {
    if (!dirty) return;
    const h = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', h);
    return () => window.removeEventListener('beforeunload', h);
  }, [dirty]);

  const goBack = () => {
    if (window.history.length > 1 && (window.history.state as { idx?: number } | null)?.idx) navigate(-1);
    else navigate(`/${appParam}/list/${entityName}`);
  };

  /** Says the answer of a save: the message, the alert, or where the form goes next. */
  const afterSave = async (r: SaveResult, close: boolean): Promise<boolean> => {
    switch (r._tag) {
      case 'Busy':
        return false;
      case 'RequiredFieldsMissing':
        await alertDialog(requiredFieldsMessage(language.value, r.labels), t('CmdOk'), t('MsgRequired'));
        document.getElementById(`f-${r.fields[0]}`)?.focus();
        return false;
      case 'ModifiedBy':
        await askConflict(r);
        return false;
      case 'Failed':
        await alertFailure(r.error, t('CmdOk'));
        // Stored, but a panel's own rows failed: a created record moves to its id all the same.
        if (r.saved?.created) {
          proceeding.current = true;
          if (inDialog) onClose?.({ id: r.saved.id, name: r.saved.name });
          else navigate(`/${appParam}/edit/${entityName}/${r.saved.id}${formName ? `/${formName}` : ''}`, { replace: true });
        }
        return false;
      case 'Vetoed':
        await alertDialog(r.message, t('CmdOk'));
        return false;
      case 'ScriptFailed':
        // the script's error is alerted by its runner
        return false;
      case 'Saved':
        toast(t('MsgRecordSaved'));
        if (r.created) {
          proceeding.current = true;
          if (inDialog) onClose?.({ id: r.id, name: r.name });
          else if (close) goBack();
          else navigate(`/${appParam}/edit/${entityName}/${r.id}${formName ? `/${formName}` : ''}`, { replace: true });
        } else if (close) {
          proceeding.current = true;
          if (inDialog) onClose?.();
          else goBack();
        }
        return true;
    }
  };
  const save = async (close: boolean, patch?: EntityRecord): Promise<boolean> => afterSave(await model.save({ close, patch }), close);

  const remove = async () => {
    if (!(await confirmDialog(t('MsgAskDelete'), t('CmdDelete'), t('CmdCancel'), true))) return;
    const r = await model.remove();
    if (r._tag === 'Failed') return alertFailure(r.error, t('CmdOk'));
    proceeding.current = true;
    if (inDialog) onClose?.();
    else goBack();
  };

  const restore = async () => {
    const r = await model.restore();
    if (r._tag === 'Failed') await alertFailure(r.error, t('CmdOk'));
    else toast(t('MsgRecordRestored'));
  };

  const copy = () => {
    const c = model.cloneValues((name) => t('MsgCopyOf', { name }));
    navigate(`/${appParam}/edit/${entityName}/${NEW_ID}?init=${encodeURIComponent(JSON.stringify(c))}`);
  };

  const status = model.status.value;
  const edited = model.edited.value;
  const readOnly = model.readOnly.value;
  const saving = status === 'saving';
  const heading = model.title.value;
  const title =
    heading._tag === 'Loading' ? t('MsgLoading') : heading._tag === 'Name' ? heading.name : heading._tag === 'New' ? t('MsgNewRecord', { entity: entity.displayName }) : t('MsgUnknownTitle');
  const review = model.review.value;
  const ctx: PanelContext = {
    entity,
    record: edited,
    isNew: model.isNew,
    readOnly: readOnly || saving,
    appParam,
    missing: model.marked.value,
    review: review ? { fields: review.fields, note: t('MsgConflictField', { modifier: modifierName(review.modifiedBy, t) }) } : undefined,
    setValue: model.setValue,
    recordId: model.isNew ? undefined : model.id,
    participate: model.participate,
    // Spec 001 section 4: moving to a later wizard step saves the record with process_stage_index set.
    runWizardNextCommand,
    onWizardStep: async (_panel, index) =>
      entity.properties.some((p) => p.logicalName === STAGE_FIELD) && !readOnly ? save(false, { [STAGE_FIELD]: index }) : dirty ? save(false) : true,
  };
  const saveIfDirty = () => {
    if (dirty && !readOnly) void save(false);
  };

  return (
    <div className={`screen record-form ${inDialog ? 'in-dialog' : ''}`}>
      {!inDialog && dirty && !saving && <NavigationGuard onSave={() => save(false)} proceeding={proceeding} />}
      <div className="screen-head">
        <div className="title-row">
          {!inDialog && (
            <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdBack')} title={t('CmdBack')} onClick={goBack}>
              <Icon name="chevronLeft" />
            </button>
          )}
          <div className="title-block">
            <div className="eyebrow">{entity.displayName}</div>
            <h1 className="screen-title">{title}</h1>
          </div>
          {dirty && !readOnly && <span className="status-chip">{t('MsgUnsaved')}</span>}
          {readOnly && status === 'ready' && <span className="status-chip muted-chip">{t('MsgReadOnly')}</span>}
        </div>
        {status !== 'error' && <CommandBar model={model} title={title} onSave={(close) => void save(close)} onCopy={copy} onRestore={restore} onDelete={remove} />}
      </div>
      {customizing && (
        <CustomizeBar>
          <FormCustomizeTools target={customizing} />
        </CustomizeBar>
      )}
      {status === 'error' ? (
        <div className="error-page" role="alert">
          <h2>{t('MsgRecordNotFound')}</h2>
          {model.loadError.value && <p className="mono small">{model.loadError.value}</p>}
        </div>
      ) : status === 'loading' ? (
        <div className="panel">
          <span className="skeleton" />
          <span className="skeleton" />
          <span className="skeleton short" />
        </div>
      ) : (
        <form
          className="panels"
          onSubmit={(e) => {
            e.preventDefault();
            saveIfDirty();
          }}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
              e.preventDefault();
              saveIfDirty();
            }
          }}
          aria-label={title}
        >
          <CustomizeFormProvider value={customizing}>
            {shown.panels.map((p: Panel) => (
              <PanelView key={p.name} panel={p} ctx={ctx} />
            ))}
          </CustomizeFormProvider>
          {showsHistory(entity, model.isNew, caller.value ?? undefined) && <HistoryPanel entity={entity} id={routeId} version={model.loaded.value.versionnumber} />}
        </form>
      )}
    </div>
  );
};

/** The lookup's create dialog: a new record in the quick form (provided to lookups in main.tsx). */
export const QuickCreateForm = ({ entityName, formName, init, onClose }: QuickCreateProps) => (
  <RecordForm entityName={entityName} id={NEW_ID} formName={formName} init={init} inDialog onClose={onClose} />
);

/** The route /{appid}/edit/{name}/{id}[/{form}]?init=JSON&form=NAME. */
export const RecordFormRoute = () => {
  const { appId = '!', name = '', id = NEW_ID, form } = useParams();
  const [params] = useSearchParams();
  const initText = params.get('init');
  const init = useMemo(() => parseInit(initText), [initText]);
  return <RecordForm key={`${name}/${id}`} entityName={name} id={id} formName={form ?? params.get('form') ?? undefined} init={id === NEW_ID ? init : undefined} appParam={appId} />;
};
