import type * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../nesting-depth.js';
import { codecErrorPath, jsonProblem } from '../query/setup-query.js';
import { replaceFetchPlaceholders } from '../query/placeholders.js';
import type { EntityQuery } from '../query/query.js';
import { validateQuery, type EntityLookup } from '../query/validate-query.js';
import type { Entity } from './entity.js';
import { VIEW_BODY_CODECS, type ViewBody, type ViewKind } from './inu-view.js';
import type { Chart, DashboardObject, ListView } from './view.js';

/**
 * The special editor /{appid}/edit/inu_view/{id} (spec 000 section 2, issue 15) checks a body as
 * typed: JSON, the codec of its kind (`VIEW_BODY_CODECS`), then what the metadata decides: the
 * queries of views and dashboard objects with the query engine's `validateQuery`, the columns of a
 * view and the fields of a chart. Each problem names its path in the body.
 */
export type ViewBodyCheck =
  | { readonly _tag: 'Json'; readonly message: string; readonly line?: number; readonly column?: number }
  | { readonly _tag: 'Invalid'; readonly path: string; readonly message: string }
  | { readonly _tag: 'Valid'; readonly body: ViewBody };

const invalid = (path: string, message: string): ViewBodyCheck => ({ _tag: 'Invalid', path, message });

/**
 * A query of a body, checked where it sits: `query.filter.conditions[0]` (validateQuery's paths
 * start at `entity`). `{{placeholders}}` are filled when run; here they check as empty values.
 */
const checkQuery = (query: EntityQuery, at: string, lookup: EntityLookup): ViewBodyCheck | null => {
  const trace = { at: '' };
  const r = validateQuery(replaceFetchPlaceholders({ entity: query }, {}), lookup, { trace });
  if (!isLeft(r)) return null;
  return invalid(trace.at.replace(/^entity/, at), r.left.message);
};

/** A field of a view column or chart: the entity's own, or `alias.field` of a link (checked with the query). */
const hasField = (entity: Entity, name: string): boolean => name.includes('.') || entity.properties.some((p) => p.logicalName === name && p.secret !== true);

const checkView = (v: ListView, lookup: EntityLookup): ViewBodyCheck | null => {
  const q = checkQuery(v.query, 'query', lookup);
  if (q) return q;
  const entity = lookup(v.query.name);
  if (!entity) return null;
  for (const [i, c] of v.columns.entries()) {
    if (!hasField(entity, c.name)) return invalid(`columns[${i}].name`, `Field not found:${entity.logicalName}.${c.name}`);
  }
  return null;
};

const checkChart = (c: Chart, objectname: string | undefined, lookup: EntityLookup, at: string): ViewBodyCheck | null => {
  const entity = objectname ? lookup(objectname) : undefined;
  if (!entity) return null;
  for (const [i, s] of c.series.entries()) {
    if (!hasField(entity, s.aggregateField)) return invalid(`${at}series[${i}].aggregateField`, `Field not found:${entity.logicalName}.${s.aggregateField}`);
  }
  for (const [i, g] of c.groups.entries()) {
    if (!hasField(entity, g.field)) return invalid(`${at}groups[${i}].field`, `Field not found:${entity.logicalName}.${g.field}`);
  }
  return null;
};

const checkDashboardObject = (o: DashboardObject, lookup: EntityLookup, at: string): ViewBodyCheck | null => {
  if (o.query) {
    const q = checkQuery(o.query, `${at}query`, lookup);
    if (q) return q;
  }
  const objectname = o.objectname ?? o.query?.name;
  if (objectname && !lookup(objectname)) return invalid(`${at}objectname`, `No Object:${objectname}`);
  return o.chart ? checkChart(o.chart, objectname, lookup, `${at}chart.`) : null;
};

/** The rules the metadata decides for a decoded body of a kind; null when there is nothing to say. */
const checkAgainstMetadata = (kind: ViewKind, body: ViewBody, objectname: string | undefined, lookup: EntityLookup): ViewBodyCheck | null => {
  switch (kind) {
    case 'view':
      return checkView(body as ListView, lookup);
    case 'chart':
      return checkChart(body as Chart, objectname, lookup, '');
    case 'simplechart':
    case 'grid':
    case 'label':
      return checkDashboardObject(body as DashboardObject, lookup, '');
    case 'dashboard': {
      for (const [i, o] of (body as { objects: DashboardObject[] }).objects.entries()) {
        const r = checkDashboardObject(o, lookup, `objects[${i}].`);
        if (r) return r;
      }
      return null;
    }
    default:
      return null;
  }
};

/** Checks the JSON text of an inu_view body of a kind; `objectname` is the record's entity (charts). */
export const checkViewBody = (kind: ViewKind, text: string, lookup: EntityLookup, objectname?: string): ViewBodyCheck => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return jsonProblem(text, e);
  }
  if (nestsDeeperThan(json, MAX_NESTING_DEPTH)) return invalid('', `nested deeper than ${MAX_NESTING_DEPTH} levels`);
  const codec = VIEW_BODY_CODECS[kind] as t.Mixed;
  const decoded = codec.decode(json);
  if (isLeft(decoded)) {
    const first = decoded.left[0];
    const expected = first?.context[first.context.length - 1]?.type.name ?? kind;
    const got = first?.value === undefined ? 'nothing' : (JSON.stringify(first.value) ?? '').slice(0, 60);
    return invalid(codecErrorPath(decoded.left), `expected ${expected}, got ${got}`);
  }
  const body = decoded.right as ViewBody;
  return checkAgainstMetadata(kind, body, objectname || undefined, lookup) ?? { _tag: 'Valid', body };
};
