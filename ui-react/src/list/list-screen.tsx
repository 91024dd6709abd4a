import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Entity, MessageKey, QuickFilter as QuickFilterT, ViewModeName } from '../core.js';
import { checkPermissionString, kanbanFieldName, QuickFilter, visibleQuickFilters } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { formatCount } from '../format.js';
import { ScriptCommands, useFetchScriptRunner } from '../scripts/script-ui.js';
import { withScriptFetches } from '../scripts/fetch-scripts.js';
import { caller, entityOf, guiObjects, parsedBody, session } from '../state/session.js';
import { session as sessionStore } from '../state/storage.js';
import { objectChangedEvent } from '../state/realtime.js';
import { alertDialog, alertFailure, confirmDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { useShell } from '../shell/shell-context.js';
import { NavigationGuard } from '../form/navigation-guard.js';
import { CustomizeBar, useCustomizeShortcut } from '../customize/customize-bar.js';
import { shownFilters, shownViews } from '../customize/customize-state.js';
import { ListCustomizeTools } from '../customize/list-customize.js';
import { EditBar, editShortcut, notAvailableWhileEditing, type Guard } from './list-edit-bar.js';
import { EDIT_OFF, EDIT_ON, listEditModel, type ListEditModel } from './list-edit-model.js';
import { listModel, type ListModel } from './list-model.js';
import { viewsOf } from './list-query.js';
import { ListTable } from './list-table.js';
import { QuickFilterBar } from './quick-filter-bar.js';
import { listQuickFilters } from './quick-filters/personal-filters.js';
import { shownModes, VIEW_BODIES, type ViewBodyProps } from './view-bodies.js';
import { ViewQueryCommand } from '../setup-query/view-query-command.js';

/** The search box waits for a pause in typing before the list asks the server. */
const SEARCH_PAUSE_MS = 250;

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

/** /{appid}/list/{name}: a fresh screen per entity. */
export const ListRoute = () => {
  const { name = '' } = useParams();
  return <ListScreen key={name} />;
};

const ListScreen = () => {
  useSignals();
  const t = useT();
  const { name = '' } = useParams();
  if (!entityOf(name)) return <p className="empty" role="alert">{t('MsgObjectNotFound', { name })}</p>;
  return <EntityList name={name} />;
};

/** The list screen (spec 001 section 2): draws the list model and says its answers. */
const EntityList = ({ name }: { name: string }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const { appParam } = useShell();
  const [params] = useSearchParams();
  const runFetchScript = useFetchScriptRunner(name);
  // One model per list; it reads the metadata through these functions, so a refresh reloads it.
  const model = useMemo(
    () =>
      listModel({
        api,
        entity: () => entityOf(name) as Entity,
        // Issue 15: the drafts of customize mode show live (customize-state.ts).
        views: () => shownViews(name, viewsOf(entityOf(name) as Entity, session.value?.context.gui ?? [], parsedBody)),
        initialView: params.get('view') ?? '',
        filters: () => {
          const entity = entityOf(name) as Entity;
          return listQuickFilters(entity, visibleQuickFilters(withScriptFetches(shownFilters(name, quickFiltersOf(name, entity.properties.some((p) => p.logicalName === 'ownerid'))), runFetchScript), (p) => checkPermissionString(caller.value!, p)));
        },
        caller: () => caller.value!,
        memory: sessionStore,
        onLoadFailed: (e) => void alertFailure(e, t('CmdOk'), (message) => t('MsgListLoadFailed', { message })),
      }),
    [api, name],
  );
  useEffect(() => model.start(), [model]);
  // Editing in the list (issue 13 section 1): the edit model beside the list model.
  const edit = useMemo(
    () =>
      listEditModel({
        list: model,
        api,
        caller: () => caller.value!,
        entityOf,
        newId: () => crypto.randomUUID(),
        user: session.value ? { id: session.value.context.user.id, name: session.value.context.user.name } : undefined,
        // Spec 001 section 2: after the batch saved, the postsave event fires (a browser event, as objectChanged is).
        onPostSave: (saved) => window.dispatchEvent(new CustomEvent(`postsave:${saved.entity}`, { detail: saved })),
      }),
    [model],
  );
  useEffect(() => edit.start(), [edit]);
  // A change on the server reloads the list (the page keeps its grown size), except while edits wait:
  // rows would move under the user's hands (the save reloads, and Discard does).
  useEffect(() => {
    const ev = objectChangedEvent(name);
    const changed = () => !edit.dirty.value && model.serverChanged();
    window.addEventListener(ev, changed);
    return () => window.removeEventListener(ev, changed);
  }, [name, model, edit]);
  // Meta or Alt plus E enters super edit (spec 001 section 1) for users with system user level 3.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => editShortcut(e, edit);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [edit]);
  useCustomizeShortcut();
  /** Spec 001 section 2: what would reload or leave the list is refused while edits wait: 'Operation not available while editing list.' */
  const guard: Guard = (action) => (edit.dirty.value ? notAvailableWhileEditing(t) : action());
  const leaving = useRef(false);


  const [search, setSearch] = useState('');
  useEffect(() => {
    const h = setTimeout(() => (model.search.value = search), SEARCH_PAUSE_MS);
    return () => clearTimeout(h);
  }, [search, model]);
  const [filtersOpen, setFiltersOpen] = useState(false);

  const view = model.view.value;
  if (!view) return null;
  const entity = model.entity.value;
  return (
    <div className="screen list-screen">
      {edit.dirty.value && <NavigationGuard proceeding={leaving} onSave={async () => (await edit.save())._tag === 'Saved'} />}
      <ListHead model={model} appParam={appParam} edit={edit} guard={guard} />
      {edit.editing.value && <EditBar model={model} edit={edit} />}
      {/* Issue 15: customize mode's bar with the columns and quick-filter editors. */}
      <CustomizeBar>
        <ListCustomizeTools model={model} />
      </CustomizeBar>
      <div className="toolbar">
        <label className="search-box">
          <Icon name="search" />
          <span className="sr-only">{t('LblSearch')}</span>
          <input type="search" placeholder={t('LblSearch')} value={search} onChange={(e) => { const v = e.target.value; guard(() => setSearch(v)); }} />
        </label>
        <SortPicker model={model} guard={guard} filtersOpen={filtersOpen} onToggleFilters={() => setFiltersOpen(!filtersOpen)} />
      </div>
      <QuickFilterBar defs={model.mode.value === 'kanban' ? model.filters.value.filter((f) => f.propertyName !== kanbanFieldName(view.body.kanbanField)) : [...model.filters.value]} entity={entity} selections={model.selections.value} open={filtersOpen} onChange={(n, v) => guard(() => model.select({ [n]: v }))} columns={model.columns.value.map((c) => c.name)} />
      <ViewBody
        model={model}
        edit={edit}
        linkOf={(r, form) => `/${appParam}/edit/${name}/${String(r.id)}${form ? `/${form}` : ''}`}
        onShowAll={() =>
          guard(() => {
            setSearch('');
            model.clearFilters();
          })
        }
      />
      {/* A board counts and pages per lane: the list's count and Show more are not its own. */}
      {model.mode.value !== 'kanban' && (
        <div className="list-foot">
          <span className="muted small" aria-live="polite">
            {model.rows.value && model.count.value !== null ? t('MsgShowingOf', { shown: model.rows.value.length, count: formatCount(model.count.value, model.countIsCapped.value) }) : ''}
            {model.selected.value.size > 0 ? ` · ${t('MsgSelected', { n: model.selected.value.size })}` : ''}
          </span>
          {model.more.value && (
            <button type="button" className="btn btn-plain" onClick={() => guard(model.showMore)} disabled={model.loading.value}>
              {t('CmdShowMore')}
            </button>
          )}
        </div>
      )}
    </div>
  );
};

/** The body of the mode shown: the table, or a mode loaded on demand (view-bodies.tsx). */
const ViewBody = ({ edit, ...props }: ViewBodyProps & { edit: ListEditModel }) => {
  useSignals();
  const t = useT();
  const Body = VIEW_BODIES[props.model.mode.value];
  if (!Body) return <ListTable {...props} edit={edit} />;
  return (
    <Suspense fallback={<p className="muted" aria-busy="true">{t('MsgLoading')}</p>}>
      <Body {...props} />
    </Suspense>
  );
};

/** The view-mode switcher (spec 001 section 2: list, map, calendar, chart, kanban), when the view offers more than one. */
const ModeSwitcher = ({ model, guard }: { model: ListModel; guard: Guard }) => {
  useSignals();
  const t = useT();
  const modes = shownModes(model.modes.value);
  if (modes.length < 2) return null;
  return (
    <div className="mode-switcher" role="radiogroup" aria-label={t('LblViewMode')}>
      {modes.map((m) => (
        <button key={m} type="button" role="radio" aria-checked={model.mode.value === m} className={model.mode.value === m ? 'btn btn-plain active' : 'btn btn-plain'} onClick={() => guard(() => model.setMode(m))}>
          {t(MODE_LABELS[m])}
        </button>
      ))}
    </div>
  );
};

const MODE_LABELS: Record<ViewModeName, MessageKey> = { list: 'ModeList', map: 'ModeMap', calendar: 'ModeCalendar', chart: 'ModeChart', kanban: 'ModeKanban' };

/**
 * Title, view selector and the command bar: New, Delete (the selected), Export, Refresh, and Edit
 * (the list's edit mode). While editing, New adds a row and Delete is super edit's (EditBar).
 */
const ListHead = ({ model, appParam, edit, guard }: { model: ListModel; appParam: string; edit: ListEditModel; guard: Guard }) => {
  useSignals();
  const t = useT();
  const navigate = useNavigate();
  const entity = model.entity.value;
  const name = entity.logicalName;
  const views = model.views.value;
  const rows = model.rows.value;
  const selected = model.selected.value;
  const editing = edit.editing.value;

  const deleteSelected = async () => {
    if (selected.size === 0) return;
    if (!(await confirmDialog(t('MsgAskDeleteMany', { n: selected.size }), t('CmdDelete'), t('CmdCancel'), true))) return;
    const r = await model.deleteSelected();
    if (r._tag === 'Failed') await alertFailure(r.error, t('CmdOk'));
    else if (r.errors.length) await alertDialog(r.errors.join('\n'), t('CmdOk'));
  };

  /** Export opens the Export dialog on the list's query and selection (issue 17; the dialog loads when first used). */
  const openExport = () => {
    const current = model.currentRequest();
    if (current._tag !== 'Fetch') return;
    void import('../export/export-dialog.js').then((m) => m.openListExportDialog({ entity, request: current.request, columns: model.columns.value.map((c) => c.name), selectedIds: [...selected] }));
  };

  return (
    <div className="screen-head">
      <div className="title-row">
        <h1 className="screen-title">{entity.displayNamePlural}</h1>
        {views.length > 1 && (
          <label className="view-select">
            <span className="sr-only">{t('LblView')}</span>
            <select
              value={model.view.value?.name}
              onChange={(e) => {
                const v = e.target.value;
                guard(() => (model.viewName.value = v));
              }}
            >
              {views.map((v) => (
                <option key={v.name} value={v.name}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <ModeSwitcher model={model} guard={guard} />
      </div>
      <div className="command-bar" role="toolbar" aria-label={entity.displayNamePlural}>
        {model.canNew.value && !editing && (
          <button type="button" className="btn btn-primary" onClick={() => navigate(`/${appParam}/edit/${name}/0`)}>
            <Icon name="plus" /> {t('CmdNew')}
          </button>
        )}
        {edit.canEdit.value && model.mode.value === 'list' && (
          <button
            type="button"
            className={`btn ${editing ? 'btn-plain active' : 'btn-plain'}`}
            aria-pressed={editing}
            onClick={() => {
              if (!editing) edit.setMode(EDIT_ON);
              else if (edit.dirty.value) notAvailableWhileEditing(t);
              else edit.setMode(EDIT_OFF);
            }}
          >
            <Icon name={editing ? 'check' : 'list'} /> {editing ? t('CmdDoneEditing') : t('CmdEditList')}
          </button>
        )}
        {model.canDelete.value && selected.size > 0 && !editing && (
          <button type="button" className="btn btn-danger-outline" onClick={deleteSelected}>
            <Icon name="trash" /> {t('CmdDelete')} <span className="badge">{selected.size}</span>
          </button>
        )}
        {model.canExport.value && (
          <button type="button" className="btn btn-plain" onClick={() => guard(openExport)} disabled={!rows?.length}>
            <Icon name="export" /> {t('CmdExport')}
          </button>
        )}
        {model.canNew.value && entity.type !== 'many' && (
          <button type="button" className="btn btn-plain" onClick={() => void import('../import/import-dialog.js').then((m) => m.openImportDialog(name, (imported) => imported && void model.load()))}>
            <Icon name="upload" /> {t('CmdImport')}
          </button>
        )}
        {!editing && (
          <ScriptCommands entity={name} commands={model.view.value?.body.commands} selected={() => (rows ?? []).filter((r) => selected.has(String(r.id)))} onDone={() => void model.load()} />
        )}
        {/* Issue 15: the view's query in the Setup Query dialog (users who may change views). */}
        {!editing && model.view.value && (
          <ViewQueryCommand entity={entity} viewName={model.view.value.name} viewLabel={model.view.value.label} body={model.view.value.body} onSaved={() => void model.load()} />
        )}
        <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdRefresh')} title={t('CmdRefresh')} onClick={() => guard(() => void model.load())}>
          <Icon name="refresh" />
        </button>
      </div>
    </div>
  );
};

/** The sort picker, the Filters toggle (with the count of active filters) and the direction button. */
const SortPicker = ({ model, guard, filtersOpen, onToggleFilters }: { model: ListModel; guard: Guard; filtersOpen: boolean; onToggleFilters: () => void }) => {
  useSignals();
  const t = useT();
  const order = model.order.value;
  const props = new Map(model.entity.value.properties.map((p) => [p.logicalName, p]));
  const activeFilters = model.activeFilters.value;
  return (
    <div className="sort-picker">
      <label>
        <span className="sr-only">{t('LblSortBy')}</span>
        <select
          aria-label={t('LblSortBy')}
          value={order?.attribute ?? ''}
          onChange={(e) => {
            const v = e.target.value;
            guard(() => (model.order.value = v ? { attribute: v, descending: order?.descending ?? false } : undefined));
          }}
        >
          <option value="">{t('LblSortBy')}</option>
          {model.sortable.value.map((c) => (
            <option key={c.name} value={c.name}>
              {c.label ?? props.get(c.name)?.displayName ?? c.name}
            </option>
          ))}
        </select>
      </label>
      {(model.filters.value.length > 0 || model.columns.value.length > 0) && (
        <button type="button" className="btn btn-plain qf-toggle" aria-expanded={filtersOpen} aria-controls="quick-filters" onClick={onToggleFilters}>
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
        onClick={() => order && guard(() => (model.order.value = { ...order, descending: !order.descending }))}
      >
        <Icon name="sort" />
      </button>
    </div>
  );
};
