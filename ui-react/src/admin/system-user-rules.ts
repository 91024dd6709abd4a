import { isAdministrator, type Caller } from '../core.js';

/**
 * Which admin commands a systemuser record shows (spec 002 section 6): Change Password on one's
 * own record (with the old password) and, for administrators, on anybody's (without it); Send
 * Invite for administrators on another user's record.
 */
export const systemUserCommandsFor = (caller: Caller, userId: string): { changePassword: boolean; askOld: boolean; invite: boolean } => {
  const own = caller.userId === userId;
  const admin = isAdministrator(caller);
  return { changePassword: own || admin, askOld: own, invite: admin && !own };
};
