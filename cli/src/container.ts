import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Container } from 'inversify';
import pino, { type Logger } from 'pino';
import {
  builtInPacks,
  createOrganization,
  SignInService,
  systemClock,
  systemPack,
  Tokens,
  type Clock,
  type IdGenerator,
  type Mailer,
  type OrganizationDirectory,
  type Pack,
  type PasswordHasher,
  type SessionStore,
} from '@tessera/core/internal';
import { catalogDatabasePath, parseMssqlConnectionString } from '@tessera/adapters-sql';
import {
  CatalogOrganizationDirectory,
  mailerFromEnv,
  KyselySessionStore,
  openCatalog,
  PuzzleSeal,
  ScryptPasswordHasher,
  DatabaseTenants,
  mssqlDatabases,
  sqliteDatabases,
  type CatalogDb,
  type OrganizationDatabases,
  type OrganizationFactory,
  type Tenants,
} from '@tessera/adapters-http';

/** Tokens of the composition roots beyond the ports' own (core Tokens). */
export const CliTokens = {
  Catalog: Symbol.for('Catalog'),
  Tenants: Symbol.for('Tenants'),
  SignIn: Symbol.for('SignIn'),
  Organizations: Symbol.for('Organizations'),
  Puzzles: Symbol.for('Puzzles'),
  OrganizationDatabases: Symbol.for('OrganizationDatabases'),
} as const;

/** What every host needs to know (the serve command's flags, with their defaults). */
export type HostConfig = {
  dataDir: string;
  /** The address links in e-mails point at. */
  publicUrl: string;
  /** Sessions idle longer than this end (TESSERA_SESSION_IDLE_HOURS, default 12 hours). */
  sessionIdleMs: number;
  /** Pino level: info by default, silent in tests. */
  logLevel: string;
  /** Where organizations' records live; the catalog is always DATA/catalog.sqlite. */
  database: { kind: 'sqlite' } | { kind: 'mssql'; connection: string };
};

export const defaultHostConfig = (dataDir: string, env: Record<string, string | undefined> = process.env): HostConfig => ({
  dataDir: resolve(dataDir),
  publicUrl: env.TESSERA_PUBLIC_URL ?? 'http://localhost:8080',
  sessionIdleMs: Number(env.TESSERA_SESSION_IDLE_HOURS ?? 12) * 3600_000,
  logLevel: env.TESSERA_LOG_LEVEL ?? 'info',
  database: { kind: 'sqlite' },
});

/** The repository's root, where ui-react/dist is found. */
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

const randomIds: IdGenerator = { newId: () => randomUUID() };

/**
 * The object graph shared by the server and the organization commands: catalog, tenants, sign-in,
 * organization creation. One container per host (ARCHITECTURE.md); bound without decorators.
 */
export type HostOverrides = { mailer?: Mailer; logger?: Logger; hasher?: PasswordHasher; clock?: Clock };

