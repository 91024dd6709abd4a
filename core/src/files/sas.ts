import { left, right, type Either } from 'fp-ts/lib/Either.js';

/**
 * The blob download signature (spec 002 section 7: "Files ... are mapped to blob-storage paths by
 * organisation name plus a signed query string"; the user context's `sas`). The query string says
 * who may download (user and organization) and until when, and carries an HMAC of those over the
 * server's secret. It only proves who asks: the download still checks that this user may read a
 * record that references the blob (docs/operations.md "Files and blob storage").
 *
 * Pure: the MAC function, the secret and the time are passed in (node's HMAC-SHA256 on the server).
 *
 *   sv=1&su={user id}&so={organization}&se={expiry, seconds since 1970}&sig={MAC}
 *
 * The query is canonical: verification rebuilds it from the values it read and compares the whole
 * text, so any changed byte fails (a re-encoded value as much as a changed one).
 */
export type MacFunction = (secret: string, text: string) => string;

export const SAS_VERSION = '1';
/**
 * How long a signature is valid by default: an hour (issue 18: "short-lived signed URLs"). An
 * open client renews it before then (`sasRenewalDue`, checked every minute by the shell), so
 * links of a long-open tab keep working; a copied link stops working within the hour.
 */
export const DEFAULT_SAS_VALIDITY_MS = 60 * 60 * 1000;
/** The client asks for a new signature this long before the one it holds expires. */
export const SAS_RENEW_BEFORE_MS = 10 * 60 * 1000;

export type SasClaims = { userId: string; org: string; expires: Date };
export type SasFailure = { _tag: 'SasInvalid' } | { _tag: 'SasExpired'; expires: Date };

const signedText = (userId: string, org: string, se: string): string => `${SAS_VERSION}\n${userId}\n${org}\n${se}`;

const enc = encodeURIComponent;

const queryOf = (userId: string, org: string, se: string, sig: string): string =>
  `sv=${SAS_VERSION}&su=${enc(userId)}&so=${enc(org)}&se=${se}&sig=${enc(sig)}`;

/** The signed query string of a user of an organization, valid for `validityMs` from `now` (rounded down to the second). */
export const signSas = (mac: MacFunction, secret: string, claims: { userId: string; org: string }, now: Date, validityMs: number = DEFAULT_SAS_VALIDITY_MS): string => {
  const se = String(Math.floor((now.getTime() + validityMs) / 1000));
  return queryOf(claims.userId, claims.org, se, mac(secret, signedText(claims.userId, claims.org, se)));
};

const decoded = (v: string): string | null => {
  try {
    return decodeURIComponent(v);
  } catch {
    return null;
  }
};

/** The same length and the same characters, looked at in full whatever differs (no early exit on the first difference). */
const sameText = (a: string, b: string): boolean => {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
};

/**
 * The claims of a query string signed by signSas with this secret, if it is still valid at `now`.
 * `query` is the raw query (without '?'); parameters after `sig` (e.g. `&download=1`) are not part
 * of the signature and are ignored here.
 */
export const verifySas = (mac: MacFunction, secret: string, query: string, now: Date): Either<SasFailure, SasClaims> => {
  const invalid = left<SasFailure, SasClaims>({ _tag: 'SasInvalid' });
  const parts = query.split('&');
  if (parts.length < 5) return invalid;
  const [sv, su, so, se, sig] = parts.slice(0, 5).map((p) => {
    const eq = p.indexOf('=');
    return eq < 0 ? null : { key: p.slice(0, eq), value: p.slice(eq + 1) };
  });
  if (!sv || !su || !so || !se || !sig) return invalid;
  if (sv.key !== 'sv' || su.key !== 'su' || so.key !== 'so' || se.key !== 'se' || sig.key !== 'sig') return invalid;
  if (sv.value !== SAS_VERSION || !/^[0-9]{1,15}$/.test(se.value)) return invalid;
  const userId = decoded(su.value);
  const org = decoded(so.value);
  const signature = decoded(sig.value);
  if (userId === null || org === null || signature === null || userId === '' || org === '') return invalid;
  const given = parts.slice(0, 5).join('&');
  const expected = queryOf(userId, org, se.value, mac(secret, signedText(userId, org, se.value)));
  if (!sameText(given, expected)) return invalid;
  const expires = new Date(Number(se.value) * 1000);
  if (now.getTime() >= expires.getTime()) return left({ _tag: 'SasExpired', expires });
  return right({ userId, org, expires });
};

/**
 * Whether a client holding `sas` should fetch a new one now: it expires within
 * SAS_RENEW_BEFORE_MS, has expired, or cannot be read (an empty sas: the server has no blobs).
 */
export const sasRenewalDue = (sas: string, now: number): boolean => {
  if (sas === '') return false;
  const se = /(?:^|&)se=(\d{1,12})(?:&|$)/.exec(sas);
  return !se || Number(se[1]) * 1000 - now <= SAS_RENEW_BEFORE_MS;
};
