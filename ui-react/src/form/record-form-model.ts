import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-react';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Caller, Entity, EntityRecord, FieldValue, Form, RequiredFieldsMissing } from '../core.js';
import {
  allFormFields,
  canAccess,
  changedFields,
  changeSet,
  checkPermissionString,
  checkRequired,
  cloneRecord,
  commandPermission,
  composeField,
  fieldTemplateOf,
  isEmptyValue,
  mergeOnConflict,
  modifierOf,
  updatePayload,
} from '../core.js';
import { ServerError, type ApiClient } from '../api/client.js';
import { CHANGE_QUEUE_IDLE, changeFinished, changeQueued, type ChangeQueue } from '../core.js';
import type { FormScriptRunner } from '../scripts/form-scripts.js';

/**
 * The record form as a model of signals (spec 001 sections 4 and 5): the loaded record, the
 * edited values, dirty and required-field state, and the use cases load, save (with the
 * version-conflict merge), the server change notification, delete, undo delete and clone.
 * It knows nothing of the DOM, dialogs or the router: each use case answers a tagged value and
 * the component says it (toast, alert, navigation). Tested in vitest with a fake client.
 */

/** What the model needs of the API client. */
export type RecordApi = Pick<ApiClient, 'fetch' | 'update'>;

export type FormStatus = 'loading' | 'ready' | 'saving' | 'error';

/**
 * The version conflict that no merge could resolve: 'This record was modified by {modifier}'.
 * `modifiedBy` is the server record's modifiedby lookup (the screen names the person, or System);
 * `fields` are those both sides changed to different values.
 */
export type ModifiedBy = { _tag: 'ModifiedBy'; modifier: string; modifiedBy?: FieldValue; fields: string[] };

/**
 * An unresolved version conflict (issue 23 item 11): what the user chooses between. Reload takes
 * the server record; Keep mine puts the local changes on top of it, to review and save again.
 */
export type Conflict = ModifiedBy & { server: EntityRecord; local: EntityRecord };

/** After Keep mine: the fields both sides changed, marked for review until the next save or load. */
export type Review = { fields: ReadonlySet<string>; modifiedBy?: FieldValue; modifier: string };

/** What the title of the form says: the record's name, 'New {entity}' for a new record without one, else '(Unknown)'. */
export type FormTitle = { _tag: 'Loading' } | { _tag: 'Name'; name: string } | { _tag: 'New' } | { _tag: 'Unnamed' };

export type SaveResult =
  | { _tag: 'Saved'; id: string; created: boolean; name: string }
  /** the save stopped before sending (spec 001 section 5: MsgRequiredFieldEmpty) */
  | RequiredFieldsMissing
  | ModifiedBy
  /** a save is already running, or there is no entity */
  | { _tag: 'Busy' }
  /** a participant (a panel, a validate script) stopped the save with this message */
  | { _tag: 'Vetoed'; message: string }
  /** a validate script failed (threw or ran out of time): the record is not saved */
  | { _tag: 'ScriptFailed'; message: string }
  /** `saved`: the record was stored, a participant's own rows (afterSave) failed; the form shows it as saved */
  | { _tag: 'Failed'; error: unknown; saved?: { id: string; created: boolean; name: string } };

export type ServerChangeResult =
  /** another record, the form is busy, or the version is the one loaded */
  | { _tag: 'Ignored' }
  /** a clean record took the server's (MsgRecordUpdated) */
  | { _tag: 'Reloaded' }
  /** a dirty record got the server's changes under the local ones (MsgRecordUpdated) */
  | { _tag: 'Merged' }
  | ModifiedBy;

export type Done = { _tag: 'Done' } | { _tag: 'Failed'; error: unknown };

/**
 * A part of the form that saves with the record: a custom panel's own rows (line items, budget
 * lines) or derived fields (a route's totals). The save sequence asks each registered
 * participant in order: `beforeSave` after the required check may set fields of the record (a
 * patch sent with it) or stop the save with a message; `afterSave` runs once the record is
 * stored and its id is known (write the panel's own records). `dirty` makes the form dirty.
 */
