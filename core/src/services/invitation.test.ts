import { describe, expect, it } from 'vitest';
import { inviterOf } from './invitation.js';

describe('docs/api.md Links: an invitation needs a session of the organization it invites to', () => {
  const session = { orgName: 'acme', userName: 'Boss' };
  it('a session of that organization (any case, spaces around) invites', () => {
    expect(inviterOf(session, ' ACME ')).toBe('Boss');
  });
  it('no session, or a session of another organization, sends a plain sign-in link', () => {
    expect(inviterOf(null, 'acme')).toBeUndefined();
    expect(inviterOf(session, 'other')).toBeUndefined();
  });
});
