/**
 * Sign-in with an outside identity provider (spec 000 sections 2 and 7: Google, Facebook, Apple,
 * Microsoft). The adapter speaks OpenID Connect: the authorization-code flow with PKCE, state and
 * nonce. The core sees only what the provider vouches for.
 */
import type { Either } from 'fp-ts/lib/Either.js';

/** The providers of spec 000 section 7, in the path `/auth/{provider}/...`. */
export const PROVIDER_NAMES = ['google', 'facebook', 'apple', 'azure'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const isProviderName = (s: string): s is ProviderName => (PROVIDER_NAMES as readonly string[]).includes(s);

/** Where to send the browser, and the secrets the callback must match (kept by the browser, sealed). */
export type AuthorizationStart = { url: string; state: string; nonce: string; codeVerifier: string };

/** What the callback must find again: the values of the start and the callback address used. */
export type ExpectedAuthorization = { state: string; nonce: string; codeVerifier: string; redirectUri: string };

/** The claims of a verified ID token that sign-in uses. */
export type ProviderIdentity = {
  provider: ProviderName;
  issuer: string;
  subject: string;
  email: string | null;
  /** The provider says it checked that the person owns the address. */
  emailVerified: boolean;
  name: string | null;
  /**
   * The access token the provider issued to Tessera with the sign-in, and its lifetime in seconds:
   * kept by the server only (ProviderTokens); Microsoft's is the on-behalf-of assertion.
   */
  accessToken?: { token: string; expiresIn: number };
};

/**
 * How a provider is set up on this server, for the administrators' settings page (issue 18):
 * what it speaks, its client id and addresses; of the secret only whether it is set.
 */
export type ProviderSetting = {
  provider: ProviderName;
  configured: boolean;
  /** OpenID Connect (Google, Apple, Microsoft) or Facebook's OAuth 2 flow with its Graph API profile. */
  protocol: 'openid-connect' | 'oauth2-facebook';
  clientId: string | null;
  clientSecretSet: boolean;
  issuer: string | null;
  authorizationUrl: string | null;
  tokenUrl: string | null;
  profileUrl: string | null;
  scope: string;
  trustEmail: boolean;
  /** The environment variables that set it (docs/operations.md). */
  variables: readonly string[];
};

/** NOT_CONFIGURED: the server has no client for that provider; REFUSED: the flow or its token did not check out. */
export type ProviderFailure = { kind: 'NOT_CONFIGURED' | 'REFUSED'; message: string };

export interface IdentityProvider {
  /** The providers this server has a client for. */
  configured(): readonly ProviderName[];
  /** How each provider this adapter serves is set up; secrets never leave it (issue 18). */
  settings(): readonly ProviderSetting[];
  /** Starts a flow: the provider's authorization address with a fresh state, nonce and PKCE challenge. */
  start(provider: ProviderName, redirectUri: string): Promise<Either<ProviderFailure, AuthorizationStart>>;
  /**
   * Finishes a flow: checks the callback's parameters (`code`, `state`, `iss`, or `error`),
   * redeems the code with the PKCE verifier and verifies the ID token (issuer, audience, expiry,
   * nonce). `params` are the callback's query or form fields.
   */
  finish(provider: ProviderName, params: Record<string, string>, expected: ExpectedAuthorization): Promise<Either<ProviderFailure, ProviderIdentity>>;
}
