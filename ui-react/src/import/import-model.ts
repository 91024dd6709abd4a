import { batch, computed, signal } from '@preact/signals-react';
import {
  importableEntities,
  importConfirmationText,
  importTemplate,
  importTextIn,
  isImportable,
  mayAccessSome,
  type Caller,
  type DomainError,
  type Entity,
  type ImportMode,
  type ImportOutcome,
  type Language,
  type Property,
} from '@tessera/core/internal';
import { ServerError, type ApiClient } from '../api/client.js';
import { isImportFile, writeBatchFor, type JobPreview, type JobProgress, type StoreAnswer, type StoreCall } from './import-job.js';
import type { FromWorker, WorkerPort } from './import-protocol.js';

/**
 * The Import screen's state and use case (issue 17; spec 002 sections 2, 4, 5, 8): the object,
 * Find Matching Records By and Matching Records; a file checked in the worker (preview: counts,
 * ignored columns, the first rows with their marking and problems); Import with the confirmation
 * 'Import will Create {n} record(s) Update {m} record(s) continue?' (declining writes nothing);
 * the progress of the atomic batches; Cancel after the current batch; the result text.
 */
export type ImportPhase = 'idle' | 'checking' | 'ready' | 'writing' | 'done' | 'failed';

export type ImportModelDeps = {
  api: Pick<ApiClient, 'fetch' | 'executeMultiple'>;
  caller: Caller;
  entities: readonly Entity[];
  /** The object of a list's Import Records modal: the object selector is turned off. */
  fixedEntity?: string;
  startWorker: () => WorkerPort;
  lang: () => Language;
  /** Asks the confirmation question; true to go on. */
  confirm: (text: string) => Promise<boolean>;
  /** Saves the template file (the browser's download). */
  download: (fileName: string, content: string) => void;
};

/** Record types offered (spec 002 section 3): not link entities, and only those the user may create or update. */
export const importChoices = (entities: readonly Entity[], caller: Caller): Entity[] =>
  importableEntities([...entities])
    .filter((e) => mayAccessSome(caller, 'create', e.logicalName) || mayAccessSome(caller, 'update', e.logicalName))
    .sort((a, b) => a.displayNamePlural.localeCompare(b.displayNamePlural));

const MATCH_TYPES = new Set(['String', 'Integer', 'Guid', 'Lookup']);
/** Find Matching Records By: the id and the importable text, whole-number and lookup fields. */
export const matchFieldChoices = (entity: Entity): Property[] =>
  entity.properties.filter((p) => MATCH_TYPES.has(p.type) && (p.type === 'Guid' ? p.logicalName === 'id' : isImportable(p)));

/** A failed call of the page as the core's error value (the worker's store answers with it). */
export const domainErrorOf = (e: unknown): DomainError => {
  if (e instanceof ServerError) {
    const message = e.text.replace(/^[A-Z_0-9]+:\s*/, '') || e.statusText || String(e.status);
    if (e.status === 403) return { _tag: 'PermissionDenied', code: 'ERR_PERMISSION', message };
    if (e.status === 404) return { _tag: 'NotFound', code: 'ERR_NOT_FOUND', message };
    if (e.code === 'ERR_8001') return { _tag: 'VersionConflict', code: 'ERR_8001', message };
    return { _tag: 'InputError', code: 'ERR_INPUT', message: e.status >= 500 || e.status === 401 ? e.message : message };
  }
  return { _tag: 'InputError', code: 'ERR_INPUT', message: e instanceof Error ? e.message : String(e) };
};

