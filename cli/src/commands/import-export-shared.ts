import { normalizeOrganizationName, type Entity, type OrganizationDirectory, type Tenant, type TenantRegistry } from '@tessera/core/internal';
import { CliFailure, EXIT } from '../program.js';

/** The organization (it must exist and be ready) and one of its entities, for import and export. */
export const openEntity = async (
  deps: { directory: OrganizationDirectory; tenants: TenantRegistry },
  rawOrg: string,
  entityName: string,
): Promise<{ tenant: Tenant; entity: Entity }> => {
  const org = normalizeOrganizationName(rawOrg);
  if (!org) throw new CliFailure(`invalid organization name "${rawOrg}"`, EXIT.usage);
  if ((await deps.directory.status(org)) !== 'ready') throw new CliFailure(`no organization ${org}`);
  const tenant = await deps.tenants.open(org);
  const entity = tenant.entities().find((e) => e.logicalName === entityName);
  if (!entity) throw new CliFailure(`No Object:${entityName}`);
  return { tenant, entity };
};
