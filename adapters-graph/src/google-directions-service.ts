import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DirectionsAnswer, DirectionsLeg, DirectionsRequest, DirectionsService, GatewayFailure, LatLon } from '@tessera/core/internal';

export type DirectionsConfig = {
  /** The directions endpoint, e.g. https://maps.googleapis.com/maps/api/directions/json. */
  baseUrl: string;
  /** Sent as `key`; never leaves the server. */
  apiKey: string;
};

/** Directions answers larger than this are refused (a route of 25 stops is far smaller). */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** `TESSERA_DIRECTIONS_KEY` and optional `TESSERA_DIRECTIONS_URL`; null without a key. */
export const directionsConfigFromEnv = (env: Record<string, string | undefined>): DirectionsConfig | null => {
  const apiKey = env.TESSERA_DIRECTIONS_KEY?.trim();
  if (!apiKey) return null;
  return { apiKey, baseUrl: env.TESSERA_DIRECTIONS_URL?.trim() || 'https://maps.googleapis.com/maps/api/directions/json' };
};

/** Statuses that describe the route asked for (Google Directions API); the others are failures of the request. */
const ANSWERS = new Set(['OK', 'ZERO_RESULTS', 'NOT_FOUND']);

const point = (p: LatLon): string => `${p.lat},${p.lon}`;

const num = (v: unknown): number | null => {
  const value = (v as { value?: unknown } | null)?.value;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

/**
 * Google Directions API: the request is rebuilt here from coordinates only, against the
 * configured address, so a client can never make the server fetch an address of its choosing.
 */
export class GoogleDirectionsService implements DirectionsService {
  constructor(
    private readonly config: DirectionsConfig | null,
    private readonly timeoutMs = 10_000,
  ) {}

  async directions(request: DirectionsRequest): Promise<Either<GatewayFailure, DirectionsAnswer>> {
    if (!this.config) return left({ kind: 'NOT_CONFIGURED', message: 'the directions service is not configured on this server' });
    const upstream = (message: string): Either<GatewayFailure, DirectionsAnswer> => left({ kind: 'UPSTREAM', message: `the directions service ${message}` });
    const url = new URL(this.config.baseUrl);
    url.searchParams.set('origin', point(request.origin));
    url.searchParams.set('destination', point(request.destination));
    if (request.waypoints.length > 0) url.searchParams.set('waypoints', request.waypoints.map(point).join('|'));
    url.searchParams.set('key', this.config.apiKey);
    let res: Response;
    try {
      res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
    } catch (e) {
      return upstream(`cannot be reached (${(e as Error).name})`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      // The connection broke or timed out while the answer was coming.
      return upstream(`broke off its answer (${(e as Error).name})`);
    }
    if (text.length > MAX_ANSWER_BYTES) return upstream('answered too much');
    if (!res.ok) return upstream(`answered ${res.status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return upstream('answered without JSON');
    }
    const status = (body as { status?: unknown }).status;
    if (typeof status !== 'string') return upstream('answered without a status');
    // A route that does not exist is an answer; a refused or broken request is the server's failure.
    if (!ANSWERS.has(status)) {
      const why = (body as { error_message?: unknown }).error_message;
      return upstream(`answered ${status}${typeof why === 'string' ? `: ${why}` : ''}`);
    }
    const legs: DirectionsLeg[] = [];
    const route = (body as { routes?: Array<{ legs?: unknown }> }).routes?.[0];
    if (status === 'OK') {
      if (!route || !Array.isArray(route.legs)) return upstream('answered OK without routes[0].legs');
      for (const leg of route.legs as Array<{ distance?: unknown; duration?: unknown }>) {
        const distanceMetres = num(leg.distance);
        const durationSeconds = num(leg.duration);
        if (distanceMetres === null || durationSeconds === null) return upstream('answered a leg without distance.value or duration.value');
        legs.push({ distanceMetres, durationSeconds });
      }
    }
    return right({ status, legs, body });
  }
}
