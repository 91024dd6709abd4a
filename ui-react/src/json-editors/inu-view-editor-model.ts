import { batch, computed, signal } from '@preact/signals-react';
import {
  checkViewBody,
  replaceFetchPlaceholders,
  VIEW_KINDS,
  type Entity,
  type EntityRecord,
  type FetchRequest,
  type Form,
  type ListView,
  type ViewBody,
  type ViewBodyCheck,
  type ViewKind,
} from '../core.js';
import type { ApiClient } from '../api/client.js';
import { viewBodyWithQuery, viewQueryRequest } from '../setup-query/view-query.js';

/**
 * The special editor /{appid}/edit/inu_view/{id} (spec 000 section 2, issue 15): an inu_view
 * record's name, label, kind, entity and privacy, and its body as JSON checked as typed by the
 * core (`checkViewBody`: the kind's codec, the queries with the query engine, columns and chart
 * fields; each problem with its path), with a preview: a view's first rows as the list would
 * show them, a structured summary of the other kinds. Save creates or updates the record; every
 * open client reloads its metadata through the metadata-changed event.
 */
export type ViewEditorApi = Pick<ApiClient, 'fetch' | 'update'>;

export const VIEW_ENTITY = 'inu_view';
export const NEW_VIEW_ID = '0';
/** Rows the preview of a view shows. */
export const PREVIEW_ROWS = 10;
export const PREVIEW_DELAY_MS = 500;

/** A new record starts from a working body of its kind. */
export const starterBody = (kind: ViewKind, entity: string): string => {
  const bodies: Partial<Record<ViewKind, unknown>> = {
    view: { query: { name: entity || 'account' }, columns: [{ name: 'name' }] },
    form: { name: 'main', panels: [{ name: 'general', type: 'Fields', fields: [{ name: 'name' }] }] },
    chart: { series: [{ aggregateField: 'id', aggregateMethod: 'count' }], groups: [{ field: 'createdon', method: 'month' }], type: 'bar' },
    filter: { filters: [] },
    script: { source: '' },
    dashboard: { objects: [] },
    home: { items: [] },
  };
  return JSON.stringify(bodies[kind] ?? { kind: 'label', name: 'label' }, null, 2);
};

/** What the preview pane shows. */
export type ViewPreview =
  | { readonly _tag: 'None' }
  | { readonly _tag: 'Loading' }
  | { readonly _tag: 'Rows'; readonly columns: readonly string[]; readonly rows: readonly EntityRecord[]; readonly count: number | null }
  | { readonly _tag: 'Summary'; readonly lines: readonly SummaryLine[] }
  | { readonly _tag: 'Failed'; readonly message: string };
export type SummaryLine = { readonly depth: number; readonly text: string };

/** The fetch that previews a list view: its query with its columns, the first rows, placeholders filled. */
export const previewRequest = (view: ListView, entity: Entity | undefined, userId: string): FetchRequest => {
  const known = new Set((entity?.properties ?? []).map((p) => p.logicalName));
  const columns = view.columns.map((c) => c.name).filter((n) => !n.includes('.') && known.has(n));
  const attributes = view.query.allattrs ? undefined : [...new Set(['id', ...columns])].map((attribute) => ({ attribute }));
  return replaceFetchPlaceholders({ entity: { ...view.query, ...(attributes ? { attributes } : {}) }, page: 1, pageSize: PREVIEW_ROWS, count: true }, { userid: userId });
};

