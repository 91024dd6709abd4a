import type { Container } from 'inversify';
import { normalizeOrganizationName, Tokens, type Entity, type OrganizationDirectory } from '@tessera/core/internal';
import type { Tenant, Tenants } from '@tessera/adapters-http';
import { CliFailure, EXIT } from '../program.js';
import { CliTokens } from '../container.js';

/** The organization (it must exist and be ready) and one of its entities, for import and export. */
export const openEntity = async (c: Container, rawOrg: string, entityName: string): Promise<{ tenant: Tenant; entity: Entity }> => {
  const org = normalizeOrganizationName(rawOrg);
  if (!org) throw new CliFailure(`invalid organization name "${rawOrg}"`, EXIT.usage);
  if ((await c.get<OrganizationDirectory>(Tokens.OrganizationDirectory).status(org)) !== 'ready') throw new CliFailure(`no organization ${org}`);
  const tenant = await c.get<Tenants>(CliTokens.Tenants).open(org);
  const entity = tenant.entities().find((e) => e.logicalName === entityName);
  if (!entity) throw new CliFailure(`No Object:${entityName}`);
  return { tenant, entity };
};
