import type { RequestHandler } from 'express';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { acceptedCodings } from './static-assets.js';

/**
 * Large JSON answers of /api compressed on the fly (issue 23 item 5 asks it considered):
 * GET /api/getusercontext is ~160 KB of metadata on every start and compresses ~10x; a 50-row
 * page is ~10 KB and is left alone, as is everything that is not a whole JSON body sent at once.
 * The change feed (/api/stream, res.write) and file downloads (streamed) never pass through
 * res.send, so they are never buffered. Safe against BREACH-style guessing: answers are only
 * given to requests carrying the session header, which another site cannot make a browser send.
 */

/** Smaller answers are sent as they are: the bytes saved would not pay for the work. */
export const COMPRESS_FROM_BYTES = 16 * 1024;
/** Larger ones too: compressing per request would hold a thread-pool thread for too long. */
export const COMPRESS_UP_TO_BYTES = 8 * 1024 * 1024;
/**
 * Fast settings, the answer being made per request: the 168 KB demo user context becomes 20 KB
 * in a few ms (brotli 4; gzip 5 about the same size), on the thread pool, off the event loop.
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };
const GZIP = { level: 5 };

export const jsonCompression = (): RequestHandler => (req, res, next) => {
  const coding = acceptedCodings(req.headers['accept-encoding'])[0];
  if (!coding || req.method === 'HEAD') return next();
  const send = res.send.bind(res);
  // res.json sets the JSON Content-Type, then calls res.send with the text.
  res.send = (body?: unknown) => {
    res.send = send;
    const type = String(res.getHeader('Content-Type') ?? '');
    const text = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : undefined;
    const outOfRange = !text || text.length < COMPRESS_FROM_BYTES || text.length > COMPRESS_UP_TO_BYTES;
    // A download (Content-Disposition) keeps its bytes and length, as a file.
    if (!text || outOfRange || res.statusCode !== 200 || !type.startsWith('application/json') || res.getHeader('Content-Encoding') || res.getHeader('Content-Disposition'))
      return send(body);
    const done = (err: Error | null, bytes: Buffer) => {
      if (err) return void send(text);
      res.vary('Accept-Encoding');
      res.setHeader('Content-Encoding', coding);
      send(bytes);
    };
    if (coding === 'br') brotliCompress(text, BROTLI, done);
    else gzip(text, GZIP, done);
    return res;
  };
  next();
};
