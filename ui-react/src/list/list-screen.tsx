import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { EntityRecord, FieldValue, Order, QuickFilter as QuickFilterT, QuickFilterSelection } from '../core.js';
import { applyQuickFilterFragment, checkPermissionString, commandPermission, effectiveSelection, isEmptySelection, csvCell, initialSelection, mayAccessSome, neutralizeFormula, QuickFilter, quickFiltersToFetch, visibleQuickFilters } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { formatValue, optionColor } from '../format.js';
import { caller, entityOf, guiObjects, parsedBody, session } from '../state/session.js';
import { KEYS, session as sessionStore } from '../state/storage.js';
import { objectChangedEvent } from '../state/realtime.js';
import { alertDialog, alertFailure, confirmDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { useShell } from '../shell/shell.js';
import { listRequest, searchFilter, viewsOf } from './list-query.js';
import { QuickFilterBar } from './quick-filter-bar.js';

const PAGE_SIZE = 50;

/** The quick filters of an entity's lists: its filter object, else a Mine filter when records have owners. */
const quickFiltersOf = (entityName: string, hasOwner: boolean): QuickFilterT[] => {
  const defs = guiObjects('filter', entityName).flatMap((g) => {
    const body = parsedBody(g) as { filters?: unknown[] } | undefined;
    return (body?.filters ?? []).flatMap((f) => {
      const d = QuickFilter.decode(f);
      return isRight(d) ? [d.right] : [];
    });
  });
  if (defs.length > 0) return defs;
  return hasOwner ? [{ name: 'owner', type: 'owner', propertyName: 'ownerid' }] : [];
};

const pageSizeKey = (name: string) => `${KEYS.listPageSize}.${name}`;
const selectionsKey = (name: string) => `tessera.quickFilters.${name}`;

const storedSelections = (name: string, filters: QuickFilterT[]): Record<string, QuickFilterSelection> => {
  let stored: Record<string, QuickFilterSelection> = {};
  try {
    stored = JSON.parse(sessionStore.get(selectionsKey(name)) ?? '{}') as Record<string, QuickFilterSelection>;
  } catch {
    stored = {};
  }
  return Object.fromEntries(filters.map((f) => [f.name, Object.hasOwn(stored, f.name) ? stored[f.name] : initialSelection(f)]));
};

/** /{appid}/list/{name}: a fresh screen per entity. */
export const ListRoute = () => {
  const { name = '' } = useParams();
  return <ListScreen key={name} />;
};

/** The list screen (spec 001 section 2). */
const ListScreen = () => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const { appParam } = useShell();
  const { name = '' } = useParams();
  const entity = entityOf(name);
  const me = caller.value!;
  const gui = session.value?.context.gui ?? [];
  const views = useMemo(() => (entity ? viewsOf(entity, gui, parsedBody) : []), [entity, gui]);
  const [params] = useSearchParams();
  const initialView = params.get('view') ?? '';
  const [viewName, setViewName] = useState<string>(initialView);
  const view = views.find((v) => v.name === viewName) ?? views[0];
  const filters = useMemo(
    () => (entity ? visibleQuickFilters(quickFiltersOf(name, entity.properties.some((p) => p.logicalName === 'ownerid')), (p) => checkPermissionString(me, p)) : []),
    [entity, name, me],
  );
  // The bar's selections last for the browser session, per list, so a list opens as it was left.
  const [selections, setSelections] = useState<Record<string, QuickFilterSelection>>(() => storedSelections(name, filters));
  useEffect(() => sessionStore.set(selectionsKey(name), JSON.stringify(selections)), [name, selections]);
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const h = setTimeout(() => setDebounced(search), 250);
    return () => clearTimeout(h);
  }, [search]);
  const [order, setOrder] = useState<Order | undefined>(undefined);
  const [pageSize, setPageSize] = useState(() => Math.max(PAGE_SIZE, Number(sessionStore.get(pageSizeKey(name))) || PAGE_SIZE));
  const [rows, setRows] = useState<EntityRecord[] | null>(null);
  const [count, setCount] = useState<number | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [filtersOpen, setFiltersOpen] = useState(false);
  const seq = useRef(0);


  const load = useCallback(async () => {
    if (!entity || !view) return;
    const n = ++seq.current;
    const quick = quickFiltersToFetch(filters, selections, {
      reference: new Date(),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      entity,
      placeholders: { userid: me.userId },
    });
    if (isLeft(quick)) {
      setRows([]);
      setCount(0);
      return;
    }
    if (quick.right._tag === 'NoResults') {
      // Spec 001 section 2: a mandatory group without an active filter returns nothing.
      setRows([]);
      setCount(0);
      setMore(false);
      return;
    }
    setLoading(true);
    try {
      const request = listRequest(entity, view, { search: searchFilter(entity, debounced), order, pageSize });
      const res = await api.fetch({ ...request, entity: applyQuickFilterFragment(request.entity, quick.right.fragment) });
      if (n !== seq.current) return;
      setRows(res.records as EntityRecord[]);
      setCount(res.count);
      setMore(res.moreRecords);
    } catch (e) {
      if (n !== seq.current) return;
      setRows([]);
      void alertFailure(e, t('CmdOk'), (message) => t('MsgListLoadFailed', { message }));
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, [api, entity, view, filters, selections, debounced, order, pageSize, me, t]);

  useEffect(() => {
    void load();
  }, [load]);

  // A change on the server reloads the list (the page keeps its grown size).
  useEffect(() => {
    let h: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(h);
      h = setTimeout(() => void load(), 300);
    };
    const ev = objectChangedEvent(name);
    window.addEventListener(ev, onChange);
    return () => {
      clearTimeout(h);
      window.removeEventListener(ev, onChange);
    };
  }, [name, load]);

  if (!entity) return <p className="empty" role="alert">{t('MsgObjectNotFound', { name })}</p>;
  if (!view) return null;

  const props = new Map(entity.properties.map((p) => [p.logicalName, p]));
  const columns = view.body.columns.filter((c) => c.name.includes('.') || props.has(c.name));
  // The view's standard commands (all of them when it lists none); a command's own permission string replaces the default.
  const viewCommand = (cmd: string) => (view.body.commands ? view.body.commands.find((c) => c.kind === 'std' && c.name.toLowerCase() === cmd) : { kind: 'std' as const, name: cmd });
  const listed = (cmd: string, fallback: boolean): boolean => {
    const c = viewCommand(cmd);
    return !!c && (c.permissions ? checkPermissionString(me, c.permissions) : fallback);
  };
  const canNew = listed('new', checkPermissionString(me, commandPermission({ name: 'New' }, name)));
  const canDelete = listed('delete', mayAccessSome(me, 'delete', name));
  const canExport = listed('export', mayAccessSome(me, 'read', name));
  const linkOf = (r: EntityRecord, form?: string) => `/${appParam}/edit/${name}/${String(r.id)}${form ? `/${form}` : ''}`;
  const allOnPage = rows?.map((r) => String(r.id)) ?? [];
  const allSelected = allOnPage.length > 0 && allOnPage.every((id) => selected.has(id));
  const sortable = columns.filter((c) => !c.name.includes('.'));
  const activeFilters = filters.filter((f) => !isEmptySelection(effectiveSelection(f, selections[f.name]))).length;

  const deleteSelected = async () => {
    const ids = [...selected];
    if (ids.length === 0) return;
    if (!(await confirmDialog(t('MsgAskDeleteMany', { n: ids.length }), t('CmdDelete'), t('CmdCancel'), true))) return;
    try {
      const results = await api.executeMultiple(ids.map((id) => ({ operation: 'delete', name, object: { id, versionnumber: rows?.find((r) => r.id === id)?.versionnumber ?? undefined } })));
      const errors = results.filter((r) => r.error).map((r) => r.error);
      if (errors.length) await alertDialog(errors.join('\n'), t('CmdOk'));
      setSelected(new Set());
      await load();
    } catch (e) {
      await alertFailure(e, t('CmdOk'));
    }
  };

  const exportCsv = () => {
    const cols = columns;
    const head = cols.map((c) => csvCell(c.label ?? props.get(c.name)?.displayName ?? c.name, ';'));
    const lines = (rows ?? []).map((r) => cols.map((c) => csvCell(neutralizeFormula(formatValue(props.get(c.name), r[c.name] as FieldValue, r)), ';')).join(';'));
    const blob = new Blob(['\ufeff' + [head.join(';'), ...lines].join('\r\n')], { type: 'text/csv;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${entity.displayNamePlural}.csv`;
    a.click();
    URL.revokeObjectURL(a.href);
  };

  const showMore = () => {
    const next = pageSize + PAGE_SIZE;
    sessionStore.set(pageSizeKey(name), String(next));
    setPageSize(next);
  };

  return (
    <div className="screen list-screen">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{entity.displayNamePlural}</h1>
          {views.length > 1 && (
            <label className="view-select">
              <span className="sr-only">{t('LblView')}</span>
              <select value={view.name} onChange={(e) => setViewName(e.target.value)}>
                {views.map((v) => (
                  <option key={v.name} value={v.name}>
                    {v.label}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <div className="command-bar" role="toolbar" aria-label={entity.displayNamePlural}>
          {canNew && (
            <button type="button" className="btn btn-primary" onClick={() => navigate(`/${appParam}/edit/${name}/0`)}>
              <Icon name="plus" /> {t('CmdNew')}
            </button>
          )}
          {canDelete && selected.size > 0 && (
            <button type="button" className="btn btn-danger-outline" onClick={deleteSelected}>
              <Icon name="trash" /> {t('CmdDelete')} <span className="badge">{selected.size}</span>
            </button>
          )}
          {canExport && (
            <button type="button" className="btn btn-plain" onClick={exportCsv} disabled={!rows?.length}>
              <Icon name="export" /> {t('CmdExport')}
            </button>
          )}
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdRefresh')} title={t('CmdRefresh')} onClick={() => void load()}>
            <Icon name="refresh" />
          </button>
        </div>
      </div>
      <div className="toolbar">
        <label className="search-box">
          <Icon name="search" />
          <span className="sr-only">{t('LblSearch')}</span>
          <input type="search" placeholder={t('LblSearch')} value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <div className="sort-picker">
          <label>
            <span className="sr-only">{t('LblSortBy')}</span>
            <select
              aria-label={t('LblSortBy')}
              value={order?.attribute ?? ''}
              onChange={(e) => setOrder(e.target.value ? { attribute: e.target.value, descending: order?.descending ?? false } : undefined)}
            >
              <option value="">{t('LblSortBy')}</option>
              {sortable.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.label ?? props.get(c.name)?.displayName ?? c.name}
                </option>
              ))}
            </select>
          </label>
          {filters.length > 0 && (
            <button type="button" className="btn btn-plain qf-toggle" aria-expanded={filtersOpen} aria-controls="quick-filters" onClick={() => setFiltersOpen(!filtersOpen)}>
              <Icon name="filter" /> {t('LblFilters')}
              {activeFilters > 0 && <span className="badge accent">{activeFilters}</span>}
            </button>
          )}
          <button
            type="button"
            className="btn btn-plain icon-only"
            disabled={!order}
            aria-label={order?.descending ? t('LblDescending') : t('LblAscending')}
            title={order?.descending ? t('LblDescending') : t('LblAscending')}
            onClick={() => order && setOrder({ ...order, descending: !order.descending })}
          >
            <Icon name="sort" />
          </button>
        </div>
      </div>
      <QuickFilterBar defs={filters} entity={entity} selections={selections} open={filtersOpen} onChange={(n, v) => setSelections((s) => ({ ...s, [n]: v }))} />
      <div className="table-wrap" aria-busy={loading}>
        <table className="grid">
          <thead>
            <tr>
              <th className="col-check">
                <input
                  type="checkbox"
                  aria-label={t('LblSelectAll')}
                  checked={allSelected}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(allOnPage))}
                />
              </th>
              {columns.map((c) => {
                const sorted = order?.attribute === c.name;
                return (
                  <th key={c.name} scope="col" aria-sort={sorted ? (order?.descending ? 'descending' : 'ascending') : undefined} style={c.width ? { width: c.width } : undefined}>
                    {c.name.includes('.') ? (
                      (c.label ?? c.name)
                    ) : (
                      <button type="button" className="th-sort" onClick={() => setOrder({ attribute: c.name, descending: sorted ? !order?.descending : false })}>
                        {c.label ?? props.get(c.name)?.displayName ?? c.name}
                        {sorted && <Icon name={order?.descending ? 'chevronDown' : 'chevronDown'} className={order?.descending ? '' : 'flip'} size={14} />}
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows === null &&
              Array.from({ length: 6 }, (_, i) => (
                <tr key={i} className="skeleton-row">
                  <td colSpan={columns.length + 1}>
                    <span className="skeleton" />
                  </td>
                </tr>
              ))}
            {rows?.length === 0 && (
              <tr>
                <td colSpan={columns.length + 1} className="empty">
                  {t('MsgNoRecords')}
                </td>
              </tr>
            )}
            {rows?.map((r) => {
              const id = String(r.id);
              return (
                <tr key={id} className={selected.has(id) ? 'selected' : ''}>
                  <td className="col-check">
                    <input
                      type="checkbox"
                      aria-label={`${t('LblSelectRow')} ${String(r.name ?? id)}`}
                      checked={selected.has(id)}
                      onChange={() => {
                        const next = new Set(selected);
                        if (next.has(id)) next.delete(id);
                        else next.add(id);
                        setSelected(next);
                      }}
                    />
                  </td>
                  {columns.map((c, i) => {
                    const p = props.get(c.name);
                    const v = r[c.name] as FieldValue | undefined;
                    const text = formatValue(p, v, r);
                    const color = optionColor(p, v);
                    const label = c.label ?? p?.displayName ?? c.name;
                    return (
                      <td key={c.name} data-label={label} className={p && ['Integer', 'Decimal', 'Float', 'Money'].includes(p.type) && !color ? 'num' : undefined}>
                        {i === 0 || c.form ? (
                          <Link to={linkOf(r, c.form)} className="row-link">
                            {text || t('MsgUnknownTitle')}
                          </Link>
                        ) : color ? (
                          <span className="pill" style={{ ['--pill' as string]: color }}>
                            {text}
                          </span>
                        ) : (
                          text
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="list-foot">
        <span className="muted small" aria-live="polite">
          {rows && count !== null ? t('MsgShowingOf', { shown: rows.length, count }) : ''}
          {selected.size > 0 ? ` · ${t('MsgSelected', { n: selected.size })}` : ''}
        </span>
        {more && (
          <button type="button" className="btn btn-plain" onClick={showMore} disabled={loading}>
            {t('CmdShowMore')}
          </button>
        )}
      </div>
    </div>
  );
};
