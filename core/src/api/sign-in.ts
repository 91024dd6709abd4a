import * as t from 'io-ts';
import { formText } from './text-fields.js';

/**
 * The sign-in forms (application/x-www-form-urlencoded, docs/api.md "Sign-in, sessions and
 * tenancy"). Each field is text of a bounded length; a missing or over-long one reads as ''.
 */
const organization = formText(100);
const username = formText(254);
const password = formText(300);

export const LoginForm = t.exact(t.type({ organization, username, password }), 'login form');
export type LoginForm = t.TypeOf<typeof LoginForm>;

export const MagicLinkForm = t.exact(t.type({ organization, username, ret: formText(2000), reason: formText(50) }), 'getmagic form');
export type MagicLinkForm = t.TypeOf<typeof MagicLinkForm>;

export const ForcedPasswordChangeForm = t.exact(t.type({ organization, username, password, newPassword: password }), 'mustchangepassword form');
export type ForcedPasswordChangeForm = t.TypeOf<typeof ForcedPasswordChangeForm>;

export const PasswordChangeForm = t.exact(t.type({ oldPassword: password, newPassword: password, userId: formText(100) }), 'changepassword form');
export type PasswordChangeForm = t.TypeOf<typeof PasswordChangeForm>;

export const SignUpForm = t.exact(
  t.type({ organization, person: formText(200), username, password, cookie: formText(4096), iv: formText(100), solved: formText(100) }),
  'signup form',
);
export type SignUpForm = t.TypeOf<typeof SignUpForm>;

/** The trial needs the same proof of work as sign-up (issue 22 item 4). */
export const TrialForm = t.exact(
  t.type({ organization, person: formText(200), username, password, cookie: formText(4096), iv: formText(100), solved: formText(100) }),
  'trial form',
);
export type TrialForm = t.TypeOf<typeof TrialForm>;

/** Spec 000 section 8: a refused sign-in, `{ reason, message }`. */
export const SignInFailureAnswer = t.type({ reason: t.string, message: t.string }, 'sign-in failure');
export type SignInFailureAnswer = t.TypeOf<typeof SignInFailureAnswer>;

/** A successful sign-in (the token travels in the x-accessptoken header). */
export const SignedInAnswer = t.type(
  { reason: t.literal('OK'), message: t.literal('OK'), orgName: t.string, userId: t.string, name: t.string },
  'signed-in answer',
);
export type SignedInAnswer = t.TypeOf<typeof SignedInAnswer>;

export const SignInAnswer = t.union([SignedInAnswer, SignInFailureAnswer], 'sign-in answer');

/**
 * GET /api/formpuzzle: the proof of work of sign-up, sealed in cookie/iv; `difficulty` is the bits
 * of the hash to match (16, the spec's 4 characters, when absent; issue 22 item 4).
 */
export const PuzzleAnswer = t.intersection(
  [t.type({ salt: t.string, hash: t.string, cookie: t.string, iv: t.string }), t.partial({ difficulty: t.number })],
  'puzzle',
);
export type PuzzleAnswer = t.TypeOf<typeof PuzzleAnswer>;
