import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { decode } from '../decode.js';
import { Entity, hasFlag, type Property } from './entity.js';
import { Currency } from './currency.js';
import { allPanels, associatedListTarget, FIELD_SEPARATOR } from './form.js';
import { ViewDefinition } from './inu-view.js';
import type { QuickFilterType } from './view.js';
import { metadataSet, type MetadataSet } from './metadata-set.js';
import { RoleDocument } from '../permissions/roles.js';
import { withSystemFields } from './system-fields.js';
import { fieldTemplateOf, templateFields } from './field-template.js';
import { FIELD_TYPES } from './field-types.js';
import { PackNextRule, packNextRuleProblems } from '../whatsnext/pack-rules.js';

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

/**
 * Translations of the pack's metadata texts (docs/metadata.md "Localization"): language code to
 * inu_localize name to text. Organization set-up writes them as inu_localize records.
 */
export const PackTranslations = t.record(t.string, t.record(t.string, t.string), 'PackTranslations');
export type PackTranslations = t.TypeOf<typeof PackTranslations>;

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
      translations: PackTranslations,
      /** What's Next rules the organization starts with (inu_nextrule records; docs/whats-next.md) */
      nextRules: t.array(PackNextRule),
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
export const propertyProblems = (set: MetadataSet, e: Entity, p: Property): string[] => {
  const where = `${e.logicalName}.${p.logicalName}`;
  const problems: string[] = [];
  if (p.type === 'Lookup') {
    if ((p.targets ?? []).length === 0) problems.push(`${where}: a lookup needs targets`);
    for (const target of p.targets ?? []) if (!set.has(target)) problems.push(`${where}: target No Object:${target}`);
  }
  const optionValues = [...(p.richOptions ?? []), ...((p.options ?? []) as Array<{ value?: unknown }>)].map(
    (o) => o.value,
  );
  if (hasFlag(p, 'OptionSet') && optionValues.length === 0 && !hasFlag(p, 'WriteIn'))
    problems.push(`${where}: an option set needs options or richOptions`);
  if (
    hasFlag(p, 'MultiSelect') &&
    p.type === 'Integer' &&
    optionValues.some((v) => typeof v !== 'number' || v < 0 || v > 31)
  )
    problems.push(`${where}: multi-select option values are bits 0 to 31`);
  if (new Set(optionValues).size !== optionValues.length) problems.push(`${where}: option values repeat`);
  for (const o of p.richOptions ?? [])
    if (o.depfield !== undefined) {
      const missing = fieldExists(set, e.logicalName, o.depfield);
      if (missing) problems.push(`${where}: dependent option ${o.value}: ${missing}`);
    }
  const template = fieldTemplateOf(p);
  for (const field of template === undefined ? [] : templateFields(template)) {
    const missing = field === p.logicalName ? 'a composed field cannot name itself' : fieldExists(set, e.logicalName, field);
    if (missing) problems.push(`${where}: formatString {${field}}: ${missing}`);
  }
  return problems;
};

/** A number field (Integer, Decimal, Float, Money: `numeric` in the field-type registry). */
const isNumber = (p: Property): boolean => FIELD_TYPES[p.type].numeric;
const isOptionSet = (p: Property): boolean => hasFlag(p, 'OptionSet') || p.type === 'Boolean';
/** What each quick filter type needs of its property (spec 001 section 2). */
const QUICK_FILTER_NEEDS: Record<Exclude<QuickFilterType, 'custom'>, [string, (p: Property) => boolean]> = {
  options: ['an option set', isOptionSet],
  date: ['a DateTime', (p) => p.type === 'DateTime'],
  daterange: ['a DateTime', (p) => p.type === 'DateTime'],
  day: ['a DateTime', (p) => p.type === 'DateTime'],
  dayrange: ['a DateTime', (p) => p.type === 'DateTime'],
  age: ['a DateTime', (p) => p.type === 'DateTime'],
  lookup: ['a Lookup', (p) => p.type === 'Lookup'],
  owner: ['a Lookup to systemuser', (p) => p.type === 'Lookup' && (p.targets ?? []).includes('systemuser')],
  number: ['a number', isNumber],
  numericrange: ['a number', isNumber],
  text: ['a String', (p) => p.type === 'String'],
};

/**
 * The problems of one metadata object: the entity, fields and views it names must exist, and each
 * field must be of a type its use needs. `viewNames` gives the list views of an entity.
 */
