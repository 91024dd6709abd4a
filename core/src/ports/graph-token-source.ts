/**
 * The access token of the cloud drive and calendar (Microsoft Graph) that the web client calls
 * directly (spec 001 "Cloud token and calendar", spec 002 "Drive and blob").
 */
import type { Either } from 'fp-ts/lib/Either.js';

/** GET /api/azure/accesstoken: the token and when it expires (seconds since 1970, like the identity platform's `expires_on`). */
export type GraphAccessToken = { access_token: string; expires_on: number };

/** NOT_CONFIGURED: no token service set up; UPSTREAM: the token service failed or answered nonsense. */
export type GatewayFailure = { kind: 'NOT_CONFIGURED' | 'UPSTREAM'; message: string };

export interface GraphTokenSource {
  /** A token valid for a while yet; repeated calls share one until shortly before it expires. */
  accessToken(): Promise<Either<GatewayFailure, GraphAccessToken>>;
}
