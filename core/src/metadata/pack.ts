import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { decode } from '../decode.js';
import { Entity, hasFlag, type Property } from './entity.js';
import { Currency } from './currency.js';
import { allPanels, associatedListTarget, FIELD_SEPARATOR } from './form.js';
import { ViewDefinition } from './inu-view.js';
import { metadataSet, type MetadataSet } from './metadata-set.js';
import { RoleDocument } from '../permissions/roles.js';
import { withSystemFields } from './system-fields.js';

/**
 * A metadata pack (docs/metadata.md): a named set of entity definitions with the metadata objects
 * (forms, views, charts, quick filters, home menus, dashboards) that make them usable, and the
 * currencies, apps and roles an organization starts with. `tessera schema export` writes this shape.
 */
export const App = t.intersection(
  [t.type({ name: t.string, label: t.string }), t.partial({ icon: t.string, description: t.string })],
  'App',
);
export type App = t.TypeOf<typeof App>;

/** A role as a pack ships it: its permission document as JSON (inu_role.body holds it as text). */
export const PackRole = t.intersection(
  [t.type({ name: t.string, permissions: RoleDocument }), t.partial({ appid: t.string })],
  'PackRole',
);
export type PackRole = t.TypeOf<typeof PackRole>;

export const Pack = t.intersection(
  [
    t.type({ name: t.string, entities: t.array(Entity) }),
    t.partial({
      label: t.string,
      description: t.string,
      /** names of the packs whose entities this one refers to (the demo pack requires system) */
      requires: t.array(t.string),
      views: t.array(ViewDefinition),
      currencies: t.array(Currency),
      apps: t.array(App),
      roles: t.array(PackRole),
    }),
  ],
  'Pack',
);
export type Pack = t.TypeOf<typeof Pack>;

const fieldExists = (set: MetadataSet, entity: string, field: string): string | undefined => {
  const p = set.property(entity, field);
  return isLeft(p) ? p.left.message : undefined;
};

/** The problems of one property that a codec cannot see: targets, options, dependent options. */
const propertyProblems = (set: MetadataSet, e: Entity, p: Property): string[] => {
  const where = `${e.logicalName}.${p.logicalName}`;
  const problems: string[] = [];
  if (p.type === 'Lookup') {
    if ((p.targets ?? []).length === 0) problems.push(`${where}: a lookup needs targets`);
    for (const target of p.targets ?? []) if (!set.has(target)) problems.push(`${where}: target No Object:${target}`);
  }
  const optionValues = [...(p.richOptions ?? []), ...((p.options ?? []) as Array<{ value?: unknown }>)].map((o) => o.value);
  if (hasFlag(p, 'OptionSet') && optionValues.length === 0 && !hasFlag(p, 'WriteIn'))
    problems.push(`${where}: an option set needs options or richOptions`);
  if (hasFlag(p, 'MultiSelect') && p.type === 'Integer' && optionValues.some((v) => typeof v !== 'number' || v < 0 || v > 31))
    problems.push(`${where}: multi-select option values are bits 0 to 31`);
  if (new Set(optionValues).size !== optionValues.length) problems.push(`${where}: option values repeat`);
  for (const o of p.richOptions ?? [])
    if (o.depfield !== undefined) {
      const missing = fieldExists(set, e.logicalName, o.depfield);
      if (missing) problems.push(`${where}: dependent option ${o.value}: ${missing}`);
    }
  return problems;
};