const viewProblems = (set: MetadataSet, v: ViewDefinition, viewNames: (entity: string) => Set<string>): string[] => {
  const where = `view ${v.kind} ${v.objectname ?? v.appid ?? ''}/${v.name}`;
  const problems: string[] = [];
  const entity = v.objectname;
  const needsEntity = v.kind === 'form' || v.kind === 'view' || v.kind === 'chart' || v.kind === 'filter';
  if (needsEntity && entity === undefined) return [`${where}: objectname is required`];
  if (entity !== undefined && !set.has(entity)) return [`${where}: No Object:${entity}`];
  /** The property, or undefined with the problem noted; `alias.attr` names of links are not checked. */
  const field = (name: string, of = entity): Property | undefined => {
    if (of === undefined || name.includes('.')) return undefined;
    const p = set.property(of, name);
    if (isLeft(p)) problems.push(`${where}: ${p.left.message}`);
    return isLeft(p) ? undefined : p.right;
  };
  const expect = (name: string | undefined, what: string, ok: (p: Property) => boolean) => {
    if (name === undefined) return;
    const p = field(name);
    if (p && !ok(p)) problems.push(`${where}: ${entity}.${name} is not ${what}`);
  };
  const views = (child: string, names: ReadonlyArray<string | undefined>, context: string) => {
    const known = viewNames(child);
    for (const n of names)
      if (n !== undefined && !known.has(n)) problems.push(`${where}: ${context}: ${child} has no view ${n}`);
  };
  switch (v.kind) {
    case 'form':
      for (const panel of allPanels(v.body.panels)) {
        for (const f of panel.fields ?? [])
          if (f.name !== FIELD_SEPARATOR && f.customComponent === undefined) field(f.name);
        if (panel.type === 'AssociatedList') {
          const target = associatedListTarget(panel);
          const lookup = target ? set.property(target.entity, target.field) : undefined;
          if (!target || !lookup) problems.push(`${where}: panel ${panel.name}: field must be {entity}.{lookupField}`);
          else if (isLeft(lookup)) problems.push(`${where}: panel ${panel.name}: ${lookup.left.message}`);
          else if (lookup.right.type !== 'Lookup' || !(lookup.right.targets ?? []).includes(entity ?? ''))
            problems.push(`${where}: panel ${panel.name}: ${panel.field} is not a lookup to ${entity}`);
          else views(target.entity, [panel.initialView, ...(panel.allowedViews ?? [])], `panel ${panel.name}`);
          for (const c of panel.excludedColumns ?? []) if (target) field(c, target.entity);
        }
        if (panel.type === 'Tabs' && (panel.panels ?? []).length === 0)
          problems.push(`${where}: panel ${panel.name}: Tabs without tabs`);
        if (panel.type === 'Split' && (panel.panels ?? []).length !== 2)
          problems.push(`${where}: panel ${panel.name}: a Split holds two panels`);
      }
      break;
    case 'view':
      if (v.body.query.name !== entity) problems.push(`${where}: the query reads ${v.body.query.name}, not ${entity}`);
      for (const c of v.body.columns) field(c.name);
      for (const o of v.body.query.orders ?? []) field(o.attribute);
      for (const c of v.body.query.filter?.conditions ?? []) if (c.entityName === undefined) field(c.attribute);
      expect(v.body.kanbanField, 'an option set', isOptionSet);
      expect(v.body.calendarStartField, 'a DateTime', (p) => p.type === 'DateTime');
      expect(v.body.calendarEndField, 'a DateTime', (p) => p.type === 'DateTime');
      expect(v.body.calendarGroupField, 'a Lookup', (p) => p.type === 'Lookup');
      expect(v.body.latitudeField, 'a number', isNumber);
      expect(v.body.longitudeField, 'a number', isNumber);
      break;
    case 'chart':
      for (const s of v.body.series)
        if (s.aggregateMethod === 'count' || s.aggregateMethod === 'countdistinct') field(s.aggregateField);
        else expect(s.aggregateField, `a number to ${s.aggregateMethod}`, isNumber);
      for (const g of v.body.groups)
        if (g.method === 'column') field(g.field);
        else expect(g.field, `a DateTime to group by ${g.method}`, (p) => p.type === 'DateTime');
      break;
    case 'filter':
      for (const f of v.body.filters) {
        if (f.type === 'custom') {
          if (f.customFetch === undefined)
            problems.push(`${where}: filter ${f.name}: a custom filter needs customFetch`);
          continue;
        }
        if (f.propertyName === undefined) {
          problems.push(`${where}: filter ${f.name}: propertyName is required`);
          continue;
        }
        const [what, ok] = QUICK_FILTER_NEEDS[f.type];
        // Options given directly may filter any field.
        if (f.type === 'options' && f.directOptions !== undefined) field(f.propertyName);
        else expect(f.propertyName, what, ok);
      }
      break;
    case 'home': {
      const items = (xs: typeof v.body.items): typeof v.body.items => xs.flatMap((i) => [i, ...items(i.items ?? [])]);
      for (const i of items(v.body.items))
        if (i.kind === 'entity') {
          if (i.name === undefined || !set.has(i.name)) problems.push(`${where}: menu item No Object:${i.name ?? ''}`);
          else views(i.name, [i.initialView, ...(i.allowedViews ?? [])], `menu item ${i.label ?? i.name}`);
        }
      break;
    }
    case 'dashboard':
      for (const o of v.body.objects)
        if (o.objectname !== undefined) {
          if (!set.has(o.objectname)) problems.push(`${where}: object ${o.name}: No Object:${o.objectname}`);
          else if (o.propertyName !== undefined) field(o.propertyName, o.objectname);
        }
      break;
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
export const loadPack = (raw: unknown, source = 'pack', base: readonly Pack[] = []): Either<InputError, Pack> => {
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
  const allViews = [...base.flatMap((b) => b.views ?? []), ...(pack.views ?? [])];
  const viewNames = (entity: string) =>
    new Set(allViews.filter((v) => v.kind === 'view' && v.objectname === entity).map((v) => v.name));
  const problems = [
    ...entities.flatMap((e) => e.properties.flatMap((p) => propertyProblems(set.right, e, p))),
    ...(pack.views ?? []).flatMap((v) => viewProblems(set.right, v, viewNames)),
    ...(pack.nextRules ?? []).flatMap((r) => packNextRuleProblems(set.right, r)),
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