export type SaveParticipant = {
  beforeSave?: (record: EntityRecord) => Promise<{ patch?: EntityRecord } | { veto: string }>;
  afterSave?: (id: string, created: boolean) => Promise<void>;
  dirty?: ReadonlySignal<boolean>;
  /** Fields its beforeSave will fill (a file chosen, uploaded at save): the required check counts them as filled. */
  fills?: ReadonlySignal<readonly string[]>;
};

/** The creator, who owns a new record as the server would set it. */
export type FormUser = { id: string; name: string };

/** The wizard's progress: the stored stage index. */
export const STAGE_FIELD = 'process_stage_index';
/** Undo delete is offered on this entity only. */
export const AUDIT_ENTITY = 'audit';
/** The operation value of an audit row of a delete (core/src/store/audit.ts AUDIT_DELETE). */
const AUDIT_DELETE_OPERATION = 3;
/** The id of a record not created yet (route /edit/{name}/0). */
export const NEW_ID = '0';

/**
 * The starting values of a new record: the owner (the creator, so that a required owner field
 * is not empty), property defaults, then the init JSON of the route.
 */
export const newRecord = (entity: Entity, init: EntityRecord | undefined, user: FormUser | undefined): EntityRecord => {
  const r: EntityRecord = {};
  if (user && entity.properties.some((p) => p.logicalName === 'ownerid')) r.ownerid = { id: user.id, name: 'systemuser', label: user.name };
  for (const p of entity.properties) if (p.defaultValue !== undefined && p.defaultValue !== null && p.defaultValue !== '') r[p.logicalName] = p.defaultValue as FieldValue;
  return { ...r, ...(init ?? {}) };
};

/** The fields a create sends: the non-empty values. */
export const createPayload = (r: EntityRecord): EntityRecord =>
  Object.fromEntries(Object.entries(r).filter(([k, v]) => k !== 'id' && k !== 'versionnumber' && !isEmptyValue(v as FieldValue)));

/** The name of a record just created: as typed, or as the server composes it (a contact's first and last name). */
export const createdName = (entity: Entity, record: EntityRecord): string => {
  const typed = String(record.name ?? '');
  const p = entity.properties.find((x) => x.logicalName === 'name');
  const template = p ? fieldTemplateOf(p) : undefined;
  return typed || (template ? (composeField(template, record, p?.max) ?? '') : '');
};

const isVersionConflict = (e: unknown): boolean => e instanceof ServerError && e.code === 'ERR_8001';

export type RecordFormOptions = {
  api: RecordApi;
  entity: Entity;
  /** the record's id, or NEW_ID */
  id: string;
  form: Form;
  /** who edits: read on each permission decision (a signal read here is followed) */
  caller: () => Caller;
  user?: FormUser;
  init?: EntityRecord;
  /** the form's event scripts (change, validate, postsave); none runs without it */
  scripts?: FormScriptRunner;
};

export type RecordFormModel = ReturnType<typeof recordFormModel>;

