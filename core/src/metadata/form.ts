import * as t from 'io-ts';
import { isRight, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { parsePermissionString } from '../permissions/permission-string.js';
import { Filter, Link, Order } from '../query/query.js';

/**
 * Forms as data (spec 001 sections 2 and 3): a form is a name, a tree of panels, commands and
 * the names of its event scripts. Panels of every type share one codec so that customize mode
 * can move, copy and paste them; the properties that only make sense for one type are optional.
 */

/** A fragment merged into a query: extra conditions, links and orders (extraFetch, customFetch). */
export const FetchFragment = t.partial(
  { filter: Filter, links: t.array(Link), orders: t.array(Order) },
  'FetchFragment',
);
export type FetchFragment = t.TypeOf<typeof FetchFragment>;

/**
 * `{entity};{n}[;allowNew]` (spec 000 section 6), where n is the operation index (create 0, read 1,
 * update 2, delete 3; docs/permissions.md). Checked with the permission module's own parser, so
 * that what decodes is what `checkPermissionString` understands; an empty string requires nothing.
 */
const isPermissionString = (u: unknown): u is string =>
  typeof u === 'string' && (u.trim() === '' || isRight(parsePermissionString(u)));
export const PermissionString = new t.Type<string, string, unknown>(
  'PermissionString',
  isPermissionString,
  (u, c) => (isPermissionString(u) ? t.success(u) : t.failure(u, c)),
  t.identity,
);

export const PANEL_TYPES = ['Fields', 'AssociatedList', 'Tabs', 'Split', 'Flex', 'CloudFiles', 'Custom'] as const;
export const PanelType = t.keyof(
  Object.fromEntries(PANEL_TYPES.map((p) => [p, null])) as Record<(typeof PANEL_TYPES)[number], null>,
  'PanelType',
);
export type PanelType = t.TypeOf<typeof PanelType>;
/** Panel types that a paste accepts (spec 001 section 2, customize mode). */
export const PASTEABLE_PANEL_TYPES: readonly PanelType[] = ['Tabs', 'Fields', 'AssociatedList', 'Split', 'Flex'];

/** A Tabs panel is Normal or a Wizard (Go back / Continue, step numbers). */
export const TabMode = t.keyof({ Normal: null, Wizard: null }, 'TabMode');
export type TabMode = t.TypeOf<typeof TabMode>;

/** The list view modes of spec 001 section 2: list 0, map 1, calendar 2, chart 3, kanban 4. */
export const VIEW_MODES = { list: 0, map: 1, calendar: 2, chart: 3, kanban: 4 } as const;
export const ViewModeName = t.keyof(VIEW_MODES, 'ViewModeName');
export type ViewModeName = t.TypeOf<typeof ViewModeName>;

/** A field of a form. The name '-' is a separator. `required`/`hidden` are the form's overrides. */
export const FormFieldCodec = t.intersection(
  [
    t.type({ name: t.string }),
    t.partial({
      type: t.string,
      label: t.string,
      disabled: t.boolean,
      required: t.boolean,
      hidden: t.boolean,
      gridColumn: t.string,
      gridRow: t.string,
      customComponent: t.string,
      customComponentParameters: t.UnknownRecord,
      cssClass: t.string,
      tooltip: t.string,
      extraFetch: FetchFragment,
    }),
  ],
  'FormField',
);
export type FormField = t.TypeOf<typeof FormFieldCodec>;
/** The separator field name. */
export const FIELD_SEPARATOR = '-';

/** A form field as written in JSON: the object, or just its name (decoded to `{ name }`). */
export const FormField = new t.Type<FormField, FormField | string, unknown>(
  'FormField',
  FormFieldCodec.is,
  (u, c) => (typeof u === 'string' ? t.success({ name: u }) : FormFieldCodec.validate(u, c)),
  (f) => f,
);

export const CommandKind = t.keyof({ custom: null, std: null }, 'CommandKind');
export type CommandKind = t.TypeOf<typeof CommandKind>;
/** A command of a form or list: std commands are built in (save, delete, clone...), custom run a script. */
export const Command = t.intersection(
  [
    t.type({ kind: CommandKind, name: t.string }),
    t.partial({ label: t.string, icon: t.string, option: t.string, permissions: PermissionString }),
  ],
  'Command',
);
export type Command = t.TypeOf<typeof Command>;

export interface Panel {
  name: string;
  type: PanelType;
  label?: string;
  showLabel?: boolean;
  fields?: FormField[];
  panels?: Panel[];
  gridColumns?: string;
  direction?: 'row' | 'column';
  sizes?: string[];
  minColumnWidth?: number;
  /** Tabs only: Normal (default) or Wizard. */
  mode?: TabMode;
  /** AssociatedList: `{entity}.{lookupField}` of the listed child records. */
  field?: string;
  initialView?: string;
  allowedViews?: string[];
  excludedColumns?: string[];
  newParams?: Record<string, unknown>;
  extraFetch?: FetchFragment;
  /** CloudFiles */
  rootFolder?: string;
  folderField?: string;
  fileFilter?: string;
  emptyMessage?: string;
  errorMessage?: string;
  maxImageSize?: number;
  /** Custom */
  customComponent?: string;
  customComponentParameters?: Record<string, unknown>;
  wizardNextCommand?: string;
}
export interface PanelOutput extends Omit<Panel, 'fields' | 'panels'> {
  fields?: Array<FormField | string>;
  panels?: PanelOutput[];
}

export const Panel: t.Type<Panel, PanelOutput, unknown> = t.recursion('Panel', () =>
  t.intersection([
    t.type({ name: t.string, type: PanelType }),
    t.partial({
      label: t.string,
      showLabel: t.boolean,
      fields: t.array(FormField),
      panels: t.array(Panel),
      gridColumns: t.string,
      direction: t.keyof({ row: null, column: null }),
      sizes: t.array(t.string),
      minColumnWidth: t.number,
      mode: TabMode,
      field: t.string,
      initialView: t.string,
      allowedViews: t.array(t.string),
      excludedColumns: t.array(t.string),
      newParams: t.UnknownRecord,
      extraFetch: FetchFragment,
      rootFolder: t.string,
      folderField: t.string,
      fileFilter: t.string,
      emptyMessage: t.string,
      errorMessage: t.string,
      maxImageSize: t.number,
      customComponent: t.string,
      customComponentParameters: t.UnknownRecord,
      wizardNextCommand: t.string,
    }),
  ]),
);

/** Defaults of spec 001 section 2. */
export const DEFAULT_MIN_COLUMN_WIDTH = 400;
export const DEFAULT_SPLIT_SIZES = ['2fr', '3fr'] as const;
export const SPLIT_BREAKPOINT = 900;

/** Script names run on change, validate and postsave. */
export const FormEvents = t.partial({ change: t.string, validate: t.string, postsave: t.string }, 'FormEvents');
export type FormEvents = t.TypeOf<typeof FormEvents>;

export const Form = t.intersection(
  [
    t.type({ name: t.string, panels: t.array(Panel) }),
    t.partial({ label: t.string, commands: t.array(Command), events: FormEvents }),
  ],
  'Form',
);
export type Form = t.TypeOf<typeof Form>;

/** The events of a form with the defaults `{entity}.change`, `{entity}.validate`, `{entity}.postsave`. */
export const formEvents = (entity: string, form?: Pick<Form, 'events'>): Required<FormEvents> => ({
  change: form?.events?.change ?? `${entity}.change`,
  validate: form?.events?.validate ?? `${entity}.validate`,
  postsave: form?.events?.postsave ?? `${entity}.postsave`,
});

/** The AssociatedList `field` names the child entity and its lookup: `{entity}.{lookupField}`. */
export const associatedListTarget = (panel: Pick<Panel, 'field'>): { entity: string; field: string } | undefined => {
  const m = /^([^.]+)\.([^.]+)$/.exec(panel.field ?? '');
  return m ? { entity: m[1], field: m[2] } : undefined;
};

/** Every panel of a tree, depth first (the root panels included). */
export const allPanels = (panels: readonly Panel[]): Panel[] =>
  panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);

/** Every field of a tree of panels, in reading order. */
export const allFormFields = (panels: readonly Panel[]): FormField[] =>
  allPanels(panels).flatMap((p) => p.fields ?? []);

/** Spec 001 section 5: the text of a paste that is not a panel or command that can go there. */
export const CANNOT_PASTE = 'Cannot paste object';

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A pasted panel (customize mode): JSON of a Tabs, Fields, AssociatedList, Split or Flex panel. */
export const parsePastedPanel = (text: string): Either<InputError, Panel> => {
  const panel = Panel.decode(parseJson(text));
  return isRight(panel) && PASTEABLE_PANEL_TYPES.includes(panel.right.type)
    ? right(panel.right)
    : left(inputError(CANNOT_PASTE));
};

/** A pasted command (customize mode) needs a name and a kind of custom or std. */
export const parsePastedCommand = (text: string): Either<InputError, Command> => {
  const command = Command.decode(parseJson(text));
  return isRight(command) && command.right.name.trim() !== '' ? right(command.right) : left(inputError(CANNOT_PASTE));
};
