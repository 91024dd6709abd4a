import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { decode } from '../decode.js';
import { LookupValue } from './entity.js';
import { Form } from './form.js';
import { Chart, Dashboard, DashboardObject, HomeMenu, ListView, QuickFilterSet } from './view.js';

/**
 * Metadata objects stored as records of inu_view (spec 000 section 3): kinds view, form, chart,
 * home, script, filter, simplechart, grid, label, plus dashboard (the route /{appid}/dashboard/{name}
 * needs one). `filter` is the quick-filter bar of an entity's lists.
 */
export const VIEW_KINDS = [
  'view',
  'form',
  'chart',
  'home',
  'script',
  'filter',
  'simplechart',
  'grid',
  'label',
  'dashboard',
] as const;
export const ViewKind = t.keyof(
  Object.fromEntries(VIEW_KINDS.map((k) => [k, null])) as Record<(typeof VIEW_KINDS)[number], null>,
  'ViewKind',
);
export type ViewKind = t.TypeOf<typeof ViewKind>;

/** A script body: its source text. */
export const ScriptBody = t.type({ source: t.string }, 'ScriptBody');
export type ScriptBody = t.TypeOf<typeof ScriptBody>;

/** The body codec of each kind. */
export const VIEW_BODY_CODECS = {
  view: ListView,
  form: Form,
  chart: Chart,
  home: HomeMenu,
  script: ScriptBody,
  filter: QuickFilterSet,
  simplechart: DashboardObject,
  grid: DashboardObject,
  label: DashboardObject,
  dashboard: Dashboard,
} satisfies Record<ViewKind, t.Mixed>;
export type ViewBodyByKind = { [K in ViewKind]: t.TypeOf<(typeof VIEW_BODY_CODECS)[K]> };
export type ViewBody = ViewBodyByKind[ViewKind];

/** The inu_view record as stored and sent: `body` is JSON text, `parsedBody` its decoded value. */
export const InuViewRecord = t.intersection(
  [
    t.type({ name: t.string, kind: ViewKind, body: t.string }),
    t.partial({
      id: t.string,
      label: t.union([t.string, t.null]),
      objectname: t.union([t.string, t.null]),
      appid: t.union([LookupValue, t.null]),
      isprivate: t.boolean,
      parsedBody: t.unknown,
    }),
  ],
  'InuViewRecord',
);
export type InuViewRecord = t.TypeOf<typeof InuViewRecord>;

type ViewCommon = {
  name: string;
  /** the entity the object belongs to (forms, views, charts, filters) */
  objectname?: string;
  label?: string;
  /** the app's name; the record store turns it into the appid lookup */
  appid?: string;
  isprivate?: boolean;
};
/** A metadata object as written in a pack or by `tessera schema export`: the body is JSON, not text. */
export type ViewDefinition = { [K in ViewKind]: ViewCommon & { kind: K; body: ViewBodyByKind[K] } }[ViewKind];

const ViewDefinitionRequired = t.type({ name: t.string, kind: ViewKind, body: t.unknown });
const ViewDefinitionOptional = t.partial({
  objectname: t.string,
  label: t.string,
  appid: t.string,
  isprivate: t.boolean,
});

/** Decodes the common fields, then the body with the codec of the kind; errors name `body.…`. */
export const ViewDefinition = new t.Type<ViewDefinition, unknown, unknown>(
  'ViewDefinition',
  (u): u is ViewDefinition =>
    ViewDefinitionRequired.is(u) && ViewDefinitionOptional.is(u) && VIEW_BODY_CODECS[u.kind].is(u.body),
  (u, c) => {
    // The two halves are validated against the same context, so that errors read `views.3.kind`.
    const head = ViewDefinitionRequired.validate(u, c);
    if (isLeft(head)) return head;
    const optional = ViewDefinitionOptional.validate(u, c);
    if (isLeft(optional)) return optional;
    const codec: t.Mixed = VIEW_BODY_CODECS[head.right.kind];
    const body = codec.validate(head.right.body, t.appendContext(c, 'body', codec, head.right.body));
    if (isLeft(body)) return body;
    return t.success({ ...optional.right, ...head.right, body: body.right } as ViewDefinition);
  },
  (d) => ({ ...d, body: VIEW_BODY_CODECS[d.kind].encode(d.body as never) }),
);

/** Decodes the JSON text of an inu_view body for its kind: the parsedBody the UI works with. */
export const parseViewBody = <K extends ViewKind>(kind: K, body: string): Either<InputError, ViewBodyByKind[K]> => {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    return left(inputError(`Invalid ${kind} body: ${(e as Error).message}`));
  }
  const codec = VIEW_BODY_CODECS[kind] as unknown as t.Type<ViewBodyByKind[K], unknown, unknown>;
  return decode(codec, json, `${kind} body`);
};

/** The inu_view record of a definition (without id and appid, which the store assigns). */
export const viewRecordOf = (d: ViewDefinition): InuViewRecord => ({
  name: d.name,
  kind: d.kind,
  body: JSON.stringify(VIEW_BODY_CODECS[d.kind].encode(d.body as never)),
  ...(d.label === undefined ? {} : { label: d.label }),
  ...(d.objectname === undefined ? {} : { objectname: d.objectname }),
  ...(d.isprivate === undefined ? {} : { isprivate: d.isprivate }),
});

/** The definition of a stored record, with its body decoded; `appid` becomes the app's label. */
export const viewDefinitionOf = (r: InuViewRecord): Either<InputError, ViewDefinition> => {
  const body = parseViewBody(r.kind, r.body);
  if (isLeft(body)) return left(inputError(`${body.left.message} (inu_view ${r.name})`));
  return right({
    name: r.name,
    kind: r.kind,
    body: body.right,
    ...(r.label ? { label: r.label } : {}),
    ...(r.objectname ? { objectname: r.objectname } : {}),
    ...(r.appid?.label ? { appid: r.appid.label } : {}),
    ...(r.isprivate === undefined ? {} : { isprivate: r.isprivate }),
  } as ViewDefinition);
};
