import { Option, type Command } from 'commander';
import type { Container } from 'inversify';
import { CliFailure, EXIT } from '../program.js';
import { buildContainer, closeContainer, defaultHostConfig } from '../container.js';

export type HostOptions = { data: string; db: string; connection?: string };

/** `--data DIR`, `--db sqlite|mssql`, `--connection STRING`: every command that works on organizations. */
export const withHostOptions = (cmd: Command): Command =>
  cmd
    .option('--data <dir>', 'data folder of the embedded database', './data')
    .addOption(new Option('--db <kind>', 'database').choices(['sqlite', 'mssql']).default('sqlite'))
    .option('--connection <string>', 'SQL Server connection string (with --db mssql)');

/**
 * SQL Server hosts one database per organization; this build serves the embedded SQLite data
 * folder, and SQL Server through the schema tools (`tessera schema`). Saying so is better than
 * pretending.
 */
export const checkDatabase = (o: HostOptions): void => {
  if (o.db === 'mssql') {
    if (!o.connection) throw new CliFailure('--db mssql needs --connection STRING', EXIT.usage);
    throw new CliFailure('serving organizations from SQL Server is not available in this build; use --db sqlite (the default)');
  }
  if (o.connection) throw new CliFailure('--connection is only for --db mssql', EXIT.usage);
};

/** Runs a command with the host container, closing it afterwards. */
export const withContainer = async <T>(o: HostOptions, run: (c: Container) => Promise<T>): Promise<T> => {
  checkDatabase(o);
  const c = buildContainer({ ...defaultHostConfig(o.data), logLevel: process.env.TESSERA_LOG_LEVEL ?? 'warn' });
  try {
    return await run(c);
  } finally {
    await closeContainer(c);
  }
};
