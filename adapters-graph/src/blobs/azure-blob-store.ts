import { Readable } from 'node:stream';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { isBlobName, type BlobPutOutcome, type BlobStore, type StoredBlob } from '@tessera/core/internal';

/** The Azure settings (docs/operations.md "Files and blob storage"). */
export type AzureBlobConfig = {
  /** A storage account connection string (TESSERA_BLOB_AZURE_CONNECTION_STRING). */
  connectionString: string;
  /** The container of every organization's files (TESSERA_BLOB_AZURE_CONTAINER, default `tessera-files`). */
  container: string;
};

export const DEFAULT_AZURE_CONTAINER = 'tessera-files';

/** Reads Azure settings from the environment; null when no connection string is set (the disk store is used then). */
export const azureBlobConfig = (env: Record<string, string | undefined>): AzureBlobConfig | null =>
  env.TESSERA_BLOB_AZURE_CONNECTION_STRING
    ? { connectionString: env.TESSERA_BLOB_AZURE_CONNECTION_STRING, container: env.TESSERA_BLOB_AZURE_CONTAINER || DEFAULT_AZURE_CONTAINER }
    : null;

/** Thrown inside the upload stream past the limit: the block list is never committed. */
class PastLimit extends Error {}

/** Organization names are DNS labels (lower case): the blob path is `{org}/{blob name}`. */
const ORG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const statusOf = (e: unknown): number | undefined => (e && typeof e === 'object' ? (e as { statusCode?: number }).statusCode : undefined);

/**
 * The server option of the BlobStore: Azure block blobs (@azure/storage-blob), one container,
 * a blob per file at `{organization}/{blob name}` (spec 002 section 7: "mapped to blob-storage
 * paths by organisation name"). An upload is staged as blocks and committed only when the whole
 * stream was read within the limit: a failed or too large upload leaves no blob (Azure drops
 * uncommitted blocks by itself).
 */
export class AzureBlobStore implements BlobStore {
  private readonly container: ContainerClient;
  private ready: Promise<unknown> | null = null;

  constructor(config: AzureBlobConfig) {
    this.container = BlobServiceClient.fromConnectionString(config.connectionString).getContainerClient(config.container);
  }

  /** The container, made on first use. */
  private async ensure(): Promise<void> {
    this.ready ??= this.container.createIfNotExists().catch((e: unknown) => {
      this.ready = null;
      throw e;
    });
    await this.ready;
  }

  private path(org: string, name: string): string | null {
    const o = org.toLowerCase();
    return ORG.test(o) && isBlobName(name) ? `${o}/${name}` : null;
  }

  async put(org: string, name: string, body: AsyncIterable<Uint8Array>, options: { contentType: string; maxBytes: number }): Promise<BlobPutOutcome> {
    const path = this.path(org, name);
    if (!path) throw new RangeError(`Not a blob name: ${JSON.stringify(name)} of ${JSON.stringify(org)}`);
    await this.ensure();
    let size = 0;
    // The library copies Buffers (not plain Uint8Arrays): each chunk is viewed as one, without a copy.
    async function* limited(): AsyncGenerator<Buffer> {
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > options.maxBytes) throw new PastLimit();
        yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
    }
    try {
      // 4 MB blocks, 2 in flight: memory stays at a few blocks whatever the file's size.
      await this.container.getBlockBlobClient(path).uploadStream(Readable.from(limited()), 4 * 1024 * 1024, 2, { blobHTTPHeaders: { blobContentType: options.contentType } });
      return { _tag: 'Stored', size };
    } catch (e) {
      if (e instanceof PastLimit) return { _tag: 'TooLarge', maxBytes: options.maxBytes };
      throw e;
    }
  }

  async get(org: string, name: string): Promise<StoredBlob | null> {
    const path = this.path(org, name);
    if (!path) return null;
    await this.ensure();
    try {
      const r = await this.container.getBlockBlobClient(path).download();
      if (!r.readableStreamBody) return null;
      return { size: r.contentLength ?? 0, contentType: r.contentType ?? 'application/octet-stream', body: r.readableStreamBody as unknown as AsyncIterable<Uint8Array> };
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw e;
    }
  }

  async delete(org: string, name: string): Promise<boolean> {
    const path = this.path(org, name);
    if (!path) return false;
    await this.ensure();
    return (await this.container.getBlockBlobClient(path).deleteIfExists()).succeeded;
  }

  async exists(org: string, name: string): Promise<boolean> {
    const path = this.path(org, name);
    if (!path) return false;
    await this.ensure();
    return this.container.getBlockBlobClient(path).exists();
  }
}
