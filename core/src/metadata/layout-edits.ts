import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import {
  allFormFields,
  allPanels,
  FIELD_SEPARATOR,
  parsePastedCommand,
  parsePastedPanel,
  type Command,
  type Form,
  type FormField,
  type Panel,
} from './form.js';
import type { Chart, ChartSeries, ChartType, ListView, QuickFilter, QuickFilterSet, ViewColumn } from './view.js';

/**
 * Customize mode as pure edits (spec 001 section 2, issue 15): each edit takes a form, a list view,
 * a quick-filter set or a chart and answers the next one, or a value saying why not. Nothing here
 * knows of the screen: the UI's customize model keeps the drafts and the undo stack and calls these.
 *
 * Addresses: a panel by its name (names are unique in a form; an added or pasted panel gets a fresh
 * one), a field by its panel's name and its index there, a column or a quick filter by its name,
 * a command by its index. A field shows once on a form: adding one already there is refused, and
 * a pasted panel drops the fields the form already shows. The separator '-' may repeat.
 */

export type Edited<T> = Either<InputError, T>;

/** The texts of refusals (English; the UI shows its catalogue's text for each `reason`). */
export const LAYOUT_EDIT_ERRORS = {
  noPanel: (name: string) => `No panel named ${name}`,
  noField: (panel: string, index: number) => `No field ${index} in panel ${panel}`,
  fieldOnForm: (name: string) => `The field ${name} is already on the form`,
  columnInView: (name: string) => `The column ${name} is already in the view`,
  noColumn: (name: string) => `No column named ${name}`,
  noFilter: (name: string) => `No quick filter named ${name}`,
  noCommand: (index: number) => `No command ${index}`,
  notAContainer: (name: string) => `The panel ${name} does not hold panels`,
  intoItself: (name: string) => `The panel ${name} cannot move into itself`,
  badWidth: 'A column width is a whole number of pixels from 40 to 2000',
  badName: 'A name is needed',
} as const;

const fail = <T>(message: string): Edited<T> => left(inputError(message));

/** Moves the item at `from` to `to` (both clamped to the list); the other items keep their order. */
export const moveItem = <T>(list: readonly T[], from: number, to: number): T[] => {
  if (from < 0 || from >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item as T);
  return next;
};

const insertAt = <T>(list: readonly T[], item: T, index?: number): T[] => {
  const next = [...list];
  next.splice(index === undefined ? next.length : Math.max(0, Math.min(index, next.length)), 0, item);
  return next;
};

// ---------- panels ----------

/** Panel types whose children are panels (a Fields panel may hold panels too, under its fields). */
const HOLDS_PANELS: ReadonlySet<Panel['type']> = new Set(['Tabs', 'Split', 'Flex', 'Fields']);

export const findPanel = (form: Pick<Form, 'panels'>, name: string): Panel | undefined => allPanels(form.panels).find((p) => p.name === name);

/** A name not used by any panel of the form: `base`, else `base-2`, `base-3`... */
export const uniquePanelName = (form: Pick<Form, 'panels'>, base: string): string => {
  const used = new Set(allPanels(form.panels).map((p) => p.name));
  const stem = base.trim() || 'panel';
  if (!used.has(stem)) return stem;
  let i = 2;
  while (used.has(`${stem}-${i}`)) i++;
  return `${stem}-${i}`;
};

/** The tree with the panel named `name` replaced by what `f` answers (undefined removes it). */
const mapPanel = (panels: readonly Panel[], name: string, f: (p: Panel) => Panel | undefined): Panel[] =>
  panels.flatMap((p) => {
    if (p.name === name) {
      const q = f(p);
      return q ? [q] : [];
    }
    return p.panels ? [{ ...p, panels: mapPanel(p.panels, name, f) }] : [p];
  });

/** Inserts a panel at the root (parent null) or into a panel that holds panels. */
const insertPanel = (form: Form, parent: string | null, panel: Panel, index?: number): Edited<Form> => {
  if (parent === null) return right({ ...form, panels: insertAt(form.panels, panel, index) });
  const target = findPanel(form, parent);
  if (!target) return fail(LAYOUT_EDIT_ERRORS.noPanel(parent));
  if (!HOLDS_PANELS.has(target.type)) return fail(LAYOUT_EDIT_ERRORS.notAContainer(parent));
  return right({ ...form, panels: mapPanel(form.panels, parent, (p) => ({ ...p, panels: insertAt(p.panels ?? [], panel, index) })) });
};

