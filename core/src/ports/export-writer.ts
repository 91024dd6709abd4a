/**
 * Writes one export (spec 002: CSV, JSON or PDF) to a byte sink of the host: a file for the CLI,
 * the response for HTTP. The core plans the columns and the query and writes the CSV and JSON
 * text (core/src/export); the adapter pages the store as the sink drains and draws the PDF.
 * `Sink` is the host's stream type (node's Writable), which the core does not know.
 * Implementation: the documents services of adapters-graph.
 */
import type { Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { FetchRequest } from '../query/query.js';
import type { ResolvedExportOptions } from '../export/export-options.js';
import type { RecordStore } from './record-store.js';

export interface ExportWriter<Sink> {
  /**
   * Streams the records of `request` to `out`; resolves to their number, or the store's error
   * (then `out` is destroyed, never ended, so neither a file nor a response looks complete).
   */
  write(
    store: Pick<RecordStore, 'retrieveMultiple'>,
    caller: Caller,
    entity: Entity,
    request: FetchRequest,
    options: ResolvedExportOptions,
    now: Date,
    out: Sink,
  ): Promise<Either<DomainError, number>>;
}
