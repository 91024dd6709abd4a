import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { Mailer } from '../ports/mailer.js';
import type { DirectoryUser, OrganizationDirectory } from '../ports/organization-directory.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import { LINK_TOKEN_PREFIX, type LinkPurpose, type SessionInfo, type SessionStore } from '../ports/session-store.js';
import type { AttemptLedger } from '../ports/attempt-ledger.js';
import { AttemptKeys, DEFAULT_SIGN_IN_LIMITS, retryAfterSeconds, type SignInLimits } from '../auth/attempt-limits.js';
import { AttemptLimiter, InMemoryAttemptLedger, type AttemptVerdict } from './attempt-limiter.js';
import {
  MAGIC_LINK_VALIDITY_MS,
  MagicAnswer,
  invalidCredentials,
  magicTimeout,
  mustChangePassword,
  normalizeEmail,
  normalizeOrganizationName,
  passwordProblem,
  tooManyAttempts,
  type PasswordChangeReason,
  type SignInFailure,
} from '../auth/sign-in-rules.js';

export type SignInConfig = {
  /** Sessions idle longer than this end (default 12 hours). */
  sessionIdleMs: number;
  /** The public address of the web client, for the links in e-mails (e.g. http://localhost:8080). */
  publicUrl: string;
  /** Failed sign-ins and mailed links (default DEFAULT_SIGN_IN_LIMITS; docs/operations.md "Limits"). */
  limits?: SignInLimits;
};

export type SignInDeps = {
  directory: OrganizationDirectory;
  hasher: PasswordHasher;
  sessions: SessionStore;
  mailer: Mailer;
  clock: Clock;
  config: SignInConfig;
  /**
   * Where the limits count (the catalog database: a restart keeps the counts and every server
   * process shares them). Without it they count in this process's memory only.
   */
  attempts?: AttemptLedger;
};

/** Who is asking, for the session record and the per-address limit. */
export type Client = { ip: string; agent: string };

export type Credentials = { organization: string; username: string; password: string };

export type SignedIn = { token: string; session: SessionInfo };

/** A password change refused: the text answer of /api/changepassword. */
export type PasswordChangeRefusal = { status: number; text: string };

/**
 * The sign-in flows of spec 000 sections 4 and 7: password sign-in, magic links and invitations,
 * forced and voluntary password changes, sessions. Failures that could tell an attacker whether
 * an organization or user exists all answer alike, after the same amount of hashing work.
 */
