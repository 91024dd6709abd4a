import type { Entity, Property } from './entity.js';
import type { InuViewRecord } from './inu-view.js';

/**
 * Metadata localization (spec 002 sections 3, 7: inu_localize `name, lang, text`). The texts of
 * the metadata (entity, field, option, view, quick-filter, menu, panel and command labels) are
 * translated by inu_localize records whose `name` is a key of the scheme below (docs/metadata.md
 * "Localization"); a text without a translation stays as the metadata has it.
 */

/** The texts of one language: inu_localize name to text. */
export type LocalizedTexts = ReadonlyMap<string, string>;

/** The parts of the user context that hold visible metadata texts. */
export type LocalizableMetadata = {
  entities: Readonly<Record<string, Entity>>;
  gui: readonly InuViewRecord[];
};

/** The language every metadata text is written in; its records are the fallback of the others. */
export const METADATA_LANGUAGE = 'en';

/** A record of inu_localize as fetched. */
export type LocalizeRecord = { name?: unknown; lang?: unknown; text?: unknown };

/** The keys of the scheme (docs/metadata.md "Localization"). */
export const localizeKey = {
  entity: (entity: string) => entity,
  plural: (entity: string) => `${entity}.plural`,
  field: (entity: string, field: string) => `${entity}.${field}`,
  option: (entity: string, field: string, value: string | number) => `${entity}.${field}.${value}`,
  /** the label of an inu_view record: `view.account.active`, `form.account.main`, `chart.lead.bysource` */
  object: (kind: string, owner: string, name: string) => `${kind}.${owner}.${name}`,
  column: (entity: string, view: string, column: string) => `view.${entity}.${view}.${column}`,
  filter: (entity: string, filter: string) => `filter.${entity}.${filter}`,
  filterOption: (entity: string, filter: string, value: string | number) => `filter.${entity}.${filter}.${value}`,
  menu: (app: string, item: string) => `menu.${app}.${item}`,
  panel: (entity: string, form: string, panel: string) => `panel.${entity}.${form}.${panel}`,
  formField: (entity: string, form: string, field: string) => `form.${entity}.${form}.${field}`,
  command: (owner: string, command: string) => `command.${owner}.${command}`,
  /** a dashboard object's label: `dashboard.Sales.sales.winrate` (owner as for the dashboard's own key) */
  dashboardObject: (owner: string, dashboard: string, object: string) => `dashboard.${owner}.${dashboard}.${object}`,
} as const;

/**
 * The texts to use for a language from the records fetched with `lang in (en, chosen)`: a record
 * of the chosen language wins over an English one of the same name, and English fills the rest
 * (an English record may reword the metadata's own text).
 */