/** The problems of one metadata object: the entity and fields it names must exist. */
const viewProblems = (set: MetadataSet, v: ViewDefinition): string[] => {
  const where = `view ${v.kind} ${v.objectname ?? v.appid ?? ''}/${v.name}`;
  const problems: string[] = [];
  const entity = v.objectname;
  const needsEntity = v.kind === 'form' || v.kind === 'view' || v.kind === 'chart' || v.kind === 'filter';
  if (needsEntity && entity === undefined) return [`${where}: objectname is required`];
  if (entity !== undefined && !set.has(entity)) return [`${where}: No Object:${entity}`];
  const field = (name: string) => {
    const missing = entity === undefined || name.includes('.') ? undefined : fieldExists(set, entity, name);
    if (missing) problems.push(`${where}: ${missing}`);
  };
  switch (v.kind) {
    case 'form':
      for (const panel of allPanels(v.body.panels)) {
        for (const f of panel.fields ?? []) if (f.name !== FIELD_SEPARATOR && f.customComponent === undefined) field(f.name);
        if (panel.type === 'AssociatedList') {
          const target = associatedListTarget(panel);
          const lookup = target ? set.property(target.entity, target.field) : undefined;
          if (!target || !lookup) problems.push(`${where}: panel ${panel.name}: field must be {entity}.{lookupField}`);
          else if (isLeft(lookup)) problems.push(`${where}: panel ${panel.name}: ${lookup.left.message}`);
          else if (lookup.right.type !== 'Lookup' || !(lookup.right.targets ?? []).includes(entity ?? ''))
            problems.push(`${where}: panel ${panel.name}: ${panel.field} is not a lookup to ${entity}`);
        }
        if (panel.type === 'Tabs' && (panel.panels ?? []).length === 0) problems.push(`${where}: panel ${panel.name}: Tabs without tabs`);
      }
      break;
    case 'view':
      if (v.body.query.name !== entity) problems.push(`${where}: the query reads ${v.body.query.name}, not ${entity}`);
      for (const c of v.body.columns) field(c.name);
      for (const o of v.body.query.orders ?? []) field(o.attribute);
      for (const c of v.body.query.filter?.conditions ?? []) if (c.entityName === undefined) field(c.attribute);
      for (const k of [v.body.kanbanField, v.body.calendarStartField, v.body.calendarEndField, v.body.calendarGroupField])
        if (k !== undefined) field(k);
      break;
    case 'chart':
      for (const s of v.body.series) field(s.aggregateField);
      for (const g of v.body.groups) field(g.field);
      break;
    case 'filter':
      for (const f of v.body.filters) if (f.propertyName !== undefined) field(f.propertyName);
      break;
    case 'home': {
      const items = (xs: typeof v.body.items): typeof v.body.items => xs.flatMap((i) => [i, ...items(i.items ?? [])]);
      for (const i of items(v.body.items))
        if (i.kind === 'entity' && (i.name === undefined || !set.has(i.name))) problems.push(`${where}: menu item No Object:${i.name ?? ''}`);
      break;
    }
    default:
      break;
  }
  return problems;
};

/**
 * Decodes a pack and completes it: every entity gets its system fields, and every name a pack
 * uses must resolve against the pack and the packs it builds on (`base`). A broken pack fails
 * with `Invalid pack {source}: ` and the path of each problem (entity, property, view).
 */
export const loadPack = (raw: unknown, source: string, base: readonly Pack[] = []): Either<InputError, Pack> => {
  const decoded = decode(Pack, raw, `pack ${source}`);
  if (isLeft(decoded)) return decoded;
  const pack = decoded.right;
  const entities: Entity[] = [];
  for (const e of pack.entities) {
    const complete = withSystemFields(e);
    if (isLeft(complete)) return left(inputError(`Invalid pack ${source}: ${complete.left.message}`));
    entities.push(complete.right);
  }
  const set = metadataSet([...base.flatMap((b) => b.entities), ...entities]);
  if (isLeft(set)) return left(inputError(`Invalid pack ${source}: ${set.left.message}`));
  const problems = [
    ...entities.flatMap((e) => e.properties.flatMap((p) => propertyProblems(set.right, e, p))),
    ...(pack.views ?? []).flatMap((v) => viewProblems(set.right, v)),
  ];
  const names = (pack.views ?? []).map((v) => `${v.kind}:${v.objectname ?? ''}:${v.appid ?? ''}:${v.name}`);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) problems.push(`views defined twice: ${[...new Set(twice)].join(', ')}`);
  if (problems.length > 0) return left(inputError(`Invalid pack ${source}: ${problems.join('; ')}`));
  return right({ ...pack, entities });
};

/** The metadata set of several packs together (e.g. system and demo CRM). */
export const packsMetadataSet = (packs: readonly Pack[]): Either<InputError, MetadataSet> =>
  metadataSet(packs.flatMap((p) => p.entities));
