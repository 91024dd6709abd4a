import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProviderIdentity } from '../ports/identity-provider.js';
import { displayName, verifiedEmail } from './provider-sign-in.js';

const identity = (over: Partial<ProviderIdentity>): ProviderIdentity => ({
  provider: 'google',
  issuer: 'https://accounts.google.com',
  subject: '1',
  email: 'ann@example.test',
  emailVerified: true,
  name: 'Ann',
  ...over,
});

describe('provider identities', () => {
  it('only an e-mail address the provider verified identifies a user, compared in lower case', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.boolean(), (email, verified) => {
        const r = verifiedEmail(identity({ email: ` ${email.toUpperCase()} `, emailVerified: verified }));
        if (verified) expect(r).toEqual({ _tag: 'Right', right: email.toLowerCase() });
        else expect(r._tag).toBe('Left');
      }),
    );
    expect(verifiedEmail(identity({ email: null }))).toEqual({
      _tag: 'Left',
      left: { reason: 'ERR_LOGIN', message: 'Invalid Username or password: google gave no e-mail address', status: 401 },
    });
  });

  it('a new user is named by the name claim, else by the local part of the address, at most 200 characters', () => {
    expect(displayName(identity({ name: '  Ann Lee ' }), 'ann@example.test')).toBe('Ann Lee');
    expect(displayName(identity({ name: null }), 'ann.lee@example.test')).toBe('ann.lee');
    expect(displayName(identity({ name: 'x'.repeat(300) }), 'a@b.test')).toHaveLength(200);
  });
});
