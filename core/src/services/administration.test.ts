import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { packMask } from '../permissions/mask.js';
import type { Caller, Level } from '../permissions/types.js';
import { isAdministrator, requireAdministrator } from './administration.js';

const updatingUsersAt = (update: Level): Caller => ({
  userId: 'u',
  teams: [],
  permissions: { permissions: { systemuser: packMask({ create: 0, read: 3, update, delete: 0 }) }, apps: [], owners: [], needsTeams: false },
});

describe('spec 002 section 6: an administrator is who may update every user (organization level on systemuser)', () => {
  it('update level 3 on systemuser administers; levels 0 to 2 do not', () => {
    expect(isAdministrator(updatingUsersAt(3))).toBe(true);
    for (const l of [0, 1, 2] as const) expect(isAdministrator(updatingUsersAt(l))).toBe(false);
  });
  it('requireAdministrator refuses with ERR_PERMISSION and the reason given', () => {
    const r = requireAdministrator(updatingUsersAt(2), 'the session list is for administrators');
    expect(isLeft(r) && [r.left.code, r.left.message]).toEqual(['ERR_PERMISSION', 'the session list is for administrators']);
    expect(isRight(requireAdministrator(updatingUsersAt(3), 'x'))).toBe(true);
  });
});
