import * as t from 'io-ts';
import { Entity } from './entity.js';
import { Currency } from './currency.js';
import { InuViewRecord } from './inu-view.js';
import { CustomOwnerCodec } from '../permissions/roles.js';
import { PermissionMap } from './role.js';

/**
 * The user context loaded at startup (spec 000 section 3; GET /api/getusercontext, spec 002
 * section 7): user, orgName, appId, apps, metaDict, gui, permDict, languages, owners, currencyDict,
 * sas, buildDate. Spec 000 calls the entity metadata `objects`; on the wire it is `metaDict`,
 * entity logical name to its metadata (system fields included).
 */
export const ContextUser = t.intersection(
  [
    t.type({ id: t.string, name: t.string, emailaddress: t.string }),
    t.partial({ language: t.union([t.string, t.null]) }),
  ],
  'ContextUser',
);
export type ContextUser = t.TypeOf<typeof ContextUser>;

export const UserContext = t.intersection(
  [
    t.type({
      user: ContextUser,
      orgName: t.string,
      /** app labels the user may open (distinct labels of the roles' apps) */
      apps: t.array(t.string),
      metaDict: t.record(t.string, Entity),
      /** the inu_view objects the user may see: kind, name, body, appid, parsedBody */
      gui: t.array(InuViewRecord),
      permDict: PermissionMap,
      /** the language codes offered (default en, de, sk; the i18n catalogue names them) */
      languages: t.array(t.string),
      owners: t.array(CustomOwnerCodec),
      /** currency id to currency */
      currencyDict: t.record(t.string, Currency),
      /** the signed query string appended to blob-storage paths */
      sas: t.string,
      /** ISO time of the server build; a later build makes the client reload */
      buildDate: t.string,
    }),
    t.partial({ appId: t.string, teams: t.array(t.string) }),
  ],
  'UserContext',
);
export type UserContext = t.TypeOf<typeof UserContext>;

/** Metadata older than 12 h is reloaded (spec 000 section 4). */
export const METADATA_MAX_AGE_MS = 43_200_000;
