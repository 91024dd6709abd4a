import type { Command } from 'commander';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  addUser,
  normalizeOrganizationName,
  passwordProblem,
  Tokens,
  type OrganizationDirectory,
} from '@tessera/core/internal';
import type { Container } from 'inversify';
import { CliFailure } from '../program.js';
import { CliTokens } from '../container.js';
import { resolveAll } from '../di.js';
import { withContainer, withHostOptions, type HostOptions } from './host-options.js';

type UserOptions = HostOptions & { org: string; email: string; name?: string; password?: string; role: string[]; team: string[]; mustChange?: boolean };

const collect = (v: string, all: string[]): string[] => [...all, v];

/** What the user commands work with, resolved once at a command's start. */
const userDeps = (c: Container) =>
  resolveAll(c, {
    directory: Tokens.OrganizationDirectory,
    tenants: Tokens.TenantRegistry,
    hasher: Tokens.PasswordHasher,
    sessions: Tokens.SessionStore,
    signIn: CliTokens.SignIn,
  });

const organization = async (directory: OrganizationDirectory, raw: string): Promise<string> => {
  const org = normalizeOrganizationName(raw);
  if (!org) throw new CliFailure(`invalid organization name "${raw}"`, 2);
  if ((await directory.status(org)) !== 'ready') throw new CliFailure(`no organization ${org}`);
  return org;
};

const findUser = async (directory: OrganizationDirectory, org: string, email: string) => {
  const user = await directory.findUserByEmail(org, email);
  if (!user) throw new CliFailure(`no user ${email} in ${org}`);
  return user;
};

/** `tessera user add|invite|passwd` for one organization. */
export const registerUser = (program: Command): void => {
  const user = program.command('user').description("administer an organization's users");
  const common = (cmd: Command) =>
    withHostOptions(cmd.requiredOption('--org <name>', 'the organization').requiredOption('--email <email>', "the user's e-mail address"));

  common(user.command('add').description('add a user'))
    .option('--name <name>', 'display name (default: the part of the address before @)')
    .option('--password <password>', 'password (without it, the user signs in through an invitation)')
    .option('--role <name>', 'a role to give (repeatable)', collect, [] as string[])
    .option('--team <name>', 'a team to join (repeatable)', collect, [] as string[])
    .action(async (o: UserOptions) => {
      if (o.password !== undefined && passwordProblem(o.password)) throw new CliFailure(passwordProblem(o.password)!, 2);
      await withContainer(o, async (c) => {
        const { directory, tenants, hasher } = userDeps(c);
        const org = await organization(directory, o.org);
        const { store } = await tenants.open(org);
        const r = await addUser({ hasher }, store, {
          name: o.name ?? o.email.split('@')[0],
          email: o.email,
          password: o.password,
          roles: o.role,
          teams: o.team,
        });
        if (isLeft(r)) throw new CliFailure(r.left.message);
        process.stdout.write(`added ${o.email.trim().toLowerCase()} to ${org} (id ${r.right})\n`);
      });
    });

  common(user.command('invite').description('mail an invitation link (the user chooses a password); adds the user when missing'))
    .option('--name <name>', 'display name for a new user')
    .option('--role <name>', 'a role to give a new user (repeatable)', collect, [] as string[])
    .action(async (o: UserOptions) => {
      await withContainer(o, async (c) => {
        const { directory, tenants, hasher, signIn } = userDeps(c);
        const org = await organization(directory, o.org);
        if (!(await directory.findUserByEmail(org, o.email))) {
          const { store } = await tenants.open(org);
          const r = await addUser({ hasher }, store, { name: o.name ?? o.email.split('@')[0], email: o.email, roles: o.role });
          if (isLeft(r)) throw new CliFailure(r.left.message);
        }
        const found = await findUser(directory, org, o.email);
        const url = await signIn.mailLink(org, found, 'INVITE', undefined, 'The administrator');
        process.stdout.write(`invitation sent to ${found.email}: ${url}\n`);
      });
    });

  common(user.command('passwd').description("set a user's password"))
    .requiredOption('--password <password>', 'the new password')
    .option('--must-change', 'make the user choose a new password at the next sign-in')
    .action(async (o: UserOptions) => {
      const problem = passwordProblem(o.password ?? '');
      if (problem) throw new CliFailure(problem, 2);
      await withContainer(o, async (c) => {
        const { directory, hasher, sessions } = userDeps(c);
        const org = await organization(directory, o.org);
        const found = await findUser(directory, org, o.email);
        const hash = await hasher.hash(o.password!);
        await directory.setPassword(org, found.id, hash, o.mustChange === true);
        await sessions.endForUser(org, found.id);
        process.stdout.write(`password of ${found.email} in ${org} changed; their sessions ended\n`);
      });
    });
};