/** The field names a panel tree shows (separators aside). */
const fieldNamesOf = (panels: readonly Panel[]): string[] =>
  allFormFields(panels)
    .map((f) => f.name)
    .filter((n) => n !== FIELD_SEPARATOR);

/** A panel made fit for the form: a fresh name for it and its children, and only fields the form does not show yet. */
const fitPanel = (form: Form, panel: Panel): Panel => {
  const shown = new Set(fieldNamesOf(form.panels));
  let names: Form = form;
  const fit = (p: Panel): Panel => {
    const name = uniquePanelName(names, p.name);
    // Reserve the name at once, so the children never take it.
    names = { ...names, panels: [...names.panels, { name, type: 'Fields' }] };
    const fields = p.fields?.filter((f) => {
      if (f.name === FIELD_SEPARATOR) return true;
      if (shown.has(f.name)) return false;
      shown.add(f.name);
      return true;
    });
    return { ...p, name, ...(fields ? { fields } : {}), ...(p.panels ? { panels: p.panels.map(fit) } : {}) };
  };
  return fit(panel);
};

/** Adds a panel (a new name if taken; fields already on the form are left out). */
export const addPanel = (form: Form, parent: string | null, panel: Panel, index?: number): Edited<Form> =>
  insertPanel(form, parent, fitPanel(form, panel), index);

/** Removes a panel and what it holds (its fields go back to the list of fields one may add). */
export const removePanel = (form: Form, name: string): Edited<Form> =>
  findPanel(form, name) ? right({ ...form, panels: mapPanel(form.panels, name, () => undefined) }) : fail(LAYOUT_EDIT_ERRORS.noPanel(name));

/** Where a panel sits: its parent's name (null at the root) and its index there. */
export const panelPlace = (form: Pick<Form, 'panels'>, name: string): { parent: string | null; index: number } | undefined => {
  const root = form.panels.findIndex((p) => p.name === name);
  if (root >= 0) return { parent: null, index: root };
  for (const p of allPanels(form.panels)) {
    const i = (p.panels ?? []).findIndex((c) => c.name === name);
    if (i >= 0) return { parent: p.name, index: i };
  }
  return undefined;
};

/** Moves a panel to another parent (null: the root) at an index; also the tab order of a Tabs panel. */
export const movePanel = (form: Form, name: string, parent: string | null, index: number): Edited<Form> => {
  const panel = findPanel(form, name);
  if (!panel) return fail(LAYOUT_EDIT_ERRORS.noPanel(name));
  if (parent !== null && (parent === name || allPanels(panel.panels ?? []).some((p) => p.name === parent))) return fail(LAYOUT_EDIT_ERRORS.intoItself(name));
  const place = panelPlace(form, name);
  if (place && place.parent === parent) {
    const reorder = (list: readonly Panel[]) => moveItem(list, place.index, index);
    return right(parent === null ? { ...form, panels: reorder(form.panels) } : { ...form, panels: mapPanel(form.panels, parent, (p) => ({ ...p, panels: reorder(p.panels ?? []) })) });
  }
  const without = { ...form, panels: mapPanel(form.panels, name, () => undefined) };
  return insertPanel(without, parent, panel, index);
};

/** The panel properties customize mode edits; the name and type stay. */
export type PanelProps = Partial<Omit<Panel, 'name' | 'type' | 'fields' | 'panels'>>;

/** Edits a panel's properties (label, showLabel, gridColumns, minColumnWidth, mode, sizes, direction...); undefined clears one. */
export const editPanel = (form: Form, name: string, props: PanelProps): Edited<Form> =>
  findPanel(form, name) ? right({ ...form, panels: mapPanel(form.panels, name, (p) => withProps(p, props)) }) : fail(LAYOUT_EDIT_ERRORS.noPanel(name));

