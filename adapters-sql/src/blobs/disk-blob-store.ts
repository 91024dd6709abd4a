import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { blobContentType, isBlobName, type BlobPutOutcome, type BlobStore, type StoredBlob } from '@tessera/core/internal';
import { parseOrgName } from '../data-dir.js';

/** The files folder of the data folder: DATA/files/{organization}/{blob name} (docs/operations.md). */
export const FILES_FOLDER = 'files';

/**
 * The embedded default BlobStore: files on disk beside the organizations' databases. An upload is
 * written to a temporary file in the organization's folder and renamed into place when complete,
 * so a failed, cut or too large upload leaves nothing behind, and a reader never sees half a file.
 * The content type is the blob name's (the name's extension is the sniffed type).
 */
export class DiskBlobStore implements BlobStore {
  constructor(private readonly dataDir: string) {}

  /** The organization's folder, or null for a name that is not an organization's. */
  private folder(org: string): string | null {
    const name = parseOrgName(org);
    return name._tag === 'Right' ? join(this.dataDir, FILES_FOLDER, name.right) : null;
  }

  /** The file of a blob, or null for a name that is not a blob name (never a path outside the folder). */
  private file(org: string, name: string): string | null {
    const dir = this.folder(org);
    return dir && isBlobName(name) ? join(dir, name) : null;
  }

  async put(org: string, name: string, body: AsyncIterable<Uint8Array>, options: { contentType: string; maxBytes: number }): Promise<BlobPutOutcome> {
    const path = this.file(org, name);
    if (!path) throw new RangeError(`Not a blob name: ${JSON.stringify(name)} of ${JSON.stringify(org)}`);
    const dir = this.folder(org) as string;
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `.upload-${randomUUID()}`);
    const out = createWriteStream(temp, { flags: 'wx' });
    let size = 0;
    try {
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > options.maxBytes) {
          out.destroy();
          await rm(temp, { force: true });
          return { _tag: 'TooLarge', maxBytes: options.maxBytes };
        }
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      await rename(temp, path);
      return { _tag: 'Stored', size };
    } catch (e) {
      out.destroy();
      await rm(temp, { force: true });
      throw e;
    }
  }

  async get(org: string, name: string): Promise<StoredBlob | null> {
    const path = this.file(org, name);
    if (!path) return null;
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      return { size: s.size, contentType: blobContentType(name), body: createReadStream(path) };
    } catch {
      return null;
    }
  }

  async delete(org: string, name: string): Promise<boolean> {
    const path = this.file(org, name);
    if (!path || !(await this.exists(org, name))) return false;
    await rm(path, { force: true });
    return true;
  }

  async exists(org: string, name: string): Promise<boolean> {
    const path = this.file(org, name);
    if (!path) return false;
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }
}
