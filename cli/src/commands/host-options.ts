import { Option, type Command } from 'commander';
import type { Container } from 'inversify';
import { CliFailure, EXIT } from '../program.js';
import { buildContainer, closeContainer, defaultHostConfig, type HostConfig } from '../container.js';

export type HostOptions = { data: string; db: string; connection?: string };

/** `--data DIR`, `--db sqlite|mssql|postgres`, `--connection STRING`: every command that works on organizations. */
export const withHostOptions = (cmd: Command): Command =>
  cmd
    .option('--data <dir>', 'data folder of the embedded database', './data')
    .addOption(new Option('--db <kind>', 'database').choices(['sqlite', 'mssql', 'postgres']).default('sqlite'))
    .option('--connection <string>', 'SQL Server connection string (with --db mssql) or PostgreSQL URL (with --db postgres)');

/** Checks the database flags: SQL Server needs a connection string, and only it takes one. */
export const checkDatabase = (o: HostOptions): void => {
  if ((o.db === 'mssql' || o.db === 'postgres') && !o.connection) throw new CliFailure(`--db ${o.db} needs --connection STRING`, EXIT.usage);
  if (o.db === 'sqlite' && o.connection) throw new CliFailure('--connection is only for --db mssql or --db postgres', EXIT.usage);
};

/** The host configuration of the flags: the data folder holds the catalog either way. */
export const hostConfig = (o: HostOptions, logLevel?: string): HostConfig => {
  checkDatabase(o);
  return {
    ...defaultHostConfig(o.data),
    ...(logLevel ? { logLevel } : {}),
    database: o.db === 'mssql' || o.db === 'postgres' ? { kind: o.db, connection: o.connection! } : { kind: 'sqlite' },
  };
};

/**
 * Runs a command with the host container, closing it afterwards. A one-shot command has no
 * request thread to keep free: SQLite runs on its own thread unless TESSERA_SQL_WORKERS says
 * otherwise (a worker's round trip per statement made `tessera import` of 100k rows 1.7x slower).
 */
export const withContainer = async <T>(o: HostOptions, run: (c: Container) => Promise<T>): Promise<T> => {
  const config = hostConfig(o, process.env.TESSERA_LOG_LEVEL ?? 'warn');
  const c = await buildContainer({ ...config, limits: { ...config.limits, sqlWorkers: config.limits?.sqlWorkers ?? 0 } });
  try {
    return await run(c);
  } finally {
    await closeContainer(c);
  }
};
