import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** A short random id per request: in the log line, the x-request-id header and any 500 answer. */
export const newRequestId = (): string => randomBytes(6).toString('hex');

/**
 * Logs one line per request when it finishes. The query string is left out: the stream's token
 * travels there, and tokens never go to logs.
 */
export const requestLog =
  (logger: Logger) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const id = newRequestId();
    res.locals.requestId = id;
    res.setHeader('x-request-id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const session = res.locals.session as { orgName?: string; userId?: string } | undefined;
      logger.info(
        { reqId: id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, org: session?.orgName, user: session?.userId },
        'request',
      );
    });
    next();
  };
