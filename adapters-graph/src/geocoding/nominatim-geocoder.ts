import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { bestMatch, type AddressParts, type ForwardGeocode, type GatewayFailure, type GeocodeCandidate, type GeocodeMatch, type Geocoder, type LatLon } from '@tessera/core/internal';
import { RequestSpacing } from './request-spacing.js';

/** Nominatim's public instance; its usage policy asks for an identifying User-Agent and at most one request a second. */
export const NOMINATIM_PUBLIC_URL = 'https://nominatim.openstreetmap.org';

export type NominatimConfig = {
  /** The service's base address; /search and /reverse are appended. */
  baseUrl: string;
  /** Identifies this application (the usage policy). */
  userAgent: string;
  /** Least time between two requests (the usage policy: 1000 ms). */
  minIntervalMs: number;
  /** A request that has not answered by then fails. */
  timeoutMs: number;
};

/** `TESSERA_GEOCODER_URL` (default Nominatim's public instance) and `TESSERA_GEOCODER_USER_AGENT`. */
export const nominatimConfigFromEnv = (env: Record<string, string | undefined>): NominatimConfig => ({
  baseUrl: env.TESSERA_GEOCODER_URL?.trim() || NOMINATIM_PUBLIC_URL,
  userAgent: env.TESSERA_GEOCODER_USER_AGENT?.trim() || 'Tessera/1.0 (self-hosted CRM)',
  minIntervalMs: 1000,
  timeoutMs: 10_000,
});

/** Answers larger than this are refused (a page of ten places is a few kilobytes). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Nominatim's coordinates are decimal texts ("48.14"); numbers are accepted too. */
const Coordinate = new t.Type<number, number, unknown>(
  'coordinate',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    const n = typeof u === 'string' && u.trim() !== '' ? Number(u) : typeof u === 'number' ? u : NaN;
    return Number.isFinite(n) ? t.success(n) : t.failure(u, c);
  },
  (n) => n,
);

/** The `address` object of format=jsonv2 with addressdetails=1 (only the parts the product reads). */
const NominatimAddress = t.partial({
  road: t.string,
  street: t.string,
  house_number: t.string,
  village: t.string,
  town: t.string,
  city: t.string,
  postcode: t.string,
  country: t.string,
});
type NominatimAddress = t.TypeOf<typeof NominatimAddress>;

const NominatimPlace = t.intersection([
  t.type({ lat: Coordinate, lon: Coordinate }),
  t.partial({ display_name: t.string, address: NominatimAddress }),
]);
type NominatimPlace = t.TypeOf<typeof NominatimPlace>;

/** /search answers an array (empty when nothing matches). */
const SearchAnswer = t.array(NominatimPlace);
/** /reverse answers one place, or `{ error: "Unable to geocode" }` where nothing is. */
const ReverseAnswer = t.union([t.type({ error: t.string }), NominatimPlace]);

const partsOf = (a: NominatimAddress = {}): AddressParts => {
  const parts: AddressParts = {
    street: a.road ?? a.street,
    houseNumber: a.house_number,
    city: a.city ?? a.town ?? a.village,
    postcode: a.postcode,
    country: a.country,
  };
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)) as AddressParts;
};

const candidateOf = (p: NominatimPlace): GeocodeCandidate => ({
  lat: p.lat,
  lon: p.lon,
  label: p.display_name ?? '',
  address: partsOf(p.address),
  settlements: [p.address?.city, p.address?.town, p.address?.village].filter((s): s is string => s !== undefined),
});

/**
 * Nominatim (OpenStreetMap's geocoder) over its documented JSON API: GET {base}/search?q=&format=jsonv2
 * &addressdetails=1 and GET {base}/reverse?lat=&lon=&format=jsonv2. Requests go one at a time, spaced
 * by the usage policy's interval; answers are decoded with codecs; a 429, a 5xx, a timeout or a
 * body that does not decode is UPSTREAM.
 */
export class NominatimGeocoder implements Geocoder {
  private readonly spacing: RequestSpacing;

  constructor(private readonly config: NominatimConfig) {
    this.spacing = new RequestSpacing(config.minIntervalMs);
  }

  async forward(request: ForwardGeocode): Promise<Either<GatewayFailure, GeocodeMatch | null>> {
    const answer = await this.get('search', { q: request.q, format: 'jsonv2', addressdetails: '1' }, SearchAnswer);
    if (isLeft(answer)) return answer;
    return right(bestMatch(answer.right.map(candidateOf), request.city));
  }

  async reverse(point: LatLon): Promise<Either<GatewayFailure, GeocodeMatch | null>> {
    const answer = await this.get('reverse', { lat: String(point.lat), lon: String(point.lon), format: 'jsonv2', addressdetails: '1' }, ReverseAnswer);
    if (isLeft(answer)) return answer;
    if ('error' in answer.right) return right(null);
    const { settlements: _s, ...match } = candidateOf(answer.right);
    return right(match);
  }

  private async get<A>(path: string, params: Record<string, string>, codec: t.Decoder<unknown, A>): Promise<Either<GatewayFailure, A>> {
    const upstream = (message: string): Either<GatewayFailure, A> => left({ kind: 'UPSTREAM', message: `the geocoding service ${message}` });
    const url = new URL(`${this.config.baseUrl.replace(/\/+$/, '')}/${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return this.spacing.run(async () => {
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          headers: { accept: 'application/json', 'user-agent': this.config.userAgent },
          signal: AbortSignal.timeout(this.config.timeoutMs),
          redirect: 'error',
        });
        text = await res.text();
      } catch (e) {
        const name = (e as Error).name;
        return upstream(name === 'TimeoutError' ? `did not answer in ${this.config.timeoutMs} ms` : `cannot be reached (${name})`);
      }
      if (res.status === 429) return upstream('refused: too many requests (429)');
      if (!res.ok) return upstream(`answered ${res.status}`);
      if (text.length > MAX_ANSWER_BYTES) return upstream('answered too much');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return upstream('answered without JSON');
      }
      const decoded = codec.decode(body);
      return isLeft(decoded) ? upstream(`answered an unexpected ${path} body`) : right(decoded.right);
    });
  }
}
