import type { Chart, Entity, Form, QuickFilter } from '../core.js';
import { canSuperEdit, mayAccessSome } from '../core.js';
import { TOKEN_CHANGED_EVENT } from '../api/client.js';
import { caller, guiObjects } from '../state/session.js';
import type { NamedView } from '../list/list-query.js';
import { customizeModel, type DraftKey } from './customize-model.js';

/**
 * The one customize mode of the tab (issue 15): the form, the list and the toolbar read it, so a
 * draft made in the toolbar shows at once on the screen beneath. Spec 001 section 6: customize
 * mode needs update permission on inu_view; super edit also system user level 3.
 */
export const customize = customizeModel({
  canCustomize: () => !!caller.value && mayAccessSome(caller.value, 'update', 'inu_view'),
  canSuperEdit: () => !!caller.value && mayAccessSome(caller.value, 'update', 'inu_view') && canSuperEdit(caller.value),
});

// Another user now: their own layout, no drafts of the previous one.
window.addEventListener(TOKEN_CHANGED_EVENT, () => {
  customize.discard();
  customize.setLevel('off');
});

/** The inu_view name of an entity's form as form-of.ts picks it: the named one, else default or main, else the first, else main (created on save). */
export const formKeyOf = (entity: string, formName?: string): DraftKey<'form'> => {
  const names = guiObjects('form', entity).map((g) => g.name);
  const name = (formName && names.find((n) => n === formName)) || names.find((n) => /^(default|main)$/i.test(n)) || names[0] || 'main';
  return { kind: 'form', objectname: entity, name };
};

/** The form a record form draws: the draft while customizing, else the stored one. */
export const shownForm = (entity: Entity, formName: string | undefined, form: Form): Form => customize.shown(formKeyOf(entity.logicalName, formName), form);

export const viewKeyOf = (entity: string, view: string): DraftKey<'view'> => ({ kind: 'view', objectname: entity, name: view });

/** The list views a list shows, each with its draft while customizing. */
export const shownViews = (entity: string, views: readonly NamedView[]): NamedView[] =>
  views.map((v) => ({ ...v, body: customize.shown(viewKeyOf(entity, v.name), v.body) }));

/**
 * The quick-filter object of an entity's lists: its first filter object, else one named
 * quickfilters (created on save). With several filter objects the edited set is the bar as
 * shown (all of them), saved into the first; docs/ui.md says so.
 */
export const filterKeyOf = (entity: string): DraftKey<'filter'> => ({ kind: 'filter', objectname: entity, name: guiObjects('filter', entity)[0]?.name ?? 'quickfilters' });

/** The metadata's quick filters of a list, with the draft while customizing. */
export const shownFilters = (entity: string, filters: readonly QuickFilter[]): QuickFilter[] => [...customize.shown(filterKeyOf(entity), { filters: [...filters] }).filters];

export const chartKeyOf = (entity: string, chart: string): DraftKey<'chart'> => ({ kind: 'chart', objectname: entity, name: chart });

/** The saved charts of an entity, each with its draft while customizing. */
export const shownCharts = <C extends { name: string; body: Chart }>(entity: string, charts: readonly C[]): C[] =>
  charts.map((c) => ({ ...c, body: customize.shown(chartKeyOf(entity, c.name), c.body) }));
