import type { FieldValue } from '../core.js';
import { SYSTEM_USER_ID } from '../core.js';
import type { T } from '../i18n.js';

/**
 * Who modified a record, for 'This record was modified by {modifier}' (issue 23 items 7 and 11):
 * the modifiedby lookup's label; the system user reads 'System'; a user whose name the reader may
 * not see (the label is withheld by their read scope) reads 'another user', never a bare id.
 */
export const modifierName = (modifiedBy: FieldValue | undefined, t: T): string => {
  if (modifiedBy && typeof modifiedBy === 'object') {
    if (modifiedBy.label) return modifiedBy.label;
    if (modifiedBy.id === SYSTEM_USER_ID) return t('LblSystem');
  }
  return t('LblAnotherUser');
};
