import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Writes the chunks of an export to a stream with back-pressure: the next page is not fetched
 * while the stream's buffer is full, so memory stays bounded whatever the number of records.
 */
export const writeChunks = async (chunks: AsyncIterable<string>, out: Writable): Promise<void> => {
  for await (const chunk of chunks) {
    if (!out.write(chunk, 'utf8')) await once(out, 'drain');
  }
};