export const recordFormModel = ({ api, entity, id, form, caller, user, init, scripts }: RecordFormOptions) => {
  const isNew = id === NEW_ID;
  const entityName = entity.logicalName;
  const formFields = allFormFields(form.panels);
  const loaded = signal<EntityRecord>({});
  const edited = signal<EntityRecord>({});
  const status = signal<FormStatus>('loading');
  const loadError = signal('');
  /** The fields marked empty by the last save attempt; editing one clears its mark. */
  const marked = signal<ReadonlySet<string>>(new Set());
  const conflict = signal<Conflict | null>(null);
  const review = signal<Review | null>(null);
  const participants = signal<readonly SaveParticipant[]>([]);
  /** Registers a part of the form that saves with the record; answers its removal. */
  const participate = (p: SaveParticipant): (() => void) => {
    participants.value = [...participants.value, p];
    return () => {
      participants.value = participants.value.filter((x) => x !== p);
    };
  };

  /** Spec 001 section 4: dirty after an edit, clean after load or save. A new record from init JSON starts dirty. */
  const dirty = computed(() =>
    participants.value.some((p) => p.dirty?.value === true) ||
    (isNew ? changedFields(newRecord(entity, undefined, user), edited.value).length > 0 || Object.keys(init ?? {}).length > 0 : changedFields(loaded.value, edited.value).length > 0),
  );

  /** Required fields left empty; only fields the form shows count (the server sets or checks the others). */
  const missingRequired = computed((): RequiredFieldsMissing | undefined => {
    const onForm = new Set(formFields.map((f) => f.name));
    const filledAtSave = participants.value.flatMap((p) => p.fills?.value ?? []);
    const r = checkRequired(
      entity.properties.filter((p) => onForm.has(p.logicalName)),
      filledAtSave.length === 0 ? edited.value : { ...edited.value, ...Object.fromEntries(filledAtSave.map((f) => [f, f])) },
      formFields.map((f) => ({ name: f.name, label: f.label, required: f.required, hidden: f.hidden })),
    );
    return isLeft(r) ? r.left : undefined;
  });

  // The form's standard commands (all of them when it lists none), each with its own permission string or the default.
  const stdCommand = (name: string) => (form.commands ? form.commands.find((c) => c.kind === 'std' && c.name.toLowerCase() === name) : { kind: 'std' as const, name });
  const allowed = (name: 'Save' | 'Delete' | 'Clone', record?: EntityRecord): boolean => {
    const c = stdCommand(name.toLowerCase());
    return !!c && checkPermissionString(caller(), commandPermission({ name, permissions: c.permissions }, entityName), record);
  };
  /** The record a permission is checked against: a new one has no id yet. */
  const subject = computed(() => (isNew ? { ...edited.value, id: undefined } : loaded.value));
  const readOnly = computed(() => !checkPermissionString(caller(), commandPermission({ name: 'Save' }, entityName), subject.value));
  const canSave = computed(() => !readOnly.value && allowed('Save', subject.value));
  const canDelete = computed(() => !isNew && allowed('Delete', loaded.value));
  const canClone = computed(() => !isNew && allowed('Clone') && canAccess(caller(), 'create', entityName, {}));
  /** Undo Delete: on an audit row of a delete only (issue 23 item 6: creates and updates are audited too). */
  const canRestore = computed(() => !isNew && entityName === AUDIT_ENTITY && Number(loaded.value.operation) === AUDIT_DELETE_OPERATION);

  const fetchRecord = async (recordId: string): Promise<EntityRecord | null> => {
    const res = await api.fetch({
      entity: { name: entityName, allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: recordId }] } },
      page: 1,
      pageSize: 1,
    });
    return (res.records[0] as EntityRecord | undefined) ?? null;
  };

  const show = (server: EntityRecord, values: EntityRecord = server) =>
    batch(() => {
      loaded.value = server;
      edited.value = values;
    });

  /** Remembers a conflict for the user's choice and answers it. */
  const conflictWith = (server: EntityRecord, base: EntityRecord, current: EntityRecord, left: { modifier?: string; fields: string[] }): ModifiedBy => {
    const answer: ModifiedBy = { _tag: 'ModifiedBy', modifier: left.modifier ?? modifierOf(server), modifiedBy: server.modifiedby, fields: left.fields };
    conflict.value = { ...answer, server, local: changeSet(base, current) };
    return answer;
  };

  /**
   * The user's answer to a conflict. Reload shows the server record (the local changes are
   * dropped). Keep mine adopts the server record as the loaded one and puts the local changes on
   * top of it (the fields the other user changed and this one did not keep the server's values),
   * marks the clashing fields for review, and leaves the form dirty: the next save sends the
   * local changes under the server's version.
   */
  const resolveConflict = (choice: 'reload' | 'keepMine'): void => {
    const c = conflict.value;
    if (!c) return;
    batch(() => {
      conflict.value = null;
      marked.value = new Set();
      if (choice === 'reload') {
        show(c.server);
        review.value = null;
      } else {
        show(c.server, { ...c.server, ...c.local, versionnumber: c.server.versionnumber });
        review.value = { fields: new Set(c.fields), modifiedBy: c.modifiedBy, modifier: c.modifier };
      }
    });
  };

  /** Loads the record; quiet (after a save) keeps the form on screen and leaves the status to the caller. */
  const load = async (quiet = false): Promise<void> => {
    batch(() => {
      marked.value = new Set();
      conflict.value = null;
      review.value = null;
    });
    if (isNew) {
      batch(() => {
        show({}, newRecord(entity, init, user));
        status.value = 'ready';
      });
      return;
    }
    if (!quiet) status.value = 'loading';
    try {
      const r = await fetchRecord(id);
      if (!r) {
        batch(() => {
          loadError.value = '';
          status.value = 'error';
        });
        return;
      }
      batch(() => {
        show(r);
        if (!quiet) status.value = 'ready';
      });
    } catch (e) {
      batch(() => {
        loadError.value = e instanceof Error ? e.message : String(e);
        status.value = 'error';
      });
    }
  };

  /**
   * The change event (spec 001 section 4): one run at a time; fields edited while it runs start
   * the next run when it ends. The fields a script sets do not start another run, and a field the
   * user edited while the script ran keeps the user's value.
   */
  let changeQueue: ChangeQueue = CHANGE_QUEUE_IDLE;
  let changesDone: Promise<void> = Promise.resolve();
  let settle = () => {};
  const runChange = async (fields: readonly string[]): Promise<void> => {
    try {
      const answer = await scripts!('change', edited.value, fields);
      if (answer._tag === 'Done' || answer._tag === 'Vetoed') {
        const editedMeanwhile = new Set(changeQueue.pending);
        const patch = Object.entries(answer.patch).filter(([k]) => !editedMeanwhile.has(k));
        if (patch.length > 0) edited.value = { ...edited.value, ...Object.fromEntries(patch) };
      }
    } finally {
      const step = changeFinished(changeQueue);
      changeQueue = step.queue;
      if (step.start) void runChange(step.start);
      else settle();
    }
  };
  const queueChange = (fields: readonly string[]): void => {
    if (!scripts) return;
    const wasRunning = changeQueue.running;
    const step = changeQueued(changeQueue, fields);
    changeQueue = step.queue;
    if (!step.start) return;
    if (!wasRunning) changesDone = new Promise<void>((resolve) => (settle = resolve));
    void runChange(step.start);
  };
  /** Fields a script (a custom command) set: taken like edits, without starting a change event. */
  const applyPatch = (patch: EntityRecord): void => {
    if (Object.keys(patch).length > 0) edited.value = { ...edited.value, ...patch };
  };
  /** Resolves once no change event runs or waits (the save sequence's change step). */
  const changesSettled = (): Promise<void> => (changeQueue.running ? changesDone : Promise.resolve());

  const setValue = (field: string, v: FieldValue) => {
    batch(() => {
      edited.value = { ...edited.value, [field]: v };
      if (marked.value.has(field)) marked.value = new Set([...marked.value].filter((x) => x !== field));
    });
    queueChange([field]);
  };

  /**
   * Sends the changes: a create sends the non-empty values, an update only the changed fields.
   * On ERR_8001 it merges with the server record and sends again (spec 001 section 4).
   */
  const send = async (base: EntityRecord, current: EntityRecord): Promise<{ _tag: 'Sent'; id: string } | ModifiedBy> => {
    if (isNew) return { _tag: 'Sent', id: await api.update('create', entityName, createPayload(current)) };
    const payload = updatePayload(base, current);
    if (Object.keys(payload).every((k) => k === 'id' || k === 'versionnumber')) return { _tag: 'Sent', id };
    try {
      await api.update('update', entityName, payload);
      return { _tag: 'Sent', id };
    } catch (e) {
      if (!isVersionConflict(e)) throw e;
      const server = await fetchRecord(id);
      if (!server) throw e;
      const merged = mergeOnConflict(base, current, server);
      if (isLeft(merged)) return conflictWith(server, base, current, merged.left);
      show(server, merged.right.record);
      await api.update('update', entityName, { ...merged.right.changes, id, versionnumber: merged.right.versionnumber });
      return { _tag: 'Sent', id };
    }
  };

  /**
   * The save sequence (spec 001 section 4), in order: the required check; the validate script
   * (its veto stops the save with its message); the change event (a running or waiting change
   * run finishes first, so its fields are saved); the save participants' beforeSave (the save
   * hook: panels' fields or veto); the save; afterSave (the participants' own rows); the postsave
   * script; then 'Record saved' (said by the caller). A created record is shown as saved (the
   * caller moves to its route), a closing form keeps the values, an existing record reloads.
   * `patch` sets values first (the wizard's stage index).
   */
  const save = async ({ close = false, patch }: { close?: boolean; patch?: EntityRecord } = {}): Promise<SaveResult> => {
    const base = loaded.value;
    let current = patch ? { ...edited.value, ...patch } : edited.value;
    if (patch) edited.value = current;
    if (status.value === 'saving') return { _tag: 'Busy' };
    const missing = missingRequired.value;
    if (missing) {
      marked.value = new Set(missing.fields);
      return missing;
    }
    batch(() => {
      marked.value = new Set();
      status.value = 'saving';
    });
    const stop = <R extends SaveResult>(r: R): R => {
      status.value = 'ready';
      return r;
    };
    try {
      if (scripts) {
        const validated = await scripts('validate', current, isNew ? Object.keys(current) : changedFields(base, current));
        if (validated._tag === 'Vetoed') return stop({ _tag: 'Vetoed', message: validated.message });
        if (validated._tag === 'Failed') return stop({ _tag: 'ScriptFailed', message: validated.failure.script });
        if (validated._tag === 'Done' && Object.keys(validated.patch).length > 0) edited.value = current = { ...current, ...validated.patch };
        await changesSettled();
        current = edited.value;
      }
      for (const p of participants.value) {
        if (!p.beforeSave) continue;
        const answer = await p.beforeSave(current);
        if ('veto' in answer) {
          status.value = 'ready';
          return { _tag: 'Vetoed', message: answer.veto };
        }
        if (answer.patch) current = { ...current, ...answer.patch };
      }
      if (current !== edited.value) edited.value = current;
      const sent = await send(base, current);
      if (sent._tag === 'ModifiedBy') {
        status.value = 'ready';
        return sent;
      }
      review.value = null;
      try {
        for (const p of participants.value) if (p.afterSave) await p.afterSave(sent.id, isNew);
      } catch (error) {
        // The record is stored all the same: the form takes it (a new one moves to its id, see
        // `saved`); the participant keeps its unsaved rows for the next save.
        const saved = { id: sent.id, created: isNew, name: createdName(entity, current) };
        if (isNew) show(current);
        else await load(true);
        status.value = 'ready';
        return { _tag: 'Failed', error, saved };
      }
      // A postsave script's failure is said and reported by the runner; the record is saved all the same.
      if (scripts) await scripts('postsave', { ...current, id: sent.id }, isNew ? Object.keys(current) : changedFields(base, current));
      const saved = { _tag: 'Saved' as const, id: sent.id, created: isNew, name: createdName(entity, current) };
      if (isNew) {
        batch(() => {
          show(current);
          status.value = 'ready';
        });
        return saved;
      }
      if (close) {
        batch(() => {
          loaded.value = current;
          status.value = 'ready';
        });
        return saved;
      }
      // Still 'saving' while the stored record comes back, so its own change event is not taken for another's.
      await load(true);
      status.value = 'ready';
      return saved;
    } catch (error) {
      status.value = 'ready';
      return { _tag: 'Failed', error };
    }
  };

  /**
   * Spec 001 section 4, server change notification: when the record is neither saving nor
   * loading and the server has another version, a clean record takes it, a dirty one gets the
   * server's changes merged under the local ones, or the conflict is answered.
   */
  const serverChanged = async (changedId?: string): Promise<ServerChangeResult> => {
    if (isNew) return { _tag: 'Ignored' };
    if (changedId && changedId.toLowerCase() !== id.toLowerCase()) return { _tag: 'Ignored' };
    if (status.value === 'saving' || status.value === 'loading') return { _tag: 'Ignored' };
    // A conflict already waits for the user's choice (its dialog is open).
    if (conflict.value) return { _tag: 'Ignored' };
    const base = loaded.value;
    const current = edited.value;
    const server = await fetchRecord(id).catch(() => null);
    if (!server || server.versionnumber === base.versionnumber) return { _tag: 'Ignored' };
    if (changedFields(base, current).length === 0) {
      show(server);
      return { _tag: 'Reloaded' };
    }
    const merged = mergeOnConflict(base, current, server);
    if (isRight(merged)) {
      show(server, merged.right.record);
      return { _tag: 'Merged' };
    }
    return conflictWith(server, base, current, merged.left);
  };

  /** Delete (after the caller's confirmation MsgAskDelete), with the loaded version. */
  const remove = async (): Promise<Done> => {
    try {
      await api.update('delete', entityName, { id, versionnumber: loaded.value.versionnumber });
      // Spec 001 section 4: delete fires postsave with the record without its id.
      if (scripts) {
        const { id: _deleted, ...rest } = loaded.value;
        await scripts('postsave', rest, []);
      }
      return { _tag: 'Done' };
    } catch (error) {
      return { _tag: 'Failed', error };
    }
  };

  /** Undo delete (audit records only): recreates the record from the stored body. */
  const restore = async (): Promise<Done> => {
    try {
      const body = JSON.parse(String(loaded.value.body ?? '{}')) as EntityRecord;
      await api.update('create', String(loaded.value.logicalname ?? ''), body);
      return { _tag: 'Done' };
    } catch (error) {
      return { _tag: 'Failed', error };
    }
  };

  /**
   * The title (issue 23 item 9): the typed name, or the name the entity's template composes (a
   * contact's first and last name); a new record without one reads 'New {entity}', a stored one
   * '(Unknown)'.
   */
  const title = computed((): FormTitle => {
    if (status.value === 'loading') return { _tag: 'Loading' };
    const name = createdName(entity, edited.value).trim();
    if (name) return { _tag: 'Name', name };
    return isNew ? { _tag: 'New' } : { _tag: 'Unnamed' };
  });

  /** Clone: the values a new record starts with, named 'Copy of {name}' by the caller's text. */
  const cloneValues = (copyOf: (name: string) => string): EntityRecord => cloneRecord(edited.value, entity, copyOf);

  return {
    entity,
    form,
    isNew,
    id,
    formFields,
    loaded: loaded as ReadonlySignal<EntityRecord>,
    edited: edited as ReadonlySignal<EntityRecord>,
    status: status as ReadonlySignal<FormStatus>,
    loadError: loadError as ReadonlySignal<string>,
    marked: marked as ReadonlySignal<ReadonlySet<string>>,
    conflict: conflict as ReadonlySignal<Conflict | null>,
    review: review as ReadonlySignal<Review | null>,
    title,
    resolveConflict,
    participate,
    dirty,
    missingRequired,
    readOnly,
    canSave,
    canDelete,
    canClone,
    canRestore,
    load,
    setValue,
    applyPatch,
    save,
    serverChanged,
    remove,
    restore,
    cloneValues,
  };
};
