import * as t from 'io-ts';
import { DOCUMENT_FORMATS, type DocumentFormat } from '../ports/document-renderer.js';
import { MAX_REPORT_BODY_CHARS } from '../templates/report-template.js';
import { Guid } from './guid.js';

const bounded = (max: number, name: string) =>
  t.refinement(t.string, (s) => s.length <= max, `${name} (at most ${max} characters)`);

/** A file format, or `layout`: the filled layout model as JSON (the template editor's preview draws it as HTML). */
export const DOCUMENT_LAYOUT = 'layout';
const Format = t.keyof({ ...(Object.fromEntries(DOCUMENT_FORMATS.map((f) => [f, null])) as Record<DocumentFormat, null>), [DOCUMENT_LAYOUT]: null } as Record<DocumentFormat | 'layout', null>, 'pdf, docx or layout');

/**
 * POST /api/document (issue 20): the document of one record. Exactly one source: a stored
 * report_template (`template`), a stored hr_doc_template (`textTemplate`), or an unsaved body
 * (`body`, the template editor's live preview). `format` defaults to the template's; `language` (sk, cz, de, en) sets how numbers and dates print, `timeZone` (IANA) the zone of times.
 */
export const DocumentRequestBody = t.intersection(
  [
    t.type({ entity: bounded(100, 'entity'), id: Guid }),
    t.partial({ template: Guid, textTemplate: Guid, body: bounded(MAX_REPORT_BODY_CHARS, 'body'), format: Format, language: bounded(10, 'language'), timeZone: bounded(64, 'time zone') }),
  ],
  'document request',
);
export type DocumentRequestBody = t.TypeOf<typeof DocumentRequestBody>;
