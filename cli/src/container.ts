import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { join, resolve as resolvePath } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Container, ContainerModule } from 'inversify';
import pino, { type Logger } from 'pino';
import {
  builtInPacks,
  createOrganization,
  PublicCallLimits,
  SignInService,
  systemClock,
  systemPack,
  token,
  Tokens,
  type Clock,
  type ExportWriter,
  type IdGenerator,
  type Mailer,
  type Pack,
  type PasswordHasher,
} from '@tessera/core/internal';
import {
  catalogDatabasePath,
  KyselyAttemptLedger,
  KyselyOrganizationDirectory,
  KyselySessionStore,
  KyselyTenantRegistry,
  mssqlDatabases,
  postgresDatabases,
  openCatalog,
  parseMssqlConnectionString,
  sqliteDatabases,
  SqliteWorkerPool,
  type CatalogDb,
  type OrganizationDatabases,
} from '@tessera/adapters-sql';
import { LocalImportFiles, mailerFromEnv, StreamExportWriter } from '@tessera/adapters-graph';
import { PuzzleSeal, ScryptPasswordHasher, type OrganizationFactory } from '@tessera/adapters-http';
import { constant, provide, resolve } from './di.js';
import { limitsFromEnv, type LimitsConfig } from './limits-config.js';

/** Creates an organization with the chosen packs (`tessera org create --pack`, the demo). */
export type OrganizationCreator = (
  input: { orgName: string; admin: { name: string; email: string; password: string } },
  packs: readonly Pack[],
) => ReturnType<typeof createOrganization>;

/** Organization creation: with the system pack only (sign-up, trial), or with chosen packs. */
export type Organizations = OrganizationFactory & { createWithPacks: OrganizationCreator };

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
  database: { kind: 'sqlite' } | { kind: 'mssql'; connection: string } | { kind: 'postgres'; connection: string };
  /** Sign-in, link, trial and survey limits and the puzzle's difficulty (TESSERA_* variables, limits-config.ts); absent: the defaults. */
  attemptLimits?: LimitsConfig;
  /**
   * Database work (issue 22, docs/operations.md): SQLite worker threads (TESSERA_SQL_WORKERS,
   * default the machine's parallelism plus one, at least 3; 0: the request thread), a read's
   * time budget (TESSERA_READ_BUDGET_MS, default 10000) and the count cap (TESSERA_COUNT_CAP,
   * default 50000). Absent: the defaults.
   */
  limits?: { sqlWorkers?: number; readBudgetMs?: number; countCap?: number };
};

const envNumber = (v: string | undefined): number | undefined => (v !== undefined && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);

/** Tokens of the composition roots beyond the ports' own (core Tokens): host values and services of this host. */
export const CliTokens = {
  Config: token<HostConfig>('cli.Config'),
  Logger: token<Logger>('cli.Logger'),
  Catalog: token<CatalogDb>('cli.Catalog'),
  OrganizationDatabases: token<OrganizationDatabases>('cli.OrganizationDatabases'),
  SignIn: token<SignInService>('cli.SignIn'),
  /** Trials and survey submissions per address, link and in all (issue 22). */
  PublicLimits: token<PublicCallLimits>('cli.PublicLimits'),
  Organizations: token<Organizations>('cli.Organizations'),
  Puzzles: token<PuzzleSeal>('cli.Puzzles'),
  /** The ExportWriter port on node streams (the core's port is generic over the sink). */
  ExportWriter: token<ExportWriter<Writable>>('cli.ExportWriter'),
} as const;

export const defaultHostConfig = (dataDir: string, env: Record<string, string | undefined> = process.env): HostConfig => ({
  dataDir: resolvePath(dataDir),
  publicUrl: env.TESSERA_PUBLIC_URL ?? 'http://localhost:8080',
  sessionIdleMs: Number(env.TESSERA_SESSION_IDLE_HOURS ?? 12) * 3600_000,
  logLevel: env.TESSERA_LOG_LEVEL ?? 'info',
  database: { kind: 'sqlite' },
  attemptLimits: limitsFromEnv(env),
  limits: { sqlWorkers: envNumber(env.TESSERA_SQL_WORKERS), readBudgetMs: envNumber(env.TESSERA_READ_BUDGET_MS), countCap: envNumber(env.TESSERA_COUNT_CAP) },
});

/** The repository's root, where ui-react/dist is found. */
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

const randomIds: IdGenerator = { newId: () => randomUUID() };

/** Replacements a test or an embedding host gives for the outside world. */
export type HostOverrides = { mailer?: Mailer; logger?: Logger; hasher?: PasswordHasher; clock?: Clock };

/** The host's own values: configuration, clock, ids, logger. */
const hostModule = (config: HostConfig, overrides: HostOverrides) =>
  new ContainerModule(({ bind }) => {
    constant(bind, CliTokens.Config, config);
    constant(bind, Tokens.Clock, overrides.clock ?? systemClock);
    constant(bind, Tokens.IdGenerator, randomIds);
    constant(bind, CliTokens.Logger, overrides.logger ?? pino({ level: config.logLevel }));
  });

