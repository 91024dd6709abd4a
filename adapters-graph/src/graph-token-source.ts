import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Clock, GatewayFailure, GraphAccessToken, GraphTokenSource } from '@tessera/core/internal';

/** The token request of the Microsoft identity platform's client-credentials grant. */
export type ClientCredentialsConfig = {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Default https://graph.microsoft.com/.default (the permissions granted to the app registration). */
  scope: string;
};

/** A token is renewed this long before it expires, so a client never gets one about to lapse. */
export const TOKEN_RENEW_MARGIN_MS = 5 * 60 * 1000;
/** Token service answers longer than this are not tokens. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * `TESSERA_GRAPH_CLIENT_ID`, `TESSERA_GRAPH_CLIENT_SECRET`, and `TESSERA_GRAPH_TOKEN_URL` or
 * `TESSERA_GRAPH_TENANT` (https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token);
 * `TESSERA_GRAPH_SCOPE` optional. null when not all are given.
 */
export const graphTokenConfigFromEnv = (env: Record<string, string | undefined>): ClientCredentialsConfig | null => {
  const v = (k: string): string | undefined => env[`TESSERA_GRAPH_${k}`]?.trim() || undefined;
  const tenant = v('TENANT');
  const tokenUrl = v('TOKEN_URL') ?? (tenant ? `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0/token` : undefined);
  const clientId = v('CLIENT_ID');
  const clientSecret = v('CLIENT_SECRET');
  if (!tokenUrl || !clientId || !clientSecret) return null;
  return { tokenUrl, clientId, clientSecret, scope: v('SCOPE') ?? 'https://graph.microsoft.com/.default' };
};

type Held = { token: GraphAccessToken; renewAt: number };

/**
 * Gets the drive and calendar token by the OAuth 2.0 client-credentials grant and keeps it until
 * shortly before it expires; callers arriving while a request is under way share that request.
 */
export class ClientCredentialsGraphTokenSource implements GraphTokenSource {
  private held: Held | null = null;
  private pending: Promise<Either<GatewayFailure, GraphAccessToken>> | null = null;

  constructor(
    private readonly config: ClientCredentialsConfig | null,
    private readonly clock: Clock,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Drops the kept token: Graph refused it (401), so the next call asks for a new one. */
  forget(): void {
    if (!this.pending) this.held = null;
  }

  async accessToken(): Promise<Either<GatewayFailure, GraphAccessToken>> {
    if (!this.config) return left({ kind: 'NOT_CONFIGURED', message: 'the cloud drive and calendar are not configured on this server' });
    if (this.held && this.clock.now().getTime() < this.held.renewAt) return right(this.held.token);
    this.pending ??= this.request(this.config).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async request(c: ClientCredentialsConfig): Promise<Either<GatewayFailure, GraphAccessToken>> {
    const upstream = (message: string): Either<GatewayFailure, GraphAccessToken> => left({ kind: 'UPSTREAM', message: `the token service ${message}` });
    let res: Response;
    try {
      res = await fetch(c.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: c.scope }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (e) {
      return upstream(`cannot be reached (${(e as Error).message})`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      // The connection broke or timed out while the answer was coming.
      return upstream(`broke off its answer (${(e as Error).name})`);
    }
    if (text.length > MAX_ANSWER_BYTES) return upstream('answered too much');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return upstream(`answered ${res.status} without JSON`);
    }
    if (!res.ok || typeof body.error === 'string') {
      // The identity platform's error shape: error, error_description (which may carry trace ids, not secrets).
      const detail = [body.error, body.error_description].filter((x) => typeof x === 'string').join(': ');
      return upstream(`refused (${res.status}${detail ? ` ${String(detail).split('\r\n')[0]}` : ''})`);
    }
    const expiresIn = Number(body.expires_in);
    if (typeof body.access_token !== 'string' || body.access_token === '' || !Number.isFinite(expiresIn) || expiresIn <= 0)
      return upstream('answered without access_token and expires_in');
    const now = this.clock.now().getTime();
    const token = { access_token: body.access_token, expires_on: Math.floor(now / 1000) + Math.floor(expiresIn) };
    // A short-lived token is kept for half its life at most, never past the renewal margin.
    this.held = { token, renewAt: now + Math.max(expiresIn * 1000 - TOKEN_RENEW_MARGIN_MS, (expiresIn * 1000) / 2) };
    return right(token);
  }
}
