import { describe, expect, it } from 'vitest';
import { providerTokenOf } from './provider-token.js';

describe('provider sign-in hand-over (docs/api.md "Delivering the session")', () => {
  it('reads the token and the organization of #token={token}&org={organization}', () => {
    expect(providerTokenOf('#token=abc-DEF_1&org=demo')).toEqual({ token: 'abc-DEF_1', org: 'demo' });
    expect(providerTokenOf('#org=demo&token=x%2By')).toEqual({ token: 'x+y', org: 'demo' });
    expect(providerTokenOf('#token=t')).toEqual({ token: 't', org: null });
  });
  it('a fragment without a token is not a sign-in', () => {
    expect(providerTokenOf('')).toBeNull();
    expect(providerTokenOf('#org=demo')).toBeNull();
    expect(providerTokenOf('#token=')).toBeNull();
    expect(providerTokenOf('#section-2')).toBeNull();
  });
});
