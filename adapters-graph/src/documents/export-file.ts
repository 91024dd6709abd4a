import type { Writable } from 'node:stream';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  csvExportChunks,
  exportPages,
  exportPlan,
  exportableEntity,
  jsonExportChunks,
  primaryKeyOf,
  type Caller,
  type DomainError,
  type Entity,
  type FetchRequest,
  type RecordStore,
  type ResolvedExportOptions,
} from '@tessera/core/internal';
import { writePdfExport } from './pdf-export.js';
import { writeChunks } from './export-stream.js';

/**
 * One export, streamed to `out` (a file for the CLI, the response for HTTP): the core plans the
 * columns and the query, pages of 5000 records are fetched as the stream drains, and the core
 * writes CSV or JSON text (the PDF is drawn by pdfkit). The options decide the format.
 * Resolves to the number of records, or the store's error; then `out` is destroyed, never
 * ended, so neither a file nor a response looks complete.
 */
export const writeExport = async (
  store: Pick<RecordStore, 'retrieveMultiple'>,
  caller: Caller,
  entity: Entity,
  request: FetchRequest,
  options: ResolvedExportOptions,
  now: Date,
  out: Writable,
): Promise<Either<DomainError, number>> => {
  const ok = exportableEntity(entity);
  if (isLeft(ok)) return ok;
  const planned = exportPlan(entity, request, options, options.format === 'pdf');
  if (isLeft(planned)) return planned;
  const plan = planned.right;
  let failure: DomainError | undefined;
  let count = 0;
  async function* pages() {
    for await (const page of exportPages(store, caller, plan.request, (e) => (failure = e), plan.keyset, primaryKeyOf(entity))) {
      count += page.length;
      yield page;
    }
    // A failed page must not end the file as if it were complete.
    if (failure !== undefined) throw new ExportInterrupted();
  }
  try {
    if (options.format === 'pdf') await writePdfExport(entity, plan.properties, pages(), options, now, out);
    else {
      await writeChunks(options.format === 'json' ? jsonExportChunks(pages()) : csvExportChunks(plan.properties, pages(), options), out);
      await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    }
  } catch (e) {
    if (!(e instanceof ExportInterrupted)) throw e;
    out.destroy();
  }
  return failure === undefined ? right(count) : left(failure);
};

class ExportInterrupted extends Error {}
