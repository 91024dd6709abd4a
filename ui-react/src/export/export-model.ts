import { batch, computed, signal } from '@preact/signals-react';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  decode,
  DEFAULT_EXPORT_OPTIONS,
  EXPORT_OPTIONS_FIELD,
  exportFileName,
  exportPlan,
  isExportable,
  exportableEntities,
  isLinkEntity,
  mayReadExportDefaults,
  ORG_SETTINGS_ENTITY,
  parseExportOptions,
  FetchRequest,
  validateQuery,
  type Caller,
  type Entity,
  type ExportFormat,
  type ExportJobAnswer,
  type ExportOptions,
  type ExportRequestBody,
} from '../core.js';
import type { ApiClient } from '../api/client.js';

/**
 * The Export dialog (spec 002 sections 2, 5, 9; issue 17) as a model of signals: Export Records
 * All or Selected, Format, File Name, Calculate totals, the query (Edit Query), the organization's
 * defaults, and the download. The browser downloads the file itself from a one-time link
 * (POST /api/export/link), so a file of any size streams to disk and never sits in memory; a PDF
 * is written by an export job first (its progress shown), then downloaded the same way.
 */
export type ExportApi = Pick<ApiClient, 'fetch' | 'exportLink' | 'exportStart' | 'exportJob'>;

/** What the dialog exports: the entity, the query (a list's current one), and the rows selected. */
export type ExportTarget = { entity: Entity; query: FetchRequest; selectedIds?: readonly string[]; titleSuffix?: string };

export type ExportStatus =
  | { _tag: 'Loading' }
  | { _tag: 'Idle' }
  | { _tag: 'Preparing'; rows: number; total: number | null }
  | { _tag: 'Started'; fileName: string }
  | { _tag: 'Failed'; message: string };

/** Why a query typed in Edit Query cannot be exported: a text for the user. */
export type QueryProblem = { _tag: 'Json'; error: string } | { _tag: 'Entity'; entity: string } | { _tag: 'Invalid'; error: string };

/** How often a running job is asked for its progress. */
export const JOB_POLL_MS = 400;

/** Spec 002 section 2: the export page lists the entities the user may read (the core's rule) that are not link entities. */
export const exportPageEntities = (entities: readonly Entity[], caller: Caller): Entity[] => {
  const readable = new Set(exportableEntities(caller, entities.map((e) => e.logicalName)));
  return entities.filter((e) => !isLinkEntity(e) && readable.has(e.logicalName)).sort((a, b) => a.displayNamePlural.localeCompare(b.displayNamePlural));
};

/**
 * The query a list's Export starts from: the list's current request (view query, quick filters,
 * search, order) with the view's columns as the exported fields, in the order shown, and without
 * the list's paging (the export reads every page itself). Columns that cannot be exported
 * (binary, version, secret, related `a.b`) are left out; none left means every field.
 */
export const exportQueryOf = (entity: Entity, request: FetchRequest, columns: readonly string[]): FetchRequest => {
  const fields = new Set(entity.properties.filter(isExportable).map((p) => p.logicalName));
  const chosen = [...new Set(columns.filter((c) => fields.has(c)))];
  const { page: _page, pageSize: _pageSize, count: _count, ...rest } = request;
  const { attributes: _attributes, allattrs: _allattrs, ...query } = rest.entity;
  return { ...rest, entity: chosen.length > 0 ? { ...query, attributes: chosen.map((attribute) => ({ attribute })) } : { ...query, allattrs: true } };
};

/**
 * A query typed in Edit Query, checked with the core's rules before anything is sent: the query
 * codec, the entity (it must stay the dialog's), the metadata (fields, operators, links) and the
 * export's own rule (exportable columns).
 */
export const checkQueryText = (text: string, entity: Entity, entities: Readonly<Record<string, Entity>>): Either<QueryProblem, FetchRequest> => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return left({ _tag: 'Json', error: e instanceof Error ? e.message : String(e) });
  }
  const decoded = decode(FetchRequest, json, 'query');
  if (isLeft(decoded)) return left({ _tag: 'Invalid', error: decoded.left.message });
  if (decoded.right.entity.name !== entity.logicalName) return left({ _tag: 'Entity', entity: entity.logicalName });
  const valid = validateQuery(decoded.right, (name) => entities[name]);
  if (isLeft(valid)) return left({ _tag: 'Invalid', error: valid.left.message });
  const plan = exportPlan(entity, decoded.right, {});
  if (isLeft(plan)) return left({ _tag: 'Invalid', error: plan.left.message });
  return right(decoded.right);
};

/** The organization's default options (inu_orgsettings export_options), read only with read permission on it (spec 002 section 6). */
export const loadOrgExportOptions = async (api: Pick<ApiClient, 'fetch'>, caller: Caller): Promise<Either<string, ExportOptions>> => {
  if (!mayReadExportDefaults(caller)) return right({});
  let text: unknown;
  try {
    const r = await api.fetch({ entity: { name: ORG_SETTINGS_ENTITY, attributes: [{ attribute: EXPORT_OPTIONS_FIELD }] }, page: 1, pageSize: 1 });
    text = r.records[0]?.[EXPORT_OPTIONS_FIELD];
  } catch {
    // No settings record or no such entity: no defaults, as on the server.
    return right({});
  }
  const parsed = parseExportOptions(typeof text === 'string' ? text : undefined);
  return isLeft(parsed) ? left(parsed.left.message) : right(parsed.right);
};

/** The file name without the format's extension: what the File Name field shows. */
const baseName = (name: string): string => name.replace(/\.(csv|pdf|json)$/i, '');

