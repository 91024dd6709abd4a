import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { decode } from '../decode.js';
import { inputError, type InputError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import { mayAccessSome } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import { isSystemCaller, type RecordStore } from '../ports/record-store.js';

/**
 * Export options (spec 002 sections 2, 3 and 9): the organization's defaults are the JSON text
 * `inu_orgsettings.export_options` (records, format, formats, fileName, columns, fontSize,
 * orientation, totals, decimalSeparator, csvHeader), read only when the user may read
 * inu_orgsettings; a request may override each of them. `neutralizeFormulas` is the project's
 * addition (formula injection, OWASP), on unless turned off. `csvHeader` writes the `sep=;`
 * first line. `totals` is true (every column) or the columns to total.
 */
export const ExportFormat = t.keyof({ csv: null, pdf: null, json: null }, 'ExportFormat');
export type ExportFormat = t.TypeOf<typeof ExportFormat>;

export const ExportOptions = t.partial(
  {
    records: t.keyof({ all: null, selected: null }),
    format: ExportFormat,
    formats: t.array(ExportFormat),
    fileName: t.string,
    columns: t.array(t.string),
    fontSize: t.number,
    orientation: t.keyof({ portrait: null, landscape: null }),
    landscape: t.boolean,
    totals: t.union([t.boolean, t.array(t.string)]),
    decimalSeparator: t.keyof({ '.': null, ',': null }),
    csvHeader: t.boolean,
    neutralizeFormulas: t.boolean,
  },
  'ExportOptions',
);
export type ExportOptions = t.TypeOf<typeof ExportOptions>;

export type ResolvedExportOptions = {
  records: 'all' | 'selected';
  format: ExportFormat;
  formats: ExportFormat[];
  fileName?: string;
  columns?: string[];
  fontSize: number;
  orientation: 'portrait' | 'landscape';
  totals: boolean | string[];
  decimalSeparator: '.' | ',';
  csvHeader: boolean;
  neutralizeFormulas: boolean;
};

/** Spec 002 section 9: csv by default; offered formats csv and pdf; PDF font size 12. */
export const DEFAULT_EXPORT_OPTIONS: ResolvedExportOptions = {
  records: 'all',
  format: 'csv',
  formats: ['csv', 'pdf'],
  fontSize: 12,
  orientation: 'portrait',
  totals: false,
  decimalSeparator: '.',
  csvHeader: false,
  neutralizeFormulas: true,
};

export const ORG_SETTINGS_ENTITY = 'inu_orgsettings';
export const EXPORT_OPTIONS_FIELD = 'export_options';

/** Parses the stored options text; empty text means no options. Invalid JSON is a clear error. */
export const parseExportOptions = (text: string | null | undefined): Either<InputError, ExportOptions> => {
  if (text === null || text === undefined || text.trim() === '') return right({});
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return left(inputError(`Invalid export options in ${ORG_SETTINGS_ENTITY}.${EXPORT_OPTIONS_FIELD}: ${e instanceof Error ? e.message : String(e)}`));
  }
  const r = decode(ExportOptions, json, `export options in ${ORG_SETTINGS_ENTITY}.${EXPORT_OPTIONS_FIELD}`);
  if (isLeft(r)) return r;
  if (r.right.fontSize !== undefined && !(r.right.fontSize >= 4 && r.right.fontSize <= 72)) {
    return left(inputError(`Invalid export options in ${ORG_SETTINGS_ENTITY}.${EXPORT_OPTIONS_FIELD}: fontSize must be between 4 and 72`));
  }
  return r;
};

/** Later layers win, field by field. */
export const resolveExportOptions = (...layers: readonly ExportOptions[]): ResolvedExportOptions => {
  const o: ResolvedExportOptions = { ...DEFAULT_EXPORT_OPTIONS };
  for (const l of layers) {
    const { landscape, ...rest } = l;
    Object.assign(o, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)));
    if (landscape !== undefined && l.orientation === undefined) o.orientation = landscape ? 'landscape' : 'portrait';
  }
  return o;
};

/** Whether the caller may read the organization's export defaults (spec 002 section 6). */
export const mayReadExportDefaults = (caller: Caller): boolean =>
  isSystemCaller(caller) || mayAccessSome(caller, 'read', ORG_SETTINGS_ENTITY);

/**
 * The organization's export defaults: none when the user may not read inu_orgsettings (or the
 * entity or record does not exist); a Left when the stored text is not valid options JSON.
 */
export const loadExportDefaults = async (
  store: Pick<RecordStore, 'retrieveMultiple'>,
  caller: Caller,
): Promise<Either<InputError, ExportOptions>> => {
  if (!mayReadExportDefaults(caller)) return right({});
  const r = await store.retrieveMultiple(caller, {
    entity: { name: ORG_SETTINGS_ENTITY, attributes: [{ attribute: EXPORT_OPTIONS_FIELD }] },
    page: 1,
    pageSize: 1,
  });
  if (isLeft(r)) return right({});
  const text = r.right.records[0]?.[EXPORT_OPTIONS_FIELD];
  return parseExportOptions(typeof text === 'string' ? text : undefined);
};

const FILE_EXT: Record<ExportFormat, string> = { csv: 'csv', pdf: 'pdf', json: 'json' };

/** Characters that no file system accepts in a name, and control characters. */
const UNSAFE = /[\\/:*?"<>|]/g;
const isControl = (c: string): boolean => c.charCodeAt(0) < 32;

/**
 * The default file name (spec 002 section 9): the entity's plural name plus the page-title
 * suffix, with the format's extension. A configured `fileName` wins; its extension is added
 * when missing.
 */
export const exportFileName = (entity: Pick<Entity, 'displayNamePlural'>, format: ExportFormat, titleSuffix = '', fileName?: string): string => {
  const raw = fileName ?? `${entity.displayNamePlural}${titleSuffix}`;
  const base = [...raw].map((c) => (isControl(c) ? '_' : c)).join('').replace(UNSAFE, '_').trim() || 'export';
  const ext = `.${FILE_EXT[format]}`;
  return base.toLowerCase().endsWith(ext) ? base : `${base}${ext}`;
};
