import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker, useNavigate, useParams, useSearchParams } from 'react-router';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity, EntityRecord, FieldValue, Form, Panel } from '../core.js';
import { composeField, fieldTemplateOf } from '../core.js';
import {
  allFormFields,
  canAccess,
  changedFields,
  checkPermissionString,
  checkRequired,
  cloneRecord,
  commandPermission,
  defaultFormOf,
  FormCodec,
  isEmptyValue,
  mergeOnConflict,
  metadataSet,
  modifierOf,
  requiredFieldsMessage,
  updatePayload,
} from './form-core.js';
import { ServerError } from '../api/client.js';
import { useApi } from '../api/context.js';
import { language, useT } from '../i18n.js';
import { caller, entityOf, guiObjects, parsedBody, session } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { alertDialog, alertFailure, ask, confirmDialog, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { PanelView, type PanelContext } from './panels.js';

type Status = 'loading' | 'ready' | 'saving' | 'error';
type SaveOutcome = { ok: true; id: string; created: boolean } | { ok: false };

const AUDIT_ENTITY = 'audit';
/** The wizard's progress: the stored stage index. */
export const STAGE_FIELD = 'process_stage_index';

/** The form of an entity: the named one, else one named default or main, else the first, else the generated form. */
export const formOf = (entity: Entity, name: string | undefined): Form => {
  const forms = guiObjects('form', entity.logicalName).flatMap((g) => {
    const d = FormCodec.decode(parsedBody(g));
    return isRight(d) ? [{ name: g.name, form: d.right }] : [];
  });
  const pick = (name && forms.find((f) => f.name === name)) || forms.find((f) => /^(default|main)$/i.test(f.name)) || forms[0];
  if (pick) return pick.form;
  const set = metadataSet(Object.values(session.value?.entities ?? {}));
  const lists = isRight(set)
    ? set.right.associatedLists(entity.logicalName).map((l) => ({ ...l, label: entityOf(l.entity)?.displayNamePlural ?? l.entity }))
    : [];
  return defaultFormOf(entity, lists);
};

/**
 * The starting values of a new record: property defaults, the owner (the creator, as the server
 * would set it, so that a required owner field is not empty), then the init JSON of the route.
 */
const newRecord = (entity: Entity, init: EntityRecord | undefined): EntityRecord => {
  const r: EntityRecord = {};
  const user = session.value?.context.user;
  if (user && entity.properties.some((p) => p.logicalName === 'ownerid')) r.ownerid = { id: user.id, name: 'systemuser', label: user.name };
  for (const p of entity.properties) if (p.defaultValue !== undefined && p.defaultValue !== null && p.defaultValue !== '') r[p.logicalName] = p.defaultValue as FieldValue;
  return { ...r, ...(init ?? {}) };
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

/** The fields a create sends: the non-empty values. */
const createPayload = (r: EntityRecord): EntityRecord => Object.fromEntries(Object.entries(r).filter(([k, v]) => k !== 'id' && k !== 'versionnumber' && !isEmptyValue(v as FieldValue)));

/** The name of a record just created: as typed, or as the server composes it (a contact's first and last name). */
const createdName = (entity: Entity, record: EntityRecord): string => {
  const typed = String(record.name ?? '');
  const p = entity.properties.find((x) => x.logicalName === 'name');
  const template = p ? fieldTemplateOf(p) : undefined;
  return typed || (template ? (composeField(template, record, p?.max) ?? '') : '');
};

/**
 * The record form (spec 001 sections 2, 4, 5): load, edit with dirty tracking, the save sequence
 * with the required check, the version-conflict merge, server change notifications, delete,
 * undo delete and clone, read-only without permission.
 */
export const RecordForm = ({
  entityName,
  id: routeId,
  formName,
  init,
  inDialog,
  onClose,
  appParam = '!',
}: {
  entityName: string;
  id: string;
  formName?: string;
  init?: EntityRecord;
  inDialog?: boolean;
  onClose?: (created?: { id: string; name: string }) => void;
  appParam?: string;
}) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const entity = entityOf(entityName);
  const me = caller.value!;
  const isNew = routeId === '0';
  const form = useMemo(() => (entity ? formOf(entity, formName) : undefined), [entity, formName]);
  const [loaded, setLoaded] = useState<EntityRecord>({});
  const [edited, setEdited] = useState<EntityRecord>({});
  const [status, setStatus] = useState<Status>('loading');
  const [loadError, setLoadError] = useState('');
  const [missing, setMissing] = useState<Set<string>>(new Set());
  const state = useRef({ loaded, edited, status });
  state.current = { loaded, edited, status };
  const proceeding = useRef(false);

  const dirty = entity ? (isNew ? changedFields(newRecord(entity, undefined), edited).length > 0 || Object.keys(init ?? {}).length > 0 : changedFields(loaded, edited).length > 0) : false;

  const fetchRecord = useCallback(
    async (id: string): Promise<EntityRecord | null> => {
      const res = await api.fetch({
        entity: { name: entityName, allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: id }] } },
        page: 1,
        pageSize: 1,
      });
      return (res.records[0] as EntityRecord | undefined) ?? null;
    },
    [api, entityName],
  );

  /** Loads the record; quiet (after a save) keeps the form on screen and leaves the status to the caller. */
  const load = useCallback(async (quiet = false) => {
    if (!entity) return;
    setMissing(new Set());
    if (isNew) {
      const r = newRecord(entity, init);
      setLoaded({});
      setEdited(r);
      setStatus('ready');
      return;
    }
    if (!quiet) setStatus('loading');
    try {
      const r = await fetchRecord(routeId);
      if (!r) {
        setLoadError('');
        setStatus('error');
        return;
      }
      setLoaded(r);
      setEdited(r);
      if (!quiet) setStatus('ready');
    } catch (e) {
      setLoadError(e instanceof Error ? e.message : String(e));
      setStatus('error');
    }
  }, [entity, isNew, init, routeId, fetchRecord]);

  useEffect(() => {
    void load();
  }, [load]);

  const readOnly = !entity || !checkPermissionString(me, commandPermission({ name: 'Save' }, entityName), isNew ? { ...edited, id: undefined } : loaded);
  const formFields = useMemo(() => (form ? allFormFields(form.panels) : []), [form]);

  /** Sends the changes; on ERR_8001 merges with the server record and sends again (spec 001 section 4). */
  const send = async (base: EntityRecord, current: EntityRecord): Promise<SaveOutcome> => {
    if (isNew) {
      const id = await api.update('create', entityName, createPayload(current));
      return { ok: true, id, created: true };
    }
    const payload = updatePayload(base, current);
    if (Object.keys(payload).filter((k) => k !== 'id' && k !== 'versionnumber').length === 0) return { ok: true, id: routeId, created: false };
    try {
      await api.update('update', entityName, payload);
      return { ok: true, id: routeId, created: false };
    } catch (e) {
      if (!(e instanceof ServerError) || e.code !== 'ERR_8001') throw e;
      const server = await fetchRecord(routeId);
      if (!server) throw e;
      const merged = mergeOnConflict(base, current, server);
      if (isLeft(merged)) {
        setLoaded(server);
        throw new Error(t('MsgModifiedBy', { modifier: merged.left.modifier ?? modifierOf(server) }));
      }
      setLoaded(server);
      setEdited(merged.right.record);
      await api.update('update', entityName, { ...merged.right.changes, id: routeId, versionnumber: merged.right.versionnumber });
      return { ok: true, id: routeId, created: false };
    }
  };

  /** The save sequence: required check, save, message MsgRecordSaved, then move to the created record or reload. */
  const save = async (close: boolean, patch?: EntityRecord): Promise<boolean> => {
    const base = state.current.loaded;
    const current = patch ? { ...state.current.edited, ...patch } : state.current.edited;
    if (patch) setEdited(current);
    if (!entity || state.current.status === 'saving') return false;
    // Only fields the form shows can be filled in; the server sets or checks the others.
    const onForm = new Set(formFields.map((f) => f.name));
    const required = checkRequired(
      entity.properties.filter((p) => onForm.has(p.logicalName)),
      current,
      formFields.map((f) => ({ name: f.name, label: f.label, required: f.required, hidden: f.hidden })),
    );
    if (isLeft(required)) {
      setMissing(new Set(required.left.fields));
      await alertDialog(requiredFieldsMessage(language.value, required.left.labels), t('CmdOk'), t('MsgRequired'));
      document.getElementById(`f-${required.left.fields[0]}`)?.focus();
      return false;
    }
    setMissing(new Set());
    setStatus('saving');
    try {
      const out = await send(base, current);
      if (!out.ok) return false;
      toast(t('MsgRecordSaved'));
      if (out.created) {
        setLoaded(current);
        setEdited(current);
        proceeding.current = true;
        if (inDialog) onClose?.({ id: out.id, name: createdName(entity, current) });
        else if (close) goBack();
        else navigate(`/${appParam}/edit/${entityName}/${out.id}${formName ? `/${formName}` : ''}`, { replace: true });
        setStatus('ready');
        return true;
      }
      if (close) {
        setStatus('ready');
        proceeding.current = true;
        setLoaded(current);
        if (inDialog) onClose?.();
        else goBack();
        return true;
      }
      // Still 'saving' while the stored record comes back, so its own change event is not taken for another's.
      await load(true);
      setStatus('ready');
      return true;
    } catch (e) {
      setStatus('ready');
      await alertFailure(e, t('CmdOk'));
      return false;
    }
  };

  const goBack = () => {
    if (window.history.length > 1 && (window.history.state as { idx?: number } | null)?.idx) navigate(-1);
    else navigate(`/${appParam}/list/${entityName}`);
  };

  const remove = async () => {
    if (!(await confirmDialog(t('MsgAskDelete'), t('CmdDelete'), t('CmdCancel'), true))) return;
    try {
      await api.update('delete', entityName, { id: routeId, versionnumber: loaded.versionnumber });
      proceeding.current = true;
      if (inDialog) onClose?.();
      else goBack();
    } catch (e) {
      await alertFailure(e, t('CmdOk'));
    }
  };

  /** Undo delete (audit records only): recreates the record from the stored body. */
  const restore = async () => {
    try {
      const body = JSON.parse(String(loaded.body ?? '{}')) as EntityRecord;
      await api.update('create', String(loaded.logicalname ?? ''), body);
      toast(t('MsgRecordRestored'));
    } catch (e) {
      await alertFailure(e, t('CmdOk'));
    }
  };

  const copy = () => {
    const c = cloneRecord(edited, entity, (name) => t('MsgCopyOf', { name }));
    navigate(`/${appParam}/edit/${entityName}/0?init=${encodeURIComponent(JSON.stringify(c))}`);
  };

  // A change on the server: a clean record reloads, a dirty one merges (spec 001 section 4).
  useEffect(() => {
    if (isNew) return;
    const ev = objectChangedEvent(entityName);
    const onChange = async (e: Event) => {
      const detail = (e as CustomEvent<{ id?: string }>).detail;
      if (detail?.id && detail.id.toLowerCase() !== routeId.toLowerCase()) return;
      const { status: s, loaded: base, edited: current } = state.current;
      if (s === 'saving' || s === 'loading') return;
      const server = await fetchRecord(routeId).catch(() => null);
      if (!server || server.versionnumber === base.versionnumber) return;
      if (changedFields(base, current).length === 0) {
        setLoaded(server);
        setEdited(server);
        toast(t('MsgRecordUpdated'), 'info');
        return;
      }
      const merged = mergeOnConflict(base, current, server);
      if (isRight(merged)) {
        setLoaded(server);
        setEdited(merged.right.record);
        toast(t('MsgRecordUpdated'), 'info');
      } else {
        void alertDialog(t('MsgModifiedBy', { modifier: merged.left.modifier ?? modifierOf(server) }), t('CmdOk'));
      }
    };
    window.addEventListener(ev, onChange);
    return () => window.removeEventListener(ev, onChange);
  }, [entityName, routeId, isNew, fetchRecord, t]);

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

  const setValue = (field: string, v: FieldValue) => {
    setEdited((r) => ({ ...r, [field]: v }));
    if (missing.has(field)) setMissing((m) => new Set([...m].filter((x) => x !== field)));
  };

  if (!entity) return <p className="empty" role="alert">{t('MsgObjectNotFound', { name: entityName })}</p>;

  const title = status === 'loading' ? t('MsgLoading') : isNew ? t('MsgNewRecord', { entity: entity.displayName }) : String(edited.name ?? '') || t('MsgUnknownTitle');
  // The form's standard commands (all of them when it lists none), each with its own permission string or the default.
  const stdCommand = (name: string) => (form?.commands ? form.commands.find((c) => c.kind === 'std' && c.name.toLowerCase() === name) : { kind: 'std' as const, name });
  const allowed = (name: 'Save' | 'Delete' | 'Clone', record?: EntityRecord): boolean => {
    const c = stdCommand(name.toLowerCase());
    return !!c && checkPermissionString(me, commandPermission({ name, permissions: c.permissions }, entityName), record);
  };
  const canSave = !readOnly && allowed('Save', isNew ? { ...edited, id: undefined } : loaded);
  const canDelete = !isNew && allowed('Delete', loaded);
  const canClone = !isNew && allowed('Clone') && canAccess(me, 'create', entityName, {});
  const saving = status === 'saving';
  const ctx: PanelContext = {
    entity,
    record: edited,
    isNew,
    readOnly: readOnly || saving,
    appParam,
    missing,
    setValue,
    // Spec 001 section 4: moving to a later wizard step saves the record with process_stage_index set.
    onWizardStep: async (_panel, index) =>
      entity.properties.some((p) => p.logicalName === STAGE_FIELD) && !readOnly ? save(false, { [STAGE_FIELD]: index }) : dirty ? save(false) : true,
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
        {status !== 'error' && (
          <div className="command-bar" role="toolbar" aria-label={title}>
            {canSave && (
              <>
                <button type="button" className="btn btn-primary" disabled={!dirty || saving} onClick={() => void save(false)} aria-busy={saving}>
                  <Icon name={saving ? 'hourglass' : 'save'} /> {t('CmdSave')}
                </button>
                <button type="button" className="btn btn-plain" disabled={!dirty || saving} onClick={() => void save(true)}>
                  {t('CmdSaveAndClose')}
                </button>
              </>
            )}
            {canClone && status === 'ready' && (
              <button type="button" className="btn btn-plain" onClick={copy}>
                <Icon name="copy" /> {t('CmdCreateCopy')}
              </button>
            )}
            {entityName === AUDIT_ENTITY && !isNew && status === 'ready' && (
              <button type="button" className="btn btn-plain" onClick={restore}>
                <Icon name="undo" /> {t('CmdUndoDelete')}
              </button>
            )}
            {canDelete && status === 'ready' && (
              <button type="button" className="btn btn-danger-outline" onClick={remove}>
                <Icon name="trash" /> {t('CmdDelete')}
              </button>
            )}
          </div>
        )}
      </div>
      {status === 'error' ? (
        <div className="error-page" role="alert">
          <h2>{t('MsgRecordNotFound')}</h2>
          {loadError && <p className="mono small">{loadError}</p>}
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
            if (dirty && !readOnly) void save(false);
          }}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
              e.preventDefault();
              if (dirty && !readOnly) void save(false);
            }
          }}
          aria-label={title}
        >
          {(form?.panels ?? []).map((p: Panel) => (
            <PanelView key={p.name} panel={p} ctx={ctx} />
          ))}
        </form>
      )}
    </div>
  );
};

