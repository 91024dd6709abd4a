import { describe, expect, it, vi } from 'vitest';

vi.mock('../i18n.js', () => ({}));

import { SYSTEM_USER_ID } from '../core.js';
import type { T } from '../i18n.js';
import { modifierName } from './modifier-name.js';

const t = ((key: string) => key) as T;

describe("the modifier of a conflict (issue 23 items 7 and 11: 'This record was modified by {modifier}', never a bare id)", () => {
  it('names the user by the modifiedby label', () => {
    expect(modifierName({ id: 'u1', name: 'systemuser', label: 'Ada Admin' }, t)).toBe('Ada Admin');
  });
  it('the system user reads System', () => {
    expect(modifierName({ id: SYSTEM_USER_ID, name: 'systemuser', label: null }, t)).toBe('LblSystem');
  });
  it('a user the reader may not see, or no modifier at all, reads another user', () => {
    expect(modifierName({ id: '95597b85-1789-4c4f-afca-c3109d62b5f4', name: 'systemuser', label: null }, t)).toBe('LblAnotherUser');
    expect(modifierName(undefined, t)).toBe('LblAnotherUser');
    expect(modifierName(null, t)).toBe('LblAnotherUser');
  });
});
