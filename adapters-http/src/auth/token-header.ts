import type { Request, Response } from 'express';

/** The header that carries the access token both ways (spec 000 section 7: this spelling). */
export const TOKEN_HEADER = 'x-accessptoken';

export const tokenOf = (req: Request): string => {
  const v = req.headers[TOKEN_HEADER];
  return typeof v === 'string' ? v : '';
};

export const sendToken = (res: Response, token: string): void => {
  res.setHeader(TOKEN_HEADER, token);
  // Same-origin clients read it anyway; a client on another origin (the desktop app) needs this.
  res.setHeader('Access-Control-Expose-Headers', TOKEN_HEADER);
};
