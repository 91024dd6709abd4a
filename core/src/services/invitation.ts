import type { SessionInfo } from '../ports/session-store.js';

/**
 * docs/api.md "Links": an invitation (getmagic `INVITE`) needs the session of a user of the
 * organization it invites to; without one the request sends a plain sign-in link. The inviter's
 * name, or undefined when the request carries no session of that organization.
 */
export const inviterOf = (session: Pick<SessionInfo, 'orgName' | 'userName'> | null, organization: string): string | undefined =>
  session && session.orgName.toLowerCase() === organization.trim().toLowerCase() ? session.userName : undefined;
