/**
 * Import files (spec 002 section 5) as the outside world holds them: a file an operator names
 * (`tessera import --file`), or the bytes of an upload kept between its preview and its commit
 * (POST /api/import/upload, then /api/import/commit). The adapter turns bytes into the core's
 * import events and keeps pass 1's rows in a spool; every rule over rows stays in core/src/import.
 * Implementation: the documents services of adapters-graph (csv-parse, temporary files).
 */
import type { ImportSource, RowSpool } from '../import/import-run.js';

/** Spec 002 section 5: a `.json` file is JSON, anything else is CSV. */
export type ImportFileKind = 'csv' | 'json';

/** One import file, readable once per pass. */
export interface ImportFile {
  readonly kind: ImportFileKind;
  /** The file's events; each call reads it again from the start. */
  readonly source: ImportSource;
  /** A new spool for pass 1's rows (removed when the import discards it). */
  spool(): RowSpool;
  /** Removes what was kept for the file (an upload's bytes); a named file stays. */
  discard(): Promise<void>;
}

export type KeptUpload = { readonly _tag: 'Kept'; readonly file: ImportFile } | { readonly _tag: 'TooLarge'; readonly maxBytes: number };

export interface ImportFiles {
  /** A file that exists where the host runs (the CLI's --file); its kind from its name. */
  open(path: string): ImportFile;
  /** Keeps uploaded bytes until discarded; `TooLarge` (and nothing kept) past `maxBytes`. */
  keep(fileName: string, bytes: AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<KeptUpload>;
}
