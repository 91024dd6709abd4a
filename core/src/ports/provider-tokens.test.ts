import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InMemoryProviderTokens } from './provider-tokens.js';
import { graphUserKey } from './drive-gateway.js';

/** Issue 18: the Microsoft sign-in's token is kept for Graph's on-behalf-of, per organization, user and provider. */
describe('InMemoryProviderTokens', () => {
  it('answers the kept token until it expires, per provider and user, the newest keep winning', () => {
    const kept = new InMemoryProviderTokens();
    const alice = graphUserKey('acme', 'a1');
    kept.keep(alice, 'azure', 'token-1', 1000);
    kept.keep(alice, 'azure', 'token-2', 2000);
    expect(kept.get(alice, 'azure', 1500)).toBe('token-2');
    expect(kept.get(alice, 'azure', 2000)).toBeNull();
    expect(kept.get(alice, 'google', 1500)).toBeNull();
    expect(kept.get(graphUserKey('other', 'a1'), 'azure', 1500)).toBeNull();
  });

  it('property: never holds more than its cap, and the last kept is always there', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 100 }), (users) => {
        const kept = new InMemoryProviderTokens(10);
        for (const u of users) kept.keep(String(u), 'azure', `t${u}`, 10);
        const held = [...new Set(users)].filter((u) => kept.get(String(u), 'azure', 0) !== null);
        expect(held.length).toBeLessThanOrEqual(10);
        expect(kept.get(String(users[users.length - 1]), 'azure', 0)).toBe(`t${users[users.length - 1]}`);
      }),
    );
  });
});