export const localizedTextsOf = (records: readonly LocalizeRecord[], lang: string): Map<string, string> => {
  const texts = new Map<string, string>();
  const put = (wanted: string) => {
    for (const r of records)
      if (r.lang === wanted && typeof r.name === 'string' && typeof r.text === 'string' && r.text !== '')
        texts.set(r.name, r.text);
  };
  put(METADATA_LANGUAGE);
  if (lang !== METADATA_LANGUAGE) put(lang);
  return texts;
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A copy of `o` whose `label` is translated by `key`, or `o` itself when nothing changes. */
const relabel = <T extends { label?: unknown }>(o: T, key: string | undefined, texts: LocalizedTexts, field = 'label'): T => {
  const text = key === undefined ? undefined : texts.get(key);
  return text === undefined || (o as Json)[field] === undefined ? o : { ...o, [field]: text };
};

const localizeProperty = (entity: string, p: Property, texts: LocalizedTexts): Property => {
  const option = <O extends { value: string | number; label: string }>(o: O): O =>
    relabel(o, localizeKey.option(entity, p.logicalName, o.value), texts);
  const displayName = texts.get(localizeKey.field(entity, p.logicalName));
  const options = p.options?.map((o) => ('label' in o ? option(o) : o)) as Property['options'];
  return {
    ...p,
    ...(displayName === undefined ? {} : { displayName }),
    ...(p.options === undefined ? {} : { options }),
    ...(p.richOptions === undefined ? {} : { richOptions: p.richOptions.map(option) }),
  };
};

/** An entity with its names, field labels and option labels in the language of `texts`. */
export const localizeEntity = (e: Entity, texts: LocalizedTexts): Entity => {
  if (texts.size === 0) return e;
  const name = e.logicalName;
  const displayName = texts.get(localizeKey.entity(name));
  const displayNamePlural = texts.get(localizeKey.plural(name));
  return {
    ...e,
    ...(displayName === undefined ? {} : { displayName }),
    ...(displayNamePlural === undefined ? {} : { displayNamePlural }),
    properties: e.properties.map((p) => localizeProperty(name, p, texts)),
  };
};

const mapArray = (v: unknown, f: (x: Json) => Json): unknown => (Array.isArray(v) ? v.map((x) => (isObject(x) ? f(x) : x)) : v);

const localizePanel = (entity: string, form: string, panel: Json, texts: LocalizedTexts): Json => {
  const name = str(panel.name);
  const fields = mapArray(panel.fields, (f) => {
    const field = str(f.name);
    return relabel(f, field === undefined ? undefined : localizeKey.formField(entity, form, field), texts);
  });
  const panels = mapArray(panel.panels, (p) => localizePanel(entity, form, p, texts));
  const out = relabel(panel, name === undefined ? undefined : localizeKey.panel(entity, form, name), texts);
  return { ...out, ...(panel.fields === undefined ? {} : { fields }), ...(panel.panels === undefined ? {} : { panels }) };
};

const localizeMenuItem = (app: string, item: Json, texts: LocalizedTexts): Json => {
  // A section has neither unique name nor name: its English label names it.
  const key = str(item.uniqueName) ?? str(item.name) ?? str(item.label);
  const out = relabel(item, key === undefined ? undefined : localizeKey.menu(app, key), texts);
  return item.items === undefined ? out : { ...out, items: mapArray(item.items, (i) => localizeMenuItem(app, i, texts)) };
};

/** The body of a metadata object with its labels translated; the shape is kept as it came. */
const localizeBody = (g: InuViewRecord, body: Json, texts: LocalizedTexts): Json => {
  const owner = g.objectname ?? '';
  // A body's own label (a list view's, a dashboard's) is the object's label: one key for both.
  const labelled = relabel(body, localizeKey.object(g.kind, owner || (g.appid?.label ?? ''), g.name), texts);
  return localizeParts(g, owner, labelled, texts);
};

const localizeParts = (g: InuViewRecord, owner: string, body: Json, texts: LocalizedTexts): Json => {
  switch (g.kind) {
    case 'form':
      return {
        ...body,
        ...(body.panels === undefined ? {} : { panels: mapArray(body.panels, (p) => localizePanel(owner, g.name, p, texts)) }),
        ...(body.commands === undefined
          ? {}
          : { commands: mapArray(body.commands, (c) => relabel(c, str(c.name) && localizeKey.command(owner, str(c.name)!), texts)) }),
      };
    case 'view':
      return body.columns === undefined
        ? body
        : { ...body, columns: mapArray(body.columns, (c) => relabel(c, str(c.name) && localizeKey.column(owner, g.name, str(c.name)!), texts)) };
    case 'filter':
      return {
        ...body,
        filters: mapArray(body.filters, (f) => {
          const name = str(f.name);
          if (name === undefined) return f;
          const option = (o: Json) => relabel(o, localizeKey.filterOption(owner, name, String(o.value)), texts);
          return {
            ...relabel(f, localizeKey.filter(owner, name), texts),
            ...(f.directOptions === undefined ? {} : { directOptions: mapArray(f.directOptions, option) }),
            ...(f.richOptions === undefined ? {} : { richOptions: mapArray(f.richOptions, option) }),
          };
        }),
      };
    case 'home': {
      const app = g.appid?.label ?? g.appid?.id ?? '';
      return { ...body, items: mapArray(body.items, (i) => localizeMenuItem(app, i, texts)) };
    }
    case 'dashboard': {
      const app = owner || (g.appid?.label ?? '');
      return { ...body, objects: mapArray(body.objects, (o) => relabel(o, str(o.name) && localizeKey.dashboardObject(app, g.name, str(o.name)!), texts)) };
    }
    default:
      return body;
  }
};

const bodyOf = (g: InuViewRecord): unknown => {
  if (g.parsedBody !== undefined && g.parsedBody !== null) return g.parsedBody;
  try {
    return JSON.parse(g.body) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * A metadata object with its label and the labels of its body translated; the translated body
 * is its `parsedBody` (clients read that first), the stored `body` text stays as it is.
 */
export const localizeViewRecord = (g: InuViewRecord, texts: LocalizedTexts): InuViewRecord => {
  if (texts.size === 0) return g;
  const owner = g.objectname ?? g.appid?.label ?? '';
  // The translation names the object even when the record came without its label (a client
  // then shows the humanized name in English, and the translation in another language).
  const label = texts.get(localizeKey.object(g.kind, owner, g.name));
  const labelled = label === undefined ? g : { ...g, label };
  const body = bodyOf(g);
  return isObject(body) ? { ...labelled, parsedBody: localizeBody(g, body, texts) } : labelled;
};

/**
 * The metadata of a user context in the language of `texts` (from `localizedTextsOf`): every
 * text without a translation is the metadata's own, so an empty map changes nothing.
 */
export const localizeMetadata = <M extends LocalizableMetadata>(metadata: M, texts: LocalizedTexts): M => {
  if (texts.size === 0) return metadata;
  return {
    ...metadata,
    entities: Object.fromEntries(Object.entries(metadata.entities).map(([k, e]) => [k, localizeEntity(e, texts)])),
    gui: metadata.gui.map((g) => localizeViewRecord(g, texts)),
  };
};
