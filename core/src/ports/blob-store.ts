/**
 * The files of File and Image fields (issue 18; ARCHITECTURE.md names the port BlobStore). A blob
 * lives under its organization and its name (`<random id>.<ext>`, core/src/files/blob-names.ts);
 * the bytes go in and out as streams, so a large file never sits in memory.
 * Implementations: the disk store in the organization's data folder (adapters-sql, the embedded
 * default) and Azure block blobs (adapters-graph); tests/src/contract/blob-store.test.ts runs
 * the same suite against both.
 */

/** What `put` did: stored (the size written), or refused past `maxBytes` with nothing kept. */
export type BlobPutOutcome = { readonly _tag: 'Stored'; readonly size: number } | { readonly _tag: 'TooLarge'; readonly maxBytes: number };

/** A stored blob, to be read once: its size in bytes, its content type and its bytes. */
export type StoredBlob = { readonly size: number; readonly contentType: string; readonly body: AsyncIterable<Uint8Array> };

export interface BlobStore {
  /**
   * Stores the bytes under the organization and name (replacing a blob of that name). Past
   * `maxBytes` it stops reading, keeps nothing and answers TooLarge; a failed or cut stream
   * keeps nothing either (the promise rejects).
   */
  put(org: string, name: string, body: AsyncIterable<Uint8Array>, options: { readonly contentType: string; readonly maxBytes: number }): Promise<BlobPutOutcome>;
  /** The blob, or null when there is none of that name in that organization. */
  get(org: string, name: string): Promise<StoredBlob | null>;
  /** Removes the blob; false when there was none. */
  delete(org: string, name: string): Promise<boolean>;
  exists(org: string, name: string): Promise<boolean>;
}
