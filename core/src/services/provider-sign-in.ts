import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { InputError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { ProviderIdentity } from '../ports/identity-provider.js';
import type { OrganizationDirectory } from '../ports/organization-directory.js';
import type { SessionStore } from '../ports/session-store.js';
import { looksLikeEmail, normalizeEmail, normalizeOrganizationName, type SignInFailure } from '../auth/sign-in-rules.js';
import type { Client, SignedIn } from './sign-in.js';

/** Creates an organization with its first (admin) user, as /api/signup does. */
export type ProviderOrganizationFactory = {
  create(input: { orgName: string; admin: { name: string; email: string; password: string } }): Promise<Either<InputError, { orgName: string }>>;
};

export type ProviderSignInDeps = {
  directory: OrganizationDirectory;
  sessions: SessionStore;
  organizations: ProviderOrganizationFactory;
  clock: Clock;
  /** A long random secret: the password of a user who signed up with a provider (nobody knows it; "Forgot Password?" sets one). */
  randomSecret: () => string;
  config: { sessionIdleMs: number };
};

/** The reason of every provider sign-in refusal, as the login page shows it (spec 000 section 8). */
export const PROVIDER_LOGIN_FAILED = 'ERR_LOGIN';

const refused = (message: string, status = 401): SignInFailure => ({ reason: PROVIDER_LOGIN_FAILED, message, status });

/**
 * The e-mail address an identity vouches for, or why it cannot be used. Only an address the
 * provider says it verified counts: an unverified one could be anybody's, and signing in by it
 * would hand that person's account to whoever typed it at the provider.
 */
export const verifiedEmail = (identity: ProviderIdentity): Either<SignInFailure, string> => {
  if (!identity.email || !looksLikeEmail(identity.email)) return left(refused(`Invalid Username or password: ${identity.provider} gave no e-mail address`));
  if (!identity.emailVerified) return left(refused(`Invalid Username or password: ${identity.provider} has not verified the e-mail address ${identity.email}`));
  return right(normalizeEmail(identity.email));
};

/** The display name of a new user: the provider's name claim, else the address's local part. */
export const displayName = (identity: ProviderIdentity, email: string): string => {
  const name = (identity.name ?? '').trim();
  return (name.length > 0 ? name : email.split('@')[0]).slice(0, 200);
};

/**
 * Provider sign-in and sign-up (spec 000 section 7, `/auth/{provider}/...`): the provider has
 * proved who the person is, so no password is checked; the session opens as /api/login opens it.
 */
export class ProviderSignInService {
  constructor(private readonly deps: ProviderSignInDeps) {}

  private async open(org: string, user: { id: string; name: string }, client: Client): Promise<SignedIn> {
    const now = this.deps.clock.now();
    const token = await this.deps.sessions.create({ orgName: org, userId: user.id, userName: user.name, ...client }, now);
    const session = await this.deps.sessions.resolve(token, now, this.deps.config.sessionIdleMs);
    if (!session) throw new Error('a session just created could not be resolved');
    return { token, session };
  }

  /**
   * Signs in the active user of the organization with the identity's verified e-mail. An unknown
   * organization and an unknown or inactive user answer alike, so the answer tells no outsider
   * which organizations exist.
   */
  async signIn(organization: string, identity: ProviderIdentity, client: Client): Promise<Either<SignInFailure, SignedIn>> {
    const email = verifiedEmail(identity);
    if (isLeft(email)) return email;
    const org = normalizeOrganizationName(organization);
    const ready = org !== null && (await this.deps.directory.status(org)) === 'ready';
    const user = ready ? await this.deps.directory.findUserByEmail(org, email.right) : null;
    if (!org || !user || !user.active) return left(refused(`Invalid Username or password: no active user of this organization has the e-mail address ${email.right}`));
    return right(await this.open(org, user, client));
  }

  /**
   * Creates the organization with the person as its administrator, then signs them in. The
   * caller has already checked and used up the sign-up puzzle.
   */
  async signUp(organization: string, identity: ProviderIdentity, client: Client): Promise<Either<SignInFailure, SignedIn>> {
    const email = verifiedEmail(identity);
    if (isLeft(email)) return email;
    const created = await this.deps.organizations.create({
      orgName: organization,
      admin: { name: displayName(identity, email.right), email: email.right, password: this.deps.randomSecret() },
    });
    if (isLeft(created)) return left(refused(created.left.message, 400));
    const user = await this.deps.directory.findUserByEmail(created.right.orgName, email.right);
    if (!user) throw new Error('the first user of a new organization was not found');
    return right(await this.open(created.right.orgName, user, client));
  }
}