export class SignInService {
  private readonly attempts: AttemptLimiter;
  private readonly limits: SignInLimits;
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly deps: SignInDeps) {
    this.attempts = new AttemptLimiter(deps.attempts ?? new InMemoryAttemptLedger(), deps.clock);
    this.limits = deps.config.limits ?? DEFAULT_SIGN_IN_LIMITS;
  }

  /** A hash to verify against when there is no user, so that unknown users cost the same time. */
  private decoy(): Promise<string> {
    this.dummyHash ??= this.deps.hasher.hash('decoy password that matches nothing');
    return this.dummyHash;
  }

  /**
   * Counts a password attempt against the account and the address BEFORE the hash is checked:
   * parallel attempts each take their place in the count, so none passes a check made before the
   * others were counted (issue 22 item 3). null: go ahead; the attempt stays counted as a failure
   * unless `succeeded` gives it back.
   */
  private async reserve(org: string, email: string, client: Client): Promise<SignInFailure | null> {
    const v = await this.attempts.reserveAll([
      [AttemptKeys.account(org, email), this.limits.account],
      [AttemptKeys.address(client.ip), this.limits.address],
    ]);
    return refusal(v);
  }

  /** The attempt reserved was right: the account starts over and the address gets its attempt back. */
  private async succeeded(org: string, email: string, client: Client): Promise<void> {
    await this.attempts.clear(AttemptKeys.account(org, email));
    await this.attempts.release(AttemptKeys.address(client.ip));
  }

  /** Finds the user and checks the password, doing one hash verification whatever happens. */
  private async check(creds: Credentials): Promise<DirectoryUser | null> {
    const org = normalizeOrganizationName(creds.organization);
    const status = org ? await this.deps.directory.status(org) : null;
    const user = org && status === 'ready' ? await this.deps.directory.findUserByEmail(org, normalizeEmail(creds.username)) : null;
    const stored = user?.passwordHash ?? (await this.decoy());
    const ok = await this.deps.hasher.verify(creds.password, stored);
    return ok && user && user.active && user.passwordHash ? user : null;
  }

  private async open(org: string, user: DirectoryUser, client: Client): Promise<SignedIn> {
    const now = this.deps.clock.now();
    const token = await this.deps.sessions.create({ orgName: org, userId: user.id, userName: user.name, ...client }, now);
    const session = await this.deps.sessions.resolve(token, now, this.deps.config.sessionIdleMs);
    if (!session) throw new Error('a session just created could not be resolved');
    return { token, session };
  }

  /** POST /api/login. The password may also be the token of a sign-in link (the /magic page). */
  async login(creds: Credentials, client: Client): Promise<Either<SignInFailure, SignedIn>> {
    const org = normalizeOrganizationName(creds.organization) ?? '';
    const email = normalizeEmail(creds.username);
    // A link's 256-bit token cannot be guessed, so links skip the account's delay: whoever delays
    // a known user by failing on purpose cannot keep that user from signing in by a mailed link.
    if (creds.password.startsWith(LINK_TOKEN_PREFIX) && org) {
      const viaLink = await this.loginByLink(org, email, creds.password, client);
      if (viaLink) return viaLink;
    }
    const refused = await this.reserve(org, email, client);
    if (refused) return left(refused);
    const user = await this.check(creds);
    if (!user) return left(invalidCredentials());
    await this.succeeded(org, email, client);
    if (user.mustChangePassword) return left(mustChangePassword('ADMIN_CHANGE'));
    return right(await this.open(org, user, client));
  }

  /** null when the token is no link at all (then it is tried as a password). */
  private async loginByLink(org: string, email: string, token: string, client: Client): Promise<Either<SignInFailure, SignedIn> | null> {
    const now = this.deps.clock.now();
    const peek = await this.deps.sessions.redeemLink(org, token, now, true);
    if (peek._tag === 'Unknown') return null;
    if (peek._tag === 'Expired') return left(magicTimeout());
    const user = await this.deps.directory.findUserById(org, peek.link.userId);
    if (!user || !user.active || normalizeEmail(user.email) !== email || peek.link.purpose === 'STREAM') return this.linkMismatch(org, email, client);
    // Invitations and forgotten passwords lead to the password form; the link stays valid for it.
    if (peek.link.purpose === 'INVITE' || peek.link.purpose === 'USER_FORGOT') return left(mustChangePassword(peek.link.purpose));
    const used = await this.deps.sessions.redeemLink(org, token, now);
    if (used._tag !== 'Redeemed') return left(magicTimeout());
    // The mailbox proved who signs in: the account's delay, if someone caused one, is over.
    await this.attempts.clear(AttemptKeys.account(org, email));
    return right(await this.open(org, user, client));
  }

  /** A link used with another user's e-mail counts as a failed sign-in of that account. */
  private async linkMismatch(org: string, email: string, client: Client): Promise<Either<SignInFailure, SignedIn>> {
    const refused = await this.reserve(org, email, client);
    return left(refused ?? invalidCredentials());
  }

  /** The session of a token, or null (then the answer is 401 NOT AUTHORIZED). */
  authenticate(token: string): Promise<SessionInfo | null> {
    if (!token) return Promise.resolve(null);
    return this.deps.sessions.resolve(token, this.deps.clock.now(), this.deps.config.sessionIdleMs);
  }

  logout(token: string): Promise<void> {
    return this.deps.sessions.end(token);
  }

  /**
   * POST /api/getmagic: mails a sign-in link (or an invitation, or a password reset link). The
   * answer is OK_CHECK_EMAIL whether or not the user exists, so it tells nothing about accounts.
   */
  async sendLink(
    input: { organization: string; username: string; ret?: string; reason?: string },
    client: Client,
    invitedBy?: string,
  ): Promise<Either<SignInFailure, string>> {
    const org = normalizeOrganizationName(input.organization) ?? '';
    const email = normalizeEmail(input.username);
    // Every request counts, for a known user or not, so the answer tells nothing about accounts
    // and no mailbox is flooded (issue 22 item 8: per recipient and per address).
    const refused = refusal(
      await this.attempts.reserveAll([
        [AttemptKeys.linkRecipient(org, email), this.limits.linkRecipient],
        [AttemptKeys.linkAddress(client.ip), this.limits.linkAddress],
      ]),
    );
    if (refused) return left(refused);
    const user = org && (await this.deps.directory.status(org)) === 'ready' ? await this.deps.directory.findUserByEmail(org, email) : null;
    if (!user || !user.active) return right(MagicAnswer.checkEmail);
    const purpose: LinkPurpose =
      input.reason === 'INVITE' && invitedBy ? 'INVITE' : input.reason === 'USER_FORGOT' ? 'USER_FORGOT' : 'SIGN_IN';
    await this.mailLink(org, user, purpose, input.ret, invitedBy);
    return right(MagicAnswer.checkEmail);
  }

  /** Creates and mails a link (also used by `tessera user invite`); returns the link's URL. */
  async mailLink(org: string, user: DirectoryUser, purpose: LinkPurpose, ret?: string, invitedBy?: string): Promise<string> {
    const now = this.deps.clock.now();
    const token = await this.deps.sessions.createLink({ orgName: org, userId: user.id, purpose }, new Date(now.getTime() + MAGIC_LINK_VALIDITY_MS));
    const url = magicLinkUrl(this.deps.config.publicUrl, { o: org, u: user.email, q: token, reason: purpose === 'SIGN_IN' ? undefined : purpose, ret });
    const subject =
      purpose === 'INVITE' ? `Invitation to ${org}` : purpose === 'USER_FORGOT' ? `Reset your ${org} password` : `Sign in to ${org}`;
    const text = [
      purpose === 'INVITE' ? `${invitedBy ?? 'An administrator'} invites you to the organization ${org}.` : `Hello ${user.name},`,
      purpose === 'INVITE' ? 'Open this link to choose your password:' : 'open this link to continue:',
      url,
      'Magic links work only for 5 minutes.',
    ].join('\n\n');
    await this.deps.mailer.send({ to: user.email, subject, text, link: url });
    return url;
  }

  /**
   * POST /api/mustchangepassword: the password (or the link token of an invitation or reset)
   * proves who asks; the new password replaces it and a session opens. Only for a change that
   * is pending (issue 22 item 9): an invitation or reset link, or a user whose password must
   * change (ADMIN_CHANGE). Otherwise it answers as a wrong password would (401 ERR_LOGIN), and
   * counts as one: changing one's own password is /api/changepassword, with a session.
   */
  async changeForced(creds: Credentials & { newPassword: string }, client: Client): Promise<Either<SignInFailure, SignedIn>> {
    const org = normalizeOrganizationName(creds.organization) ?? '';
    const email = normalizeEmail(creds.username);
    const problem = passwordProblem(creds.newPassword);
    let user: DirectoryUser | null = null;
    if (creds.password.startsWith(LINK_TOKEN_PREFIX) && org) {
      const now = this.deps.clock.now();
      const peek = await this.deps.sessions.redeemLink(org, creds.password, now, true);
      if (peek._tag === 'Expired') return left(magicTimeout());
      if (peek._tag === 'Redeemed' && peek.link.purpose !== 'STREAM') {
        const found = await this.deps.directory.findUserById(org, peek.link.userId);
        if (found && found.active && normalizeEmail(found.email) === email) {
          if (problem) return left({ reason: 'ERR_PASSWORD', message: problem, status: 400 });
          const used = await this.deps.sessions.redeemLink(org, creds.password, now);
          if (used._tag !== 'Redeemed') return left(magicTimeout());
          user = found;
        }
      }
    }
    if (!user) {
      const refused = await this.reserve(org, email, client);
      if (refused) return left(refused);
      user = await this.check(creds);
      if (!user || !user.mustChangePassword) return left(invalidCredentials());
      await this.succeeded(org, email, client);
      if (problem) return left({ reason: 'ERR_PASSWORD', message: problem, status: 400 });
    }
    await this.deps.directory.setPassword(org, user.id, await this.deps.hasher.hash(creds.newPassword), false);
    await this.deps.sessions.endForUser(org, user.id);
    await this.attempts.clear(AttemptKeys.account(org, email));
    return right(await this.open(org, user, client));
  }

  /**
   * POST /api/changepassword. Users change their own password with the old one; an
   * administrator (`mayManageUsers`) sets another user's password, who must then choose a new one
   * at the next sign-in (reason ADMIN_CHANGE). Either way the user's other sessions end.
   */
  async changePassword(
    session: SessionInfo,
    input: { oldPassword?: string; newPassword: string; userId?: string },
    mayManageUsers: boolean,
  ): Promise<Either<PasswordChangeRefusal, 'OK'>> {
    const targetId = input.userId && input.userId.length > 0 ? input.userId : session.userId;
    const own = targetId === session.userId;
    if (!own && !mayManageUsers) return left({ status: 403, text: 'ERR_PERMISSION: Only administrators change the passwords of others' });
    const problem = passwordProblem(input.newPassword);
    if (problem) return left({ status: 400, text: `ERR_INPUT: ${problem}` });
    const user = await this.deps.directory.findUserById(session.orgName, targetId);
    if (!user) return left({ status: 404, text: 'ERR_NOT_FOUND: systemuser' });
    if (own) {
      const ok = await this.deps.hasher.verify(input.oldPassword ?? '', user.passwordHash ?? (await this.decoy()));
      if (!ok || !user.passwordHash) return left({ status: 400, text: 'ERR_INPUT: The old password is not right' });
    }
    await this.deps.directory.setPassword(session.orgName, user.id, await this.deps.hasher.hash(input.newPassword), !own);
    await this.deps.sessions.endForUser(session.orgName, user.id, own ? session.name : undefined);
    return right('OK');
  }
}

/** A refused reservation as the login page shows it: 429 ERR_TOO_MANY_ATTEMPTS with Retry-After. */
const refusal = (v: AttemptVerdict): SignInFailure | null => (v.allowed ? null : tooManyAttempts(retryAfterSeconds(v.retryAfterMs)));

/** The link of an e-mail: the /magic route with o, u, q, reason and ret (spec 000 section 2). */
export const magicLinkUrl = (
  base: string,
  p: { o: string; u: string; q: string; reason?: PasswordChangeReason | string; ret?: string },
): string => {
  const pairs: Array<[string, string | undefined]> = [
    ['o', p.o],
    ['u', p.u],
    ['q', p.q],
    ['reason', p.reason],
    ['ret', p.ret],
  ];
  const query = pairs
    .filter((kv): kv is [string, string] => kv[1] !== undefined && kv[1] !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  return `${base.replace(/\/$/, '')}/magic?${query}`;
};