export type ExportModelOptions = ExportTarget & {
  api: ExportApi;
  caller: Caller;
  entities: Readonly<Record<string, Entity>>;
  /** Starts the browser's download of a one-time link (an <a download> click in the browser). */
  download: (url: string, fileName: string) => void;
  /** Waits between job polls (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
};

export const exportModel = (o: ExportModelOptions) => {
  const selectedIds = o.selectedIds ?? [];
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const status = signal<ExportStatus>({ _tag: 'Loading' });
  /** The options text of the organization is invalid: the dialog alerts it (spec 002 section 5). */
  const optionsError = signal<string | null>(null);
  const orgOptions = signal<ExportOptions>({});
  const formats = signal<readonly ExportFormat[]>(DEFAULT_EXPORT_OPTIONS.formats);
  const records = signal<'all' | 'selected'>('all');
  const format = signal<ExportFormat>(DEFAULT_EXPORT_OPTIONS.format);
  /** What the user typed as File Name; null: the default name (which follows the format). */
  const typedName = signal<string | null>(null);
  const totals = signal(false);
  const editing = signal(false);
  const queryText = signal(JSON.stringify(o.query, null, 2));

  /** Spec 002 section 2: Selected is offered only when rows are selected. */
  const canSelect = selectedIds.length > 0;
  const defaultName = computed(() => baseName(exportFileName(o.entity, format.value, o.titleSuffix ?? '', orgOptions.value.fileName)));
  const fileName = computed(() => typedName.value ?? defaultName.value);
  const query = computed(() => (editing.value ? checkQueryText(queryText.value, o.entity, o.entities) : right<QueryProblem, FetchRequest>(o.query)));
  const busy = computed(() => status.value._tag === 'Loading' || status.value._tag === 'Preparing');
  const canDownload = computed(() => !busy.value && !isLeft(query.value) && fileName.value.trim() !== '');

  /** Reads the organization's defaults and puts them in the fields. */
  const init = async (): Promise<void> => {
    const loaded = await loadOrgExportOptions(o.api, o.caller);
    const d = isLeft(loaded) ? {} : loaded.right;
    batch(() => {
      if (isLeft(loaded)) optionsError.value = loaded.left;
      orgOptions.value = d;
      const offered = d.formats && d.formats.length > 0 ? [...new Set(d.formats)] : DEFAULT_EXPORT_OPTIONS.formats;
      formats.value = offered;
      format.value = d.format && offered.includes(d.format) ? d.format : offered[0];
      records.value = d.records === 'selected' && canSelect ? 'selected' : canSelect && d.records === undefined ? 'selected' : 'all';
      totals.value = d.totals === true || (Array.isArray(d.totals) && d.totals.length > 0);
      status.value = { _tag: 'Idle' };
    });
  };

  /** The body of the export calls: the query, the format and what the dialog sets (the other defaults apply on the server). */
  const body = (q: FetchRequest): ExportRequestBody => {
    const org = orgOptions.value.totals;
    const name = fileName.value.trim();
    return {
      query: q,
      format: format.value,
      options: {
        records: records.value,
        totals: totals.value ? (Array.isArray(org) && org.length > 0 ? org : true) : false,
        ...(name !== defaultName.value ? { fileName: name } : {}),
      },
      ...(records.value === 'selected' && canSelect ? { ids: [...selectedIds] } : {}),
      ...(o.titleSuffix ? { titleSuffix: o.titleSuffix } : {}),
    };
  };

  let run = 0;
  const failed = (e: unknown): void => {
    status.value = { _tag: 'Failed', message: e instanceof Error ? e.message : String(e) };
  };

  /** Download: CSV and JSON stream from the link at once; a PDF is prepared by a job, then downloaded. */
  const start = async (): Promise<boolean> => {
    const q = query.value;
    if (isLeft(q) || busy.value) return false;
    const n = ++run;
    const b = body(q.right);
    try {
      if (format.value !== 'pdf') {
        status.value = { _tag: 'Preparing', rows: 0, total: null };
        const link = await o.api.exportLink(b);
        if (n !== run) return false;
        o.download(link.url, link.fileName);
        status.value = { _tag: 'Started', fileName: link.fileName };
        return true;
      }
      let job: ExportJobAnswer = await o.api.exportStart(b);
      while (job.state === 'running') {
        if (n !== run) return false;
        status.value = { _tag: 'Preparing', rows: job.rows, total: job.total };
        await sleep(JOB_POLL_MS);
        if (n !== run) return false;
        job = await o.api.exportJob(job.id);
      }
      if (n !== run) return false;
      if (job.state === 'failed') {
        failed(job.message ?? job.state);
        return false;
      }
      const link = await o.api.exportLink({ job: job.id });
      if (n !== run) return false;
      o.download(link.url, link.fileName);
      status.value = { _tag: 'Started', fileName: link.fileName };
      return true;
    } catch (e) {
      if (n === run) failed(e);
      return false;
    }
  };

  /** Closing the dialog stops following a job (the server finishes it and drops it after an hour). */
  const stop = (): void => {
    run++;
  };

  return {
    entity: o.entity,
    canSelect,
    selectedCount: selectedIds.length,
    status,
    optionsError,
    formats,
    records,
    format,
    fileName,
    totals,
    editing,
    queryText,
    query,
    busy,
    canDownload,
    init,
    setFileName: (name: string) => (typedName.value = name),
    body: () => {
      const q = query.value;
      return isLeft(q) ? null : body(q.right);
    },
    start,
    stop,
  };
};

export type ExportModel = ReturnType<typeof exportModel>;
