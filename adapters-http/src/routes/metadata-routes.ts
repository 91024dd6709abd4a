import type { RequestHandler, Response, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  API,
  applyMetadataChange,
  metadataEditorErrorText,
  planMetadataChange,
  type Clock,
  type MetadataChange,
  type MetadataEditorFailure,
} from '@tessera/core/internal';
import { sendText, STATUS_OF } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

/** ERR_DATA_LOSS (a step that can lose data not confirmed) is a conflict with what the caller asked: 409. */
const statusOf = (f: MetadataEditorFailure): number => (f.code === 'ERR_DATA_LOSS' ? 409 : STATUS_OF[f.code]);

const sendFailure = (res: Response, f: MetadataEditorFailure): void => sendText(res, statusOf(f), metadataEditorErrorText(f));

const changeOf = (body: { create?: MetadataChange['create']; update?: MetadataChange['update']; remove?: MetadataChange['remove'] }): MetadataChange => ({
  create: body.create ?? [],
  update: body.update ?? [],
  remove: body.remove ?? [],
});

/** Answered where the host cannot migrate the organization's schema (a tenant without one). */
const notAvailable = (res: Response) => sendText(res, 501, 'ERR_NOT_CONFIGURED: this server cannot change the metadata of this organization');

/**
 * POST /api/metadata/plan and /api/metadata/apply (issue 15, docs/schema.md "Metadata editor"):
 * the caller's own organization (the session's tenant), the core's metadata editor use cases.
 */
export const metadataRoutes = (deps: { clock: Clock }, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.metadataPlan, async (body, _req, res) => {
      const s = signed(res);
      if (!s.tenant.schema) return notAvailable(res);
      const plan = await planMetadataChange({ org: s.tenant.name, schema: s.tenant.schema }, s.caller, changeOf(body));
      if (isLeft(plan)) return sendFailure(res, plan.left);
      sendAnswer(res, API.metadataPlan, plan.right);
    }),
    route(API.metadataApply, async (body, _req, res) => {
      const s = signed(res);
      if (!s.tenant.schema) return notAvailable(res);
      const applied = await applyMetadataChange(
        { org: s.tenant.name, schema: s.tenant.schema, feed: s.tenant.feed, clock: deps.clock },
        s.caller,
        { change: changeOf(body), version: body.version, confirm: body.confirm ?? [] },
      );
      if (isLeft(applied)) return sendFailure(res, applied.left);
      sendAnswer(res, API.metadataApply, applied.right);
    }),
  ]);
