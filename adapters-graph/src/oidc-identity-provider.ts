import * as client from 'openid-client';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  PROVIDER_NAMES,
  type AuthorizationStart,
  type ExpectedAuthorization,
  type IdentityProvider,
  type ProviderFailure,
  type ProviderIdentity,
  type ProviderName,
  type ProviderSetting,
} from '@tessera/core/internal';

/** One provider's client registration (docs/api.md "Provider sign-in"). */
export type OidcClientConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Apple answers with a form POST to the callback when name or e-mail is asked for. */
  responseMode?: 'form_post';
  /** Take the e-mail as verified although the token does not say so (only for providers known to send confirmed addresses). */
  trustEmail?: boolean;
};

/** Issuers that need no configuration beyond the client; Microsoft's depends on the tenant. */
const DEFAULT_ISSUER: Partial<Record<ProviderName, string>> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  apple: 'https://appleid.apple.com',
};

const DEFAULT_SCOPE: Record<ProviderName, string> = {
  google: 'openid email profile',
  facebook: 'openid email',
  apple: 'openid email name',
  azure: 'openid email profile',
};

/**
 * Reads `TESSERA_AUTH_{PROVIDER}_CLIENT_ID`, `_CLIENT_SECRET`, `_ISSUER` (default per provider;
 * for azure `TESSERA_AUTH_AZURE_TENANT` gives https://login.microsoftonline.com/{tenant}/v2.0),
 * `_SCOPE` and `_TRUST_EMAIL`. A provider without client id and secret is not configured.
 */
