import type { Request } from 'express';

/** The client's address and agent, as the session record keeps them. (Form fields are decoded by the contract's codecs.) */
export const clientOf = (req: Request): { ip: string; agent: string } => ({
  ip: req.ip ?? req.socket.remoteAddress ?? '',
  agent: String(req.headers['user-agent'] ?? ''),
});
