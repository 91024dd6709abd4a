import type { Command } from 'commander';
import type { Container } from 'inversify';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  addUser,
  demoPack,
  generateDemoRecords,
  REPORT_IMAGE_ENTITY,
  REPORT_TEMPLATE_ENTITY,
  systemCaller,
  systemPack,
  Tokens,
  type DemoOwner,
} from '@tessera/core/internal';
import { CliFailure } from '../program.js';
import { CliTokens, packsFor } from '../container.js';
import { resolveAll } from '../di.js';
import { withContainer, withHostOptions, type HostOptions } from './host-options.js';

export const DEMO_ORG = 'demo';
/** The demo's sign-in, printed by `npm start` and `tessera demo`. Every demo user has this password. */
export const DEMO_ADMIN = { email: 'admin@demo.test', password: 'tessera-demo', name: 'Ada Admin' } as const;

/** Two teams, and users in each with different roles, so that permissions show. */
export const DEMO_TEAMS = ['North', 'South'] as const;
export const DEMO_USERS = [
  { name: 'Nina North', email: 'nina@demo.test', roles: ['Salesperson'], team: 'North' },
  { name: 'Sam South', email: 'sam@demo.test', roles: ['Salesperson'], team: 'South' },
  { name: 'Tom Tech', email: 'tom@demo.test', roles: ['Technician'], team: 'North' },
  { name: 'Tara Tech', email: 'tara@demo.test', roles: ['Technician'], team: 'South' },
] as const;

/** Creates the organization `demo`: demo CRM pack, teams, users and a few hundred records. */
export const createDemo = async (c: Container): Promise<Record<string, number>> => {
  const { directory, organizations, hasher, clock } = resolveAll(c, {
    directory: Tokens.OrganizationDirectory,
    organizations: CliTokens.Organizations,
    hasher: Tokens.PasswordHasher,
    clock: Tokens.Clock,
  });
  if ((await directory.status(DEMO_ORG)) !== null) throw new CliFailure(`organization ${DEMO_ORG} exists already`);
  const created = await organizations.createWithPacks({ orgName: DEMO_ORG, admin: DEMO_ADMIN }, packsFor(['demo']));
  if (isLeft(created)) throw new CliFailure(created.left.message);
  const { store, adminId } = created.right;
  const teams = new Map<string, string>();
  for (const t of DEMO_TEAMS) {
    const id = await store.create(systemCaller(adminId), 'team', { name: t });
    if (isLeft(id)) throw new CliFailure(`team ${t}: ${id.left.message}`);
    teams.set(t, id.right);
  }
  // The administrator owns records of both trades too, so their "Mine" lists are not empty (issue 23 item 2).
  const owners: DemoOwner[] = [{ userId: adminId }];
  for (const u of DEMO_USERS) {
    const id = await addUser({ hasher }, store, { name: u.name, email: u.email, password: DEMO_ADMIN.password, roles: u.roles, teams: [u.team] });
    if (isLeft(id)) throw new CliFailure(`${u.email}: ${id.left.message}`);
    owners.push({ userId: id.right, teamId: teams.get(u.team)!, works: (u.roles as readonly string[]).includes('Technician') ? 'service' : 'sales' });
  }
  // The demo's report templates (issue 20) and their logo live in the system pack's report_template and report_image.
  const templates = systemPack().entities.filter((e) => e.logicalName === REPORT_TEMPLATE_ENTITY || e.logicalName === REPORT_IMAGE_ENTITY);
  return generateDemoRecords(store, [...demoPack().entities, ...templates], owners, { now: clock.now() });
};

export const registerDemo = (program: Command): void => {
  withHostOptions(program.command('demo').description('create the organization "demo" with the demo CRM pack, users in two teams and generated records')).action(
    async (o: HostOptions) => {
      await withContainer(o, async (c) => {
        const counts = await createDemo(c);
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        process.stdout.write(
          `created organization ${DEMO_ORG} with ${total} records\n` +
            `sign in: organization ${DEMO_ORG}, ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}\n` +
            `other users (same password): ${DEMO_USERS.map((u) => `${u.email} (${u.roles.join(', ')}, team ${u.team})`).join('; ')}\n`,
        );
      });
    },
  );
};