/** An object with `props` applied: a value sets, undefined or '' removes the key. */
const withProps = <T extends object>(o: T, props: object): T => {
  const next = { ...o } as Record<string, unknown>;
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === '') delete next[k];
    else next[k] = v;
  }
  return next as T;
};

/** Pastes a panel copied as JSON ('Cannot paste object' unless Tabs, Fields, AssociatedList, Split or Flex). */
export const pastePanel = (form: Form, parent: string | null, text: string, index?: number): Edited<Form> => {
  const panel = parsePastedPanel(text);
  return isLeft(panel) ? panel : addPanel(form, parent, panel.right, index);
};

/** The JSON a panel is copied as (what pastePanel reads back). */
export const copyPanel = (panel: Panel): string => JSON.stringify(panel);

// ---------- fields ----------

const fieldsPanel = (form: Form, panel: string): Panel | undefined => findPanel(form, panel);

/** Adds a field to a panel (at an index, else last); a field already on the form is refused. */
export const addField = (form: Form, panel: string, field: FormField, index?: number): Edited<Form> => {
  if (!field.name.trim()) return fail(LAYOUT_EDIT_ERRORS.badName);
  if (!fieldsPanel(form, panel)) return fail(LAYOUT_EDIT_ERRORS.noPanel(panel));
  if (field.name !== FIELD_SEPARATOR && fieldNamesOf(form.panels).includes(field.name)) return fail(LAYOUT_EDIT_ERRORS.fieldOnForm(field.name));
  return right({ ...form, panels: mapPanel(form.panels, panel, (p) => ({ ...p, fields: insertAt(p.fields ?? [], field, index) })) });
};

const fieldAt = (form: Form, panel: string, index: number): Edited<FormField> => {
  const p = fieldsPanel(form, panel);
  if (!p) return fail(LAYOUT_EDIT_ERRORS.noPanel(panel));
  const f = p.fields?.[index];
  return f ? right(f) : fail(LAYOUT_EDIT_ERRORS.noField(panel, index));
};

export const removeField = (form: Form, panel: string, index: number): Edited<Form> => {
  const f = fieldAt(form, panel, index);
  if (isLeft(f)) return f;
  return right({ ...form, panels: mapPanel(form.panels, panel, (p) => ({ ...p, fields: (p.fields ?? []).filter((_, i) => i !== index) })) });
};

/** Moves a field within its panel or to another panel (at an index there). */
export const moveField = (form: Form, from: { panel: string; index: number }, to: { panel: string; index: number }): Edited<Form> => {
  const f = fieldAt(form, from.panel, from.index);
  if (isLeft(f)) return f;
  if (!fieldsPanel(form, to.panel)) return fail(LAYOUT_EDIT_ERRORS.noPanel(to.panel));
  if (from.panel === to.panel)
    return right({ ...form, panels: mapPanel(form.panels, from.panel, (p) => ({ ...p, fields: moveItem(p.fields ?? [], from.index, to.index) })) });
  const without = { ...form, panels: mapPanel(form.panels, from.panel, (p) => ({ ...p, fields: (p.fields ?? []).filter((_, i) => i !== from.index) })) };
  return right({ ...without, panels: mapPanel(without.panels, to.panel, (p) => ({ ...p, fields: insertAt(p.fields ?? [], f.right, to.index) })) });
};

/**
 * What the field dialog (formFieldDialog, spec 001 sections 2 and 3) edits: label, disabled,
 * gridColumn, gridRow, cssClass, tooltip, the required override and customComponent.
 */
export type FieldDialogProps = Partial<Pick<FormField, 'label' | 'disabled' | 'required' | 'gridColumn' | 'gridRow' | 'cssClass' | 'tooltip' | 'customComponent'>>;
export const FIELD_DIALOG_KEYS = ['label', 'disabled', 'required', 'gridColumn', 'gridRow', 'cssClass', 'tooltip', 'customComponent'] as const satisfies ReadonlyArray<keyof FieldDialogProps>;

/** The dialog's values of a field. */
export const fieldDialogProps = (f: FormField): FieldDialogProps =>
  Object.fromEntries(FIELD_DIALOG_KEYS.flatMap((k) => (f[k] === undefined ? [] : [[k, f[k]]]))) as FieldDialogProps;

