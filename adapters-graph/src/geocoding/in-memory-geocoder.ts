import { right, type Either } from 'fp-ts/lib/Either.js';
import { bestMatch, type ForwardGeocode, type GatewayFailure, type GeocodeCandidate, type GeocodeMatch, type Geocoder, type LatLon } from '@tessera/core/internal';

/**
 * A geocoder over a fixed list of places, for tests and offline hosts: forward matches places whose
 * label contains every word of the query; reverse answers the nearest place within ~1 km.
 */
export class InMemoryGeocoder implements Geocoder {
  constructor(private readonly places: readonly GeocodeCandidate[]) {}

  async forward(request: ForwardGeocode): Promise<Either<GatewayFailure, GeocodeMatch | null>> {
    const words = request.q.toLowerCase().split(/[\s,]+/).filter((w) => w !== '');
    if (words.length === 0) return right(null);
    const found = this.places.filter((p) => words.every((w) => p.label.toLowerCase().includes(w)));
    return right(bestMatch(found, request.city));
  }

  async reverse(point: LatLon): Promise<Either<GatewayFailure, GeocodeMatch | null>> {
    const distance = (p: LatLon): number => Math.hypot(p.lat - point.lat, p.lon - point.lon);
    const near = [...this.places].sort((a, b) => distance(a) - distance(b))[0];
    if (!near || distance(near) > 0.01) return right(null);
    const { settlements: _s, ...match } = near;
    return right(match);
  }
}
