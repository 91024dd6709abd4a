/**
 * Sessions and one-time links live in the catalog, beside the organizations. Tokens are opaque
 * random strings made by the adapter; only their hashes are stored, so a copy of the catalog
 * opens no session.
 */

/** One signed-in session as the debug list shows it (spec 000 section 3, "Session record"). */
export type SessionInfo = {
  /** A public handle of the session (not its token): what cache_debug_delete takes. */
  name: string;
  orgName: string;
  userId: string;
  userName: string;
  created: Date;
  /** The last time the session wrote data. */
  modified: Date;
  /** The last time the session was used. */
  read: Date;
  ip: string;
  agent: string;
};

export type NewSession = { orgName: string; userId: string; userName: string; ip: string; agent: string };

/** What a one-time link does once redeemed. */
export type LinkPurpose = 'SIGN_IN' | 'INVITE' | 'USER_FORGOT' | 'STREAM';

export type OneTimeLink = { orgName: string; userId: string; purpose: LinkPurpose };

/** The outcome of redeeming a link: exactly one of two parallel redemptions gets `redeemed`. */
export type LinkRedemption =
  | { _tag: 'Redeemed'; link: OneTimeLink }
  | { _tag: 'Expired' }
  | { _tag: 'Unknown' };

/** Link tokens start with this, so a link's `q` can go where a password goes (the /magic page). */
export const LINK_TOKEN_PREFIX = 'ml_';

export interface SessionStore {
  /** Opens a session and returns its new token (at least 128 random bits). */
  create(session: NewSession, now: Date): Promise<string>;
  /**
   * The live session of a token, or null when the token is unknown or the session has been idle
   * longer than `maxIdleMs` (an idle session is ended). Records the use (`read`).
   */
  resolve(token: string, now: Date, maxIdleMs: number): Promise<SessionInfo | null>;
  /** Marks that the session wrote data. */
  touchModified(name: string, now: Date): Promise<void>;
  /** Ends the session of a token (logout). */
  end(token: string): Promise<void>;
  /** Ends one session of an organization by its public name; false when there is none. */
  endByName(orgName: string, name: string): Promise<boolean>;
  /** Ends every session of a user (deactivation, password change), except the named one when given. */
  endForUser(orgName: string, userId: string, exceptName?: string): Promise<number>;
  list(orgName: string): Promise<SessionInfo[]>;

  /** Stores a one-time link valid until `expires` and returns its token, which starts with LINK_TOKEN_PREFIX. */
  createLink(link: OneTimeLink, expires: Date): Promise<string>;
  /**
   * Redeems a link atomically: it can succeed once. `peek` checks without using it up.
   * `orgName` null accepts a link of any organization (a stream token is presented alone).
   */
  redeemLink(orgName: string | null, token: string, now: Date, peek?: boolean): Promise<LinkRedemption>;

  /** Records a sign-up puzzle as used until it expires; false when it already was. */
  usePuzzle(puzzleId: string, expires: Date): Promise<boolean>;
}