/** A structured summary of a body that is not a list: what it holds, one line per part. */
export const bodySummary = (kind: ViewKind, body: ViewBody): SummaryLine[] => {
  const lines: SummaryLine[] = [];
  const add = (depth: number, text: string) => lines.push({ depth, text });
  const b = body as Record<string, unknown>;
  switch (kind) {
    case 'form': {
      const walk = (panels: Form['panels'], depth: number) => {
        for (const p of panels) {
          add(depth, `${p.type} ${p.label ?? p.name}${p.fields?.length ? `: ${p.fields.map((f) => (f.name === '-' ? '—' : f.name)).join(', ')}` : ''}`);
          walk(p.panels ?? [], depth + 1);
        }
      };
      walk((body as Form).panels, 0);
      for (const c of (body as Form).commands ?? []) add(0, `${c.kind} ${c.name}${c.label ? ` (${c.label})` : ''}`);
      break;
    }
    case 'chart':
      for (const s of (b.series as Array<{ aggregateMethod: string; aggregateField: string }>) ?? []) add(0, `Y: ${s.aggregateMethod}(${s.aggregateField})`);
      for (const g of (b.groups as Array<{ field: string; method: string }>) ?? []) add(0, `X: ${g.field} (${g.method})`);
      add(0, `type: ${String(b.type)}`);
      break;
    case 'dashboard':
      for (const o of (b.objects as Array<{ kind: string; name: string; label?: string; query?: { name: string }; objectname?: string }>) ?? [])
        add(0, `${o.kind} ${o.label ?? o.name}${o.query?.name || o.objectname ? ` → ${o.query?.name ?? o.objectname}` : ''}`);
      break;
    case 'filter':
      for (const f of (b.filters as Array<{ name: string; type: string; propertyName?: string }>) ?? []) add(0, `${f.type} ${f.name}${f.propertyName ? ` (${f.propertyName})` : ''}`);
      break;
    case 'home': {
      const walk = (items: Array<{ kind: string; name?: string; label?: string; items?: unknown[] }>, depth: number) => {
        for (const i of items) {
          add(depth, `${i.kind} ${i.label ?? i.name ?? ''}`.trim());
          walk((i.items as typeof items) ?? [], depth + 1);
        }
      };
      walk((b.items as Array<{ kind: string }>) ?? [], 0);
      break;
    }
    case 'script':
      add(0, `${String(b.source ?? '').split('\n').length} lines`);
      break;
    default:
      for (const [k, v] of Object.entries(b)) add(0, `${k}: ${typeof v === 'object' ? JSON.stringify(v).slice(0, 80) : String(v)}`);
  }
  return lines;
};

