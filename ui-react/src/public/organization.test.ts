import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initialOrganization, organizationFromHost, splitOrganization } from './organization.js';

describe('login organization (spec 000 section 2)', () => {
  it('takes the first sub-domain when the host has more than two parts and does not start with 192', () => {
    expect(organizationFromHost('acme.tessera.example')).toBe('acme');
    expect(organizationFromHost('tessera.example')).toBeUndefined();
    expect(organizationFromHost('192.168.1.10')).toBeUndefined();
    expect(organizationFromHost('localhost')).toBeUndefined();
    expect(organizationFromHost('127.0.0.1')).toBeUndefined();
  });

  it('falls back to the query parameter org, then to the last organization stored locally', () => {
    expect(initialOrganization('acme.tessera.example', 'other', 'stored')).toBe('acme');
    expect(initialOrganization('localhost', 'other', 'stored')).toBe('other');
    expect(initialOrganization('localhost', null, 'stored')).toBe('stored');
    expect(initialOrganization('localhost', null, null)).toBe('');
  });

  it("splits a value with '#' into a host and the organization", () => {
    expect(splitOrganization('localhost:3000#acme')).toEqual({ host: 'localhost:3000', organization: 'acme' });
    expect(splitOrganization('acme')).toEqual({ host: '', organization: 'acme' });
    fc.assert(
      fc.property(fc.string().filter((s) => !s.includes('#')), fc.string().filter((s) => !s.includes('#')), (h, o) => {
        const r = splitOrganization(`${h}#${o}`);
        return r.host === h.trim() && r.organization === o.trim();
      }),
    );
  });
});