/** Applies the dialog to a field: a value sets, undefined or '' removes (the field then follows its property). */
export const editField = (form: Form, panel: string, index: number, props: FieldDialogProps): Edited<Form> => {
  const f = fieldAt(form, panel, index);
  if (isLeft(f)) return f;
  const picked = Object.fromEntries(FIELD_DIALOG_KEYS.filter((k) => k in props).map((k) => [k, props[k]])) as FieldDialogProps;
  return right({ ...form, panels: mapPanel(form.panels, panel, (p) => ({ ...p, fields: (p.fields ?? []).map((x, i) => (i === index ? withProps(x, picked) : x)) })) });
};

/** The entity's fields a form does not show yet (what "add field" offers), in the order given. */
export const fieldsNotOnForm = (form: Pick<Form, 'panels'>, names: readonly string[]): string[] => {
  const shown = new Set(fieldNamesOf(form.panels));
  return names.filter((n) => !shown.has(n));
};

// ---------- commands ----------

const commandAt = (form: Form, index: number): Edited<Command> => {
  const c = form.commands?.[index];
  return c ? right(c) : fail(LAYOUT_EDIT_ERRORS.noCommand(index));
};

export const addCommand = (form: Form, command: Command, index?: number): Edited<Form> =>
  command.name.trim() ? right({ ...form, commands: insertAt(form.commands ?? [], command, index) }) : fail(LAYOUT_EDIT_ERRORS.badName);

export const removeCommand = (form: Form, index: number): Edited<Form> => {
  const c = commandAt(form, index);
  return isLeft(c) ? c : right({ ...form, commands: (form.commands ?? []).filter((_, i) => i !== index) });
};

export const moveCommand = (form: Form, from: number, to: number): Edited<Form> => {
  const c = commandAt(form, from);
  return isLeft(c) ? c : right({ ...form, commands: moveItem(form.commands ?? [], from, to) });
};

/** Edits a command's label, icon, option or permissions (its kind and name stay). */
export const editCommand = (form: Form, index: number, props: Partial<Pick<Command, 'label' | 'icon' | 'option' | 'permissions'>>): Edited<Form> => {
  const c = commandAt(form, index);
  return isLeft(c) ? c : right({ ...form, commands: (form.commands ?? []).map((x, i) => (i === index ? withProps(x, props) : x)) });
};

/** Pastes a command copied as JSON: it needs a name and a kind of custom or std, else 'Cannot paste object'. */
export const pasteCommand = (form: Form, text: string, index?: number): Edited<Form> => {
  const c = parsePastedCommand(text);
  return isLeft(c) ? c : addCommand(form, c.right, index);
};

export const copyCommand = (command: Command): string => JSON.stringify(command);

// ---------- list columns ----------

/** Column widths customize mode accepts, in pixels. */
export const COLUMN_WIDTH_MIN = 40;
export const COLUMN_WIDTH_MAX = 2000;

const columnIndex = (view: ListView, name: string): number => view.columns.findIndex((c) => c.name === name);

/** Adds a column (at an index, else last); a column already in the view is refused. */
export const addColumn = (view: ListView, column: ViewColumn, index?: number): Edited<ListView> => {
  if (!column.name.trim()) return fail(LAYOUT_EDIT_ERRORS.badName);
  if (columnIndex(view, column.name) >= 0) return fail(LAYOUT_EDIT_ERRORS.columnInView(column.name));
  return right({ ...view, columns: insertAt(view.columns, column, index) });
};

export const removeColumn = (view: ListView, name: string): Edited<ListView> =>
  columnIndex(view, name) < 0 ? fail(LAYOUT_EDIT_ERRORS.noColumn(name)) : right({ ...view, columns: view.columns.filter((c) => c.name !== name) });

export const moveColumn = (view: ListView, name: string, to: number): Edited<ListView> => {
  const i = columnIndex(view, name);
  return i < 0 ? fail(LAYOUT_EDIT_ERRORS.noColumn(name)) : right({ ...view, columns: moveItem(view.columns, i, to) });
};

