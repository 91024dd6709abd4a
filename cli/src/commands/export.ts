import { createWriteStream, readFileSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { Option, type Command } from 'commander';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decode, FetchRequest, loadExportDefaults, resolveExportOptions, systemCaller, Tokens, type ExportFormat } from '@tessera/core/internal';
import { CliTokens } from '../container.js';
import { resolveAll } from '../di.js';
import { CliFailure, EXIT } from '../program.js';
import { withContainer, withHostOptions, type HostOptions } from './host-options.js';
import { openEntity } from './import-export-shared.js';

type ExportCliOptions = HostOptions & { org: string; entity: string; format: ExportFormat; query?: string; out: string; noFormulaGuard?: boolean; formulaGuard: boolean };

/** The query of --query: a whole /api/fetch body, or only its `entity` part. */
const readQuery = (path: string | undefined, entity: string): FetchRequest => {
  if (path === undefined) return { entity: { name: entity, allattrs: true } };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new CliFailure(`--query ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const body = json !== null && typeof json === 'object' && 'entity' in json ? json : { entity: json };
  const r = decode(FetchRequest, body, 'query');
  if (isLeft(r)) throw new CliFailure(r.left.message);
  if (r.right.entity.name !== entity) throw new CliFailure(`the query is about ${r.right.entity.name}, not ${entity}`, EXIT.usage);
  return r.right;
};

/**
 * `tessera export`: the records of a query (default: all) as CSV, JSON or PDF, with the
 * organization's export options (inu_orgsettings.export_options). The file is written under a
 * temporary name and renamed when complete, so a failed export leaves no half-written file.
 */
export const registerExport = (program: Command): void => {
  withHostOptions(
    program
      .command('export')
      .description('export records to CSV, JSON or PDF (spec 002: export)')
      .requiredOption('--org <name>', 'the organization')
      .requiredOption('--entity <name>', 'the entity (logical name)')
      .addOption(new Option('--format <format>', 'file format').choices(['csv', 'json', 'pdf']).makeOptionMandatory())
      .option('--query <file>', 'a query as JSON (the body of /api/fetch); default: all records')
      .requiredOption('--out <file>', 'the file to write')
      .option('--no-formula-guard', 'CSV: do not neutralize cells that start like a formula (= + - @)'),
  ).action(async (o: ExportCliOptions) => {
    const request = readQuery(o.query, o.entity);
    await withContainer(o, async (c) => {
      const { directory, tenants, exports, clock } = resolveAll(c, {
        directory: Tokens.OrganizationDirectory,
        tenants: Tokens.TenantRegistry,
        exports: CliTokens.ExportWriter,
        clock: Tokens.Clock,
      });
      const { tenant, entity } = await openEntity({ directory, tenants }, o.org, o.entity);
      const caller = systemCaller();
      const defaults = await loadExportDefaults(tenant.store, caller);
      if (isLeft(defaults)) throw new CliFailure(defaults.left.message);
      const options = resolveExportOptions(defaults.right, { format: o.format, ...(o.formulaGuard ? {} : { neutralizeFormulas: false }) });
      const partial = `${o.out}.partial`;
      const out = createWriteStream(partial);
      const r = await exports.write(tenant.store, caller, entity, request, options, clock.now(), out).catch((e: unknown) => {
        out.destroy();
        throw e;
      });
      if (isLeft(r)) {
        // The stream may not even be open yet: close it before the partial file goes.
        if (!out.closed) {
          out.destroy();
          await once(out, 'close');
        }
        rmSync(partial, { force: true });
        throw new CliFailure(r.left.message);
      }
      renameSync(partial, o.out);
      process.stdout.write(`exported ${r.right} records to ${o.out}\n`);
    });
  });
};
