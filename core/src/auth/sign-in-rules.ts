/** Constants and small rules of signing in (spec 000 sections 4, 8 and 9; issue 6). */

/** Magic link validity: 5 minutes (spec 000 section 9). */
export const MAGIC_LINK_VALIDITY_MS = 5 * 60 * 1000;
/** Sessions end after this much inactivity unless configured otherwise (issue 6: 12 hours). */
export const DEFAULT_SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** A stream token is for opening one stream soon after asking for it. */
export const STREAM_TOKEN_VALIDITY_MS = 60 * 1000;
/** A sign-up puzzle must be solved and sent within this time. */
export const PUZZLE_VALIDITY_MS = 10 * 60 * 1000;

/** The status text of every 401 (API.md). */
export const NOT_AUTHORIZED = 'NOT AUTHORIZED';

/** The reasons a password change is asked for (spec 000 section 4). */
export type PasswordChangeReason = 'INVITE' | 'USER_FORGOT' | 'ADMIN_CHANGE';

/** Answers of the magic-link flow (spec 000 section 4). */
export const MagicAnswer = {
  sendMagic: 'OK_SEND_MAGIC',
  checkEmail: 'OK_CHECK_EMAIL',
  mustChangePassword: 'ERR_MUST_CHANGE_PWD',
  timeout: 'ERR_MAGIC_TIMEOUT',
  broken: 'ERR_MAGIC_BROKEN',
} as const;

/** A sign-in failure as the login page shows it: `{ reason, message }` (spec 000 section 8). */
export type SignInFailure = { reason: string; message: string; status: number; retryAfterSeconds?: number };

/** One answer for unknown organization, unknown user, inactive user and wrong password alike. */
export const invalidCredentials = (): SignInFailure => ({
  reason: 'ERR_LOGIN',
  message: 'Invalid Username or password',
  status: 401,
});
export const tooManyAttempts = (retryAfterSeconds: number): SignInFailure => ({
  reason: 'ERR_TOO_MANY_ATTEMPTS',
  message: 'Too many failed attempts. Try again later.',
  status: 429,
  retryAfterSeconds,
});
export const magicTimeout = (): SignInFailure => ({
  reason: MagicAnswer.timeout,
  message: 'Magic links work only for 5 minutes.',
  status: 400,
});
export const mustChangePassword = (reason: PasswordChangeReason): SignInFailure => ({
  reason: MagicAnswer.mustChangePassword,
  message: reason,
  status: 403,
});

/**
 * Password policy: at least 8 characters and at most 256 (the hasher's input is bounded), not
 * only spaces. The spec leaves the policy open; this follows the NIST/OWASP guidance of length
 * over composition rules.
 */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
export const passwordProblem = (password: string): string | null => {
  if (password.trim().length === 0) return 'A new password is required.';
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
};

/**
 * Organization names: a DNS label (the login page reads it from the first sub-domain): letters,
 * digits and dashes, 1 to 63 characters, no dash at either end; lower-cased so that `Acme` and
 * `acme` are one organization and one file on every file system; no Windows device names. The
 * same rule as the data folder's (adapters-sql parseOrgName), so no name can reach a path.
 */
const ORG_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
export const normalizeOrganizationName = (raw: string): string | null => {
  const name = raw.trim().toLowerCase();
  return ORG_NAME.test(name) && !DEVICE_NAMES.test(name) ? name : null;
};

/** E-mail addresses compare case-insensitively and without surrounding spaces. */
export const normalizeEmail = (raw: string): string => raw.trim().toLowerCase();
export const looksLikeEmail = (raw: string): boolean => /^[^\s@]+@[^\s@]+$/.test(raw.trim()) && raw.length <= 254;
