import type { Command } from 'commander';
import { isLeft } from 'fp-ts/lib/Either.js';
import { CliFailure } from '../program.js';
import { Tokens } from '@tessera/core/internal';
import { CliTokens, packsFor } from '../container.js';
import { resolve } from '../di.js';
import { withContainer, withHostOptions, type HostOptions } from './host-options.js';

type CreateOptions = HostOptions & { adminEmail: string; adminPassword: string; adminName: string; pack: string[] };

/** `tessera org create NAME`: the database, the system pack's schema (and --pack demo), the admin role and user, the apps and menus. */
export const registerOrg = (program: Command): void => {
  const org = program.command('org').description('administer organizations');
  withHostOptions(
    org
      .command('create')
      .description('create an organization with its administrator')
      .argument('<name>', 'organization name: letters, digits and dashes')
      .requiredOption('--admin-email <email>', "the administrator's e-mail address (their sign-in name)")
      .requiredOption('--admin-password <password>', "the administrator's password (at least 8 characters)")
      .option('--admin-name <name>', "the administrator's display name", 'Administrator')
      .option('--pack <name>', 'a metadata pack to add to the system pack (demo)', (v: string, all: string[]) => [...all, v], [] as string[]),
  ).action(async (name: string, o: CreateOptions) => {
    let packs;
    try {
      packs = packsFor(o.pack);
    } catch (e) {
      throw new CliFailure((e as Error).message, 2);
    }
    await withContainer(o, async (c) => {
      const organizations = resolve(c, CliTokens.Organizations);
      let r;
      try {
        r = await organizations.createWithPacks({ orgName: name, admin: { name: o.adminName, email: o.adminEmail, password: o.adminPassword } }, packs);
      } catch (e) {
        // A database that cannot be reached or written: one line, and the name can be tried again.
        throw new CliFailure(`organization ${name} not created: ${(e as Error).message}`);
      }
      if (isLeft(r)) throw new CliFailure(r.left.message);
      process.stdout.write(`created organization ${r.right.orgName} (packs: ${packs.map((p) => p.name).join(', ')}); sign in as ${o.adminEmail.trim().toLowerCase()}\n`);
    });
  });
  withHostOptions(org.command('list').description('list the organizations')).action(async (o: HostOptions) => {
    await withContainer(o, async (c) => {
      const names = await resolve(c, Tokens.OrganizationDirectory).list();
      process.stdout.write(names.length ? `${names.join('\n')}\n` : '');
    });
  });
};
