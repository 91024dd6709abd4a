import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bestMatch, type GeocodeCandidate } from './geocoder.js';

const place = (label: string, settlements: string[]): GeocodeCandidate => ({ lat: 48, lon: 17, label, address: {}, settlements });

describe('bestMatch (spec 001 Geocoding: the best match prefers a city, town or village equal to the label)', () => {
  it('the first candidate whose settlement equals the city, case and accents aside', () => {
    const list = [place('a', ['Bratislava']), place('b', ['Piestany']), place('c', ['Piešťany'])];
    expect(bestMatch(list, 'piešťany')?.label).toBe('b');
  });
  it('without a city, or when none equals it, the service\'s first; nothing: null', () => {
    const list = [place('a', ['Bratislava']), place('b', ['Trnava'])];
    expect(bestMatch(list)?.label).toBe('a');
    expect(bestMatch(list, 'Košice')?.label).toBe('a');
    expect(bestMatch([], 'Trnava')).toBeNull();
  });
  it('property: the match is always one of the candidates, without its settlements', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.array(fc.string(), { maxLength: 3 })), { maxLength: 6 }), fc.option(fc.string(), { nil: undefined }), (rows, city) => {
        const list = rows.map(([l, s]) => place(l, s));
        const m = bestMatch(list, city);
        if (list.length === 0) return m === null;
        return m !== null && !('settlements' in m) && list.some((c) => c.label === m.label);
      }),
    );
  });
});
