import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { notFound, type DomainError } from '../errors.js';
import type { Entity, LookupValue } from '../metadata/entity.js';
import { EURO, type Currency } from '../metadata/currency.js';
import type { InuViewRecord, ViewKind } from '../metadata/inu-view.js';
import { effectiveViewObjects } from '../metadata/customization.js';
import type { UserContext } from '../metadata/user-context.js';
import type { Caller } from '../permissions/types.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';

export const VIEW_ENTITY_NAME = 'inu_view';
export const CURRENCY_ENTITY = 'currency';
/** Metadata views are fetched with count 1000 (spec 000 section 9). */
export const METADATA_VIEW_COUNT = 1000;
/** Offered by default (spec 000 section 4). */
export const DEFAULT_LANGUAGE_CODES: readonly string[] = ['en', 'de', 'sk'];

export type UserContextInput = {
  store: RecordStore;
  caller: Caller;
  orgName: string;
  entities: readonly Entity[];
  /** ISO time of the server build. */
  buildDate: string;
  /** The app asked for, when the client names one. */
  appId?: string;
  /** Language codes offered; default en, de, sk (spec 000 section 4). */
  languages?: readonly string[];
  /** The signed query string for blob-storage paths ('' when no blob storage is configured). */
  sas?: string;
};

/** Metadata as clients see it: secret properties (password hashes, tokens) are not even named. */
export const publicEntity = (e: Entity): Entity => ({ ...e, properties: e.properties.filter((p) => p.secret !== true) });

const parsed = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const idOf = (v: unknown): string | null => (v && typeof v === 'object' ? str((v as LookupValue).id) : str(v));

/**
 * GET /api/getusercontext (spec 000 section 3, spec 002 section 7): user, orgName, appId, apps,
 * metaDict, gui (with parsedBody), permDict, languages, owners, currencyDict, sas, buildDate.
 * The metadata objects are read as the system and then narrowed: a private object is shown
 * only to its owner, and objects of an app only to users who have that app.
 */
export const buildUserContext = async (input: UserContextInput): Promise<Either<DomainError, UserContext>> => {
  const sys = systemCaller();
  const { store, caller } = input;
  const me = await store.retrieveMultiple(sys, {
    entity: {
      name: 'systemuser',
      attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'emailaddress' }],
      filter: { conditions: [{ attribute: 'id', operator: 'eq', value: caller.userId }] },
    },
    pageSize: 1,
  });
  if (isLeft(me)) return me;
  const row = me.right.records[0];
  if (!row) return left(notFound('systemuser'));

  const names = new Set(input.entities.map((e) => e.logicalName));
  const gui: InuViewRecord[] = [];
  if (names.has(VIEW_ENTITY_NAME)) {
    const views = await store.retrieveMultiple(sys, {
      entity: { name: VIEW_ENTITY_NAME, allattrs: true, orders: [{ attribute: 'name' }] },
      pageSize: METADATA_VIEW_COUNT,
    });
    if (isLeft(views)) return views;
    const apps = new Set(caller.permissions.apps);
    for (const v of views.right.records) {
      const owner = idOf(v.ownerid) ?? idOf(v.createdby);
      if (v.isprivate === true && owner !== caller.userId) continue;
      const app = v.appid && typeof v.appid === 'object' ? (v.appid as LookupValue) : null;
      const appLabel = app ? (app.label ?? null) : null;
      if (appLabel && !apps.has(appLabel)) continue;
      const body = str(v.body) ?? '';
      gui.push({
        id: String(v.id),
        name: String(v.name ?? ''),
        label: str(v.label) ?? null,
        kind: String(v.kind ?? 'view') as ViewKind,
        objectname: str(v.objectname),
        appid: app,
        isprivate: v.isprivate === true,
        body,
        parsedBody: parsed(body),
      });
    }
  }

  const currencyDict: Record<string, Currency> = {};
  if (names.has(CURRENCY_ENTITY)) {
    const found = await store.retrieveMultiple(sys, { entity: { name: CURRENCY_ENTITY, allattrs: true }, pageSize: 1000 });
    if (isLeft(found)) return found;
    for (const c of found.right.records) {
      const id = String(c.id);
      currencyDict[id] = {
        id,
        name: String(c.name ?? ''),
        code: String(c.code ?? ''),
        symbol: String(c.symbol ?? ''),
        precision: typeof c.precision === 'number' ? c.precision : 2,
        mode: ([0, 1, 2, 3].includes(Number(c.mode)) ? Number(c.mode) : 0) as Currency['mode'],
        exchangerate: typeof c.exchangerate === 'number' ? c.exchangerate : 1,
        isdefault: c.isdefault === true,
        formatstring: str(c.formatstring),
      };
    }
  }
  if (Object.keys(currencyDict).length === 0) currencyDict[EURO.id] = EURO;

  const apps = caller.permissions.apps;
  return right({
    user: { id: String(row.id), name: String(row.name ?? ''), emailaddress: String(row.emailaddress ?? '') },
    orgName: input.orgName,
    appId: input.appId && apps.includes(input.appId) ? input.appId : (apps[0] ?? ''),
    apps,
    metaDict: Object.fromEntries(input.entities.map((e) => [e.logicalName, publicEntity(e)])),
    // A user's private object (customize mode) stands in for the public one of the same name.
    gui: effectiveViewObjects(gui),
    permDict: caller.permissions.permissions,
    languages: [...(input.languages ?? DEFAULT_LANGUAGE_CODES)],
    owners: caller.permissions.owners,
    currencyDict,
    sas: input.sas ?? '',
    buildDate: input.buildDate,
    teams: caller.teams,
  });
};
