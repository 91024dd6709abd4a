import { batch, computed, signal } from '@preact/signals-react';
import { checkReportBody, REPORT_FORMAT_WORD, REPORT_TEMPLATE_ENTITY, templateErrorText, type DocumentModel, type EntityRecord, type Guid } from '@tessera/core/internal';
import type { ApiClient } from '../api/client.js';
import { failureMessage, readerTimeZone } from './print-model.js';

export type EditorApi = Pick<ApiClient, 'fetch' | 'update' | 'document'>;
export type PreviewRecord = { readonly id: string; readonly label: string };
export type Preview =
  | { readonly _tag: 'None' }
  | { readonly _tag: 'Loading' }
  | { readonly _tag: 'Ready'; readonly model: DocumentModel }
  | { readonly _tag: 'Failed'; readonly message: string };

/** Records offered for the preview: the entity's most recently modified. */
export const PREVIEW_RECORDS = 25;
/** The pause after typing before the preview is asked again. */
export const PREVIEW_DELAY_MS = 700;
export const NEW_TEMPLATE_ID = '0';

/** A new template starts from a working body: a title, one text and a grid to copy from. */
export const STARTER_BODY = JSON.stringify(
  {
    title: '{{name}}',
    styles: { title: { fontSize: 18, bold: true } },
    content: [
      { type: 'text', text: '{{name}}', style: 'title' },
      { type: 'grid', widths: [1, 2], cells: [['Created on', '{{createdon | date}}'], ['Owner', '{{ownerid}}']] },
    ],
  },
  null,
  2,
);

/**
 * The report template editor (/{appid}/edit/report_template/{id}, issue 20): the template's name,
 * entity, format and body; the body checked as typed (the core's checkReportBody, the spec's
 * texts); a live preview of a chosen record (the server fills the body as the user and answers
 * the layout model, which the screen draws); Save creates or updates the record.
 */
export const templateEditorModel = ({ api, id, language }: { api: EditorApi; id: string; language: string }) => {
  const isNew = id === NEW_TEMPLATE_ID;
  const status = signal<'loading' | 'ready' | 'saving' | 'failed'>(isNew ? 'ready' : 'loading');
  const loadError = signal<string | null>(null);
  const saveError = signal<string | null>(null);
  const loaded = signal<EntityRecord>(isNew ? { name: '', objectname: '', format: 1, body: STARTER_BODY } : {});
  const name = signal(isNew ? '' : '');
  const objectname = signal('');
  const format = signal<1 | 2>(1);
  const body = signal(isNew ? STARTER_BODY : '');
  const savedId = signal<string | null>(isNew ? null : id);

  const problem = computed(() => {
    const e = checkReportBody(body.value);
    return e === null ? null : templateErrorText(e);
  });
  const dirty = computed(
    () => name.value !== String(loaded.value.name ?? '') || objectname.value !== String(loaded.value.objectname ?? '') || format.value !== (loaded.value.format === REPORT_FORMAT_WORD ? 2 : 1) || body.value !== String(loaded.value.body ?? ''),
  );

  const records = signal<PreviewRecord[] | null>(null);
  const recordsError = signal<string | null>(null);
  const previewId = signal<string | null>(null);
  const preview = signal<Preview>({ _tag: 'None' });
  let previewAbort: AbortController | null = null;
  let recordsFor = '';

  const show = (r: EntityRecord) =>
    batch(() => {
      loaded.value = r;
      name.value = String(r.name ?? '');
      objectname.value = String(r.objectname ?? '');
      format.value = r.format === REPORT_FORMAT_WORD ? 2 : 1;
      body.value = String(r.body ?? '');
    });

  const load = async (): Promise<void> => {
    if (isNew) return;
    try {
      const res = await api.fetch({ entity: { name: REPORT_TEMPLATE_ENTITY, allattrs: true, filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } }, page: 1, pageSize: 1 });
      const r = res.records[0] as EntityRecord | undefined;
      if (!r) {
        status.value = 'failed';
        loadError.value = null;
        return;
      }
      show(r);
      status.value = 'ready';
    } catch (e) {
      loadError.value = failureMessage(e);
      status.value = 'failed';
    }
  };

  /** The records of the template's entity to preview with (asked again when the entity changes). */
  const loadRecords = async (): Promise<void> => {
    const entity = objectname.value;
    if (entity === recordsFor) return;
    recordsFor = entity;
    batch(() => {
      records.value = entity ? null : [];
      recordsError.value = null;
      previewId.value = null;
      preview.value = { _tag: 'None' };
    });
    if (!entity) return;
    try {
      const res = await api.fetch({ entity: { name: entity, attributes: [{ attribute: 'id' }, { attribute: 'name' }], orders: [{ attribute: 'modifiedon', descending: true }] }, page: 1, pageSize: PREVIEW_RECORDS });
      if (recordsFor !== entity) return;
      const list = res.records.map((r) => ({ id: String(r.id), label: String(r.name ?? '') || String(r.id) }));
      batch(() => {
        records.value = list;
        if (list.length > 0) previewId.value = list[0].id;
      });
    } catch (e) {
      if (recordsFor !== entity) return;
      batch(() => {
        records.value = [];
        recordsError.value = failureMessage(e);
      });
    }
  };

  /** Fills the body from the chosen record on the server; a newer request cancels an older one. */
  const refreshPreview = async (): Promise<void> => {
    previewAbort?.abort();
    if (!previewId.value || !objectname.value) {
      preview.value = { _tag: 'None' };
      return;
    }
    if (problem.value) {
      preview.value = { _tag: 'Failed', message: problem.value };
      return;
    }
    const abort = new AbortController();
    previewAbort = abort;
    preview.value = { _tag: 'Loading' };
    try {
      const file = await api.document({ entity: objectname.value, id: previewId.value as Guid, body: body.value, format: 'layout', language, timeZone: readerTimeZone() }, abort.signal);
      const model = JSON.parse(await file.blob.text()) as DocumentModel;
      if (!abort.signal.aborted) preview.value = { _tag: 'Ready', model };
    } catch (e) {
      if (!abort.signal.aborted) preview.value = { _tag: 'Failed', message: failureMessage(e) };
    }
  };

  /** Creates or updates the template; answers its id, or null with the error in saveError. */
  const save = async (): Promise<string | null> => {
    status.value = 'saving';
    saveError.value = null;
    const fields = { name: name.value, objectname: objectname.value, format: format.value, body: body.value };
    try {
      const current = savedId.value;
      const newId = current === null ? await api.update('create', REPORT_TEMPLATE_ENTITY, fields) : await api.update('update', REPORT_TEMPLATE_ENTITY, { id: current, ...fields });
      batch(() => {
        savedId.value = newId;
        loaded.value = { ...loaded.value, ...fields, id: newId };
        status.value = 'ready';
      });
      return newId;
    } catch (e) {
      batch(() => {
        saveError.value = failureMessage(e);
        status.value = 'ready';
      });
      return null;
    }
  };

  const dispose = () => previewAbort?.abort();

  return { isNew, status, loadError, saveError, name, objectname, format, body, savedId, problem, dirty, records, recordsError, previewId, preview, load, loadRecords, refreshPreview, save, dispose };
};
export type TemplateEditorModel = ReturnType<typeof templateEditorModel>;