const failureText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const inuViewEditorModel = ({ api, id, entities, userId }: { api: ViewEditorApi; id: string; entities: () => Readonly<Record<string, Entity>>; userId: string }) => {
  const isNew = id === NEW_VIEW_ID;
  const status = signal<'loading' | 'ready' | 'saving' | 'failed'>(isNew ? 'ready' : 'loading');
  const loadError = signal<string | null>(null);
  const saveError = signal<string | null>(null);
  const name = signal('');
  const label = signal('');
  const kind = signal<ViewKind>('view');
  const objectname = signal('');
  const isprivate = signal(false);
  const body = signal(isNew ? starterBody('view', '') : '');
  const savedId = signal<string | null>(isNew ? null : id);
  const loaded = signal<Record<string, unknown>>(isNew ? { name: '', label: '', kind: 'view', objectname: '', isprivate: false, body: body.value } : {});
  const preview = signal<ViewPreview>({ _tag: 'None' });
  let previewAbort: AbortController | null = null;

  const lookup = (n: string) => entities()[n];
  const check = computed((): ViewBodyCheck => {
    const r = checkViewBody(kind.value, body.value, lookup, objectname.value || undefined);
    // A view's query names its entity: it is the record's entity when one is set.
    if (r._tag === 'Valid' && kind.value === 'view' && objectname.value && (r.body as ListView).query.name !== objectname.value) {
      return { _tag: 'Invalid', path: 'query.name', message: `The view's query must be on ${objectname.value}` };
    }
    return r;
  });
  const current = () => ({ name: name.value, label: label.value, kind: kind.value, objectname: objectname.value, isprivate: isprivate.value, body: body.value });
  const dirty = computed(() => {
    const c = current();
    const l = loaded.value;
    return (Object.keys(c) as Array<keyof typeof c>).some((k) => (c[k] ?? '') !== (l[k] ?? (k === 'isprivate' ? false : '')));
  });

  const show = (r: EntityRecord) =>
    batch(() => {
      const fields = {
        name: String(r.name ?? ''),
        label: String(r.label ?? ''),
        kind: ((VIEW_KINDS as readonly string[]).includes(String(r.kind)) ? r.kind : 'view') as ViewKind,
        objectname: String(r.objectname ?? ''),
        isprivate: r.isprivate === true,
        body: String(r.body ?? ''),
      };
      loaded.value = fields;
      name.value = fields.name;
      label.value = fields.label;
      kind.value = fields.kind;
      objectname.value = fields.objectname;
      isprivate.value = fields.isprivate;
      body.value = fields.body;
    });

  const load = async (): Promise<void> => {
    if (isNew) return;
    try {
      const res = await api.fetch({ entity: { name: VIEW_ENTITY, allattrs: true, filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } }, page: 1, pageSize: 1 });
      const r = res.records[0] as EntityRecord | undefined;
      if (!r) {
        status.value = 'failed';
        return;
      }
      show(r);
      status.value = 'ready';
    } catch (e) {
      loadError.value = failureText(e);
      status.value = 'failed';
    }
  };

  /** The kind changes: an untouched new body follows it. */
  const setKind = (k: ViewKind) =>
    batch(() => {
      const untouched = isNew && body.value === starterBody(kind.value, objectname.value);
      kind.value = k;
      if (untouched) body.value = starterBody(k, objectname.value);
    });
  const setEntity = (e: string) =>
    batch(() => {
      const untouched = isNew && body.value === starterBody(kind.value, objectname.value);
      objectname.value = e;
      if (untouched) body.value = starterBody(kind.value, e);
    });

  /** A view's query as the Setup Query dialog edits it (null for other kinds or a body that does not check). */
  const viewQuery = (): FetchRequest | null => {
    const c = check.value;
    return kind.value === 'view' && c._tag === 'Valid' ? viewQueryRequest(c.body as ListView) : null;
  };
  /** The Setup Query dialog saved a query: it goes into the body, the rest of the body kept. */
  const applyViewQuery = (request: FetchRequest): void => {
    const c = check.value;
    if (kind.value !== 'view' || c._tag !== 'Valid') return;
    body.value = JSON.stringify(viewBodyWithQuery(c.body as ListView, request), null, 2);
  };

  /** The preview of the body as it is now; a newer one cancels an older one. */
  const refreshPreview = async (): Promise<void> => {
    previewAbort?.abort();
    const c = check.value;
    if (c._tag !== 'Valid') {
      preview.value = { _tag: 'None' };
      return;
    }
    if (kind.value !== 'view') {
      preview.value = { _tag: 'Summary', lines: bodySummary(kind.value, c.body) };
      return;
    }
    const view = c.body as ListView;
    const abort = new AbortController();
    previewAbort = abort;
    preview.value = { _tag: 'Loading' };
    try {
      const res = await api.fetch(previewRequest(view, lookup(view.query.name), userId));
      if (abort.signal.aborted) return;
      preview.value = { _tag: 'Rows', columns: view.columns.map((x) => x.name), rows: res.records as EntityRecord[], count: typeof res.count === 'number' ? res.count : null };
    } catch (e) {
      if (!abort.signal.aborted) preview.value = { _tag: 'Failed', message: failureText(e) };
    }
  };

  /** Creates or updates the record; answers its id, or null with the problem in saveError. */
  const save = async (): Promise<string | null> => {
    const c = check.value;
    if (c._tag !== 'Valid') return null;
    if (name.value.trim() === '') {
      saveError.value = 'name';
      return null;
    }
    status.value = 'saving';
    saveError.value = null;
    const fields = { ...current(), name: name.value.trim(), label: label.value || null, objectname: objectname.value || null };
    try {
      const was = savedId.value;
      const newId = was === null ? await api.update('create', VIEW_ENTITY, fields) : await api.update('update', VIEW_ENTITY, { id: was, ...fields });
      batch(() => {
        savedId.value = newId;
        loaded.value = current();
        status.value = 'ready';
      });
      return newId;
    } catch (e) {
      batch(() => {
        saveError.value = failureText(e);
        status.value = 'ready';
      });
      return null;
    }
  };

  const dispose = () => previewAbort?.abort();

  return { isNew, status, loadError, saveError, name, label, kind, objectname, isprivate, body, savedId, check, dirty, preview, load, setKind, setEntity, viewQuery, applyViewQuery, refreshPreview, save, dispose };
};
export type InuViewEditorModel = ReturnType<typeof inuViewEditorModel>;
