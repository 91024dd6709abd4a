import type { Writable } from 'node:stream';
import type { ExportWriter } from '@tessera/core/internal';
import { writeExport } from './export-file.js';

/** The ExportWriter port on node streams: a file of the CLI, or an HTTP response. */
export class StreamExportWriter implements ExportWriter<Writable> {
  write: ExportWriter<Writable>['write'] = (store, caller, entity, request, options, now, out) => writeExport(store, caller, entity, request, options, now, out);
}
