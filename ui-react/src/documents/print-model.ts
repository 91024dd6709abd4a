import { batch, signal } from '@preact/signals-react';
import { REPORT_FORMAT_WORD, REPORT_TEMPLATE_ENTITY, type DocumentFormat, type Guid } from '@tessera/core/internal';
import type { ApiClient } from '../api/client.js';

/** A report template the Print dialog offers: its id, name and own format. */
export type TemplateChoice = { readonly id: string; readonly name: string; readonly format: DocumentFormat };
export type PrintApi = Pick<ApiClient, 'fetch' | 'document'>;

/** An error answer's text for a person: the server's message without its code ('ERR_INPUT: ...'). */
export const failureMessage = (e: unknown): string => {
  const text = e && typeof e === 'object' && 'text' in e && typeof e.text === 'string' && e.text ? e.text : e instanceof Error ? e.message : String(e);
  return text.replace(/^ERR_[A-Z0-9_]+: /, '');
};

/** The browser's time zone, in which a document prints times. */
export const readerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The templates of an entity (report_template.objectname), by name; at most 100. */
export const templatesOf = async (api: Pick<ApiClient, 'fetch'>, entity: string): Promise<TemplateChoice[]> => {
  const res = await api.fetch({
    entity: {
      name: REPORT_TEMPLATE_ENTITY,
      attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'format' }],
      filter: { conditions: [{ attribute: 'objectname', operator: 'eq', value: entity }] },
      orders: [{ attribute: 'name' }],
    },
    page: 1,
    pageSize: 100,
  });
  return res.records.map((r) => ({ id: String(r.id), name: String(r.name ?? ''), format: r.format === REPORT_FORMAT_WORD ? 'docx' : 'pdf' }));
};

/**
 * The Print command's dialog (issue 20): the entity's templates, the chosen one and its format
 * (the template's own by default), then one document call for the record. States: loading,
 * failed to load, no templates, ready; generating; a failure with the server's text.
 */
export const printModel = ({ api, entity, recordId, language }: { api: PrintApi; entity: string; recordId: string; language: string }) => {
  const templates = signal<TemplateChoice[] | null>(null);
  const loadError = signal<string | null>(null);
  const chosen = signal<string | null>(null);
  const format = signal<DocumentFormat>('pdf');
  const generating = signal(false);
  const error = signal<string | null>(null);

  const choose = (id: string) =>
    batch(() => {
      chosen.value = id;
      format.value = templates.value?.find((x) => x.id === id)?.format ?? 'pdf';
      error.value = null;
    });

  const load = async (): Promise<void> => {
    loadError.value = null;
    try {
      const list = await templatesOf(api, entity);
      templates.value = list;
      if (list.length > 0) choose(list[0].id);
    } catch (e) {
      loadError.value = failureMessage(e);
    }
  };

  /** The document of the chosen template, or null (the error is in `error`). */
  const generate = async (): Promise<{ blob: Blob; fileName: string } | null> => {
    if (!chosen.value || generating.value) return null;
    generating.value = true;
    error.value = null;
    try {
      return await api.document({ entity, id: recordId as Guid, template: chosen.value as Guid, format: format.value, language, timeZone: readerTimeZone() });
    } catch (e) {
      error.value = failureMessage(e);
      return null;
    } finally {
      generating.value = false;
    }
  };

  return { templates, loadError, chosen, format, generating, error, choose, load, generate };
};
export type PrintModel = ReturnType<typeof printModel>;

/** Saves a file the browser holds (the document) under its name. */
export const downloadBlob = (blob: Blob, fileName: string): void => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};
