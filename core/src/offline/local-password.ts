/**
 * Local passwords for offline sign-in (issue 21): the last user who signed in online can unlock
 * the app offline. The password is kept only as a PBKDF2 hash with these parameters (Web Crypto in
 * the browser, node:crypto in tests); the core holds the parameters and the rules, the
 * derivation and the random salt come through ports.
 */
export const LOCAL_PASSWORD_PARAMS = {
  algorithm: 'PBKDF2',
  hash: 'SHA-256',
  iterations: 100_000,
  saltBytes: 32,
  /** 256-bit output */
  keyBytes: 32,
} as const;
export type LocalPasswordParams = { algorithm: 'PBKDF2'; hash: 'SHA-256'; iterations: number; saltBytes: number; keyBytes: number };

/** The PasswordKdf port: PBKDF2 of the password's UTF-8 bytes with the salt (Web Crypto deriveBits, node:crypto pbkdf2). */
export interface PasswordKdf {
  derive(password: string, salt: Uint8Array, params: LocalPasswordParams): Promise<Uint8Array>;
}

/** What the offline store keeps of the password: who, the salt, the hash and the parameters used. */
export type LocalPassword = {
  organization: string;
  email: string;
  params: LocalPasswordParams;
  /** hex */
  salt: string;
  /** hex */
  hash: string;
};

export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
export const fromHex = (h: string): Uint8Array => {
  const out = new Uint8Array(Math.floor(h.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
};

/** Equality that takes the same time wherever the inputs differ (only the length is public). */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
};

/** Emails compare without case (the sign-in does the same). */
const sameUser = (p: LocalPassword, organization: string, email: string): boolean =>
  p.organization === organization && p.email.toLowerCase() === email.toLowerCase();

/** After an online sign-in (electronLogin): the hash to keep. `salt` comes from a random port (saltBytes long). */
export const createLocalPassword = async (
  kdf: PasswordKdf,
  salt: Uint8Array,
  organization: string,
  email: string,
  password: string,
): Promise<LocalPassword> => {
  if (salt.length !== LOCAL_PASSWORD_PARAMS.saltBytes) throw new Error(`salt must be ${LOCAL_PASSWORD_PARAMS.saltBytes} bytes`);
  const params = { ...LOCAL_PASSWORD_PARAMS };
  const hash = await kdf.derive(password, salt, params);
  return { organization, email, params, salt: toHex(salt), hash: toHex(hash) };
};

/** Offline unlock: the same user (organization, email) and a password deriving the same hash. */
export const verifyLocalPassword = async (
  kdf: PasswordKdf,
  stored: LocalPassword,
  organization: string,
  email: string,
  password: string,
): Promise<boolean> => {
  const hash = await kdf.derive(password, fromHex(stored.salt), stored.params);
  // Derive even for another user, so the answer takes the same time.
  return constantTimeEqual(hash, fromHex(stored.hash)) && sameUser(stored, organization, email);
};
