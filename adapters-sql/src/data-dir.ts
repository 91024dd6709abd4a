import { join } from 'node:path';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '@tessera/core/internal';

/**
 * The embedded data folder (docs/schema.md):
 *
 *   DATA/catalog.sqlite        organizations and sessions
 *   DATA/orgs/{name}.sqlite    one database per organization
 *
 * An organization name is a DNS label (the login page reads it from the first sub-domain):
 * letters, digits and dashes, 1 to 63 characters, no dash at either end. Names are
 * case-insensitive and kept in lower case, so `Acme` and `acme` are one organization on every
 * file system. Device names that Windows cannot use as file names are refused.
 */
export const CATALOG_FILE = 'catalog.sqlite';
export const ORGS_FOLDER = 'orgs';
export const ORG_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** The organization name in its stored (lower-case) form, or the reason it cannot be one. */
export const parseOrgName = (raw: string): Either<InputError, string> => {
  const name = raw.trim().toLowerCase();
  if (!ORG_NAME.test(name))
    return left(
      inputError(`Invalid organization name "${raw}": use 1 to 63 letters, digits or dashes, not starting or ending with a dash`),
    );
  if (WINDOWS_DEVICE_NAMES.test(name)) return left(inputError(`Invalid organization name "${raw}": the name is reserved`));
  return right(name);
};

export const catalogDatabasePath = (dataDir: string): string => join(dataDir, CATALOG_FILE);

/** The file of an organization's database. Throws on a name that `parseOrgName` refuses: callers parse first. */
export const orgDatabasePath = (dataDir: string, org: string): string => {
  const name = parseOrgName(org);
  if (name._tag === 'Left') throw new RangeError(name.left.message);
  return join(dataDir, ORGS_FOLDER, `${name.right}.sqlite`);
};

/** The SQL Server database of an organization, on the server of the connection string (docs/schema.md). */
export const mssqlOrgDatabaseName = (org: string): string => {
  const name = parseOrgName(org);
  if (name._tag === 'Left') throw new RangeError(name.left.message);
  return `tessera_${name.right}`;
};
