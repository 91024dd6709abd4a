import { InvalidArgumentError, type Command } from 'commander';
import { startServer, uiBuilt } from '../container-server.js';
import { hostConfig, withHostOptions, type HostOptions } from './host-options.js';

const port = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a number from 0 to 65535');
  return n;
};

/** Resolves once the process is asked to stop; the server then closes cleanly. */
const stopSignal = (): Promise<string> =>
  new Promise((ok) => {
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const stop = (s: string) => {
      for (const x of signals) process.off(x, stop);
      ok(s);
    };
    for (const s of signals) process.on(s, stop);
  });

/** `tessera serve`: the /api contract and the web client's build. */
export const registerServe = (program: Command): void => {
  withHostOptions(
    program
      .command('serve')
      .description('serve the API (and the web client when built) over HTTP')
      .option('--port <port>', 'port to listen on', port, 8080)
      .option('--host <address>', 'address to listen on', '0.0.0.0'),
  ).action(async (o: HostOptions & { port: number; host: string }) => {
    const config = hostConfig(o);
    let server;
    try {
      server = await startServer({ ...config, port: o.port, host: o.host });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const { CliFailure } = await import('../program.js');
      throw new CliFailure(err.code === 'EADDRINUSE' ? `port ${o.port} is in use` : err.message);
    }
    const serverNames = { mssql: 'SQL Server', postgres: 'PostgreSQL' } as const;
    const where = config.database.kind === 'sqlite' ? config.dataDir : `${serverNames[config.database.kind]} (catalog in ${config.dataDir})`;
    process.stdout.write(`Tessera serves ${server.url}${uiBuilt() ? '' : ' (API only: build the web client with npm run build)'} from ${where}\n`);
    await stopSignal();
    await server.close();
  });
};