/** The catalog (opened and migrated before the container is built): sessions and the organization directory. */
const catalogModule = (catalog: CatalogDb) =>
  new ContainerModule(({ bind }) => {
    constant(bind, CliTokens.Catalog, catalog);
    provide(bind, Tokens.SessionStore, [CliTokens.Catalog, Tokens.Clock], (db, clock) => new KyselySessionStore(db, clock));
    // The limits count in the catalog: a restart keeps them, every process sharing the data folder shares them.
    provide(bind, Tokens.AttemptLedger, [CliTokens.Catalog, Tokens.Clock], (db, clock) => new KyselyAttemptLedger(db, clock));
    provide(
      bind,
      Tokens.OrganizationDirectory,
      [CliTokens.Catalog, CliTokens.OrganizationDatabases, Tokens.TenantRegistry],
      (db, databases, tenants) => new KyselyOrganizationDirectory(db, databases, tenants),
    );
  });

/** The organizations' databases: which kind (the data folder's SQLite files or a SQL Server), and the open tenants. */
const tenantsModule = new ContainerModule(({ bind }) => {
  provide(bind, CliTokens.OrganizationDatabases, [CliTokens.Config, Tokens.Clock, Tokens.IdGenerator], (cfg, clock, ids) =>
    cfg.database.kind === 'mssql'
      ? mssqlDatabases(parseMssqlConnectionString(cfg.database.connection), clock, ids, { countCap: cfg.limits?.countCap })
      : cfg.database.kind === 'postgres'
        ? postgresDatabases(cfg.database.connection, clock, ids, { countCap: cfg.limits?.countCap })
        : sqliteDatabases(cfg.dataDir, clock, ids, {
          countCap: cfg.limits?.countCap,
          readBudgetMs: cfg.limits?.readBudgetMs,
          // one pool per data folder: the host's organizations share its workers
          pool: cfg.limits?.sqlWorkers === 0 ? undefined : new SqliteWorkerPool({ size: cfg.limits?.sqlWorkers }),
        }),
  );
  provide(bind, Tokens.TenantRegistry, [CliTokens.OrganizationDatabases, Tokens.Clock], (databases, clock) => new KyselyTenantRegistry(databases, clock));
});

/** Outgoing mail: SMTP or the outbox folder, from the environment (docs/api.md "Mail"). */
const mailModule = (overrides: HostOverrides) =>
  new ContainerModule(({ bind }) => {
    provide(bind, Tokens.Mailer, [CliTokens.Config, CliTokens.Logger], (cfg, log) =>
      overrides.mailer ?? mailerFromEnv(process.env, cfg.dataDir, (line, link) => log.info({ link }, line)),
    );
  });

/** Sign-in: the password hasher, the sign-in service and the sealed sign-up puzzle. */
const signInModule = (overrides: HostOverrides) =>
  new ContainerModule(({ bind }) => {
    constant(bind, Tokens.PasswordHasher, overrides.hasher ?? new ScryptPasswordHasher());
    provide(
      bind,
      CliTokens.SignIn,
      [Tokens.OrganizationDirectory, Tokens.PasswordHasher, Tokens.SessionStore, Tokens.Mailer, Tokens.Clock, CliTokens.Config, Tokens.AttemptLedger],
      (directory, hasher, sessions, mailer, clock, cfg, attempts) =>
        new SignInService({
          directory,
          hasher,
          sessions,
          mailer,
          clock,
          attempts,
          config: { sessionIdleMs: cfg.sessionIdleMs, publicUrl: cfg.publicUrl, limits: cfg.attemptLimits?.signIn },
        }),
    );
    provide(bind, CliTokens.PublicLimits, [Tokens.AttemptLedger, Tokens.Clock, CliTokens.Config], (ledger, clock, cfg) => new PublicCallLimits(ledger, clock, cfg.attemptLimits?.public));
    provide(bind, CliTokens.Puzzles, [Tokens.Clock], (clock) => new PuzzleSeal({ clock }));
  });

/** Organization creation with packs. */
const organizationsModule = new ContainerModule(({ bind }) => {
  provide(bind, CliTokens.Organizations, [Tokens.OrganizationDirectory, Tokens.PasswordHasher, Tokens.Clock, Tokens.TenantRegistry], (directory, hasher, clock, tenants) => {
    const createWithPacks: OrganizationCreator = (input, packs) =>
      createOrganization({ directory, hasher, clock, openStore: async (org) => (await tenants.open(org)).store }, { ...input, packs });
    // Sign-up and trial organizations start with the system pack only.
    return { createWithPacks, create: (input) => createWithPacks(input, [systemPack()]) };
  });
});

/** Documents and files: import files (uploads, --file) and export files. */
const documentsModule = new ContainerModule(({ bind }) => {
  constant(bind, Tokens.ImportFiles, new LocalImportFiles());
  constant(bind, CliTokens.ExportWriter, new StreamExportWriter());
});

/**
 * The object graph shared by the server and the organization commands: catalog, tenants, mail,
 * sign-in, organization creation, documents. One container per host (ARCHITECTURE.md), one
 * ContainerModule per concern, bound without decorators. The catalog is opened (and brought to
 * its latest version) first, so every binding is synchronous.
 */
export const buildContainer = async (config: HostConfig, overrides: HostOverrides = {}): Promise<Container> => {
  const catalog = await openCatalog(catalogDatabasePath(config.dataDir));
  const c = new Container({ defaultScope: 'Singleton' });
  c.loadSync(
    hostModule(config, overrides),
    catalogModule(catalog),
    tenantsModule,
    mailModule(overrides),
    signInModule(overrides),
    organizationsModule,
    documentsModule,
  );
  return c;
};

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
  await resolve(c, Tokens.TenantRegistry).close();
  await resolve(c, CliTokens.Catalog).destroy();
};

export const dataPath = (dataDir: string, ...parts: string[]): string => join(resolvePath(dataDir), ...parts);
