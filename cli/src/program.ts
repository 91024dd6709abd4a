import { Command, CommanderError } from 'commander';
import { commands } from './commands/index.js';

/** Exit codes of every command: 0 done, 1 refused or failed, 2 wrong usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Thrown by a command for an expected failure: printed as one line, exit code 1 (or 2 for usage). */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

export const buildProgram = (): Command => {
  const program = new Command('tessera')
    .description('Tessera: configurable business records. Serve the product, migrate schemas, import and export, administer organizations.')
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str) });
  for (const register of commands) register(program);
  return program;
};

/** Runs the command line; resolves to the exit code instead of exiting, so tests can call it. */
export const runCli = async (argv: string[]): Promise<number> => {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    if (e instanceof CliFailure) {
      process.stderr.write(`tessera: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
};
