import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { GraphTokenAnswer, type Clock, type GatewayFailure, type GraphTokenSource, type GraphUser } from '@tessera/core/internal';
import type { ClientCredentialsConfig } from '../graph-token-source.js';
import { TOKEN_RENEW_MARGIN_MS } from '../graph-token-source.js';
import type { GraphUserTokens } from './graph-requests.js';

/**
 * Calls for a user made with the application's token (client credentials): the user's resources
 * are `/users/{email}` (application permissions Files.ReadWrite.All, Calendars.Read), since an
 * application token has no `/me`.
 */
export class ApplicationGraphTokens implements GraphUserTokens {
  constructor(private readonly source: GraphTokenSource & { forget?(): void }) {}

  async tokenFor(_user: GraphUser, renew: boolean): Promise<Either<GatewayFailure, string>> {
    if (renew) this.source.forget?.();
    const t = await this.source.accessToken();
    return isLeft(t) ? t : right(t.right.access_token);
  }

  userPath(user: GraphUser): string {
    return `/users/${encodeURIComponent(user.email)}`;
  }
}

/** The token a user brought to Tessera (issued to Tessera's app registration), which on-behalf-of exchanges. */
export type UserAssertions = (user: GraphUser) => string | null;

/** At most this many users' tokens are kept; the oldest goes first. */
const MAX_KEPT_USERS = 5000;
const MAX_ANSWER = 64 * 1024;

/**
 * The per-user delegated token by the OAuth 2.0 on-behalf-of flow of the Microsoft identity
 * platform: POST {tenant}/oauth2/v2.0/token with grant_type
 * urn:ietf:params:oauth:grant-type:jwt-bearer, the user's assertion, requested_token_use
 * on_behalf_of and the Graph scopes. The token reads the user's own drive and calendars (`/me`),
 * which the client-credentials token cannot. Kept per user until shortly before it expires.
 */
export class OnBehalfOfGraphTokens implements GraphUserTokens {
  private readonly held = new Map<string, { token: string; renewAt: number; assertion: string }>();

  constructor(
    private readonly config: ClientCredentialsConfig,
    private readonly assertions: UserAssertions,
    private readonly clock: Clock,
    private readonly timeoutMs = 10_000,
  ) {}

  userPath(): string {
    return '/me';
  }

  async tokenFor(user: GraphUser, renew: boolean): Promise<Either<GatewayFailure, string>> {
    const assertion = this.assertions(user);
    if (!assertion) return left({ kind: 'UPSTREAM', message: 'no Microsoft sign-in for this user: sign in with Microsoft to use OneDrive and Outlook' });
    const kept = this.held.get(user.key);
    const now = this.clock.now().getTime();
    if (!renew && kept && kept.assertion === assertion && now < kept.renewAt) return right(kept.token);
    const upstream = (m: string): Either<GatewayFailure, string> => left({ kind: 'UPSTREAM', message: `the token service ${m}` });
    let res: Response;
    try {
      res = await fetch(this.config.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          client_id: this.config.clientId,
          client_secret: this.config.clientSecret,
          assertion,
          scope: this.config.scope,
          requested_token_use: 'on_behalf_of',
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (e) {
      return upstream(`cannot be reached (${(e as Error).message})`);
    }
    let body: unknown;
    try {
      const text = await res.text();
      if (text.length > MAX_ANSWER) return upstream('answered too much');
      body = JSON.parse(text);
    } catch {
      return upstream(`answered ${res.status} without JSON`);
    }
    const o = (body ?? {}) as { error?: unknown; error_description?: unknown };
    if (!res.ok || typeof o.error === 'string') {
      this.held.delete(user.key);
      const detail = [o.error, o.error_description].filter((x) => typeof x === 'string').join(': ');
      return upstream(`refused (${res.status}${detail ? ` ${detail.split('\r\n')[0]}` : ''})`);
    }
    const answer = GraphTokenAnswer.decode(body);
    if (isLeft(answer) || answer.right.access_token === '' || answer.right.expires_in <= 0) return upstream('answered without access_token and expires_in');
    const life = answer.right.expires_in * 1000;
    this.held.delete(user.key);
    if (this.held.size >= MAX_KEPT_USERS) this.held.delete(this.held.keys().next().value as string);
    this.held.set(user.key, { token: answer.right.access_token, assertion, renewAt: now + Math.max(life - TOKEN_RENEW_MARGIN_MS, life / 2) });
    return right(answer.right.access_token);
  }
}