export const buildContainer = (config: HostConfig, overrides: HostOverrides = {}): Container => {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind<HostConfig>(Tokens.Config).toConstantValue(config);
  c.bind<Clock>(Tokens.Clock).toConstantValue(overrides.clock ?? systemClock);
  c.bind<IdGenerator>(Tokens.IdGenerator).toConstantValue(randomIds);
  c.bind<Logger>(Tokens.Logger).toConstantValue(overrides.logger ?? pino({ level: config.logLevel }));
  c.bind<PasswordHasher>(Tokens.PasswordHasher).toConstantValue(overrides.hasher ?? new ScryptPasswordHasher());
  c.bind<Mailer>(Tokens.Mailer).toResolvedValue(
    (cfg: HostConfig, log: Logger) =>
      overrides.mailer ?? mailerFromEnv(process.env, cfg.dataDir, (line, link) => log.info({ link }, line)),
    [Tokens.Config, Tokens.Logger],
  );
  c.bind<CatalogDb>(CliTokens.Catalog).toResolvedValue((cfg: HostConfig) => openCatalog(catalogDatabasePath(cfg.dataDir)), [Tokens.Config]);
  c.bind<OrganizationDatabases>(CliTokens.OrganizationDatabases).toResolvedValue(
    (cfg: HostConfig, clock: Clock, ids: IdGenerator) =>
      cfg.database.kind === 'mssql'
        ? mssqlDatabases(parseMssqlConnectionString(cfg.database.connection), clock, ids)
        : sqliteDatabases(cfg.dataDir, clock, ids),
    [Tokens.Config, Tokens.Clock, Tokens.IdGenerator],
  );
  c.bind<Tenants>(CliTokens.Tenants).toResolvedValue(
    (databases: OrganizationDatabases, clock: Clock) => new DatabaseTenants(databases, clock),
    [CliTokens.OrganizationDatabases, Tokens.Clock],
  );
  c.bind<SessionStore>(Tokens.SessionStore).toResolvedValue((db: CatalogDb) => new KyselySessionStore(db), [CliTokens.Catalog]);
  c.bind<OrganizationDirectory>(Tokens.OrganizationDirectory).toResolvedValue(
    (db: CatalogDb, databases: OrganizationDatabases, tenants: Tenants) =>
      new CatalogOrganizationDirectory(db, (org, entities) => databases.create(org, entities), async (org) => (await tenants.open(org)).store),
    [CliTokens.Catalog, CliTokens.OrganizationDatabases, CliTokens.Tenants],
  );
  c.bind<SignInService>(CliTokens.SignIn).toResolvedValue(
    (directory: OrganizationDirectory, hasher: PasswordHasher, sessions: SessionStore, mailer: Mailer, clock: Clock, cfg: HostConfig) =>
      new SignInService({ directory, hasher, sessions, mailer, clock, config: { sessionIdleMs: cfg.sessionIdleMs, publicUrl: cfg.publicUrl } }),
    [Tokens.OrganizationDirectory, Tokens.PasswordHasher, Tokens.SessionStore, Tokens.Mailer, Tokens.Clock, Tokens.Config],
  );
  c.bind<OrganizationFactory & { createWithPacks: OrganizationCreator }>(CliTokens.Organizations).toResolvedValue(
    (directory: OrganizationDirectory, hasher: PasswordHasher, tenants: Tenants, clock: Clock) => {
      const createWithPacks: OrganizationCreator = (input, packs) =>
        createOrganization({ directory, hasher, clock, openStore: async (org) => (await tenants.open(org)).store }, { ...input, packs });
      // Sign-up and trial organizations start with the system pack only.
      return { createWithPacks, create: (input) => createWithPacks(input, [systemPack()]) };
    },
    [Tokens.OrganizationDirectory, Tokens.PasswordHasher, CliTokens.Tenants, Tokens.Clock],
  );
  c.bind<PuzzleSeal>(CliTokens.Puzzles).toConstantValue(new PuzzleSeal());
  return c;
};

export type OrganizationCreator = (
  input: { orgName: string; admin: { name: string; email: string; password: string } },
  packs: readonly Pack[],
) => ReturnType<typeof createOrganization>;

/** The packs of `--pack`: the system pack always, plus the named ones. */
export const packsFor = (names: readonly string[]): Pack[] => {
  const all = builtInPacks();
  const chosen = [systemPack()];
  for (const n of names) {
    const p = all.find((x) => x.name === n || (n === 'demo' && x.name !== systemPack().name));
    if (!p) throw new Error(`unknown pack ${n} (known: demo)`);
    if (!chosen.includes(p)) chosen.push(p);
  }
  return chosen;
};

/** Closes what the container opened (organization databases, the catalog). */
export const closeContainer = async (c: Container): Promise<void> => {
  await c.get<Tenants>(CliTokens.Tenants).close();
  await c.get<CatalogDb>(CliTokens.Catalog).destroy();
};

export const dataPath = (dataDir: string, ...parts: string[]): string => join(resolve(dataDir), ...parts);
