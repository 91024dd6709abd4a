import { createHash, createHmac, randomBytes } from 'node:crypto';
import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { AuthorizationStart, ExpectedAuthorization, IdentityProvider, ProviderFailure, ProviderIdentity, ProviderName, ProviderSetting } from '@tessera/core/internal';

/**
 * Facebook Login (spec 000 sections 2 and 7, issue 18). Facebook is not a standard OpenID
 * provider for the web: its manual login flow is OAuth 2. The browser goes to the login dialog
 * (`{authorize}?client_id&redirect_uri&state&scope&code_challenge`), comes back with a code, the
 * server redeems it at the Graph API (`{graph}/oauth/access_token`, with the app secret and the
 * PKCE verifier) and reads who it is from `{graph}/me?fields=id,name,email` (with the
 * `appsecret_proof` Facebook asks servers to send). Only a code issued to this app can be redeemed
 * with its secret, so the token is the app's own.
 */
export type FacebookClientConfig = {
  clientId: string;
  clientSecret: string;
  scope: string;
  /** The login dialog, e.g. https://www.facebook.com/v21.0/dialog/oauth */
  authorizeUrl: string;
  /** The Graph API root, e.g. https://graph.facebook.com/v21.0 */
  graphUrl: string;
  /** Facebook answers only a confirmed primary address in `email`; false refuses them all (docs/operations.md). */
  trustEmail: boolean;
};

export const FACEBOOK_API_VERSION = 'v21.0';
export const FACEBOOK_DEFAULTS = {
  authorizeUrl: `https://www.facebook.com/${FACEBOOK_API_VERSION}/dialog/oauth`,
  graphUrl: `https://graph.facebook.com/${FACEBOOK_API_VERSION}`,
  scope: 'email public_profile',
} as const;
/** The issuer recorded on identities (Facebook's own, as its OpenID tokens name it). */
export const FACEBOOK_ISSUER = 'https://www.facebook.com';

export const FACEBOOK_VARIABLES = [
  'TESSERA_AUTH_FACEBOOK_CLIENT_ID',
  'TESSERA_AUTH_FACEBOOK_CLIENT_SECRET',
  'TESSERA_AUTH_FACEBOOK_SCOPE',
  'TESSERA_AUTH_FACEBOOK_AUTHORIZE_URL',
  'TESSERA_AUTH_FACEBOOK_GRAPH_URL',
  'TESSERA_AUTH_FACEBOOK_TRUST_EMAIL',
] as const;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or plain http on this machine only (development and tests). */
export const acceptableUrl = (raw: string): boolean => {
  try {
    const u = new URL(raw);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
  } catch {
    return false;
  }
};

/**
 * Reads `TESSERA_AUTH_FACEBOOK_CLIENT_ID` and `_CLIENT_SECRET` (both needed), `_SCOPE`,
 * `_AUTHORIZE_URL` and `_GRAPH_URL` (defaults: Facebook's, API version v21.0) and `_TRUST_EMAIL`
 * (default true; `false` refuses every address). An address that is neither https nor loopback
 * http leaves Facebook off.
 */
export const facebookClientFromEnv = (env: Record<string, string | undefined>): FacebookClientConfig | undefined => {
  const v = (k: string): string | undefined => env[`TESSERA_AUTH_FACEBOOK_${k}`]?.trim() || undefined;
  const clientId = v('CLIENT_ID');
  const clientSecret = v('CLIENT_SECRET');
  if (!clientId || !clientSecret) return undefined;
  const authorizeUrl = v('AUTHORIZE_URL') ?? FACEBOOK_DEFAULTS.authorizeUrl;
  const graphUrl = (v('GRAPH_URL') ?? FACEBOOK_DEFAULTS.graphUrl).replace(/\/+$/, '');
  if (!acceptableUrl(authorizeUrl) || !acceptableUrl(graphUrl)) return undefined;
  return { clientId, clientSecret, scope: v('SCOPE') ?? FACEBOOK_DEFAULTS.scope, authorizeUrl, graphUrl, trustEmail: v('TRUST_EMAIL') !== 'false' };
};

/** The Graph API's answers, decoded at the edge. */
const TokenAnswer = t.intersection([t.type({ access_token: t.string }), t.partial({ token_type: t.string, expires_in: t.number })]);
const GraphError = t.type({ error: t.intersection([t.type({ message: t.string }), t.partial({ type: t.string, code: t.number })]) });
const MeAnswer = t.intersection([t.type({ id: t.string }), t.partial({ name: t.string, email: t.string })]);

/** Answers larger than this are not a token or a profile. */
const MAX_ANSWER_BYTES = 256 * 1024;

const base64url = (b: Buffer): string => b.toString('base64url');

