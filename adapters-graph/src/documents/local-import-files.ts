import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportFile, ImportFiles, KeptUpload } from '@tessera/core/internal';
import { FileRowSpool } from './file-row-spool.js';
import { importFileKind, importFileSource } from './import-file-reader.js';

/**
 * The ImportFiles port on the local disk: a named file is read where it is; an upload is
 * written to its own temporary folder (under `tempRoot`), where its spool goes too, and the
 * folder is removed when the file is discarded.
 */
export class LocalImportFiles implements ImportFiles {
  constructor(private readonly tempRoot: string = tmpdir()) {}

  open(path: string): ImportFile {
    const kind = importFileKind(path);
    return { kind, source: importFileSource(path, kind), spool: () => new FileRowSpool(this.tempRoot), discard: async () => {} };
  }

  async keep(fileName: string, bytes: AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<KeptUpload> {
    const dir = mkdtempSync(join(this.tempRoot, 'tessera-upload-'));
    const drop = () => rmSync(dir, { recursive: true, force: true });
    const kind = importFileKind(fileName);
    const path = join(dir, kind === 'json' ? 'file.json' : 'file.csv');
    const out = createWriteStream(path);
    // The folder goes only once the stream has closed: its file may still be opening.
    const abandon = async () => {
      if (!out.closed) {
        const closed = once(out, 'close').catch(() => undefined);
        out.destroy();
        await closed;
      }
      drop();
    };
    try {
      let size = 0;
      for await (const chunk of bytes) {
        size += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
        if (size > maxBytes) {
          await abandon();
          return { _tag: 'TooLarge', maxBytes };
        }
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
    } catch (e) {
      await abandon();
      throw e;
    }
    return { _tag: 'Kept', file: { kind, source: importFileSource(path, kind), spool: () => new FileRowSpool(dir), discard: async () => drop() } };
  }
}
