import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, DOCUMENT_LAYOUT, inputError, prepareDocument, templateInputError, textFormatFor, type DocumentRenderer, type DocumentSource } from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf } from '../route.js';
import { signed } from '../session-guard.js';

/** Documents drawn at once on this server, and by one user: beyond is 429, so drawing cannot starve the server. */
export const DOCUMENT_QUEUE_LIMIT = 4;
export const DOCUMENT_USER_LIMIT = 2;

const CONTENT_TYPE = { pdf: 'application/pdf', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } as const;

const attachment = (fileName: string): string =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

/**
 * POST /api/document (issue 20): decodes the request, fills the template from the record as the
 * caller (core prepareDocument: a record the caller may not read is 404), draws it through the
 * DocumentRenderer port and sends the file. Template errors are 400 with the spec's texts.
 */
export const documentRoutes = (renderer: DocumentRenderer, guard: RequestHandler): Router => {
  let drawing = 0;
  const perUser = new Map<string, number>();
  return routerOf(guard, [
    route(API.document, async (body, _req, res) => {
      const s = signed(res);
      const sources = [body.template !== undefined, body.textTemplate !== undefined, body.body !== undefined].filter(Boolean).length;
      if (sources !== 1) return sendDomainError(res, inputError('Invalid document request: give one of template, textTemplate or body'));
      const source: DocumentSource = body.template !== undefined ? { template: body.template } : body.textTemplate !== undefined ? { textTemplate: body.textTemplate } : { body: body.body ?? '' };
      const user = `${s.tenant.name}\u0000${s.caller.userId}`;
      const mine = perUser.get(user) ?? 0;
      if (drawing >= DOCUMENT_QUEUE_LIMIT || mine >= DOCUMENT_USER_LIMIT) {
        res.setHeader('Retry-After', '2');
        return sendText(res, 429, `ERR_TOO_MANY_REQUESTS: at most ${mine >= DOCUMENT_USER_LIMIT ? `${DOCUMENT_USER_LIMIT} documents of one user` : `${DOCUMENT_QUEUE_LIMIT} documents`} are drawn at once; try again shortly`);
      }
      drawing++;
      perUser.set(user, mine + 1);
      try {
        const layout = body.format === DOCUMENT_LAYOUT;
        const format = body.format === DOCUMENT_LAYOUT ? undefined : body.format;
        const prepared = await prepareDocument({ store: s.tenant.store, entities: s.tenant.entities() }, s.caller, { entity: body.entity, id: body.id, source, format }, textFormatFor(body.language, body.timeZone));
        if (isLeft(prepared)) return sendDomainError(res, prepared.left);
        // The editor's preview: the filled layout model, drawn by the browser (no file is made).
        if (layout) return void res.status(200).json(prepared.right.model);
        const file = await renderer.render(prepared.right.model, prepared.right.format);
        if (isLeft(file)) return sendDomainError(res, templateInputError(file.left));
        res.status(200).type(CONTENT_TYPE[prepared.right.format]).setHeader('Content-Disposition', attachment(prepared.right.fileName));
        res.send(Buffer.from(file.right.buffer, file.right.byteOffset, file.right.byteLength));
      } finally {
        drawing--;
        const left = (perUser.get(user) ?? 1) - 1;
        if (left === 0) perUser.delete(user);
        else perUser.set(user, left);
      }
    }),
  ]);
};
