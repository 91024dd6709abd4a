import type { Response } from 'express';
import { errorText, NOT_AUTHORIZED, type DomainError } from '@tessera/core/internal';

/** API.md: the status of each error code of the data calls. */
export const STATUS_OF: Record<DomainError['code'], number> = {
  ERR_INPUT: 400,
  ERR_PERMISSION: 403,
  ERR_NOT_FOUND: 404,
  ERR_8001: 409,
};

/** An expected failure as API.md writes it: text/plain `CODE: message`. */
export const sendDomainError = (res: Response, e: DomainError): void => {
  res.status(STATUS_OF[e.code]).type('text/plain').send(errorText(e));
};

export const sendText = (res: Response, status: number, text: string): void => {
  res.status(status).type('text/plain').send(text);
};

/** 401 with status text NOT AUTHORIZED and no data (API.md). */
export const sendNotAuthorized = (res: Response): void => {
  res.statusMessage = NOT_AUTHORIZED;
  res.status(401).end();
};
