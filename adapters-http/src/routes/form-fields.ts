import type { Request } from 'express';

/** A form (or JSON) field as a string; absent, non-string and over-long values read as ''. */
export const field = (req: Request, name: string, max = 1000): string => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const v = body[name];
  return typeof v === 'string' && v.length <= max ? v : '';
};

/** The client's address and agent, as the session record keeps them. */
export const clientOf = (req: Request): { ip: string; agent: string } => ({
  ip: req.ip ?? req.socket.remoteAddress ?? '',
  agent: String(req.headers['user-agent'] ?? ''),
});
