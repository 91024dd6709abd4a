import { localizeKey, type Entity, type InuViewRecord, type LocalizableMetadata } from '@tessera/core/internal';

/**
 * Every metadata text the localization editor offers: the inu_localize key under which
 * `localizeMetadata` (core/src/metadata/localize.ts) looks it up, and the metadata's own English
 * text. It walks the metadata the way `localizeMetadata` does, so a key listed here is exactly a
 * key a translation is read by (the test checks both directions against `localizeMetadata`).
 */
export type MetadataText = { readonly key: string; readonly text: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

const bodyOf = (g: InuViewRecord): Json | undefined => {
  if (isObject(g.parsedBody)) return g.parsedBody;
  try {
    const b = JSON.parse(g.body) as unknown;
    return isObject(b) ? b : undefined;
  } catch {
    return undefined;
  }
};

const entityTexts = (e: Entity, out: MetadataText[]): void => {
  const name = e.logicalName;
  out.push({ key: localizeKey.entity(name), text: e.displayName });
  out.push({ key: localizeKey.plural(name), text: e.displayNamePlural ?? '' });
  for (const p of e.properties) {
    out.push({ key: localizeKey.field(name, p.logicalName), text: p.displayName });
    for (const o of p.options ?? []) if ('label' in o) out.push({ key: localizeKey.option(name, p.logicalName, o.value), text: o.label });
    for (const o of p.richOptions ?? []) out.push({ key: localizeKey.option(name, p.logicalName, o.value), text: o.label });
  }
};

/** A labelled part: only a part that has a label is relabelled by localizeMetadata. */
const labelled = (o: Json, key: string | undefined, out: MetadataText[]): void => {
  const label = str(o.label);
  if (key !== undefined && label !== undefined) out.push({ key, text: label });
};

const panelTexts = (entity: string, form: string, panel: Json, out: MetadataText[]): void => {
  const name = str(panel.name);
  labelled(panel, name === undefined ? undefined : localizeKey.panel(entity, form, name), out);
  for (const f of objects(panel.fields)) {
    const field = str(f.name);
    labelled(f, field === undefined ? undefined : localizeKey.formField(entity, form, field), out);
  }
  for (const p of objects(panel.panels)) panelTexts(entity, form, p, out);
};

const menuTexts = (app: string, item: Json, out: MetadataText[]): void => {
  const key = str(item.uniqueName) ?? str(item.name) ?? str(item.label);
  labelled(item, key === undefined ? undefined : localizeKey.menu(app, key), out);
  for (const i of objects(item.items)) menuTexts(app, i, out);
};

const viewTexts = (g: InuViewRecord, out: MetadataText[]): void => {
  const owner = g.objectname ?? g.appid?.label ?? '';
  const body = bodyOf(g);
  // The record's label and its body's label share one key; a record without either still has it.
  out.push({ key: localizeKey.object(g.kind, owner, g.name), text: g.label ?? str(body?.label) ?? '' });
  if (!body) return;
  const objectname = g.objectname ?? '';
  switch (g.kind) {
    case 'form':
      for (const p of objects(body.panels)) panelTexts(objectname, g.name, p, out);
      for (const c of objects(body.commands)) labelled(c, str(c.name) && localizeKey.command(objectname, str(c.name)!), out);
      return;
    case 'view':
      for (const c of objects(body.columns)) labelled(c, str(c.name) && localizeKey.column(objectname, g.name, str(c.name)!), out);
      return;
    case 'filter':
      for (const f of objects(body.filters)) {
        const name = str(f.name);
        if (name === undefined) continue;
        labelled(f, localizeKey.filter(objectname, name), out);
        for (const o of [...objects(f.directOptions), ...objects(f.richOptions)]) labelled(o, localizeKey.filterOption(objectname, name, String(o.value)), out);
      }
      return;
    case 'home': {
      const app = g.appid?.label ?? g.appid?.id ?? '';
      for (const i of objects(body.items)) menuTexts(app, i, out);
      return;
    }
    case 'dashboard': {
      const app = objectname || (g.appid?.label ?? '');
      for (const o of objects(body.objects)) labelled(o, str(o.name) && localizeKey.dashboardObject(app, g.name, str(o.name)!), out);
      return;
    }
    default:
      return;
  }
};

/**
 * The metadata's translatable texts, one per key (the first text of a key wins: two parts that
 * share a key share its translation), sorted by key.
 */
export const metadataTexts = (metadata: LocalizableMetadata): MetadataText[] => {
  const out: MetadataText[] = [];
  for (const e of Object.values(metadata.entities)) entityTexts(e, out);
  for (const g of metadata.gui) viewTexts(g, out);
  const byKey = new Map<string, MetadataText>();
  for (const x of out) {
    const known = byKey.get(x.key);
    if (!known || (known.text === '' && x.text !== '')) byKey.set(x.key, x);
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
};
