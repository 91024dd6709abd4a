import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, noObject, notFound, type DomainError } from '../errors.js';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { DocumentFormat } from '../ports/document-renderer.js';
import type { RecordStore } from '../ports/record-store.js';
import { loadReportImages, reportImageNames } from './report-images.js';
import { layoutReport, layoutTextDocument, MAX_VARIABLE_ROWS, parseReportBody, type DocumentModel } from './report-template.js';
import { TEMPLATE_ERRORS, templateErrorText, type TemplateError } from './template-errors.js';
import type { TextFormat } from './text-template.js';

/** The entities of templates: report_template (JSON body) and hr_doc_template (a text template). */
export const REPORT_TEMPLATE_ENTITY = 'report_template';
export const TEXT_TEMPLATE_ENTITY = 'hr_doc_template';
/** Spec 002: report_template.format 1 is PDF, 2 is Word. */
export const REPORT_FORMAT_WORD = 2;
/** Variables one body may declare (each is one query of the store). */
export const MAX_VARIABLES = 10;

/** Which template fills the document: a stored one, or an unsaved body (the editor's live preview). */
export type DocumentSource =
  | { readonly template: string }
  | { readonly textTemplate: string }
  | { readonly body: string };

export type DocumentOrder = {
  readonly entity: string;
  readonly id: string;
  readonly source: DocumentSource;
  /** Absent: the template's own format (report_template.format), else PDF. */
  readonly format?: DocumentFormat;
};

export type PreparedDocument = { readonly model: DocumentModel; readonly format: DocumentFormat; readonly fileName: string };

/** A template error at the edge: ERR_INPUT with the spec's text (and where). */
export const templateInputError = (e: TemplateError, source?: string): DomainError => inputError(templateErrorText(e, source));

const templateNotFound = (): DomainError => notFound(TEMPLATE_ERRORS.notFound);

const fileNameOf = (title: string, record: EntityRecord, entity: Entity, format: DocumentFormat): string => {
  const base = (title || String(record.name ?? '') || entity.displayName).replace(/[\\/:*?"<>|\r\n]+/g, ' ').trim().slice(0, 100) || 'document';
  return `${base}.${format}`;
};

/**
 * Fills a template from one record (spec 002 "Document generation"): the template and the
 * record are read as the caller (a record the caller may not read is ERR_NOT_FOUND, so a
 * document discloses nothing the form would not), then each variable's rows, also as the
 * caller. A stored template that is missing, unreadable or made for another entity is
 * 'executePdfTemplate template not found'; template errors are ERR_INPUT with the spec's texts.
 */
export const prepareDocument = async (
  deps: { store: Pick<RecordStore, 'retrieveById' | 'retrieveMultiple'>; entities: readonly Entity[] },
  caller: Caller,
  order: DocumentOrder,
  fmt: TextFormat,
): Promise<Either<DomainError, PreparedDocument>> => {
  const entity = deps.entities.find((e) => e.logicalName === order.entity);
  if (!entity) return left(noObject(order.entity));

  let body: string;
  let kind: 'report' | 'text' = 'report';
  let templateFormat: DocumentFormat | undefined;
  let templateName = '';
  if ('body' in order.source) body = order.source.body;
  else {
    const stored = 'template' in order.source ? { name: REPORT_TEMPLATE_ENTITY, id: order.source.template } : { name: TEXT_TEMPLATE_ENTITY, id: order.source.textTemplate };
    if (!deps.entities.some((e) => e.logicalName === stored.name)) return left(templateNotFound());
    const t = await deps.store.retrieveById(caller, stored.name, stored.id);
    if (isLeft(t)) return t.left.code === 'ERR_NOT_FOUND' || t.left.code === 'ERR_PERMISSION' ? left(templateNotFound()) : t;
    if (stored.name === REPORT_TEMPLATE_ENTITY) {
      const target = t.right.objectname;
      if (typeof target === 'string' && target !== '' && target !== order.entity) return left(templateNotFound());
      templateFormat = t.right.format === REPORT_FORMAT_WORD ? 'docx' : 'pdf';
    } else kind = 'text';
    body = typeof t.right.body === 'string' ? t.right.body : '';
    templateName = typeof t.right.name === 'string' ? t.right.name : '';
  }

  const record = await deps.store.retrieveById(caller, order.entity, order.id);
  if (isLeft(record)) return record;
  const format = order.format ?? templateFormat ?? 'pdf';

  if (kind === 'text') {
    const model = layoutTextDocument(templateName, body, record.right, fmt);
    return isLeft(model) ? left(templateInputError(model.left, body)) : right({ model: model.right, format, fileName: fileNameOf(templateName, record.right, entity, format) });
  }

  const parsed = parseReportBody(body);
  if (isLeft(parsed)) return left(templateInputError(parsed.left));
  const variables = Object.entries(parsed.right.variables ?? {});
  if (variables.length > MAX_VARIABLES) return left(templateInputError({ _tag: 'TemplateError', message: TEMPLATE_ERRORS.invalidFormat, at: -1, detail: `more than ${MAX_VARIABLES} variables` }));
  const data: Record<string, unknown> = { ...record.right };
  for (const [name, v] of variables) {
    if (!deps.entities.some((e) => e.logicalName === v.entity)) return left(noObject(v.entity));
    const rows = await deps.store.retrieveMultiple(caller, {
      entity: {
        name: v.entity,
        allattrs: true,
        filter: { conditions: [{ attribute: v.parentField, operator: 'eq', value: order.id }] },
        orders: [{ attribute: v.orderBy ?? 'createdon', descending: v.descending ?? false }],
      },
      pageSize: MAX_VARIABLE_ROWS,
    });
    if (isLeft(rows)) return rows;
    data[name] = rows.right.records;
  }
  // The report images the body names, read as the caller in one query ('Cannot load image' otherwise).
  const images = await loadReportImages(deps, caller, reportImageNames(parsed.right));
  if (isLeft(images)) return left(images.left._tag === 'TemplateError' ? templateInputError(images.left) : images.left);
  const model = layoutReport(parsed.right, data, fmt, images.right);
  if (isLeft(model)) return left(templateInputError(model.left));
  return right({ model: model.right, format, fileName: fileNameOf(model.right.title || templateName, record.right, entity, format) });
};