/** Sets a column's width in pixels (40 to 2000), or clears it (undefined: the table decides). */
export const setColumnWidth = (view: ListView, name: string, width: number | undefined): Edited<ListView> => {
  if (columnIndex(view, name) < 0) return fail(LAYOUT_EDIT_ERRORS.noColumn(name));
  if (width !== undefined && !(Number.isInteger(width) && width >= COLUMN_WIDTH_MIN && width <= COLUMN_WIDTH_MAX)) return fail(LAYOUT_EDIT_ERRORS.badWidth);
  return right({ ...view, columns: view.columns.map((c) => (c.name === name ? withProps(c, { width }) : c)) });
};

export const editColumn = (view: ListView, name: string, props: Partial<Pick<ViewColumn, 'label' | 'form'>>): Edited<ListView> =>
  columnIndex(view, name) < 0 ? fail(LAYOUT_EDIT_ERRORS.noColumn(name)) : right({ ...view, columns: view.columns.map((c) => (c.name === name ? withProps(c, props) : c)) });

// ---------- quick filters ----------

/** A quick-filter name not used in the list: `base`, else `base-2`... */
export const uniqueFilterName = (filters: readonly QuickFilter[], base: string): string => {
  const used = new Set(filters.map((f) => f.name));
  const stem = base.trim() || 'filter';
  if (!used.has(stem)) return stem;
  let i = 2;
  while (used.has(`${stem}-${i}`)) i++;
  return `${stem}-${i}`;
};

const filterIndex = (set: QuickFilterSet, name: string): number => set.filters.findIndex((f) => f.name === name);

/** Adds a quick filter (a fresh name when the name is taken) at an index, else last. */
export const addQuickFilter = (set: QuickFilterSet, filter: QuickFilter, index?: number): Edited<QuickFilterSet> =>
  right({ ...set, filters: insertAt(set.filters, { ...filter, name: uniqueFilterName(set.filters, filter.name) }, index) });

export const removeQuickFilter = (set: QuickFilterSet, name: string): Edited<QuickFilterSet> =>
  filterIndex(set, name) < 0 ? fail(LAYOUT_EDIT_ERRORS.noFilter(name)) : right({ ...set, filters: set.filters.filter((f) => f.name !== name) });

export const moveQuickFilter = (set: QuickFilterSet, name: string, to: number): Edited<QuickFilterSet> => {
  const i = filterIndex(set, name);
  return i < 0 ? fail(LAYOUT_EDIT_ERRORS.noFilter(name)) : right({ ...set, filters: moveItem(set.filters, i, to) });
};

/** Edits a quick filter's properties (not its name). */
export const editQuickFilter = (set: QuickFilterSet, name: string, props: Partial<Omit<QuickFilter, 'name'>>): Edited<QuickFilterSet> =>
  filterIndex(set, name) < 0
    ? fail(LAYOUT_EDIT_ERRORS.noFilter(name))
    : right({ ...set, filters: set.filters.map((f) => (f.name === name ? withProps(f, props) : f)) });

/** The order of a user's personal quick filters after a move (they are stored in the browser in that order). */
export const movePersonalFilter = (list: readonly QuickFilter[], name: string, to: number): QuickFilter[] => {
  const i = list.findIndex((f) => f.name === name);
  return i < 0 ? [...list] : moveItem(list, i, to);
};

// ---------- charts ----------

export const setChartType = (chart: Chart, type: ChartType): Chart => ({ ...chart, type });

export const addChartSeries = (chart: Chart, series: ChartSeries): Chart => ({ ...chart, series: [...chart.series, series] });

export const editChartSeries = (chart: Chart, index: number, props: Partial<ChartSeries>): Edited<Chart> =>
  chart.series[index]
    ? right({ ...chart, series: chart.series.map((s, i) => (i === index ? withProps(s, props) : s)) })
    : fail(`No series ${index}`);

/** Removes a series; the last one stays (a chart shows at least one). */
export const removeChartSeries = (chart: Chart, index: number): Edited<Chart> =>
  chart.series[index] && chart.series.length > 1 ? right({ ...chart, series: chart.series.filter((_, i) => i !== index) }) : fail(`No series ${index}`);

export const setChartGroup = (chart: Chart, group: Chart['groups'][number]): Chart => ({ ...chart, groups: [group, ...chart.groups.slice(1)] });