export class FacebookIdentityProvider implements IdentityProvider {
  constructor(
    private readonly client: FacebookClientConfig | undefined,
    private readonly options: { timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {}

  configured(): readonly ProviderName[] {
    return this.client ? ['facebook'] : [];
  }

  settings(): readonly ProviderSetting[] {
    const c = this.client;
    return [
      {
        provider: 'facebook',
        configured: c !== undefined,
        protocol: 'oauth2-facebook',
        clientId: c?.clientId ?? null,
        clientSecretSet: c !== undefined,
        issuer: null,
        authorizationUrl: c?.authorizeUrl ?? FACEBOOK_DEFAULTS.authorizeUrl,
        tokenUrl: `${c?.graphUrl ?? FACEBOOK_DEFAULTS.graphUrl}/oauth/access_token`,
        profileUrl: `${c?.graphUrl ?? FACEBOOK_DEFAULTS.graphUrl}/me?fields=id,name,email`,
        scope: c?.scope ?? FACEBOOK_DEFAULTS.scope,
        trustEmail: c?.trustEmail ?? true,
        variables: FACEBOOK_VARIABLES,
      },
    ];
  }

  private notConfigured(): ProviderFailure {
    return { kind: 'NOT_CONFIGURED', message: 'sign-in with facebook is not configured on this server' };
  }

  async start(provider: ProviderName, redirectUri: string): Promise<Either<ProviderFailure, AuthorizationStart>> {
    const c = this.client;
    if (provider !== 'facebook' || !c) return left(this.notConfigured());
    const state = base64url(randomBytes(32));
    const nonce = base64url(randomBytes(32));
    const codeVerifier = base64url(randomBytes(32));
    const url = new URL(c.authorizeUrl);
    url.searchParams.set('client_id', c.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', c.scope);
    url.searchParams.set('code_challenge', base64url(createHash('sha256').update(codeVerifier).digest()));
    url.searchParams.set('code_challenge_method', 'S256');
    return right({ url: url.href, state, nonce, codeVerifier });
  }

  /** One GET of the Graph API, decoded; Facebook's error object becomes its message. */
  private async graphGet<A>(url: URL, codec: t.Type<A, unknown, unknown>, headers: Record<string, string> = {}): Promise<Either<string, A>> {
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(url, { headers: { accept: 'application/json', ...headers }, redirect: 'error', signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    } catch (e) {
      return left(`facebook cannot be reached: ${e instanceof Error ? e.message : String(e)}`);
    }
    const text = await res.text();
    if (text.length > MAX_ANSWER_BYTES) return left(`facebook answered ${res.status} with ${text.length} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return left(`facebook answered ${res.status} without JSON`);
    }
    const error = GraphError.decode(json);
    if (!res.ok || !isLeft(error)) return left(isLeft(error) ? `facebook answered ${res.status}` : error.right.error.message);
    const decoded = codec.decode(json);
    return isLeft(decoded) ? left('facebook sent an answer this server does not understand') : right(decoded.right);
  }

  async finish(provider: ProviderName, params: Record<string, string>, expected: ExpectedAuthorization): Promise<Either<ProviderFailure, ProviderIdentity>> {
    const c = this.client;
    if (provider !== 'facebook' || !c) return left(this.notConfigured());
    // A person who cancels comes back with error=access_denied and error_reason=user_denied.
    if (params.error) return left({ kind: 'REFUSED', message: params.error_description ? `${params.error}: ${params.error_description}` : params.error });
    if (params.state !== expected.state) return left({ kind: 'REFUSED', message: 'the state does not match' });
    if (!params.code) return left({ kind: 'REFUSED', message: 'facebook sent no code' });

    const tokenUrl = new URL(`${c.graphUrl}/oauth/access_token`);
    tokenUrl.searchParams.set('client_id', c.clientId);
    tokenUrl.searchParams.set('redirect_uri', expected.redirectUri);
    tokenUrl.searchParams.set('client_secret', c.clientSecret);
    tokenUrl.searchParams.set('code', params.code);
    tokenUrl.searchParams.set('code_verifier', expected.codeVerifier);
    const token = await this.graphGet(tokenUrl, TokenAnswer);
    if (isLeft(token)) return left({ kind: 'REFUSED', message: token.left });

    const meUrl = new URL(`${c.graphUrl}/me`);
    meUrl.searchParams.set('fields', 'id,name,email');
    meUrl.searchParams.set('appsecret_proof', createHmac('sha256', c.clientSecret).update(token.right.access_token).digest('hex'));
    const me = await this.graphGet(meUrl, MeAnswer, { authorization: `Bearer ${token.right.access_token}` });
    if (isLeft(me)) return left({ kind: 'REFUSED', message: me.left });
    return right({
      provider: 'facebook',
      issuer: FACEBOOK_ISSUER,
      subject: me.right.id,
      email: me.right.email ?? null,
      emailVerified: c.trustEmail && typeof me.right.email === 'string',
      name: me.right.name ?? null,
    });
  }
}