export const importModel = (deps: ImportModelDeps) => {
  const choices = importChoices(deps.entities, deps.caller);
  const fixed = deps.fixedEntity !== undefined ? deps.entities.find((e) => e.logicalName === deps.fixedEntity) : undefined;
  const entityName = signal<string>(fixed?.logicalName ?? choices[0]?.logicalName ?? '');
  const entity = computed<Entity | undefined>(() => fixed ?? choices.find((e) => e.logicalName === entityName.value));
  const matchField = signal<string>('');
  const mode = signal<ImportMode>('update');
  const file = signal<(Blob & { name: string }) | null>(null);
  const phase = signal<ImportPhase>('idle');
  const progress = signal<JobProgress | null>(null);
  const preview = signal<JobPreview | null>(null);
  const outcome = signal<ImportOutcome | null>(null);
  /** A failure of the check or the write (not of rows: those are in the preview and the outcome). */
  const error = signal<string | null>(null);
  /** The chosen file is not csv or json. */
  const wrongFile = signal(false);
  const stopping = signal(false);

  const canImport = computed(() => {
    const p = preview.value;
    return phase.value === 'ready' && p !== null && p.fatal === undefined && p.create + p.update > 0;
  });

  let worker: WorkerPort | null = null;
  const endWorker = () => {
    worker?.terminate();
    worker = null;
  };

  const answer = async (c: StoreCall): Promise<StoreAnswer> => {
    try {
      const value = c.call === 'fetch' ? await deps.api.fetch(c.request) : await deps.api.executeMultiple(c.items, { atomic: c.atomic });
      return { ok: true, value };
    } catch (e) {
      return { ok: false, error: domainErrorOf(e) };
    }
  };

  const onMessage = (w: WorkerPort) => (e: { data: FromWorker }) => {
    if (w !== worker) return; // a worker replaced by a newer check
    const m = e.data;
    switch (m.type) {
      case 'call':
        void answer(m.call).then((a) => {
          if (w === worker) w.postMessage({ type: 'answer', id: m.id, answer: a });
        });
        return;
      case 'progress':
        progress.value = m.progress;
        return;
      case 'preview':
        batch(() => {
          preview.value = m.preview;
          progress.value = null;
          phase.value = 'ready';
        });
        return;
      case 'outcome':
        batch(() => {
          outcome.value = m.outcome;
          phase.value = 'done';
          stopping.value = false;
        });
        endWorker();
        return;
      case 'failed':
        batch(() => {
          error.value = m.message;
          phase.value = 'failed';
          stopping.value = false;
        });
        endWorker();
    }
  };

  /** Pass 1 of the chosen file under the current settings (again after each change of them). */
  const check = () => {
    const f = file.value;
    const e = entity.value;
    endWorker();
    batch(() => {
      preview.value = null;
      outcome.value = null;
      error.value = null;
      progress.value = null;
      phase.value = f && e ? 'checking' : 'idle';
    });
    if (!f || !e) return;
    const w = deps.startWorker();
    worker = w;
    w.onmessage = onMessage(w);
    const match = mode.value === 'create' ? undefined : matchField.value || undefined;
    w.postMessage({ type: 'check', settings: { file: f, entity: e, mode: mode.value, ...(match ? { matchField: match } : {}), lang: deps.lang() } });
  };

  const busy = () => phase.value === 'writing';

  return {
    choices,
    /** The object selector is shown (not in a list's Import Records modal). */
    showObject: fixed === undefined,
    entityName,
    entity,
    matchFields: computed(() => (entity.value ? matchFieldChoices(entity.value) : [])),
    matchField,
    mode,
    file,
    phase,
    progress,
    preview,
    outcome,
    error,
    wrongFile,
    stopping,
    canImport,

    setEntity(name: string) {
      if (busy() || fixed) return;
      batch(() => {
        entityName.value = name;
        matchField.value = '';
      });
      check();
    },
    setMatchField(name: string) {
      if (busy()) return;
      matchField.value = name;
      check();
    },
    setMode(m: ImportMode) {
      if (busy()) return;
      mode.value = m;
      check();
    },
    /** Upload File, or a file dropped: csv and json only (spec 002 section 5). */
    chooseFile(f: (Blob & { name: string }) | null | undefined) {
      if (busy() || !f) return;
      wrongFile.value = !isImportFile(f.name);
      if (wrongFile.value) return;
      file.value = f;
      check();
    },
    /** Download Template: import_{object}.csv, built by the core's rule (the server's GET /api/import/template gives the same bytes). */
    downloadTemplate() {
      const e = entity.value;
      if (!e) return;
      const tpl = importTemplate(e);
      if (tpl._tag === 'Right') deps.download(tpl.right.fileName, tpl.right.content);
    },
    /** Import: the confirmation with the counts, then pass 2 in atomic batches. Declining writes nothing. */
    async importRows(): Promise<void> {
      const p = preview.value;
      if (!canImport.value || p === null || worker === null) return;
      const text = importConfirmationText(p, importTextIn(deps.lang()));
      if (!(await deps.confirm(text))) return;
      if (phase.value !== 'ready' || preview.value !== p || worker === null) return; // changed while asking
      batch(() => {
        phase.value = 'writing';
        progress.value = { phase: 'write', done: 0, total: p.rows };
      });
      worker.postMessage({ type: 'write', batchSize: writeBatchFor(p.rows) });
    },
    /**
     * Cancel: while checking, the worker is ended (nothing was written); while writing, no further
     * batch starts, the current one completes, and the result says how many rows were not imported.
     */
    cancel() {
      if (phase.value === 'writing') {
        stopping.value = true;
        worker?.postMessage({ type: 'stop' });
      } else if (phase.value === 'checking') {
        endWorker();
        batch(() => {
          file.value = null;
          progress.value = null;
          phase.value = 'idle';
        });
      }
    },
    /** Another file after a result: back to the settings, the file forgotten. */
    reset() {
      if (busy()) return;
      endWorker();
      batch(() => {
        file.value = null;
        preview.value = null;
        outcome.value = null;
        error.value = null;
        phase.value = 'idle';
      });
    },
    dispose() {
      endWorker();
    },
  };
};

export type ImportModel = ReturnType<typeof importModel>;
