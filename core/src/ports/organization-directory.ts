/**
 * Where organizations and their users' credentials are found (the catalog, and each
 * organization's own database). The sign-in flows reach users only through this port.
 */
import type { Entity } from '../metadata/entity.js';

export type OrganizationStatus = 'creating' | 'ready' | 'failed';

/** A user as sign-in sees them. `passwordHash` never leaves the server. */
export type DirectoryUser = {
  id: string;
  name: string;
  email: string;
  active: boolean;
  passwordHash: string | null;
  mustChangePassword: boolean;
};

export interface OrganizationDirectory {
  /** null when no organization of that name exists. */
  status(orgName: string): Promise<OrganizationStatus | null>;
  list(): Promise<string[]>;
  /** Registers a new organization as `creating`; false when the name is taken. */
  reserve(orgName: string, now: Date): Promise<boolean>;
  /** Creates the organization's database with the tables of these entities. */
  provision(orgName: string, entities: readonly Entity[]): Promise<void>;
  setStatus(orgName: string, status: OrganizationStatus): Promise<void>;

  /** The user of an organization with this e-mail address (case-insensitive), or null. */
  findUserByEmail(orgName: string, email: string): Promise<DirectoryUser | null>;
  findUserById(orgName: string, userId: string): Promise<DirectoryUser | null>;
  /** Stores a password hash; `mustChange` forces a change at the next sign-in. */
  setPassword(orgName: string, userId: string, passwordHash: string, mustChange: boolean): Promise<void>;
}