export const oidcClientsFromEnv = (env: Record<string, string | undefined>): Partial<Record<ProviderName, OidcClientConfig>> => {
  const out: Partial<Record<ProviderName, OidcClientConfig>> = {};
  for (const p of PROVIDER_NAMES) {
    const v = (k: string): string | undefined => env[`TESSERA_AUTH_${p.toUpperCase()}_${k}`]?.trim() || undefined;
    const tenant = p === 'azure' ? v('TENANT') : undefined;
    const issuer = v('ISSUER') ?? (tenant ? `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/v2.0` : DEFAULT_ISSUER[p]);
    const clientId = v('CLIENT_ID');
    const clientSecret = v('CLIENT_SECRET');
    if (!issuer || !clientId || !clientSecret) continue;
    out[p] = {
      issuer,
      clientId,
      clientSecret,
      scope: v('SCOPE') ?? DEFAULT_SCOPE[p],
      ...(p === 'apple' ? { responseMode: 'form_post' as const } : {}),
      trustEmail: v('TRUST_EMAIL') === 'true',
    };
  }
  return out;
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The provider's error without its internals: OAuth error codes and descriptions are meant for people. */
const describe = (e: unknown): string => {
  const o = (e ?? {}) as { error?: unknown; error_description?: unknown; message?: unknown; cause?: unknown };
  if (typeof o.error === 'string') return typeof o.error_description === 'string' ? `${o.error}: ${o.error_description}` : o.error;
  const cause = (o.cause ?? {}) as { error?: unknown; error_description?: unknown };
  if (typeof cause.error === 'string') return typeof cause.error_description === 'string' ? `${cause.error}: ${cause.error_description}` : cause.error;
  return typeof o.message === 'string' ? o.message : 'unknown error';
};

const truthy = (v: unknown): boolean => v === true || v === 'true';

/**
 * Apple puts the person's name not in the ID token but in a `user` form field of the first
 * callback (`{"name":{"firstName","lastName"}}`). It is not signed, so it serves as a display
 * name only, never to identify anyone.
 */
const appleUserName = (user: string | undefined): string | null => {
  try {
    const name = (JSON.parse(user ?? '') as { name?: { firstName?: unknown; lastName?: unknown } }).name;
    const text = [name?.firstName, name?.lastName].filter((x): x is string => typeof x === 'string').join(' ').trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
};

/**
 * OpenID Connect relying party on `openid-client` (a certified implementation): discovery, the
 * authorization-code flow with PKCE (S256), state and nonce, the `iss` response parameter, and ID
 * tokens checked for issuer, audience, expiry, nonce and, beyond what the code flow requires,
 * their signature against the provider's published keys.
 */
export class OidcIdentityProvider implements IdentityProvider {
  private readonly discovered = new Map<ProviderName, Promise<client.Configuration>>();

  constructor(
    private readonly clients: Partial<Record<ProviderName, OidcClientConfig>>,
    private readonly options: { timeoutSeconds?: number } = {},
  ) {}

  configured(): readonly ProviderName[] {
    return PROVIDER_NAMES.filter((p) => this.clients[p] !== undefined);
  }

  /** How each provider is set up (issue 18: the administrators' settings page); the secret only as set or not. */
  settings(): readonly ProviderSetting[] {
    return PROVIDER_NAMES.map((p) => {
      const c = this.clients[p];
      const name = p.toUpperCase();
      return {
        provider: p,
        configured: c !== undefined,
        protocol: 'openid-connect',
        clientId: c?.clientId ?? null,
        clientSecretSet: c !== undefined,
        issuer: c?.issuer ?? DEFAULT_ISSUER[p] ?? null,
        authorizationUrl: null,
        tokenUrl: null,
        profileUrl: null,
        scope: c?.scope ?? DEFAULT_SCOPE[p],
        trustEmail: c?.trustEmail === true,
        variables: [
          `TESSERA_AUTH_${name}_CLIENT_ID`,
          `TESSERA_AUTH_${name}_CLIENT_SECRET`,
          `TESSERA_AUTH_${name}_ISSUER`,
          ...(p === 'azure' ? ['TESSERA_AUTH_AZURE_TENANT'] : []),
          `TESSERA_AUTH_${name}_SCOPE`,
          `TESSERA_AUTH_${name}_TRUST_EMAIL`,
        ],
      };
    });
  }

  private notConfigured(p: ProviderName): ProviderFailure {
    return { kind: 'NOT_CONFIGURED', message: `sign-in with ${p} is not configured on this server` };
  }

  /** Discovery once per provider; a failed discovery is tried again at the next sign-in. */
  private configuration(p: ProviderName, c: OidcClientConfig): Promise<client.Configuration> {
    let found = this.discovered.get(p);
    if (!found) {
      const issuer = new URL(c.issuer);
      const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
      found = client.discovery(issuer, c.clientId, c.clientSecret, client.ClientSecretPost(c.clientSecret), {
        timeout: this.options.timeoutSeconds ?? 10,
        // Plain HTTP only for a provider on this machine (development and tests).
        ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
      }).then((config) => {
        client.enableNonRepudiationChecks(config);
        return config;
      });
      found.catch(() => this.discovered.delete(p));
      this.discovered.set(p, found);
    }
    return found;
  }

  async start(provider: ProviderName, redirectUri: string): Promise<Either<ProviderFailure, AuthorizationStart>> {
    const c = this.clients[provider];
    if (!c) return left(this.notConfigured(provider));
    try {
      const config = await this.configuration(provider, c);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: c.scope,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(c.responseMode ? { response_mode: c.responseMode } : {}),
      });
      return right({ url: url.href, state, nonce, codeVerifier });
    } catch (e) {
      return left({ kind: 'REFUSED', message: `${provider} cannot be reached: ${describe(e)}` });
    }
  }

  async finish(provider: ProviderName, params: Record<string, string>, expected: ExpectedAuthorization): Promise<Either<ProviderFailure, ProviderIdentity>> {
    const c = this.clients[provider];
    if (!c) return left(this.notConfigured(provider));
    if (params.error) return left({ kind: 'REFUSED', message: describe(params) });
    try {
      const config = await this.configuration(provider, c);
      // The address the provider redirected to, rebuilt from the one the flow started with.
      const current = new URL(expected.redirectUri);
      for (const [k, v] of Object.entries(params)) current.searchParams.set(k, v);
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return left({ kind: 'REFUSED', message: `${provider} sent no ID token` });
      const given = [claims.given_name, claims.family_name].filter((x): x is string => typeof x === 'string').join(' ');
      return right({
        provider,
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        // Microsoft marks addresses of verified domains with xms_edov instead of email_verified.
        emailVerified: c.trustEmail === true || truthy(claims.email_verified) || truthy(claims.xms_edov),
        name: typeof claims.name === 'string' ? claims.name : given || appleUserName(params.user),
        // Kept by the server for on-behalf-of calls (Microsoft Graph); never sent to the browser.
        ...(tokens.access_token ? { accessToken: { token: tokens.access_token, expiresIn: tokens.expiresIn() ?? 3600 } } : {}),
      });
    } catch (e) {
      return left({ kind: 'REFUSED', message: describe(e) });
    }
  }
}