/** Navigation while dirty: Save and Close, Discard unsaved changes, or Continue editing (spec 001 section 4). */
const NavigationGuard = ({ onSave, proceeding }: { onSave: () => Promise<boolean>; proceeding: React.RefObject<boolean> }) => {
  const t = useT();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => !proceeding.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void (async () => {
      const choice = await ask({
        title: t('MsgUnsavedChangesTitle'),
        message: t('MsgUnsavedChangesText'),
        cancelId: 'stay',
        buttons: [
          { id: 'stay', label: t('MsgContinueEditing'), kind: 'plain' },
          { id: 'discard', label: t('MsgDiscardChanges'), kind: 'danger' },
          { id: 'save', label: t('CmdSaveAndClose'), kind: 'primary' },
        ],
      });
      if (choice === 'discard') blocker.proceed?.();
      else if (choice === 'save') {
        proceeding.current = true;
        if (await onSave()) blocker.proceed?.();
        else {
          proceeding.current = false;
          blocker.reset?.();
        }
      } else blocker.reset?.();
    })();
  }, [blocker.state]);
  return null;
};

/** The route /{appid}/edit/{name}/{id}[/{form}]?init=JSON&form=NAME. */
export const RecordFormRoute = () => {
  const { appId = '!', name = '', id = '0', form } = useParams();
  const [params] = useSearchParams();
  const initText = params.get('init');
  const init = useMemo(() => parseInit(initText), [initText]);
  return <RecordForm key={`${name}/${id}`} entityName={name} id={id} formName={form ?? params.get('form') ?? undefined} init={id === '0' ? init : undefined} appParam={appId} />;
};
